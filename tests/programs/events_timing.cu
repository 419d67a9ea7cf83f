// Times two kernels with CUDA events: one whose warps never diverge, one where odd and even threads take
// different loops. Timings differ from a GPU's (warpdbg's time is virtual), but the divergent kernel is
// slower on both.
#include <stdio.h>
#include <sys/time.h>
#include <time.h>
#include <cuda_runtime.h>

__global__ void uniform(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i;
    for (int k = 0; k < iters; k++) x = x * 0.5f + 1.0f;
    out[i] = x;
}

__global__ void divergent(float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i;
    if (i % 2 == 0) {
        for (int k = 0; k < iters; k++) x = x * 0.5f + 1.0f;
    } else {
        for (int k = 0; k < iters; k++) x = x * 0.25f + 2.0f;
    }
    out[i] = x;
}

int main(void)
{
    const int n = 1 << 10, iters = 2048;
    float *d_out;
    cudaMalloc((void **)&d_out, n * sizeof(float));
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
    clock_t c0 = clock();

    // Warm-up launches: a GPU loads a kernel's code at its first launch, which would be timed otherwise.
    uniform<<<n / 256, 256>>>(d_out, 1);
    divergent<<<n / 256, 256>>>(d_out, 1);
    cudaDeviceSynchronize();

    float ms_uniform = 0, ms_divergent = 0;
    cudaEventRecord(start);
    uniform<<<n / 256, 256>>>(d_out, iters);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms_uniform, start, stop);

    cudaEventRecord(start, 0);
    divergent<<<n / 256, 256>>>(d_out, iters);
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms_divergent, start, stop);

    clock_t c1 = clock();
    gettimeofday(&t1, NULL);
    double wall_ms = (t1.tv_sec - t0.tv_sec) * 1000.0 + (t1.tv_usec - t0.tv_usec) / 1000.0;
    printf("uniform:   %.3f ms\n", ms_uniform);
    printf("divergent: %.3f ms\n", ms_divergent);
    printf("host wall: %.3f ms\n", wall_ms);
    printf("host cpu:  %.3f ms\n", (double)(c1 - c0) * 1000.0 / CLOCKS_PER_SEC);
    printf("divergent is slower: %s\n", ms_divergent > ms_uniform ? "yes" : "no");
    printf("events cover the kernels: %s\n", wall_ms >= ms_uniform + ms_divergent ? "yes" : "no");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(d_out);
    return 0;
}

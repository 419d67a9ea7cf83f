// A streams-and-timing lesson: a kernel that sleeps a number of clock cycles in a <<<1, 1>>> launch (once
// in a row, then in two streams), a vector add timed over a loop of fifty launches with events, and a
// kernel that scales its array in place three times; what it prints besides the timings does not depend on
// the GPU's speed.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void sleep_cycles(long long cycles, long long *slept)
{
    long long start = clock64();
    long long now = start;
    while (now - start < cycles) now = clock64();
    *slept = now - start;
}

__global__ void sleeper(long long cycles, long long *slept, int id)
{
    sleep_cycles(cycles, &slept[id]);
}

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void scale(float *x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

int main()
{
    const long long cycles = 50000000;
    long long *slept;
    cudaMalloc(&slept, 3 * sizeof(long long));
    cudaStream_t s[2];
    for (int i = 0; i < 2; i++) cudaStreamCreate(&s[i]);
    sleeper<<<1, 1>>>(cycles, slept, 0);
    for (int i = 0; i < 2; i++) sleeper<<<1, 1, 0, s[i]>>>(cycles, slept, 1 + i);
    cudaDeviceSynchronize();
    long long h_slept[3];
    cudaMemcpy(h_slept, slept, sizeof(h_slept), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 3; i++)
        printf("sleeper %d slept at least %lld cycles: %s\n", i, cycles, h_slept[i] >= cycles ? "yes" : "no");

    const int n = 1 << 20;
    size_t bytes = n * sizeof(float);
    float *h = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) h[i] = (float)(i % 1000);
    float *a, *b, *c;
    cudaMalloc(&a, bytes);
    cudaMalloc(&b, bytes);
    cudaMalloc(&c, bytes);
    cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(b, h, bytes, cudaMemcpyHostToDevice);
    vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    const int reps = 50;
    cudaEventRecord(start);
    for (int r = 0; r < reps; r++) vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    printf("vadd: %.4f ms per launch over %d launches\n", ms / reps, reps);
    cudaMemcpy(h, c, bytes, cudaMemcpyDeviceToHost);
    printf("c[999] = %.1f, c[n-1] = %.1f\n", h[999], h[n - 1]);
    for (int r = 0; r < 3; r++) scale<<<(n + 255) / 256, 256>>>(c, 0.5f, n);
    cudaMemcpy(h, c, bytes, cudaMemcpyDeviceToHost);
    printf("after three halvings: c[999] = %.3f, c[n-1] = %.3f\n", h[999], h[n - 1]);
    printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
    for (int i = 0; i < 2; i++) cudaStreamDestroy(s[i]);
    cudaFree(slept);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    free(h);
    return 0;
}

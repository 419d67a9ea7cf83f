// Timing loops whose launches change memory, as course books write them: a reduction that allocates its sum,
// zeroes it, adds the blocks' partial sums with atomicAdd and frees it, a hundred times; a histogram cleared
// with cudaMemset before each launch; and whether a buffer freed and allocated again gets the same address
// (warpdbg's memo answers the repeats: docs/programs.md "Repeated launches").
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reduce(const float *x, float *sum, int n)
{
    extern __shared__ float s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int offset = blockDim.x >> 1; offset > 0; offset >>= 1) {
        if (threadIdx.x < offset) s[threadIdx.x] += s[threadIdx.x + offset];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(sum, s[0]);
}

__global__ void histogram(const float *x, unsigned *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[(int)x[i] % 16], 1u);
}

static float *last_sum;

float reduce_once(const float *x, int n, int block)
{
    float *sum, h = 0.0f;
    cudaMalloc(&sum, sizeof(float));
    cudaMemcpy(sum, &h, sizeof(float), cudaMemcpyHostToDevice);
    reduce<<<(n + block - 1) / block, block, block * sizeof(float)>>>(x, sum, n);
    cudaMemcpy(&h, sum, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(sum);
    last_sum = sum;
    return h;
}

int main()
{
    const int n = 1 << 18;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)((i * 37) % 41);
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);

    // Integer-valued partial sums: exact in any order, so the GPU prints the same sum every time.
    float first = reduce_once(x, n, 128);
    float *first_place = last_sum;
    int same = 0, same_place = 0;
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    for (int r = 0; r < 100; r++) {
        same += reduce_once(x, n, 128) == first;
        same_place += last_sum == first_place;
    }
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms;
    cudaEventElapsedTime(&ms, start, stop);
    printf("sum = %.1f, the same in %d of 100 repeats\n", first, same);
    printf("the sum's buffer at the same address in %d of 100 repeats\n", same_place);
    printf("time per repeat: %.3f ms\n", ms / 100);

    unsigned *bins, hb[16];
    cudaMalloc(&bins, sizeof hb);
    for (int r = 0; r < 20; r++) {
        cudaMemset(bins, 0, sizeof hb);
        histogram<<<n / 256, 256>>>(x, bins, n);
    }
    cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost);
    for (int b = 0; b < 16; b += 4) printf("bins %2d-%2d: %u %u %u %u\n", b, b + 3, hb[b], hb[b + 1], hb[b + 2], hb[b + 3]);
    for (int r = 0; r < 3; r++) histogram<<<n / 256, 256>>>(x, bins, n);
    cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost);
    printf("bin 0 after three launches without a reset: %u\n", hb[0]);
    cudaFree(bins);
    cudaFree(x);
    free(h);
    return 0;
}

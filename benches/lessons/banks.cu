// Lesson 5: shared-memory bank conflicts. Each thread owns one int of a 33 x 256-int shared array at index
// threadIdx.x * STRIDE and updates it 64 times through a volatile pointer (one shared load and one shared
// store per iteration), so the shared-memory accesses dominate the kernel. With 32 banks of 4 bytes, a warp's
// access at stride S touches gcd(S, 32)-way conflicting banks: stride 1 and 33 need 1 wavefront, stride 2
// needs 2, 8 needs 8, 32 needs 32.
//
// usage: ./banks [reps]
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define BLOCK 256
#define GRID 528
#define ITERS 64
#define SHARED_INTS (BLOCK * 33)


#define CHECK(call)                                                                      \
    {                                                                                    \
        cudaError_t err = (call);                                                        \
        if (err != cudaSuccess) {                                                        \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err), __LINE__);     \
            exit(1);                                                                     \
        }                                                                                \
    }

// ---------------------------------------------------------------- timing helpers
static float g_times[1024];
static int g_reps = 10;

// call after the launch of repetition r (r = -1 is the untimed warm-up)
void stopTimer(cudaEvent_t start, cudaEvent_t stop, int r)
{
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 0) g_times[r] = ms;
}

void report(const char *lesson, const char *variant)
{
    CHECK(cudaGetLastError());
    // insertion sort, then the median
    for (int i = 1; i < g_reps; i++) {
        float v = g_times[i];
        int j = i - 1;
        while (j >= 0 && g_times[j] > v) {
            g_times[j + 1] = g_times[j];
            j--;
        }
        g_times[j + 1] = v;
    }
    float med = (g_reps % 2 == 1) ? g_times[g_reps / 2] : 0.5f * (g_times[g_reps / 2 - 1] + g_times[g_reps / 2]);
    printf("%s %s %.4f\n", lesson, variant, med);
}

void readArgs(int argc, char **argv)
{
    if (argc > 1) g_reps = atoi(argv[1]);
    if (g_reps < 1) g_reps = 1;
    if (g_reps > 1024) g_reps = 1024;
}

// ---------------------------------------------------------------- kernels
__global__ void sharedStride1(int *out)
{
    __shared__ int s[SHARED_INTS];
    volatile int *vs = s;
    int idx = threadIdx.x * 1;
    vs[idx] = threadIdx.x + blockIdx.x;
    for (int k = 0; k < ITERS; k++) vs[idx] = vs[idx] * 3 + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = vs[idx];
}

__global__ void sharedStride2(int *out)
{
    __shared__ int s[SHARED_INTS];
    volatile int *vs = s;
    int idx = threadIdx.x * 2;
    vs[idx] = threadIdx.x + blockIdx.x;
    for (int k = 0; k < ITERS; k++) vs[idx] = vs[idx] * 3 + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = vs[idx];
}

__global__ void sharedStride8(int *out)
{
    __shared__ int s[SHARED_INTS];
    volatile int *vs = s;
    int idx = threadIdx.x * 8;
    vs[idx] = threadIdx.x + blockIdx.x;
    for (int k = 0; k < ITERS; k++) vs[idx] = vs[idx] * 3 + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = vs[idx];
}

__global__ void sharedStride32(int *out)
{
    __shared__ int s[SHARED_INTS];
    volatile int *vs = s;
    int idx = threadIdx.x * 32;
    vs[idx] = threadIdx.x + blockIdx.x;
    for (int k = 0; k < ITERS; k++) vs[idx] = vs[idx] * 3 + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = vs[idx];
}

__global__ void sharedStride33(int *out)
{
    __shared__ int s[SHARED_INTS];
    volatile int *vs = s;
    int idx = threadIdx.x * 33;
    vs[idx] = threadIdx.x + blockIdx.x;
    for (int k = 0; k < ITERS; k++) vs[idx] = vs[idx] * 3 + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = vs[idx];
}

// ---------------------------------------------------------------- host
int check(const int *h_out, const char *variant)
{
    for (int b = 0; b < GRID; b++) {
        for (int t = 0; t < BLOCK; t++) {
            unsigned int v = t + b;
            for (int k = 0; k < ITERS; k++) v = v * 3u + 1u;
            if ((unsigned int)h_out[b * BLOCK + t] != v) {
                printf("FAIL banks %s: out[%d] = %d, expected %d\n", variant, b * BLOCK + t, h_out[b * BLOCK + t], (int)v);
                return 1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    readArgs(argc, argv);
    size_t bytes = GRID * BLOCK * sizeof(int);
    int *h_out = (int *)malloc(bytes);
    int *d_out;
    CHECK(cudaMalloc((void **)&d_out, bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    int fails = 0;

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        sharedStride1<<<GRID, BLOCK>>>(d_out);
        stopTimer(start, stop, r);
    }
    report("banks", "stride1");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_out, "stride1");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        sharedStride2<<<GRID, BLOCK>>>(d_out);
        stopTimer(start, stop, r);
    }
    report("banks", "stride2");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_out, "stride2");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        sharedStride8<<<GRID, BLOCK>>>(d_out);
        stopTimer(start, stop, r);
    }
    report("banks", "stride8");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_out, "stride8");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        sharedStride32<<<GRID, BLOCK>>>(d_out);
        stopTimer(start, stop, r);
    }
    report("banks", "stride32");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_out, "stride32");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        sharedStride33<<<GRID, BLOCK>>>(d_out);
        stopTimer(start, stop, r);
    }
    report("banks", "stride33");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_out, "stride33");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_out));
    free(h_out);
    return fails ? 1 : 0;
}

// Lesson 4: warp divergence in a memory-bound kernel (after the course texts' mathKernel1 / mathKernel2).
// 8M floats (32 MB in, 32 MB out). Even and odd "groups" take different paths of a few flops each:
//   byThread   the group is the thread's parity: both paths inside every warp (divergent unless the
//              compiler predicates the short paths)
//   byWarp     the group is the warp's parity: each warp takes one path, no divergence
//   noBranch   both results computed and one selected: no branch at all
// The kernel is bound by DRAM traffic, so the branch costs little: the lesson is the size of the effect.
//
// usage: ./divergence [reps]
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define N (1 << 23)
#define BLOCK 256


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
__device__ float pathA(float x)
{
    float y = x;
    for (int k = 0; k < 4; k++) y = y * 0.5f + 1.0f;
    return y;
}

__device__ float pathB(float x)
{
    float y = x;
    for (int k = 0; k < 4; k++) y = y * 0.25f - 2.0f;
    return y;
}

__global__ void branchByThread(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float y;
    if (i % 2 == 0) {
        y = pathA(x);
    } else {
        y = pathB(x);
    }
    out[i] = y;
}

__global__ void branchByWarp(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float y;
    if ((i / warpSize) % 2 == 0) {
        y = pathA(x);
    } else {
        y = pathB(x);
    }
    out[i] = y;
}

__global__ void noBranch(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float a = pathA(x);
    float b = pathB(x);
    out[i] = (i % 2 == 0) ? a : b;
}

// ---------------------------------------------------------------- host
float hostA(float x)
{
    float y = x;
    for (int k = 0; k < 4; k++) y = y * 0.5f + 1.0f;
    return y;
}

float hostB(float x)
{
    float y = x;
    for (int k = 0; k < 4; k++) y = y * 0.25f - 2.0f;
    return y;
}

int check(const float *h_in, const float *h_out, int byWarp, const char *variant)
{
    for (int i = 0; i < N; i++) {
        int even = byWarp ? ((i / 32) % 2 == 0) : (i % 2 == 0);
        float want = even ? hostA(h_in[i]) : hostB(h_in[i]);
        if (h_out[i] != want) {
            printf("FAIL divergence %s: out[%d] = %f, expected %f\n", variant, i, h_out[i], want);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    readArgs(argc, argv);
    size_t bytes = N * sizeof(float);
    float *h_in = (float *)malloc(bytes);
    float *h_out = (float *)malloc(bytes);
    for (int i = 0; i < N; i++) h_in[i] = (float)(i % 1024);   // small integers: every result is exact

    float *d_in, *d_out;
    CHECK(cudaMalloc((void **)&d_in, bytes));
    CHECK(cudaMalloc((void **)&d_out, bytes));
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    dim3 block(BLOCK);
    dim3 grid((N + BLOCK - 1) / BLOCK);
    int fails = 0;

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        branchByThread<<<grid, block>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("divergence", "byThread");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, 0, "byThread");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        branchByWarp<<<grid, block>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("divergence", "byWarp");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, 1, "byWarp");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        noBranch<<<grid, block>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("divergence", "noBranch");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, 0, "noBranch");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return fails ? 1 : 0;
}

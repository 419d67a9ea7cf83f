// Lesson 9: vectorised loads and work per thread. Copy 8M floats (32 MB in, 32 MB out):
//   float1      one float per thread (LDG.32): 8 warps of requests per 1 KB
//   float2      two floats per thread through float2 (LDG.64): half the threads and instructions
//   float4      four per thread through float4 (LDG.128): a quarter of the instructions, 16 bytes per lane
//   gridStride  one float per thread in a grid-stride loop over 4 waves of full occupancy (132 * 8 blocks)
//   unroll4     a grid-stride loop that moves 4 floats per iteration with 4 independent loads in flight
// All move the same bytes; the vector forms need fewer instructions and requests per byte.
//
// usage: ./vectorized [reps]
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
__global__ void copyFloat1(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

__global__ void copyFloat2(const float2 *in, float2 *out, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) out[i] = in[i];
}

__global__ void copyFloat4(const float4 *in, float4 *out, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) out[i] = in[i];
}

__global__ void copyGridStride(const float *in, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

__global__ void copyUnroll4(const float *in, float *out, int n)
{
    int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        float a = in[i];
        float b = in[i + stride];
        float c = in[i + 2 * stride];
        float d = in[i + 3 * stride];
        out[i] = a;
        out[i + stride] = b;
        out[i + 2 * stride] = c;
        out[i + 3 * stride] = d;
    }
    for (; i < n; i += stride) out[i] = in[i];
}

// ---------------------------------------------------------------- host
int check(const float *h_in, const float *h_out, const char *variant)
{
    for (int i = 0; i < N; i++) {
        if (h_out[i] != h_in[i]) {
            printf("FAIL vectorized %s: out[%d] = %f, expected %f\n", variant, i, h_out[i], h_in[i]);
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
    for (int i = 0; i < N; i++) h_in[i] = (float)(i % 8191);

    float *d_in, *d_out;
    CHECK(cudaMalloc((void **)&d_in, bytes));
    CHECK(cudaMalloc((void **)&d_out, bytes));
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    int fails = 0;

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copyFloat1<<<N / BLOCK, BLOCK>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("vectorized", "float1");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "float1");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copyFloat2<<<N / 2 / BLOCK, BLOCK>>>((const float2 *)d_in, (float2 *)d_out, N / 2);
        stopTimer(start, stop, r);
    }
    report("vectorized", "float2");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "float2");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copyFloat4<<<N / 4 / BLOCK, BLOCK>>>((const float4 *)d_in, (float4 *)d_out, N / 4);
        stopTimer(start, stop, r);
    }
    report("vectorized", "float4");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "float4");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copyGridStride<<<132 * 8, BLOCK>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("vectorized", "gridStride");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "gridStride");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copyUnroll4<<<132 * 8, BLOCK>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("vectorized", "unroll4");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "unroll4");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return fails ? 1 : 0;
}

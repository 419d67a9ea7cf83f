// Lesson 1: global-memory coalescing.
//
// Every variant reads the same 8M floats (32 MB; with the 32 MB output beyond the H100's 50 MB L2) exactly once and writes them
// to a coalesced output. What changes is the order the threads of a warp read them in:
//   readStride1 .. readStride32: thread i reads element (i % rows) * S + i / rows, rows = N / S. Neighbouring
//     lanes are S floats apart, so a warp's load touches min(32, 32 * S * 4 / 32) 32-byte sectors.
//   readOffset0 / readOffset1: thread i reads in[i + offset]; an offset of one float makes every warp's
//     128 bytes straddle two 128-byte lines (5 sectors instead of 4).
//
// usage: ./coalescing [reps]   (timed repetitions, default 10; prints the median per variant)
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

// ---------------------------------------------------------------- kernels
__device__ int stridedIndex(int i, int stride)
{
    int rows = N / stride;
    return (i % rows) * stride + i / rows;
}

__global__ void readStride1(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = in[stridedIndex(i, 1)];
}

__global__ void readStride2(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = in[stridedIndex(i, 2)];
}

__global__ void readStride4(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = in[stridedIndex(i, 4)];
}

__global__ void readStride8(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = in[stridedIndex(i, 8)];
}

__global__ void readStride32(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = in[stridedIndex(i, 32)];
}

__global__ void readOffset0(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = in[i];
}

__global__ void readOffset1(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = in[i + 1];
}

// ---------------------------------------------------------------- host
int checkStride(const float *h_out, int stride, const char *variant)
{
    int rows = N / stride;
    for (int i = 0; i < N; i++) {
        float want = (float)((i % rows) * stride + i / rows);
        if (h_out[i] != want) {
            printf("FAIL coalescing %s: out[%d] = %f, expected %f\n", variant, i, h_out[i], want);
            return 1;
        }
    }
    return 0;
}

int checkOffset(const float *h_out, int offset, const char *variant)
{
    for (int i = 0; i < N; i++) {
        if (h_out[i] != (float)(i + offset)) {
            printf("FAIL coalescing %s: out[%d] = %f, expected %f\n", variant, i, h_out[i], (float)(i + offset));
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1) g_reps = atoi(argv[1]);
    if (g_reps < 1) g_reps = 1;
    if (g_reps > 1024) g_reps = 1024;

    size_t inBytes = (N + 32) * sizeof(float);
    size_t outBytes = N * sizeof(float);
    float *h_in = (float *)malloc(inBytes);
    float *h_out = (float *)malloc(outBytes);
    for (int i = 0; i < N + 32; i++) h_in[i] = (float)i;   // exact: every index is below 2^24

    float *d_in, *d_out;
    CHECK(cudaMalloc((void **)&d_in, inBytes));
    CHECK(cudaMalloc((void **)&d_out, outBytes));
    CHECK(cudaMemcpy(d_in, h_in, inBytes, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    dim3 block(BLOCK);
    dim3 grid(N / BLOCK);
    int fails = 0;

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        readStride1<<<grid, block>>>(d_in, d_out);
        stopTimer(start, stop, r);
    }
    report("coalescing", "stride1");
    CHECK(cudaMemcpy(h_out, d_out, outBytes, cudaMemcpyDeviceToHost));
    fails += checkStride(h_out, 1, "stride1");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        readStride2<<<grid, block>>>(d_in, d_out);
        stopTimer(start, stop, r);
    }
    report("coalescing", "stride2");
    CHECK(cudaMemcpy(h_out, d_out, outBytes, cudaMemcpyDeviceToHost));
    fails += checkStride(h_out, 2, "stride2");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        readStride4<<<grid, block>>>(d_in, d_out);
        stopTimer(start, stop, r);
    }
    report("coalescing", "stride4");
    CHECK(cudaMemcpy(h_out, d_out, outBytes, cudaMemcpyDeviceToHost));
    fails += checkStride(h_out, 4, "stride4");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        readStride8<<<grid, block>>>(d_in, d_out);
        stopTimer(start, stop, r);
    }
    report("coalescing", "stride8");
    CHECK(cudaMemcpy(h_out, d_out, outBytes, cudaMemcpyDeviceToHost));
    fails += checkStride(h_out, 8, "stride8");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        readStride32<<<grid, block>>>(d_in, d_out);
        stopTimer(start, stop, r);
    }
    report("coalescing", "stride32");
    CHECK(cudaMemcpy(h_out, d_out, outBytes, cudaMemcpyDeviceToHost));
    fails += checkStride(h_out, 32, "stride32");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        readOffset0<<<grid, block>>>(d_in, d_out);
        stopTimer(start, stop, r);
    }
    report("coalescing", "offset0");
    CHECK(cudaMemcpy(h_out, d_out, outBytes, cudaMemcpyDeviceToHost));
    fails += checkOffset(h_out, 0, "offset0");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        readOffset1<<<grid, block>>>(d_in, d_out);
        stopTimer(start, stop, r);
    }
    report("coalescing", "offset1");
    CHECK(cudaMemcpy(h_out, d_out, outBytes, cudaMemcpyDeviceToHost));
    fails += checkOffset(h_out, 1, "offset1");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return fails ? 1 : 0;
}

// Lesson 6: latency hiding and occupancy. The same memory-bound grid-stride copy of 8M floats (32 MB in,
// 32 MB out) launched with more and more threads. A warp waits hundreds of cycles for each DRAM load; the SM
// hides that wait only by issuing from other resident warps, so with one warp per SM (132 x 32 threads on
// the 132 SMs of an H100) the copy crawls, and it speeds up until the SMs hold enough warps in flight.
// Each configuration has its own kernel (the same body) so a profiler names it:
//   copy132x32 (1 warp per SM), copy132x128 (4), copy528x256 (32), copy2112x256 (64: full occupancy),
//   copy16384x256 (16384 blocks of 8 warps: more blocks than fit, each thread copies 2 elements)
//
// usage: ./occupancy [reps]
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define N (1 << 23)


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
__global__ void copy132x32(const float *in, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

__global__ void copy132x128(const float *in, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

__global__ void copy528x256(const float *in, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

__global__ void copy2112x256(const float *in, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

__global__ void copy16384x256(const float *in, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

// ---------------------------------------------------------------- host
int check(const float *h_in, const float *h_out, const char *variant)
{
    for (int i = 0; i < N; i++) {
        if (h_out[i] != h_in[i]) {
            printf("FAIL occupancy %s: out[%d] = %f, expected %f\n", variant, i, h_out[i], h_in[i]);
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
    for (int i = 0; i < N; i++) h_in[i] = (float)(i % 4099);

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
        copy132x32<<<132, 32>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("occupancy", "132x32");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "132x32");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copy132x128<<<132, 128>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("occupancy", "132x128");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "132x128");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copy528x256<<<528, 256>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("occupancy", "528x256");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "528x256");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copy2112x256<<<2112, 256>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("occupancy", "2112x256");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "2112x256");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copy16384x256<<<16384, 256>>>(d_in, d_out, N);
        stopTimer(start, stop, r);
    }
    report("occupancy", "16384x256");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, "16384x256");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return fails ? 1 : 0;
}

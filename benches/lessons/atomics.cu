// Lesson 7: atomics. Sum 4M small ints (16 MB) into counters:
//   globalCounter    every thread does atomicAdd on one global int: all of them serialise at one L2 slice
//   sharedThenGlobal each block adds into a shared counter, then one thread adds the block's total to the
//                    global counter (one global atomic per block)
//   warpThenGlobal   each warp adds with __shfl_down_sync, lane 0 does one global atomic per warp
//   spread           every thread adds into one of 4096 global counters (i % 4096): the same number of
//                    atomics as globalCounter, but on different addresses, so they proceed in parallel
//
// usage: ./atomics [reps]
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define N (1 << 22)
#define BLOCK 256
#define BINS 4096


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
__global__ void globalCounter(const int *in, int *counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(counter, in[i]);
}

__global__ void sharedThenGlobal(const int *in, int *counter, int n)
{
    __shared__ int blockSum;
    if (threadIdx.x == 0) blockSum = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&blockSum, in[i]);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(counter, blockSum);
}

__global__ void warpThenGlobal(const int *in, int *counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(counter, v);
}

__global__ void spread(const int *in, int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[i % BINS], in[i]);
}

// ---------------------------------------------------------------- host
int checkSum(int got, long long want, const char *variant)
{
    if ((long long)got != want) {
        printf("FAIL atomics %s: counter %d, expected %lld\n", variant, got, want);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    readArgs(argc, argv);
    size_t bytes = N * sizeof(int);
    int *h_in = (int *)malloc(bytes);
    int *h_bins = (int *)malloc(BINS * sizeof(int));
    long long want = 0;
    for (int i = 0; i < N; i++) {
        h_in[i] = (i * 13 + 5) % 7;
        want += h_in[i];
    }

    int *d_in, *d_counter;
    CHECK(cudaMalloc((void **)&d_in, bytes));
    CHECK(cudaMalloc((void **)&d_counter, BINS * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    dim3 grid(N / BLOCK);
    int fails = 0;
    int got = 0;

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaMemset(d_counter, 0, BINS * sizeof(int)));
        CHECK(cudaEventRecord(start));
        globalCounter<<<grid, BLOCK>>>(d_in, d_counter, N);
        stopTimer(start, stop, r);
    }
    report("atomics", "globalCounter");
    CHECK(cudaMemcpy(&got, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
    fails += checkSum(got, want, "globalCounter");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaMemset(d_counter, 0, BINS * sizeof(int)));
        CHECK(cudaEventRecord(start));
        sharedThenGlobal<<<grid, BLOCK>>>(d_in, d_counter, N);
        stopTimer(start, stop, r);
    }
    report("atomics", "sharedThenGlobal");
    CHECK(cudaMemcpy(&got, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
    fails += checkSum(got, want, "sharedThenGlobal");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaMemset(d_counter, 0, BINS * sizeof(int)));
        CHECK(cudaEventRecord(start));
        warpThenGlobal<<<grid, BLOCK>>>(d_in, d_counter, N);
        stopTimer(start, stop, r);
    }
    report("atomics", "warpThenGlobal");
    CHECK(cudaMemcpy(&got, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
    fails += checkSum(got, want, "warpThenGlobal");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaMemset(d_counter, 0, BINS * sizeof(int)));
        CHECK(cudaEventRecord(start));
        spread<<<grid, BLOCK>>>(d_in, d_counter, N);
        stopTimer(start, stop, r);
    }
    report("atomics", "spread");
    CHECK(cudaMemcpy(h_bins, d_counter, BINS * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < BINS; b++) {
        long long binWant = 0;
        for (int i = b; i < N; i += BINS) binWant += h_in[i];
        if ((long long)h_bins[b] != binWant) {
            printf("FAIL atomics spread: bins[%d] = %d, expected %lld\n", b, h_bins[b], binWant);
            fails++;
            break;
        }
    }

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_counter));
    free(h_in);
    free(h_bins);
    return fails ? 1 : 0;
}

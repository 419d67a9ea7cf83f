// Lesson 3: parallel reduction (the sum of 4M ints, 16 MB), after the course texts' reduceNeighbored ...
// reduceUnrollWarps8 sequence and a warp-shuffle version. Each kernel leaves one partial sum per block; the
// host adds the partial sums. The in-place kernels overwrite their input, so it is copied again before each
// launch (outside the timed region).
//   neighbored      in place, stride doubling, thread tid works when tid % (2 * stride) == 0: divergent
//                   warps all the way down
//   neighboredLess  the same pairs, but thread tid works on index 2 * stride * tid: the working threads are
//                   packed into the first warps, the others idle without diverging
//   interleaved     stride halving from blockDim / 2: packed threads and contiguous accesses
//   unroll8         each block first adds 8 blocks' worth of data in registers (1/8 of the blocks), then
//                   reduces like interleaved
//   unrollWarps8    unroll8 with the last 32 threads unrolled (no __syncthreads, __syncwarp between steps)
//   shuffle         unroll8's loads into a register sum, then __shfl_down_sync within each warp and across
//                   the warps through 32 shared-memory slots: no in-place global traffic at all
//
// usage: ./reduction [reps]
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define N (1 << 22)
#define BLOCK 512


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
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n) return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0) idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n) return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        int index = 2 * stride * tid;
        if (index < blockDim.x) idata[index] += idata[index + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n) return;
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceUnrolling8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    if (idx + 7 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        int b1 = g_idata[idx + 4 * blockDim.x];
        int b2 = g_idata[idx + 5 * blockDim.x];
        int b3 = g_idata[idx + 6 * blockDim.x];
        int b4 = g_idata[idx + 7 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    }
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

__global__ void reduceUnrollWarps8(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 8;
    if (idx + 7 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        int b1 = g_idata[idx + 4 * blockDim.x];
        int b2 = g_idata[idx + 5 * blockDim.x];
        int b3 = g_idata[idx + 6 * blockDim.x];
        int b4 = g_idata[idx + 7 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4 + b1 + b2 + b3 + b4;
    }
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    // the last warp: no block barrier, but each step reads before any lane writes (independent thread
    // scheduling no longer keeps a warp in lockstep, so the textbook's bare volatile version is a race)
    if (tid < 32) {
        volatile int *vmem = idata;
        int v = vmem[tid] + vmem[tid + 32];
        __syncwarp();
        vmem[tid] = v;
        __syncwarp();
        v += vmem[tid + 16];
        __syncwarp();
        vmem[tid] = v;
        __syncwarp();
        v += vmem[tid + 8];
        __syncwarp();
        vmem[tid] = v;
        __syncwarp();
        v += vmem[tid + 4];
        __syncwarp();
        vmem[tid] = v;
        __syncwarp();
        v += vmem[tid + 2];
        __syncwarp();
        vmem[tid] = v;
        __syncwarp();
        v += vmem[tid + 1];
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}

__global__ void reduceShfl(const int *g_idata, int *g_odata, unsigned int n)
{
    __shared__ int warpSums[32];
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 8 + threadIdx.x;
    int sum = 0;
    if (idx + 7 * blockDim.x < n) {
        for (int k = 0; k < 8; k++) sum += g_idata[idx + k * blockDim.x];
    }
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffff, sum, offset);
    int lane = tid % 32;
    int warp = tid / 32;
    if (lane == 0) warpSums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = (lane < blockDim.x / 32) ? warpSums[lane] : 0;
        for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffff, sum, offset);
        if (lane == 0) g_odata[blockIdx.x] = sum;
    }
}

// ---------------------------------------------------------------- host
int check(const int *h_part, int blocks, long long want, const char *variant)
{
    long long got = 0;
    for (int i = 0; i < blocks; i++) got += h_part[i];
    if (got != want) {
        printf("FAIL reduction %s: sum %lld, expected %lld\n", variant, got, want);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    readArgs(argc, argv);
    size_t bytes = N * sizeof(int);
    int *h_in = (int *)malloc(bytes);
    int *h_part = (int *)malloc(N / BLOCK * sizeof(int));
    long long want = 0;
    for (int i = 0; i < N; i++) {
        h_in[i] = (i * 7 + 3) & 0xff;
        want += h_in[i];
    }

    int *d_in, *d_part;
    CHECK(cudaMalloc((void **)&d_in, bytes));
    CHECK(cudaMalloc((void **)&d_part, N / BLOCK * sizeof(int)));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    dim3 block(BLOCK);
    dim3 grid(N / BLOCK);
    dim3 grid8(N / BLOCK / 8);
    int fails = 0;

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaEventRecord(start));
        reduceNeighbored<<<grid, block>>>(d_in, d_part, N);
        stopTimer(start, stop, r);
    }
    report("reduction", "neighbored");
    CHECK(cudaMemcpy(h_part, d_part, grid.x * sizeof(int), cudaMemcpyDeviceToHost));
    fails += check(h_part, grid.x, want, "neighbored");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaEventRecord(start));
        reduceNeighboredLess<<<grid, block>>>(d_in, d_part, N);
        stopTimer(start, stop, r);
    }
    report("reduction", "neighboredLess");
    CHECK(cudaMemcpy(h_part, d_part, grid.x * sizeof(int), cudaMemcpyDeviceToHost));
    fails += check(h_part, grid.x, want, "neighboredLess");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaEventRecord(start));
        reduceInterleaved<<<grid, block>>>(d_in, d_part, N);
        stopTimer(start, stop, r);
    }
    report("reduction", "interleaved");
    CHECK(cudaMemcpy(h_part, d_part, grid.x * sizeof(int), cudaMemcpyDeviceToHost));
    fails += check(h_part, grid.x, want, "interleaved");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaEventRecord(start));
        reduceUnrolling8<<<grid8, block>>>(d_in, d_part, N);
        stopTimer(start, stop, r);
    }
    report("reduction", "unroll8");
    CHECK(cudaMemcpy(h_part, d_part, grid8.x * sizeof(int), cudaMemcpyDeviceToHost));
    fails += check(h_part, grid8.x, want, "unroll8");

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaEventRecord(start));
        reduceUnrollWarps8<<<grid8, block>>>(d_in, d_part, N);
        stopTimer(start, stop, r);
    }
    report("reduction", "unrollWarps8");
    CHECK(cudaMemcpy(h_part, d_part, grid8.x * sizeof(int), cudaMemcpyDeviceToHost));
    fails += check(h_part, grid8.x, want, "unrollWarps8");

    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        reduceShfl<<<grid8, block>>>(d_in, d_part, N);
        stopTimer(start, stop, r);
    }
    report("reduction", "shuffle");
    CHECK(cudaMemcpy(h_part, d_part, grid8.x * sizeof(int), cudaMemcpyDeviceToHost));
    fails += check(h_part, grid8.x, want, "shuffle");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_part));
    free(h_in);
    free(h_part);
    return fails ? 1 : 0;
}

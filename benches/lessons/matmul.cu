// Lesson 10: matrix product C = A * B of 384 x 384 floats (compute bound; 576 KB a matrix, so the lesson is
// about re-reading, not DRAM):
//   naive        each thread walks a row of A and a column of B in global memory: 2 loads per multiply-add
//   tiled        16 x 16 tiles of A and B staged in shared memory: each global element is loaded once per
//                tile instead of 16 times, the inner loop reads shared memory
//   tiledUnroll  the tiled kernel with its inner loop unrolled by the compiler (#pragma unroll)
// The host checks 512 sampled elements against a double-precision dot product.
//
// usage: ./matmul [reps]
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define M 384
#define TILE 16


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
__global__ void matmulNaive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++) sum += A[row * n + k] * B[k * n + col];
        C[row * n + col] = sum;
    }
}

__global__ void matmulTiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

__global__ void matmulTiledUnroll(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

// ---------------------------------------------------------------- host
int check(const float *A, const float *B, const float *C, const char *variant)
{
    for (int s = 0; s < 512; s++) {
        int row = (s * 37) % M;
        int col = (s * 101 + 7) % M;
        double want = 0.0;
        for (int k = 0; k < M; k++) want += (double)A[row * M + k] * (double)B[k * M + col];
        double got = C[row * M + col];
        if (fabs(got - want) > 1e-3 * (fabs(want) + 1.0)) {
            printf("FAIL matmul %s: C[%d][%d] = %f, expected %f\n", variant, row, col, got, want);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    readArgs(argc, argv);
    size_t bytes = M * M * sizeof(float);
    float *h_A = (float *)malloc(bytes);
    float *h_B = (float *)malloc(bytes);
    float *h_C = (float *)malloc(bytes);
    for (int i = 0; i < M * M; i++) {
        h_A[i] = (float)((i * 7) % 17) / 16.0f - 0.5f;
        h_B[i] = (float)((i * 5) % 13) / 8.0f - 0.75f;
    }
    float *d_A, *d_B, *d_C;
    CHECK(cudaMalloc((void **)&d_A, bytes));
    CHECK(cudaMalloc((void **)&d_B, bytes));
    CHECK(cudaMalloc((void **)&d_C, bytes));
    CHECK(cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, h_B, bytes, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    dim3 block(TILE, TILE);
    dim3 grid(M / TILE, M / TILE);
    int fails = 0;

    CHECK(cudaMemset(d_C, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        matmulNaive<<<grid, block>>>(d_A, d_B, d_C, M);
        stopTimer(start, stop, r);
    }
    report("matmul", "naive");
    CHECK(cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_A, h_B, h_C, "naive");

    CHECK(cudaMemset(d_C, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        matmulTiled<<<grid, block>>>(d_A, d_B, d_C, M);
        stopTimer(start, stop, r);
    }
    report("matmul", "tiled");
    CHECK(cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_A, h_B, h_C, "tiled");

    CHECK(cudaMemset(d_C, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        matmulTiledUnroll<<<grid, block>>>(d_A, d_B, d_C, M);
        stopTimer(start, stop, r);
    }
    report("matmul", "tiledUnroll");
    CHECK(cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_A, h_B, h_C, "tiledUnroll");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_B));
    CHECK(cudaFree(d_C));
    free(h_A);
    free(h_B);
    free(h_C);
    return fails ? 1 : 0;
}

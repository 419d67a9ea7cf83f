// Lesson 2: matrix transpose (after NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++").
//
// A 3072 x 3072 float matrix (36 MB in, 36 MB out: beyond the 50 MB L2 together). Every kernel works on
// 32 x 32 tiles with a 32 x 8 thread block, each thread moving 4 elements:
//   copy          out = in, both coalesced: the bandwidth to aim for
//   copyShared    the copy staged through a shared-memory tile
//   naive         out[x][y] = in[y][x]: coalesced reads, stores 3072 floats apart (32 sectors a request)
//   naiveColumns  coalesced stores, strided reads
//   shared        the tile is read coalesced, then written transposed from shared memory: both global
//                 accesses coalesced, but reading a tile column is a 32-way bank conflict
//   padded        the same with a 33-float row: the conflicts are gone
//
// usage: ./transpose [reps]
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define W 3072
#define TILE_DIM 32
#define BLOCK_ROWS 8


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
__global__ void copy(float *odata, const float *idata)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * W + x] = idata[(y + j) * W + x];
}

__global__ void copySharedMem(float *odata, const float *idata)
{
    __shared__ float tile[TILE_DIM * TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[(threadIdx.y + j) * TILE_DIM + threadIdx.x] = idata[(y + j) * W + x];
    __syncthreads();
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * W + x] = tile[(threadIdx.y + j) * TILE_DIM + threadIdx.x];
}

__global__ void transposeNaive(float *odata, const float *idata)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[x * W + (y + j)] = idata[(y + j) * W + x];
}

__global__ void transposeNaiveColumns(float *odata, const float *idata)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * W + x] = idata[x * W + (y + j)];
}

__global__ void transposeCoalesced(float *odata, const float *idata)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * W + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;   // transposed block offset
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposeNoBankConflicts(float *odata, const float *idata)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * W + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---------------------------------------------------------------- host
int check(const float *h_in, const float *h_out, int transposed, const char *variant)
{
    for (int r = 0; r < W; r++) {
        for (int c = 0; c < W; c++) {
            float want = transposed ? h_in[c * W + r] : h_in[r * W + c];
            if (h_out[r * W + c] != want) {
                printf("FAIL transpose %s: out[%d][%d] = %f, expected %f\n", variant, r, c, h_out[r * W + c], want);
                return 1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    readArgs(argc, argv);
    size_t bytes = (size_t)W * W * sizeof(float);
    float *h_in = (float *)malloc(bytes);
    float *h_out = (float *)malloc(bytes);
    for (int i = 0; i < W * W; i++) h_in[i] = (float)(i % 65536);

    float *d_in, *d_out;
    CHECK(cudaMalloc((void **)&d_in, bytes));
    CHECK(cudaMalloc((void **)&d_out, bytes));
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    dim3 grid(W / TILE_DIM, W / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    int fails = 0;

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copy<<<grid, block>>>(d_out, d_in);
        stopTimer(start, stop, r);
    }
    report("transpose", "copy");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, 0, "copy");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        copySharedMem<<<grid, block>>>(d_out, d_in);
        stopTimer(start, stop, r);
    }
    report("transpose", "copyShared");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, 0, "copyShared");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        transposeNaive<<<grid, block>>>(d_out, d_in);
        stopTimer(start, stop, r);
    }
    report("transpose", "naive");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, 1, "naive");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        transposeNaiveColumns<<<grid, block>>>(d_out, d_in);
        stopTimer(start, stop, r);
    }
    report("transpose", "naiveColumns");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, 1, "naiveColumns");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        transposeCoalesced<<<grid, block>>>(d_out, d_in);
        stopTimer(start, stop, r);
    }
    report("transpose", "shared");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, 1, "shared");

    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        transposeNoBankConflicts<<<grid, block>>>(d_out, d_in);
        stopTimer(start, stop, r);
    }
    report("transpose", "padded");
    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
    fails += check(h_in, h_out, 1, "padded");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return fails ? 1 : 0;
}

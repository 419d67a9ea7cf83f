// The occupancy API as courses use it: let the runtime pick a block size, check how many blocks of a few
// sizes fit on one SM, and read a kernel's attributes before launching it.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err = (call);                                                    \
        if (err != cudaSuccess) {                                                    \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err), __LINE__); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

__global__ void scale(float *a, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= s;
}

__global__ void rotate_tile(float *a, int n)
{
    __shared__ float tile[4096];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? a[i] : 0.0f;
    __syncthreads();
    if (i < n) a[i] = tile[(threadIdx.x + 1) % blockDim.x];
}

int main()
{
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleAuto));
    const int n = 10000;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)(i % 100);
    float *d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));

    int minGrid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, scale, 0, 0));
    printf("scale: block size %d, minimum grid %d\n", block, minGrid);
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, scale, 0, 100));
    printf("scale, at most 100 threads: block size %d, minimum grid %d\n", block, minGrid);

    int sizes[5] = {32, 96, 256, 1000, 1024};
    for (int k = 0; k < 5; k++) {
        int a = 0, b = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&a, scale, sizes[k], 0));
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, rotate_tile, sizes[k], 0));
        printf("%4d threads: scale %2d blocks/SM, rotate_tile %2d blocks/SM\n", sizes[k], a, b);
    }
    int none = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&none, scale, 256, 64 * 1024));
    printf("64 KB of dynamic shared memory: %d blocks/SM\n", none);

    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, rotate_tile));
    printf("rotate_tile: %d bytes of shared memory, at most %d threads, %d bytes more dynamic\n",
           (int)attr.sharedSizeBytes, attr.maxThreadsPerBlock, attr.maxDynamicSharedSizeBytes);

    int grid = (n + block - 1) / block;
    scale<<<grid, block>>>(d, 2.0f, n);
    rotate_tile<<<(n + 255) / 256, 256>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("grid %d x %d, sum %.1f, h[0] %.1f, h[255] %.1f\n", grid, block, sum, h[0], h[255]);
    cudaFree(d);
    free(h);
    return 0;
}

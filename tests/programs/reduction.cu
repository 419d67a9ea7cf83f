// Homework 3: parallel reduction, three ways, checked against a recursive CPU sum.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
{                                                                          \
    const cudaError_t error = call;                                        \
    if (error != cudaSuccess)                                              \
    {                                                                      \
        printf("Error: %s:%d, ", __FILE__, __LINE__);                      \
        printf("code:%d, reason: %s\n", error, cudaGetErrorString(error)); \
        exit(1);                                                           \
    }                                                                      \
}

// Sums data[0..size) by folding the upper half onto the lower half.
int cpuSum(int *data, int const size)
{
    if (size == 1) return data[0];
    int const half = size / 2;
    for (int i = 0; i < half; i++)
        data[i] += data[i + half];
    return cpuSum(data, half);
}

__global__ void sumNeighbored(int *g_in, int *g_out, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *chunk = g_in + blockIdx.x * blockDim.x;
    if (idx >= n) return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            chunk[tid] += chunk[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = chunk[0];
}

__global__ void sumNeighboredLess(int *g_in, int *g_out, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *chunk = g_in + blockIdx.x * blockDim.x;
    if (idx >= n) return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        int k = 2 * stride * tid;
        if (k < blockDim.x)
            chunk[k] += chunk[k + stride];
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = chunk[0];
}

__global__ void sumInterleaved(int *g_in, int *g_out, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *chunk = g_in + blockIdx.x * blockDim.x;
    if (idx >= n) return;
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            chunk[tid] += chunk[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = chunk[0];
}

int finish(int *h_part, int *d_part, int blocks)
{
    CHECK(cudaMemcpy(h_part, d_part, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    int sum = 0;
    for (int i = 0; i < blocks; i++) sum += h_part[i];
    return sum;
}

int main(void)
{
    int size = 1 << 12;
    int blocksize = 128;
    printf("array size %d, block %d\n", size, blocksize);
    dim3 block(blocksize, 1);
    dim3 grid((size + block.x - 1) / block.x, 1);
    size_t bytes = size * sizeof(int);
    int *h_data = (int *)malloc(bytes);
    int *h_part = (int *)malloc(grid.x * sizeof(int));
    int *tmp = (int *)malloc(bytes);
    for (int i = 0; i < size; i++) h_data[i] = (int)(rand() & 0xFF);
    memcpy(tmp, h_data, bytes);
    int cpu = cpuSum(tmp, size);
    printf("cpu sum: %d\n", cpu);

    int *d_in = NULL;
    int *d_part = NULL;
    CHECK(cudaMalloc((void **)&d_in, bytes));
    CHECK(cudaMalloc((void **)&d_part, grid.x * sizeof(int)));

    CHECK(cudaMemcpy(d_in, h_data, bytes, cudaMemcpyHostToDevice));
    sumNeighbored<<<grid, block>>>(d_in, d_part, size);
    CHECK(cudaDeviceSynchronize());
    int gpu1 = finish(h_part, d_part, grid.x);
    printf("gpu Neighbored     sum: %d <<<%d, %d>>>\n", gpu1, grid.x, block.x);

    CHECK(cudaMemcpy(d_in, h_data, bytes, cudaMemcpyHostToDevice));
    sumNeighboredLess<<<grid, block>>>(d_in, d_part, size);
    CHECK(cudaDeviceSynchronize());
    int gpu2 = finish(h_part, d_part, grid.x);
    printf("gpu NeighboredLess sum: %d <<<%d, %d>>>\n", gpu2, grid.x, block.x);

    CHECK(cudaMemcpy(d_in, h_data, bytes, cudaMemcpyHostToDevice));
    sumInterleaved<<<grid.x, block>>>(d_in, d_part, size);
    CHECK(cudaDeviceSynchronize());
    int gpu3 = finish(h_part, d_part, grid.x);
    printf("gpu Interleaved    sum: %d <<<%d, %d>>>\n", gpu3, grid.x, block.x);

    free(h_data);
    free(h_part);
    free(tmp);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_part));
    CHECK(cudaDeviceReset());
    bool ok = (gpu1 == cpu) && (gpu2 == cpu) && (gpu3 == cpu);
    if (!ok) printf("Test FAILED\n");
    else printf("Test PASSED\n");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

// The textbook reduction program of issue 19 item 3, end to end: 1<<24 ints initialised on the host, summed by
// the book's recursive CPU reduction, then by the three kernels of kernels/reduce_neighbored.cu,
// kernels/reduce_neighbored_less.cu and kernels/reduce_interleaved.cu (the same code, block 512), each checked
// against the CPU sum. benches/host_speed.sh compares its `warpdbg run` time with the sum of the three kernel
// files' `run` times at the same size.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                                 \
    {                                                                               \
        const cudaError_t error = call;                                             \
        if (error != cudaSuccess)                                                   \
        {                                                                           \
            fprintf(stderr, "Error: %s:%d, ", __FILE__, __LINE__);                  \
            fprintf(stderr, "code: %d, reason: %s\n", error, cudaGetErrorString(error)); \
            exit(1);                                                                \
        }                                                                           \
    }

int recursiveReduce(int *data, int const size)
{
    if (size == 1) return data[0];
    int const stride = size / 2;
    for (int i = 0; i < stride; i++)
    {
        data[i] += data[i + stride];
    }
    return recursiveReduce(data, stride);
}

__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n) return;
    for (int stride = 1; stride < blockDim.x; stride *= 2)
    {
        if ((tid % (2 * stride)) == 0)
        {
            idata[tid] += idata[tid + stride];
        }
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
    for (int stride = 1; stride < blockDim.x; stride *= 2)
    {
        int index = 2 * stride * tid;
        if (index < blockDim.x)
        {
            idata[index] += idata[index + stride];
        }
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
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1)
    {
        if (tid < stride)
        {
            idata[tid] += idata[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

int main(int argc, char **argv)
{
    int size = 1 << 24;
    int blocksize = 512;
    dim3 block(blocksize, 1);
    dim3 grid((size + block.x - 1) / block.x, 1);
    size_t bytes = size * sizeof(int);
    int *h_idata = (int *) malloc(bytes);
    int *h_odata = (int *) malloc(grid.x * sizeof(int));
    int *tmp = (int *) malloc(bytes);
    for (int i = 0; i < size; i++)
    {
        h_idata[i] = (int)( rand() & 0xFF );
    }
    memcpy(tmp, h_idata, bytes);
    int cpu_sum = recursiveReduce(tmp, size);
    printf("cpu reduce      sum: %d\n", cpu_sum);

    int *d_idata = NULL;
    int *d_odata = NULL;
    CHECK(cudaMalloc((void **) &d_idata, bytes));
    CHECK(cudaMalloc((void **) &d_odata, grid.x * sizeof(int)));

    const char *names[3] = {"Neighbored", "NeighboredLess", "Interleaved"};
    bool ok = true;
    for (int k = 0; k < 3; k++)
    {
        CHECK(cudaMemcpy(d_idata, h_idata, bytes, cudaMemcpyHostToDevice));
        if (k == 0) reduceNeighbored<<<grid, block>>>(d_idata, d_odata, size);
        if (k == 1) reduceNeighboredLess<<<grid, block>>>(d_idata, d_odata, size);
        if (k == 2) reduceInterleaved<<<grid, block>>>(d_idata, d_odata, size);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h_odata, d_odata, grid.x * sizeof(int), cudaMemcpyDeviceToHost));
        int gpu_sum = 0;
        for (int i = 0; i < grid.x; i++) gpu_sum += h_odata[i];
        printf("gpu %-14s sum: %d <<<grid %d block %d>>>\n", names[k], gpu_sum, grid.x, block.x);
        if (gpu_sum != cpu_sum) ok = false;
    }
    free(h_idata);
    free(h_odata);
    free(tmp);
    CHECK(cudaFree(d_idata));
    CHECK(cudaFree(d_odata));
    printf("%s\n", ok ? "Test PASSED" : "Test FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

// A launch with too many threads per block never runs, and nobody checks cudaGetLastError(): the program
// prints a wrong sum and exits 0 on a GPU.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void ones(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = 1;
}

int main(void)
{
    const int n = 4096;
    int *d_v;
    cudaMalloc((void **)&d_v, n * sizeof(int));
    cudaMemset(d_v, 0, n * sizeof(int));
    int threads = 2048;
    ones<<<n / threads, threads>>>(d_v, n);
    cudaDeviceSynchronize();
    int *h = (int *)malloc(n * sizeof(int));
    cudaMemcpy(h, d_v, n * sizeof(int), cudaMemcpyDeviceToHost);
    long sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("sum = %ld (expected %d)\n", sum, n);
    cudaFree(d_v);
    free(h);
    return 0;
}

// finding: never ran: 2048 threads per block

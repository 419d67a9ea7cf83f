// cudaMalloc(&d, n) where n * sizeof(int) was meant, with copies of n bytes to match: every call succeeds,
// and the kernel runs past the end of the allocation (a GPU says nothing: the accesses land in padding).
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void addOne(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] + 1;
}

int main(void)
{
    int n = 256;
    int *h = (int *)calloc(n, sizeof(int));
    int *d_v;
    cudaMalloc((void **)&d_v, n);
    cudaMemcpy(d_v, h, n, cudaMemcpyHostToDevice);
    addOne<<<2, 128>>>(d_v, n);
    cudaMemcpy(h, d_v, n, cudaMemcpyDeviceToHost);
    printf("h[0] = %d\n", h[0]);
    cudaFree(d_v);
    free(h);
    return 0;
}

// finding: cudaMalloc takes a size in bytes

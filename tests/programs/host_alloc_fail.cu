// Allocations larger than any machine gives (1 EiB: more than x86-64's address space, so even a machine that
// overcommits refuses it): malloc, calloc and realloc return NULL (realloc keeps the old
// block), cudaMalloc returns cudaErrorMemoryAllocation and the program goes on.
#include <stdio.h>
#include <stdlib.h>

__global__ void fill(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 2 * i;
}

int main()
{
    const int n = 16;
    size_t huge = (size_t)1 << 60; // 1 EiB
    float *h = (float *)malloc(huge);
    printf("malloc(1 EiB): %s\n", h == NULL ? "NULL" : "not NULL");
    float *c = (float *)calloc(huge, sizeof(float));
    printf("calloc(1 EiB, 4): %s\n", c == NULL ? "NULL" : "not NULL");
    int *small = (int *)malloc(n * sizeof(int));
    small[3] = 7;
    int *r = (int *)realloc(small, huge);
    printf("realloc(small, 1 EiB): %s, small[3] = %d\n", r == NULL ? "NULL" : "not NULL", small[3]);

    int *d = NULL;
    cudaError_t err = cudaMalloc(&d, huge);
    printf("cudaMalloc(1 EiB): %s\n", cudaGetErrorName(err));
    printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
    err = cudaMalloc(&d, n * sizeof(int));
    printf("cudaMalloc(64 B): %s\n", cudaGetErrorName(err));
    fill<<<1, n>>>(d, n);
    cudaMemcpy(small, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    printf("small[15] = %d\n", small[15]);
    cudaFree(d);
    free(small);
    return 0;
}

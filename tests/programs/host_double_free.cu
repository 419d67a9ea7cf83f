// finding: twice
// status: 1
// Lab 4 (buggy): a cleanup function frees a buffer that main frees again.
#include <stdio.h>
#include <stdlib.h>

__global__ void negate(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = -v[i];
}

void cleanup(int *h, int *d)
{
    free(h);
    cudaFree(d);
}

int main(void)
{
    const int n = 32;
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = i;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    negate<<<1, 32>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    printf("h[5] = %d\n", h[5]);
    cleanup(h, d);
    free(h);
    printf("done\n");
    return 0;
}

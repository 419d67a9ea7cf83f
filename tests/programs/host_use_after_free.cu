// finding: after it was freed
// status: 1
// Lab 4 (buggy): the host buffer is freed before the results are printed.
#include <stdio.h>
#include <stdlib.h>

__global__ void iota(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = 0.5f * i;
}

int main(void)
{
    int n = 64;
    size_t bytes = n * sizeof(float);
    float *h_v = (float *)malloc(bytes);
    float *d_v;
    cudaMalloc(&d_v, bytes);
    iota<<<1, 64>>>(d_v, n);
    cudaMemcpy(h_v, d_v, bytes, cudaMemcpyDeviceToHost);
    printf("copied %d values\n", n);
    free(h_v);
    cudaFree(d_v);
    printf("v[10] = %.1f\n", h_v[10]);
    return 0;
}

// finding: reads out of bounds: 0 bytes after the end of `h_data`
// status: 1
// Homework 2 (buggy): the CPU check sums one element too many.
#include <stdio.h>
#include <stdlib.h>

__global__ void scale(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= 3;
}

int sum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i <= n; i++)   // <= : one past the end
        s += v[i];
    return s;
}

int main(void)
{
    const int n = 256;
    int *h_data = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h_data[i] = i % 7;
    int *d_data;
    cudaMalloc((void **)&d_data, n * sizeof(int));
    cudaMemcpy(d_data, h_data, n * sizeof(int), cudaMemcpyHostToDevice);
    scale<<<2, 128>>>(d_data, n);
    cudaMemcpy(h_data, d_data, n * sizeof(int), cudaMemcpyDeviceToHost);
    printf("first %d, last %d\n", h_data[0], h_data[n - 1]);
    printf("sum %d\n", sum(h_data, n));
    free(h_data);
    cudaFree(d_data);
    return 0;
}

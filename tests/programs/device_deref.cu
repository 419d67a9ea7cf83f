// finding: points to device memory from cudaMalloc
// status: 1
// A common first mistake: reading the result through the device pointer.
#include <stdio.h>
#include <stdlib.h>

__global__ void square(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] * v[i];
}

int main()
{
    const int n = 64;
    int h_v[n];
    for (int i = 0; i < n; i++) h_v[i] = i;
    int *d_v;
    cudaMalloc(&d_v, n * sizeof(int));
    cudaMemcpy(d_v, h_v, n * sizeof(int), cudaMemcpyHostToDevice);
    square<<<1, n>>>(d_v, n);
    cudaDeviceSynchronize();
    printf("squares computed\n");
    printf("v[3] = %d\n", d_v[3]);
    cudaFree(d_v);
    return 0;
}

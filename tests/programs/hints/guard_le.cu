// The kernel's guard is off by one (i <= n): the guard is there and wrong, so the hint to add one does
// not fit.
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void scale(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) a[i] = 2.0f * a[i];
}

int main()
{
    int n = 1000;
    float *d_a;
    cudaMalloc(&d_a, n * sizeof(float));
    cudaMemset(d_a, 0, n * sizeof(float));
    scale<<<(n + 255) / 256, 256>>>(d_a, n);
    cudaDeviceSynchronize();
    cudaFree(d_a);
    return 0;
}

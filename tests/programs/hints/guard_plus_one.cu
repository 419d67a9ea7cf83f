// The kernel has a guard, and reads a[i + 1]: the last thread reads one past the end. No hint about sizes
// or guards fits.
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void diff(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i + 1] - a[i];
}

int main()
{
    int n = 1000;
    float *d_a, *d_c;
    cudaMalloc(&d_a, n * sizeof(float));
    cudaMalloc(&d_c, n * sizeof(float));
    cudaMemset(d_a, 0, n * sizeof(float));
    diff<<<(n + 255) / 256, 256>>>(d_a, d_c, n);
    cudaDeviceSynchronize();
    cudaFree(d_a);
    cudaFree(d_c);
    return 0;
}

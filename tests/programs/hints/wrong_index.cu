// No guard, but the grid has exactly as many threads as elements: the index is what is wrong (2 * i), and
// no hint about sizes or guards fits.
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void pairs(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[2 * i];
}

int main()
{
    int n = 256;
    float *d_a, *d_c;
    cudaMalloc(&d_a, n * sizeof(float));
    cudaMalloc(&d_c, n * sizeof(float));
    cudaMemset(d_a, 0, n * sizeof(float));
    pairs<<<2, 128>>>(d_a, d_c, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return 0;
}

// No guard, and the index written inline in the subscript: the guard hint quotes it as the source writes it.
#include <stdio.h>
__global__ void fill(float *out, size_t count)
{
    unsigned int tid = threadIdx.x + blockIdx.x * blockDim.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
int main()
{
    size_t count = 300;
    float *d;
    cudaMallocManaged(&d, count * sizeof(float));
    fill<<<3, 128>>>(d, count);
    cudaDeviceSynchronize();
    printf("%f\n", d[5]);
    cudaFree(d);
    return 0;
}

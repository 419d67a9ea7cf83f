// The built-in index vectors as values: `auto t = threadIdx;` (a uint3), `dim3` values and parameters of
// device functions, their fields printed with %d; the comma operator in a for loop's step.
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned int linear(dim3 idx, dim3 dim)
{
    return idx.x + idx.y * dim.x;
}

__device__ float leibniz(int iterations)
{
    float pi = 0.f, m = 1.f;
    for (int n = 0; n < iterations; n++, m *= -1.f)
        pi += 4.f * (m / (2 * n + 1));
    return pi;
}

__global__ void ids()
{
    const auto t = threadIdx;
    const auto b = blockIdx;
    uint3 copy = t;
    dim3 d = blockDim;
    printf("block %d,%d thread %d,%d linear %d of %d\n", b.x, b.y, t.x, t.y, linear(copy, d), d.x * d.y);
    if (t.x == 0 && t.y == 0 && b.x == 0)
        printf("pi ~ %.2f\n", leibniz(1000));
}

int main()
{
    ids<<<dim3(2, 1), dim3(2, 2)>>>();
    cudaDeviceSynchronize();
    return 0;
}

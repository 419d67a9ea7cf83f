// `new` of more than any machine gives: the uncaught std::bad_alloc ends the program (libstdc++'s terminate
// message, SIGABRT).
#include <cstdio>
#include <iostream>

__global__ void scale(float *a, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] *= s;
}

int main()
{
    const int n = 256;
    float *h = new float[n];
    for (int i = 0; i < n; i++)
        h[i] = i;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<1, n>>>(d, 0.5f, n);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::cout << "h[10] = " << h[10] << std::endl;
    cudaFree(d);
    delete[] h;

    size_t count = (size_t)1 << 43; // 32 TiB of floats
    std::cout << "asking for " << count << " floats" << std::endl;
    float *big = new float[count];
    big[0] = 1.0f;
    std::cout << "never printed" << std::endl;
    delete[] big;
    return 0;
}
// finding: host code at line 30 asks `new` for 35184372088832 bytes
// status: 1

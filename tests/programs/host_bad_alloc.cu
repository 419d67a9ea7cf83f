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

    size_t count = (size_t)1 << 58; // 1 EiB of floats: more than any machine maps
    std::cout << "asking for " << count << " floats" << std::endl;
    float *big = new float[count];
    // Printing the address keeps g++ -O2 from eliding the allocation (C++14 lets it drop an unused `new`).
    std::cout << "allocated at " << (void *)big << std::endl;
    std::cout << "never printed" << std::endl;
    delete[] big;
    return 0;
}
// finding: host code at line 30 asks `new` for 1152921504606846976 bytes
// status: 1

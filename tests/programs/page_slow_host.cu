// not compared: the playground page's tests' program (a key pressed while the host code runs before the first launch); its sum is checked against `warpdbg run` itself
// Host code that runs a while (an interpreted loop of 8 million iterations) before its one launch.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add_one(int *v)
{
    v[threadIdx.x] += 1;
}

int main()
{
    long long sum = 0;
    for (int i = 0; i < (1 << 23); i++) {
        sum += i % 7;
    }
    printf("host sum = %lld\n", sum);
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    cudaMemset(d, 0, 32 * sizeof(int));
    add_one<<<1, 32>>>(d);
    int h[32];
    cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("h[31] = %d\n", h[31]);
    return 0;
}

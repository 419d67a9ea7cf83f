// __managed__ file-scope variables as course code uses them: a counter, a float total and an array that a
// kernel updates with atomics and host code reads and writes by name, without any copy.
#include <cstdio>

__managed__ int counter = 5;
__device__ __managed__ float total;
__managed__ int hist[4];

__global__ void count(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&counter, 1);
        atomicAdd(&total, (float)v[i]);
        atomicAdd(&hist[v[i] % 4], 1);
    }
}

void report(const char *when)
{
    printf("%s: counter %d total %.1f hist %d %d %d %d\n", when, counter, total, hist[0], hist[1], hist[2], hist[3]);
}

int main()
{
    const int n = 100;
    int *v;
    cudaMallocManaged(&v, n * sizeof(int));
    for (int i = 0; i < n; i++) v[i] = i;
    report("before");
    total = 0.5f;
    count<<<4, 32>>>(v, n);
    cudaDeviceSynchronize();
    report("after");
    counter = 0;
    count<<<1, 128>>>(v, 10);
    cudaDeviceSynchronize();
    report("again");
    cudaFree(v);
    return 0;
}

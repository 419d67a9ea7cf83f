// A grid rounded up past n with no `if (i < n)`: thread n writes and then reads one element past the end.
#include <cstdio>

__global__ void twice(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = 2 * i;
    int back = a[i];
    if (i == n) printf("past the end: %d\n", back);
}

int main() {
    const int n = 31;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    twice<<<1, 32>>>(d, n);
    int h[n];
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    printf("last %d, error %s\n", h[n - 1], cudaGetErrorString(cudaGetLastError()));
    cudaFree(d);
    return 0;
}

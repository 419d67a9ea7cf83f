// Sums an array on the GPU, but copies n bytes where n * sizeof(int) was meant: three quarters of the
// device array were never written, and the kernel reads them (compute-sanitizer's initcheck reports it).
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, in[i]);
}

int main(void)
{
    const int n = 256;
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = 1;
    int *d_in;
    int *d_out;
    cudaMalloc((void **)&d_in, n * sizeof(int));
    cudaMalloc((void **)&d_out, sizeof(int));
    cudaMemcpy(d_in, h, n, cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof(int));
    sum<<<n / 128, 128>>>(d_in, d_out, n);
    int total = 0;
    cudaMemcpy(&total, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("copied %d ints\n", n / 4);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h);
    return 0;
}

// finding: which nothing wrote

// Pinned host memory with asynchronous copies on two streams, managed memory the host and the kernel
// share, and a mapped pinned buffer the kernel writes directly.
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void addOne(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += 1;
}

int main(void)
{
    const int n = 1024, half = n / 2;
    int *h_pinned;
    int *d_v;
    cudaMallocHost((void **)&h_pinned, n * sizeof(int));
    cudaMalloc((void **)&d_v, n * sizeof(int));
    for (int i = 0; i < n; i++) h_pinned[i] = i;

    cudaStream_t s[2];
    for (int k = 0; k < 2; k++) cudaStreamCreate(&s[k]);
    for (int k = 0; k < 2; k++) {
        int off = k * half;
        cudaMemcpyAsync(d_v + off, h_pinned + off, half * sizeof(int), cudaMemcpyHostToDevice, s[k]);
        addOne<<<half / 256, 256, 0, s[k]>>>(d_v + off, half);
        cudaMemcpyAsync(h_pinned + off, d_v + off, half * sizeof(int), cudaMemcpyDeviceToHost, s[k]);
    }
    for (int k = 0; k < 2; k++) cudaStreamSynchronize(s[k]);
    printf("streams: %d %d %d\n", h_pinned[0], h_pinned[half], h_pinned[n - 1]);
    for (int k = 0; k < 2; k++) cudaStreamDestroy(s[k]);

    int *m;
    cudaMallocManaged((void **)&m, n * sizeof(int));
    for (int i = 0; i < n; i++) m[i] = 10 * i;
    addOne<<<n / 256, 256>>>(m, n);
    cudaDeviceSynchronize();
    printf("managed: %d %d\n", m[0], m[n - 1]);

    int *h_mapped;
    int *d_mapped;
    cudaHostAlloc((void **)&h_mapped, 4 * sizeof(int), cudaHostAllocMapped);
    for (int i = 0; i < 4; i++) h_mapped[i] = 100;
    cudaHostGetDevicePointer((void **)&d_mapped, h_mapped, 0);
    addOne<<<1, 4>>>(d_mapped, 4);
    cudaDeviceSynchronize();
    printf("mapped: %d %d\n", h_mapped[0], h_mapped[3]);

    cudaMemset(d_v, 0, n * sizeof(int));
    cudaMemcpy(h_pinned, d_v, n * sizeof(int), cudaMemcpyDefault);
    printf("memset: %d\n", h_pinned[7]);

    cudaFree(m);
    cudaFreeHost(h_mapped);
    cudaFreeHost(h_pinned);
    cudaFree(d_v);
    return 0;
}

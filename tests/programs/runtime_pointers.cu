// What cudaPointerGetAttributes says of each kind of memory (pinned memory from cudaMallocHost is freed with
// cudaFreeHost, managed memory with cudaFree).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i * i;
}

static const char *kind(cudaMemoryType t)
{
    switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered host";
    case cudaMemoryTypeHost: return "pinned host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
    }
    return "?";
}

int main()
{
    const int n = 64;
    int *host = (int *)malloc(n * sizeof(int));
    int *dev, *pinned, *managed;
    cudaMalloc(&dev, n * sizeof(int));
    cudaMallocHost(&pinned, n * sizeof(int));
    cudaMallocManaged(&managed, n * sizeof(int));

    int *ptrs[4] = {host, dev, pinned, managed};
    const char *names[4] = {"malloc", "cudaMalloc", "cudaMallocHost", "cudaMallocManaged"};
    for (int k = 0; k < 4; k++) {
        cudaPointerAttributes attr;
        cudaError_t err = cudaPointerGetAttributes(&attr, ptrs[k]);
        printf("%-17s %s: %s, device %d, device pointer %s, host pointer %s\n", names[k],
               cudaGetErrorName(err), kind(attr.type), attr.device,
               attr.devicePointer == ptrs[k] ? "same" : (attr.devicePointer ? "other" : "null"),
               attr.hostPointer == ptrs[k] ? "same" : (attr.hostPointer ? "other" : "null"));
    }
    cudaPointerAttributes inner;
    cudaPointerGetAttributes(&inner, dev + 10);
    printf("dev + 10: %s, device pointer is dev + %d\n", kind(inner.type), (int)((int *)inner.devicePointer - dev));

    fill<<<1, n>>>(managed, n);
    cudaDeviceSynchronize();
    printf("managed[7] = %d\n", managed[7]);

    printf("cudaFreeHost(pinned): %s\n", cudaGetErrorName(cudaFreeHost(pinned)));
    printf("cudaFree(managed): %s\n", cudaGetErrorName(cudaFree(managed)));
    cudaFree(dev);
    free(host);
    return 0;
}

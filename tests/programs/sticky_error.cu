// A kernel writes through a null pointer. The launch itself succeeds; the fault shows at the next call
// that waits for the GPU, and from then on every call returns it: the context is broken ("sticky").
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void writeAt(int *p, int i)
{
    p[i + threadIdx.x] = 7;
}

void report(const char *what, cudaError_t e)
{
    printf("%-16s %s\n", what, cudaGetErrorName(e));
}

int main(void)
{
    int *d_buf;
    report("malloc", cudaMalloc((void **)&d_buf, 64 * sizeof(int)));
    int *bad = NULL;
    writeAt<<<1, 32>>>(bad, 0);
    report("launch", cudaGetLastError());
    report("synchronize", cudaDeviceSynchronize());
    report("last error", cudaGetLastError());
    report("last again", cudaGetLastError());
    int *d_more;
    report("malloc after", cudaMalloc((void **)&d_more, 16));
    int h[4] = {1, 2, 3, 4};
    report("memcpy after", cudaMemcpy(h, d_buf, sizeof(h), cudaMemcpyDeviceToHost));
    writeAt<<<1, 1>>>(d_buf, 0);
    report("launch after", cudaGetLastError());
    printf("h[0] = %d\n", h[0]);
    report("reset", cudaDeviceReset());
    report("malloc after reset", cudaMalloc((void **)&d_more, 16));
    report("free", cudaFree(d_more));
    return 0;
}

// finding: wrote through a null pointer at line 8
// differs from line 11: after cudaDeviceReset the lent H100 answered cudaErrorDevicesUnavailable; warpdbg gives a fresh device, as CUDA documents (docs/programs.md)

// The error codes of the CUDA runtime: launches the driver refuses, a bad copy direction, a bad device.
// Every error is checked, so the program prints them and exits 0 (a GPU prints the same).
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void fill(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

__global__ void stage(int *out, int n)
{
    extern __shared__ int tile[];
    int i = threadIdx.x;
    tile[i] = i;
    __syncthreads();
    if (i < n) out[i] = tile[blockDim.x - 1 - i];
}

void report(const char *what, cudaError_t e)
{
    printf("%-24s %2d %s: %s\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
}

int main(void)
{
    const int n = 1024;
    int *d_out;
    cudaMalloc((void **)&d_out, n * sizeof(int));

    fill<<<2, 2048>>>(d_out, n);
    report("<<<2, 2048>>>", cudaGetLastError());
    fill<<<0, 128>>>(d_out, n);
    report("<<<0, 128>>>", cudaGetLastError());
    fill<<<1, dim3(2, 2, 128)>>>(d_out, n);
    report("block z 128", cudaGetLastError());
    fill<<<dim3(1, 70000), 32>>>(d_out, n);
    report("grid y 70000", cudaGetLastError());
    stage<<<1, 32, 64 * 1024>>>(d_out, n);
    report("64 KiB dynamic shared", cudaGetLastError());
    report("error read, now", cudaGetLastError());

    fill<<<4, 256>>>(d_out, n);
    report("<<<4, 256>>>", cudaGetLastError());
    report("synchronize", cudaDeviceSynchronize());

    fill<<<1, 1025>>>(d_out, n);
    report("peek", cudaPeekAtLastError());
    report("peek again", cudaPeekAtLastError());
    report("get", cudaGetLastError());
    report("get again", cudaGetLastError());

    int h[4];
    report("memcpy kind 7", cudaMemcpy(h, d_out, sizeof(h), (cudaMemcpyKind)7));
    report("set device 99", cudaSetDevice(99));
    int count = -1, dev = -1;
    report("device count", cudaGetDeviceCount(&count));
    report("get device", cudaGetDevice(&dev));
    printf("count %d, device %d\n", count, dev);

    report("memcpy back", cudaMemcpy(h, d_out + 1020, sizeof(h), cudaMemcpyDeviceToHost));
    printf("h = %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    report("free", cudaFree(d_out));
    return 0;
}

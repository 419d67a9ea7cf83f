// What the CUDA runtime says about launches it refuses, and about calls after a kernel faults.
// Recorded on an H100 (tests/programs/expected/launch_errors.stdout); warpdbg must print the same.
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void touch(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i;
}

__global__ void wild(int *p)
{
    p[threadIdx.x + (1 << 28)] = 1;
}

static void report(const char *what)
{
    cudaError_t e = cudaGetLastError();
    printf("%-28s -> %2d %s: %s\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
}

int main(void)
{
    int *d = NULL;
    cudaMalloc((void **)&d, 1024 * sizeof(int));

    touch<<<2, 2048>>>(d, 1024);
    report("block of 2048 threads");
    touch<<<0, 32>>>(d, 1024);
    report("grid of 0 blocks");
    touch<<<1, 0>>>(d, 1024);
    report("block of 0 threads");
    touch<<<1, dim3(32, 32, 2)>>>(d, 1024);
    report("block 32x32x2");
    touch<<<1, dim3(1, 1, 65)>>>(d, 1024);
    report("block z of 65");
    touch<<<dim3(1, 65536), 32>>>(d, 1024);
    report("grid y of 65536");
    touch<<<1, 32, 200 * 1024>>>(d, 1024);
    report("200 KiB dynamic shared");
    touch<<<1, 32, 49 * 1024>>>(d, 1024);
    report("49 KiB dynamic shared");
    touch<<<4, 256>>>(d, 1024);
    report("a good launch");
    cudaError_t s = cudaDeviceSynchronize();
    printf("synchronize after it       -> %2d %s\n", (int)s, cudaGetErrorName(s));

    int codes[] = {0, 1, 2, 3, 9, 11, 17, 21, 98, 101, 200, 209, 400, 700, 701, 702, 709, 710, 716, 719, 999};
    for (int i = 0; i < (int)(sizeof(codes) / sizeof(codes[0])); i++) {
        cudaError_t c = (cudaError_t)codes[i];
        printf("%3d %s: %s\n", codes[i], cudaGetErrorName(c), cudaGetErrorString(c));
    }

    wild<<<1, 32>>>(d);
    report("launch of a faulting kernel");
    s = cudaDeviceSynchronize();
    printf("synchronize                -> %2d %s\n", (int)s, cudaGetErrorName(s));
    report("then cudaGetLastError");
    report("and again");
    int h[4];
    s = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("cudaMemcpy                 -> %2d %s\n", (int)s, cudaGetErrorName(s));
    int *e = NULL;
    s = cudaMalloc((void **)&e, 64);
    printf("cudaMalloc                 -> %2d %s\n", (int)s, cudaGetErrorName(s));
    touch<<<1, 32>>>(d, 1024);
    report("a launch after the fault");
    s = cudaFree(d);
    printf("cudaFree                   -> %2d %s\n", (int)s, cudaGetErrorName(s));
    s = cudaDeviceReset();
    printf("cudaDeviceReset            -> %2d %s\n", (int)s, cudaGetErrorName(s));
    s = cudaMalloc((void **)&e, 64);
    printf("cudaMalloc after reset     -> %2d %s\n", (int)s, cudaGetErrorName(s));
    report("cudaGetLastError after it");
    return 0;
}

// finding: wrote d[268435456]
// differs from line 41: after cudaDeviceReset the lent H100 answered cudaErrorDevicesUnavailable; warpdbg gives a fresh device, as CUDA documents (docs/programs.md)

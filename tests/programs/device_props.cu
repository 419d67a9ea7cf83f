// Prints the device's properties, as deviceQuery-style homework does. warpdbg reports its own simulated
// device (docs/programs.md), so these lines differ from a real GPU's by design; their shape is the same.
#include <stdio.h>
#include <cuda_runtime.h>

int main(void)
{
    int count = 0;
    cudaGetDeviceCount(&count);
    printf("devices: %d\n", count);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("name: %s\n", prop.name);
    printf("compute capability: %d.%d\n", prop.major, prop.minor);
    printf("global memory: %zu MiB\n", prop.totalGlobalMem / (1024 * 1024));
    printf("shared memory per block: %zu bytes\n", prop.sharedMemPerBlock);
    printf("registers per block: %d\n", prop.regsPerBlock);
    printf("warp size: %d\n", prop.warpSize);
    printf("max threads per block: %d\n", prop.maxThreadsPerBlock);
    printf("max block: %d x %d x %d\n", prop.maxThreadsDim[0], prop.maxThreadsDim[1], prop.maxThreadsDim[2]);
    printf("max grid: %d x %d x %d\n", prop.maxGridSize[0], prop.maxGridSize[1], prop.maxGridSize[2]);
    printf("multiprocessors: %d\n", prop.multiProcessorCount);
    printf("clock rate: %d kHz\n", prop.clockRate);
    printf("memory clock: %d kHz, bus %d bits\n", prop.memoryClockRate, prop.memoryBusWidth);
    printf("peak bandwidth: %.1f GB/s\n", 2.0 * prop.memoryClockRate * (prop.memoryBusWidth / 8) / 1.0e6);
    printf("L2 cache: %d bytes\n", prop.l2CacheSize);
    printf("max threads per SM: %d\n", prop.maxThreadsPerMultiProcessor);
    printf("constant memory: %zu bytes\n", prop.totalConstMem);
    int value = 0;
    cudaDeviceGetAttribute(&value, cudaDevAttrMaxBlockDimZ, 0);
    printf("attribute max block z: %d\n", value);
    int driver = 0;
    cudaDriverGetVersion(&driver);
    printf("driver version >= 12000: %s\n", driver >= 12000 ? "yes" : "no");
    return 0;
}

// not compared: warpdbg reports its own simulated device (its name and figures differ from any GPU's), and CUDA 13's nvcc rejects clockRate and memoryClockRate, which courses print

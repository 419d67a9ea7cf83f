// Reserving much device memory and touching little of it (issue 33: a course's oversubscription programs
// allocate 1 to 30 GB): every cudaMalloc below fits an 80 GB GPU, a kernel writes a few elements far apart,
// and the copy back reads them. Two allocations that together pass the GPU's memory (an H100's or an H200's):
// the second fails with cudaErrorMemoryAllocation and the program goes on. Managed memory of 20 GB is written sparsely by the
// device and read by the host.
#include <stdio.h>
#include <stdint.h>

__global__ void touch(uint64_t *x, size_t n, size_t stride)
{
    size_t i = (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * stride;
    if (i < n)
        x[i] = i + 1;
}

int main()
{
    const size_t GB = (size_t)1 << 30;
    for (int g = 1; g <= 30; g += 14)
    {
        size_t bytes = g * GB;
        size_t n = bytes / sizeof(uint64_t);
        uint64_t *x = NULL;
        cudaError_t err = cudaMalloc(&x, bytes);
        if (err != cudaSuccess)
        {
            printf("cudaMalloc(%d GB): %s\n", g, cudaGetErrorString(err));
            return 1;
        }
        size_t stride = n / 64;
        touch<<<1, 64>>>(x, n, stride);
        uint64_t first = 0, middle = 0, last = 0;
        cudaMemcpy(&first, x, sizeof(uint64_t), cudaMemcpyDeviceToHost);
        cudaMemcpy(&middle, x + 32 * stride, sizeof(uint64_t), cudaMemcpyDeviceToHost);
        cudaMemcpy(&last, x + 63 * stride, sizeof(uint64_t), cudaMemcpyDeviceToHost);
        printf("%2d GB: x[0] = %llu, x[32 * %zu] = %llu, x[63 * %zu] = %llu\n", g, (unsigned long long)first,
               stride, (unsigned long long)middle, stride, (unsigned long long)last);
        cudaFree(x);
    }

    // 60 GB fits an H100 (80 GB) and an H200 (141 GB); 90 GB more fits neither.
    char *a = NULL, *b = NULL;
    cudaError_t ea = cudaMalloc(&a, 60 * GB);
    cudaError_t eb = cudaMalloc(&b, 90 * GB);
    printf("60 GB: %s; 90 GB more: %s\n", cudaGetErrorName(ea), cudaGetErrorName(eb));
    printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaFree(a);
    eb = cudaMalloc(&b, 60 * GB);
    printf("60 GB after freeing the first 60: %s\n", cudaGetErrorName(eb));
    cudaFree(b);

    size_t n = 20 * GB / sizeof(uint64_t);
    uint64_t *m = NULL;
    cudaError_t em = cudaMallocManaged(&m, 20 * GB);
    printf("cudaMallocManaged(20 GB): %s\n", cudaGetErrorName(em));
    touch<<<2, 32>>>(m, n, n / 64);
    cudaDeviceSynchronize();
    unsigned long long sum = 0;
    for (int k = 0; k < 64; k++)
        sum += m[k * (n / 64)];
    printf("sum of the 64 touched elements: %llu\n", sum);
    cudaFree(m);
    return 0;
}
// heavy: 30 GB reserved; each launch walks warpdbg's records of every allocation (20 s unoptimised)

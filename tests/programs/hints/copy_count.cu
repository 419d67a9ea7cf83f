// The allocation is n * sizeof(float) bytes; the copy's count multiplies by sizeof(float) a second time. The
// host buffer is as small as the allocation, so the count is wrong, not the allocation: no sizeof hint.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
int main(void)
{
    int n = 256;
    size_t bytes = n * sizeof(float);
    float *h = (float *)malloc(bytes);
    float *d;
    cudaMalloc(&d, bytes);
    cudaError_t e = cudaMemcpy(d, h, bytes * sizeof(float), cudaMemcpyHostToDevice);
    printf("%s\n", cudaGetErrorName(e));
    cudaFree(d);
    free(h);
    return 0;
}

// The classic first bug: cudaMalloc takes bytes, but this program passes the element count. The copy that
// follows is four times larger than the allocation, and the runtime refuses it.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        cudaError_t err = (call);                                              \
        if (err != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error at %s:%d: %s\n", __FILE__, __LINE__,   \
                    cudaGetErrorString(err));                                  \
            exit(EXIT_FAILURE);                                                \
        }                                                                      \
    } while (0)

__global__ void square(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] * v[i];
}

int main(void)
{
    int n = 256;
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = i;
    int *d_v;
    CHECK(cudaMalloc((void **)&d_v, n));
    CHECK(cudaMemcpy(d_v, h, n * sizeof(int), cudaMemcpyHostToDevice));
    square<<<1, n>>>(d_v, n);
    CHECK(cudaMemcpy(h, d_v, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("h[10] = %d\n", h[10]);
    return 0;
}

// finding: copies 1024 bytes into `d_v`, which has 256 bytes

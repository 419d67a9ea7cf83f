// Scales a vector on the GPU and forgets to free two of its three device buffers.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void scale(const float *in, float *out, float k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = k * in[i];
}

int main(void)
{
    const int n = 4096;
    size_t bytes = n * sizeof(float);
    float *h = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) h[i] = (float)i;
    float *d_in;
    float *d_out;
    float *d_tmp;
    cudaMalloc((void **)&d_in, bytes);
    cudaMalloc((void **)&d_out, bytes);
    cudaMalloc((void **)&d_tmp, 256);
    cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice);
    scale<<<(n + 255) / 256, 256>>>(d_in, d_out, 3.0f, n);
    cudaMemcpy(h, d_out, bytes, cudaMemcpyDeviceToHost);
    printf("h[1] = %.1f, h[n-1] = %.1f\n", h[1], h[n - 1]);
    cudaFree(d_in);
    free(h);
    return 0;
}

// A 1D stencil whose coefficients live in __constant__ memory (cudaMemcpyToSymbol) and a __device__
// counter read back with cudaMemcpyFromSymbol.
#include <stdio.h>
#include <cuda_runtime.h>

#define RADIUS 2
__constant__ float coef[2 * RADIUS + 1];
__device__ int calls;

__global__ void stencil(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= RADIUS && i < n - RADIUS) {
        float s = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; k++) s += coef[k + RADIUS] * in[i + k];
        out[i] = s;
    }
    if (i == 0) atomicAdd(&calls, 1);
}

int main(void)
{
    const int n = 256;
    float h_in[n], h_out[n];
    for (int i = 0; i < n; i++) h_in[i] = (float)i;
    float h_coef[2 * RADIUS + 1] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
    cudaMemcpyToSymbol(coef, h_coef, sizeof(h_coef));
    float *d_in;
    float *d_out;
    cudaMalloc((void **)&d_in, n * sizeof(float));
    cudaMalloc((void **)&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, n * sizeof(float));
    for (int rep = 0; rep < 3; rep++) stencil<<<n / 64, 64>>>(d_in, d_out, n);
    cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    int h_calls = 0;
    cudaMemcpyFromSymbol(&h_calls, calls, sizeof(int));
    printf("out[2] = %.2f, out[100] = %.2f, out[254] = %.2f\n", h_out[2], h_out[100], h_out[254]);
    printf("kernel ran %d times\n", h_calls);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}

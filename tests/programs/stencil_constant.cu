// A 1D stencil of radius 4 whose coefficients live in __constant__ memory (cudaMemcpyToSymbol), with the
// halo staged in shared memory, checked against the CPU (course homework style).
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define RADIUS 4
#define BDIM 128
#define CHECK(call)                                                              \
    {                                                                            \
        const cudaError_t error = call;                                          \
        if (error != cudaSuccess) {                                              \
            printf("Error: %s:%d, %s\n", __FILE__, __LINE__, cudaGetErrorString(error)); \
            exit(1);                                                             \
        }                                                                        \
    }

__constant__ float coef[RADIUS + 1];

__global__ void stencil1D(const float *in, float *out, int n)
{
    __shared__ float smem[BDIM + 2 * RADIUS];
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int sidx = threadIdx.x + RADIUS;
    smem[sidx] = in[idx + RADIUS];
    if (threadIdx.x < RADIUS) {
        smem[sidx - RADIUS] = in[idx];
        smem[sidx + BDIM] = in[idx + BDIM + RADIUS];
    }
    __syncthreads();
    float tmp = coef[0] * smem[sidx];
#pragma unroll
    for (int i = 1; i <= RADIUS; i++) tmp += coef[i] * (smem[sidx + i] - smem[sidx - i]);
    if (idx < n) out[idx] = tmp;
}

int main(void)
{
    const int n = 1 << 12;
    const float h_coef[RADIUS + 1] = {0.0f, 0.8f, -0.2f, 0.038f, -0.0035f};
    size_t inBytes = (n + 2 * RADIUS) * sizeof(float);
    float *h_in = (float *)malloc(inBytes);
    float *h_out = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n + 2 * RADIUS; i++) h_in[i] = (float)((i * 37) % 101) / 10.0f;

    float *d_in, *d_out;
    CHECK(cudaMalloc((float **)&d_in, inBytes));
    CHECK(cudaMalloc((float **)&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h_in, inBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(coef, h_coef, (RADIUS + 1) * sizeof(float)));

    stencil1D<<<n / BDIM, BDIM>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

    int mismatches = 0;
    for (int i = 0; i < n; i++) {
        float c = h_coef[0] * h_in[i + RADIUS];
        for (int k = 1; k <= RADIUS; k++) c += h_coef[k] * (h_in[i + RADIUS + k] - h_in[i + RADIUS - k]);
        if (fabsf(c - h_out[i]) > 1e-4f) mismatches++;
    }
    printf("out[0..3] = %.4f %.4f %.4f %.4f\n", h_out[0], h_out[1], h_out[2], h_out[3]);
    printf("out[%d] = %.4f\n", n - 1, h_out[n - 1]);
    printf("%d mismatches\n", mismatches);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return 0;
}

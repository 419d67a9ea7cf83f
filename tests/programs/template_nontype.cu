// Harris-style reduce6 as courses write it: `template <unsigned int blockSize>` kernels and a device helper
// whose `if (blockSize >= 64)` tests fold, a shared array sized by the parameter, and a switch over block sizes
// launching `reduce6<512>`, `reduce6<256>`, ... with explicit arguments; one launch names a `const int`.
#include <cstdio>

template <unsigned int blockSize>
__device__ void warpReduce(volatile int *sdata, unsigned int tid) {
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce6(const int *g_idata, int *g_odata, unsigned int n) {
    __shared__ int sdata[blockSize];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + tid;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    sdata[tid] = 0;
    while (i < n) {
        sdata[tid] += g_idata[i] + g_idata[i + blockSize];
        i += gridSize;
    }
    __syncthreads();
    if (blockSize >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
    if (tid < 32) warpReduce<blockSize>(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

int main() {
    const unsigned int n = 1 << 16;
    int *h = (int *)malloc(n * sizeof(int));
    for (unsigned int i = 0; i < n; i++) h[i] = (int)(i % 7);
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, 64 * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    int sizes[3] = {512, 256, 64};
    const int THREADS = 128;
    for (int s = 0; s < 3; s++) {
        int threads = sizes[s];
        int blocks = 64;
        switch (threads) {
            case 512: reduce6<512><<<blocks, threads>>>(d_in, d_out, n); break;
            case 256: reduce6<256><<<blocks, threads>>>(d_in, d_out, n); break;
            case 128: reduce6<128><<<blocks, threads>>>(d_in, d_out, n); break;
            case 64: reduce6<64><<<blocks, threads>>>(d_in, d_out, n); break;
        }
        int out[64];
        cudaMemcpy(out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
        long total = 0;
        for (int b = 0; b < blocks; b++) total += out[b];
        printf("block size %d: sum %ld\n", threads, total);
    }
    reduce6<THREADS><<<64, THREADS>>>(d_in, d_out, n);
    int last[64];
    cudaMemcpy(last, d_out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("\033[32mconst %d: first block %d\033[0m\n", THREADS, last[0]);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h);
    return 0;
}

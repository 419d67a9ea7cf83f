// A shared write at byte 128 past the start of a 36-byte array: past the block's 128 bytes, a GPU faults.
#include <cstdio>

__global__ void far(int *out) {
    __shared__ int s[9];
    s[threadIdx.x * 32] = 1;
    __syncthreads();
    out[threadIdx.x] = s[0];
}

int main() {
    int *d;
    cudaMalloc(&d, 2 * sizeof(int));
    far<<<1, 2>>>(d);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(d);
    return 0;
}

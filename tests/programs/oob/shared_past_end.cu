// A shared array read one past its end (within the block's 128 bytes): the read gives 0 on a GPU.
#include <cstdio>

__global__ void neighbours(int *out) {
    __shared__ int s[8];
    int t = threadIdx.x;
    s[t] = t + 1;
    __syncthreads();
    out[t] = s[t] + s[t + 1];
}

int main() {
    int *d;
    cudaMalloc(&d, 8 * sizeof(int));
    neighbours<<<1, 8>>>(d);
    int h[8];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++) printf("%d ", h[i]);
    printf("\n%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(d);
    return 0;
}

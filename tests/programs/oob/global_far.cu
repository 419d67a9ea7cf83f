// A global write 64 KB past a small allocation: farther than warpdbg's guard, still a fault.
#include <cstdio>

__global__ void far(int *a) {
    a[threadIdx.x * 16384] = 1;
}

int main() {
    int *d;
    cudaMalloc(&d, 4 * sizeof(int));
    far<<<1, 2>>>(d);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(d);
    return 0;
}

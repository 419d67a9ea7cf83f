// A kernel that takes the runtime's own structs: cudaMalloc3D's `cudaPitchedPtr` and the `cudaExtent` of
// the volume, by value, walking slices and rows by the pitch; cudaMemcpy3D brings the volume back packed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(cudaPitchedPtr vol, cudaExtent ext) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    int nx = ext.width / sizeof(float);
    if (x >= nx || y >= (int)ext.height || z >= (int)ext.depth) return;
    char *slice = (char *)vol.ptr + z * vol.pitch * ext.height;
    float *row = (float *)(slice + y * vol.pitch);
    row[x] = 100.0f * z + 10.0f * y + x;
}

int main() {
    const int nx = 5, ny = 4, nz = 3;
    cudaExtent ext = make_cudaExtent(nx * sizeof(float), ny, nz);
    cudaPitchedPtr dev;
    if (cudaMalloc3D(&dev, ext) != cudaSuccess) {
        printf("cudaMalloc3D failed\n");
        return 1;
    }
    printf("pitch >= row: %s, xsize %zu, ysize %zu\n", dev.pitch >= nx * sizeof(float) ? "yes" : "no",
           dev.xsize, dev.ysize);
    fill<<<dim3(1, 1, nz), dim3(8, 4)>>>(dev, ext);

    float host[nz][ny][nx];
    cudaMemcpy3DParms p = {0};
    p.srcPtr = dev;
    p.dstPtr = make_cudaPitchedPtr(host, nx * sizeof(float), nx, ny);
    p.extent = ext;
    p.kind = cudaMemcpyDeviceToHost;
    cudaError_t err = cudaMemcpy3D(&p);
    printf("copy: %s\n", cudaGetErrorString(err));
    for (int z = 0; z < nz; z++) {
        for (int y = 0; y < ny; y++) {
            for (int x = 0; x < nx; x++) printf("%4.0f", host[z][y][x]);
            printf("\n");
        }
        printf("\n");
    }
    cudaFree(dev.ptr);
    return 0;
}

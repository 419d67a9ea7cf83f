// A 3D grid in pitched device memory: cudaMalloc3D pads each row, cudaMemcpy3D copies between the host's
// packed grid and the padded one, and a kernel walks the rows by their pitch.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err = (call);                                                    \
        if (err != cudaSuccess) {                                                    \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err), __LINE__); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

__global__ void add_coords(char *base, size_t pitch, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    int z = blockIdx.z;
    if (x >= nx) return;
    char *slice = base + z * pitch * ny;
    float *row = (float *)(slice + y * pitch);
    row[x] += 100.0f * z + 10.0f * y;
}

int main()
{
    const int nx = 37, ny = 5, nz = 4;
    const int n = nx * ny * nz;
    float *h = (float *)malloc(n * sizeof(float));
    float *back = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)(i % nx);

    cudaExtent extent = make_cudaExtent(nx * sizeof(float), ny, nz);
    cudaPitchedPtr d;
    CHECK(cudaMalloc3D(&d, extent));
    printf("row %d bytes, pitch %d bytes, xsize %d, ysize %d\n", (int)(nx * sizeof(float)), (int)d.pitch,
           (int)d.xsize, (int)d.ysize);

    cudaMemcpy3DParms up = {0};
    up.srcPtr = make_cudaPitchedPtr(h, nx * sizeof(float), nx, ny);
    up.dstPtr = d;
    up.extent = extent;
    up.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&up));

    dim3 grid((nx + 31) / 32, ny, nz);
    add_coords<<<grid, 32>>>((char *)d.ptr, d.pitch, nx, ny, nz);
    CHECK(cudaGetLastError());

    // Back, one slice and one row in: a sub-box of 2 x 3 rows starting at (y, z) = (1, 1).
    for (int i = 0; i < n; i++) back[i] = -1.0f;
    cudaMemcpy3DParms down = {0};
    down.srcPtr = d;
    down.srcPos = make_cudaPos(0, 1, 1);
    down.dstPtr = make_cudaPitchedPtr(back, nx * sizeof(float), nx, ny);
    down.dstPos = make_cudaPos(0, 1, 1);
    down.extent = make_cudaExtent(nx * sizeof(float), 3, 2);
    down.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&down));

    for (int z = 0; z < nz; z++) {
        for (int y = 0; y < ny; y++) {
            const float *row = back + (z * ny + y) * nx;
            printf("z %d y %d: %6.1f %6.1f %6.1f\n", z, y, row[0], row[1], row[nx - 1]);
        }
    }
    CHECK(cudaFree(d.ptr));
    free(h);
    free(back);
    return 0;
}

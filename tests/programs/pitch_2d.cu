// A 2D image in pitched device memory: cudaMallocPitch pads each row, cudaMemset2D clears a band,
// cudaMemcpy2D copies between the host's packed image and the padded one, and a kernel walks the rows by
// their pitch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err = (call);                                                    \
        if (err != cudaSuccess) {                                                    \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err), __LINE__); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

__global__ void scale_rows(float *img, size_t pitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float *row = (float *)((char *)img + y * pitch);
    row[x] = row[x] * 2.0f + y;
}

int main()
{
    const int width = 50, height = 7;
    float *h = (float *)malloc(width * height * sizeof(float));
    float *back = (float *)malloc(width * height * sizeof(float));
    for (int i = 0; i < width * height; i++) h[i] = (float)(i % width);

    float *d;
    size_t pitch;
    CHECK(cudaMallocPitch((void **)&d, &pitch, width * sizeof(float), height));
    printf("row %d bytes, pitch %d bytes\n", (int)(width * sizeof(float)), (int)pitch);

    CHECK(cudaMemcpy2D(d, pitch, h, width * sizeof(float), width * sizeof(float), height, cudaMemcpyHostToDevice));
    // Rows 2 and 3 cleared, the first 10 floats of each.
    CHECK(cudaMemset2D((char *)d + 2 * pitch, pitch, 0, 10 * sizeof(float), 2));

    dim3 block(16, 4);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    scale_rows<<<grid, block>>>(d, pitch, width, height);
    CHECK(cudaGetLastError());

    for (int i = 0; i < width * height; i++) back[i] = -1.0f;
    CHECK(cudaMemcpy2D(back, width * sizeof(float), d, pitch, width * sizeof(float), height, cudaMemcpyDeviceToHost));
    for (int y = 0; y < height; y++) {
        const float *row = back + y * width;
        printf("y %d: %6.1f %6.1f %6.1f %6.1f\n", y, row[0], row[9], row[10], row[width - 1]);
    }

    // A window of 3 x 2 floats from (4, 1) into a packed host block, asynchronously on the default stream.
    float win[6];
    CHECK(cudaMemcpy2DAsync(win, 3 * sizeof(float), (char *)d + pitch + 4 * sizeof(float), pitch,
                            3 * sizeof(float), 2, cudaMemcpyDeviceToHost, 0));
    CHECK(cudaDeviceSynchronize());
    printf("window: %g %g %g / %g %g %g\n", win[0], win[1], win[2], win[3], win[4], win[5]);

    // A row wider than the pitch is refused before anything moves.
    cudaError_t wide = cudaMemcpy2D(back, 8, d, pitch, 16, 2, cudaMemcpyDeviceToHost);
    printf("wider than the pitch: %s\n", cudaGetErrorName(wide));

    CHECK(cudaFree(d));
    free(h);
    free(back);
    return 0;
}

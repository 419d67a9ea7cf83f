// Overloaded functions, as CUDA by Example's book.h defines them: two `float_to_color`-style kernels of one
// name for two pixel types, and overloaded device helpers. The program launches the first kernel (the one
// every chapter that includes the header could), and a kernel that calls each device overload.
#include <cstdio>

__device__ float clamp01(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
__device__ int clamp01(int x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }

__global__ void to_color(unsigned char *optr, const float *src)
{
    int i = threadIdx.x;
    optr[i] = (unsigned char)(255 * clamp01(src[i]));
}

__global__ void to_color(uchar4 *optr, const float *src)
{
    int i = threadIdx.x;
    optr[i].x = (unsigned char)(255 * clamp01(src[i]));
    optr[i].w = 255;
}

__global__ void both(const float *src, int *out)
{
    int i = threadIdx.x;
    out[i] = (int)(100 * clamp01(src[i])) + 1000 * clamp01((int)src[i]);
}

int main()
{
    const int n = 6;
    float *src;
    unsigned char *grey;
    int *out;
    cudaMallocManaged(&src, n * sizeof(float));
    cudaMallocManaged(&grey, n);
    cudaMallocManaged(&out, n * sizeof(int));
    for (int i = 0; i < n; i++) {
        src[i] = -0.5f + 0.4f * i;
    }
    to_color<<<1, n>>>(grey, src);
    both<<<1, n>>>(src, out);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; i++) {
        printf("%5.2f -> %3d %5d\n", src[i], grey[i], out[i]);
    }
    cudaFree(src);
    cudaFree(grey);
    cudaFree(out);
    return 0;
}

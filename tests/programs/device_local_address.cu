// Device variables whose address is taken: out-parameters of a __device__ function, a swap through
// pointers, a pointer to a loop's local, a parameter's address, sincosf's two outputs, and a local copy of
// warpSize; the stream-ordered allocator on the host.
#include <cstdio>

__device__ void minmax(const int *a, int n, int *lo, int *hi) {
    *lo = a[0];
    *hi = a[0];
    for (int i = 1; i < n; i++) {
        if (a[i] < *lo) *lo = a[i];
        if (a[i] > *hi) *hi = a[i];
    }
}

__device__ void swap(float *a, float *b) {
    float t = *a;
    *a = *b;
    *b = t;
}

__device__ float quarter(float v) {
    float *p = &v;
    *p *= 0.5f;
    *p *= 0.5f;
    return v;
}

__global__ void locals(const int *in, int *ranges, float *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int warpSize = 32;
    int lo, hi;
    minmax(in + t * 4, 4, &lo, &hi);
    ranges[2 * t] = lo;
    ranges[2 * t + 1] = hi;
    float x = t * 1.5f, y = t - 3.0f;
    if (t % 2) swap(&x, &y);
    int count = 0;
    for (int i = 0; i < 3; i++) {
        int step = i + t;
        int *q = &step;
        *q += t / warpSize + 1;
        count += step;
    }
    float s, c;
    sincosf(t * 0.25f, &s, &c);
    out[4 * t] = x;
    out[4 * t + 1] = y + count;
    out[4 * t + 2] = quarter(x + 1.0f);
    out[4 * t + 3] = s * s + c * c;
}

int main() {
    const int n = 64;
    int h[n * 4];
    for (int i = 0; i < n * 4; i++) h[i] = (i * 37) % 101 - 50;
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    int *in, *ranges;
    float *out;
    cudaMallocAsync((void **)&in, sizeof h, stream);
    cudaMallocAsync((void **)&ranges, 2 * n * sizeof(int), stream);
    cudaMallocAsync((void **)&out, 4 * n * sizeof(float), stream);
    cudaMemcpyAsync(in, h, sizeof h, cudaMemcpyHostToDevice, stream);
    locals<<<2, n / 2, 0, stream>>>(in, ranges, out);
    int r[2 * n];
    float f[4 * n];
    cudaMemcpyAsync(r, ranges, sizeof r, cudaMemcpyDeviceToHost, stream);
    cudaMemcpyAsync(f, out, sizeof f, cudaMemcpyDeviceToHost, stream);
    cudaFreeAsync(in, stream);
    cudaFreeAsync(ranges, stream);
    cudaFreeAsync(out, stream);
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int warpSize = prop.warpSize;
    printf("warp size %d, %s\n", warpSize, cudaGetErrorString(cudaGetLastError()));
    for (int t = 0; t < n; t += 7)
        printf("%2d: lo %3d hi %3d  x %5.1f  y %6.1f  quarter %6.3f  one %.3f\n", t, r[2 * t], r[2 * t + 1],
               f[4 * t], f[4 * t + 1], f[4 * t + 2], f[4 * t + 3]);
    float s, c;
    sincosf(0.5f, &s, &c);
    printf("host sincos %.5f %.5f\n", s, c);
    return 0;
}

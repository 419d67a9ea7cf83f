// A complex-number class in device code, as CUDA by Example's julia set writes it: a constructor with member
// initialisers, member operators, a const method, a free operator and a static maker. The Mandelbrot set on a
// small grid (steps of 1/4, so every product is exact in float) printed as an ASCII picture, then a checksum.
#include <cstdio>

struct cuComplex {
    float r;
    float i;
    __device__ cuComplex(float a, float b) : r(a), i(b) {}
    __device__ cuComplex() : r(0.0f), i(0.0f) {}
    __device__ float magnitude2(void) const { return r * r + i * i; }
    __device__ cuComplex operator*(const cuComplex &a) const { return cuComplex(r * a.r - i * a.i, i * a.r + r * a.i); }
    __device__ cuComplex operator+(const cuComplex &a) const { return cuComplex(r + a.r, i + a.i); }
    __device__ cuComplex &operator+=(const cuComplex &a) { r += a.r; i += a.i; return *this; }
    __device__ static cuComplex origin() { return cuComplex(-2.0f, -1.25f); }
};

__device__ cuComplex operator-(const cuComplex &a) { return cuComplex(-a.r, -a.i); }

#define W 12
#define H 11
#define MAX_ITER 6

__device__ int mandel(cuComplex c) {
    cuComplex z;
    for (int n = 0; n < MAX_ITER; n++) {
        z = z * z + c;
        if (z.magnitude2() > 4.0f) return n;
    }
    return MAX_ITER;
}

__global__ void kernel(int *iters, int *sum) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= W) return;
    cuComplex c = cuComplex::origin();
    c += cuComplex(0.25f * x, 0.25f * y);
    int n = mandel(c);
    iters[y * W + x] = n;
    // The picture is symmetric about the real axis: the mirrored point escapes at the same step.
    cuComplex m = -c;
    m.r = -m.r;
    if (mandel(m) == n) atomicAdd(sum, n);
}

int main() {
    int *d_iters, *d_sum;
    int h_iters[W * H];
    int h_sum = 0;
    cudaMalloc(&d_iters, sizeof(h_iters));
    cudaMalloc(&d_sum, sizeof(int));
    cudaMemcpy(d_sum, &h_sum, sizeof(int), cudaMemcpyHostToDevice);
    kernel<<<dim3(1, H), 32>>>(d_iters, d_sum);
    cudaMemcpy(h_iters, d_iters, sizeof(h_iters), cudaMemcpyDeviceToHost);
    cudaMemcpy(&h_sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost);
    const char *shades = " .:-=+#";
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) putchar(shades[h_iters[y * W + x]]);
        putchar('\n');
    }
    printf("checksum %d\n", h_sum);
    cudaFree(d_iters);
    cudaFree(d_sum);
    return 0;
}

// Fast-math intrinsics and the raw SFU instructions on a spread of inputs: what warpdbg models.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#define N 65536
#define F 14
__device__ float ex2a(float x) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float lg2a(float x) { float r; asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float sina(float x) { float r; asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float cosa(float x) { float r; asm("cos.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float rcpa(float x) { float r; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float rsqa(float x) { float r; asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__global__ void k(const float *x, const float *y, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    float a = x[i], b = y[i];
    float *o = out + (size_t)i * F;
    o[0] = __expf(a); o[1] = __exp10f(a); o[2] = __logf(fabsf(a)); o[3] = __log2f(fabsf(a)); o[4] = __log10f(fabsf(a));
    o[5] = __powf(fabsf(a), b); o[6] = __sinf(a); o[7] = __cosf(a); o[8] = __tanf(a);
    o[9] = ex2a(a); o[10] = lg2a(fabsf(a)); o[11] = sina(a); o[12] = cosa(a); o[13] = rsqa(fabsf(a));
}
int main() {
    float *hx = (float *)malloc(N * 4), *hy = (float *)malloc(N * 4), *ho = (float *)malloc((size_t)N * F * 4);
    unsigned s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        float u = (s >> 8) * (1.0f / 16777216.0f);
        // four ranges: [-10, 10], [-100, 100], [0, 1e4] and raw bit patterns of moderate floats
        if (i % 4 == 0) hx[i] = u * 20.f - 10.f;
        else if (i % 4 == 1) hx[i] = u * 200.f - 100.f;
        else if (i % 4 == 2) hx[i] = u * 1e4f;
        else { unsigned b = 0x30000000u + (s % 0x1c000000u); memcpy(&hx[i], &b, 4); }
        s = s * 1664525u + 1013904223u;
        hy[i] = ((s >> 8) * (1.0f / 16777216.0f)) * 6.f - 3.f;
    }
    float *dx, *dy, *dout;
    cudaMalloc(&dx, N * 4); cudaMalloc(&dy, N * 4); cudaMalloc(&dout, (size_t)N * F * 4);
    cudaMemcpy(dx, hx, N * 4, cudaMemcpyHostToDevice); cudaMemcpy(dy, hy, N * 4, cudaMemcpyHostToDevice);
    k<<<N / 256, 256>>>(dx, dy, dout);
    cudaMemcpy(ho, dout, (size_t)N * F * 4, cudaMemcpyDeviceToHost);
    FILE *f = fopen(getenv("SFU_OUT"), "wb");
    fwrite(hx, 4, N, f); fwrite(hy, 4, N, f); fwrite(ho, 4, (size_t)N * F, f); fclose(f);
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}

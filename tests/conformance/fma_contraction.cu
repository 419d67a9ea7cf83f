// Float multiply-adds: nvcc (--fmad=true by default) fuses a product feeding an add or subtract into one FMA,
// rounded once; fmaf asks for it, and __fmul_rn / __fadd_rn forbid it. Inputs chosen so one or two roundings
// differ in the last bit for many lanes.
// @block 32
// @arg a float[32] = 1.1 + i * 0.37
// @arg b float[32] = 0.3 - i * 0.013
// @arg c float[32] = i * 1.7 - 9.2
// @arg out float[256] = 0
__global__ void fmaContraction(const float *a, const float *b, const float *c, float *out) {
    int t = threadIdx.x;
    float x = a[t], y = b[t], z = c[t], w = a[31 - t];
    out[t] = x * y + z;
    out[32 + t] = z + x * y;
    out[64 + t] = x * y - z;
    out[96 + t] = z - x * y;
    out[128 + t] = x * y + z * w;
    out[160 + t] = fmaf(x, y, z);
    out[192 + t] = __fadd_rn(__fmul_rn(x, y), z);
    out[224 + t] = x * y * w + z;
}

// Float rounding: sums, division, square roots, conversions to and from int, min/max, and a mul-add that nvcc
// may contract into one FMA (a single rounding) where warpdbg rounds twice.
// @block 32
// @arg out float[32] = 0
// @arg iout int[32] = 0
__global__ void floatRounding(float *out, int *iout) {
    int t = threadIdx.x;
    float x = 0.1f * (t + 1);
    out[t] = x / 3.0f + sqrtf(x);
    iout[t] = (int)(-x * 7.5f);
    if (t == 0) {
        out[0] = 0.1f + 0.2f;
        iout[0] = (int)16777217.0f;
    }
    if (t == 1) out[1] = (float)16777217;
    if (t == 2) out[2] = fminf(x, 0.15f) + fmaxf(x, 0.25f);
    if (t == 3) out[3] = 1.0f / 3.0f;
}

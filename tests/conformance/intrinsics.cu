// Integer and float intrinsics, and the fast-math versions whose results the SFU approximates.
// @block 32
// @arg a unsigned int[32] = i * 2654435761
// @arg ints int[192] = 0
// @arg floats float[160] = 0
__global__ void intrinsics(const unsigned int *a, int *ints, float *floats) {
    unsigned int t = threadIdx.x;
    unsigned int x = a[t];
    ints[t] = __popc(x);
    ints[32 + t] = __clz(x >> (t % 8));
    ints[64 + t] = __ffs((int)(x & (0xffu << t % 24)));
    ints[96 + t] = (int)__brev(x);
    ints[128 + t] = (int)__umulhi(x, 0x9e3779b9u) ^ __mulhi((int)x, -7);
    ints[160 + t] = __mul24((int)(x & 0xffffff), 1000) + __float2int_rn(t * 0.5f) * 3 + __float2int_rd(-0.5f * t);
    float f = (float)t / 8.0f - 2.0f;
    floats[t] = __expf(f);
    floats[32 + t] = __sinf(f) + __cosf(f);
    floats[64 + t] = __fdividef(1.0f, f + 2.125f);
    floats[96 + t] = __saturatef(f) + rsqrtf(t + 1.0f);
    floats[128 + t] = __int_as_float(0x3f800000 + (int)t) + __logf(t + 1.0f);
}

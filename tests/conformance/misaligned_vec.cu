// A float4 access must be 16-byte aligned: loads through (float4 *)(in + 4 * t) work, the one through
// (float4 *)(in + 1) faults with a misaligned address, as the hardware's 128-bit load does.
// @block 32
// @arg in float[256] = i
// @arg out float[64] = 0
__global__ void misalignedVec(const float *in, float *out) {
    unsigned int t = threadIdx.x;
    const float4 *v = reinterpret_cast<const float4 *>(in + 4 * t);
    float4 a = v[0];
    out[t] = a.x + a.y + a.z + a.w;
    if (t == 5) {
        const float4 *w = reinterpret_cast<const float4 *>(in + 1);
        float4 b = *w;
        out[32 + t] = b.x + b.y + b.z + b.w;
    }
}

// Global-memory coalescing, one warp: a stride-1 load (4 sectors for 32 floats, the best), a stride-4 load
// (16 sectors: a quarter of each sector is used) and a stride-1 store.
// @block 32
// @arg in float[128] = i
// @arg out float[32] = 0
__global__ void strided(const float *in, float *out) {
    int t = threadIdx.x;
    float a = in[t];
    float b = in[4 * t];
    out[t] = a + b;
}

// A 1-D stencil with its coefficients in __constant__ memory and a __device__ global counter.
// @grid 2
// @block 64
// @arg in float[136] = i * 0.25
// @arg out float[128] = 0
// @arg count unsigned int[1] = 0
#define RADIUS 4
__constant__ float coef[2 * RADIUS + 1] = {0.0625f, 0.125f, 0.25f, 0.5f, 1.0f, 0.5f, 0.25f, 0.125f, 0.0625f};
__device__ unsigned int visits;

__global__ void stencil(const float *in, float *out, unsigned int *count) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * RADIUS; k++) acc += coef[k] * in[g + k];
    out[g] = acc;
    unsigned int seen = atomicAdd(&visits, 1);
    if (seen == 127) count[0] = seen + 1;
}

// reduce_shared.cu - the shared-memory reduction of the course books: each block of 128 threads copies its
// part of the input into a `__shared__` tile, halves the active threads with `s >>= 1` (sequential
// addressing: thread tid adds tid + s), and thread 0 writes the block's sum. A benchmark kernel of issue 36
// (shared-memory reduction): `benches/kinds.sh` runs it at n = 1<<22 (32,768 blocks).
// Watch `if (tid < s)`: whole warps drop out while s >= 32; below that only warp 0 works, and it diverges.
// @kernel reduceShared
// @arg n = 1 << 14
// @block 128
// @grid (n + 127) / 128
// @arg in float[n] = i % 8 * 0.25
// @arg out float[(n + 127) / 128] = 0

#define BLOCK 128

__global__ void reduceShared(const float *in, float *out, int n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

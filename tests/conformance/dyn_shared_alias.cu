// Dynamic shared memory: every `extern __shared__` array starts at the same byte of one buffer sized by the
// launch, so a float written through one is read back as its bits through another.
// @grid 2
// @block 64
// @shared 512
// @arg out int[128] = 0
// @arg bits unsigned int[128] = 0
extern __shared__ float s_f[];

__global__ void dynSharedAlias(int *out, unsigned int *bits) {
    extern __shared__ int s_i[];
    unsigned int t = threadIdx.x;
    s_f[t] = t * 0.5f;
    s_i[64 + t] = (int)(blockIdx.x * 100 + t);
    __syncthreads();
    unsigned int g = blockIdx.x * blockDim.x + t;
    bits[g] = (unsigned int)s_i[63 - t];
    out[g] = s_i[64 + (t ^ 1)];
}

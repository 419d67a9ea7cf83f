// A complete-unroll reduction templated on the block size (the textbook's reduceCompleteUnroll style):
// branches on the template constant are decided at compile time.
// @kernel reduceUnroll<256>
// @grid 8
// @block 256
// @arg in int[2048] = rand(0, 99)
// @arg out int[8] = 0
template <unsigned int iBlockSize>
__global__ void reduceUnroll(const int *in, int *out) {
    __shared__ int s[iBlockSize];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * iBlockSize + tid];
    __syncthreads();
    if (iBlockSize >= 1024 && tid < 512) s[tid] += s[tid + 512];
    __syncthreads();
    if (iBlockSize >= 512 && tid < 256) s[tid] += s[tid + 256];
    __syncthreads();
    if (iBlockSize >= 256 && tid < 128) s[tid] += s[tid + 128];
    __syncthreads();
    if (iBlockSize >= 128 && tid < 64) s[tid] += s[tid + 64];
    __syncthreads();
    for (unsigned int k = 32; k > 0; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

// histogram_global.cu - a 256-bin histogram with one `atomicAdd` per element on bins in global memory, in a
// grid-stride loop (the first histogram of the course books, before privatisation). A benchmark kernel of
// issue 36 (atomics): `benches/kinds.sh` runs it at n = 1<<22. The input's bytes are uniform in 0..255, so
// the 32 lanes of a warp rarely hit the same bin; the bins sum to n.
// @kernel histogramGlobal
// @arg n = 1 << 14
// @block 256
// @grid 64
// @arg data unsigned int[n] = rand(0, 255)
// @arg bins unsigned int[256] = 0
// @seed 3

__global__ void histogramGlobal(const unsigned int *data, unsigned int *bins, int n)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&bins[data[i]], 1);
    }
}

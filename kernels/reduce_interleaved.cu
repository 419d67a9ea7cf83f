// reduce_interleaved.cu - Cheng's reduceInterleaved: stride starts at half the block and halves each step;
// thread tid adds element tid + stride, so working threads stay packed and accesses stay coalesced.
// Watch `if (tid < stride)`: for strides 256..32 whole warps work or skip together; only warp 0 diverges,
// at strides 16..1: 0.3125 divergent branches per warp, like reduceNeighboredLess, with fewer instructions.
// Every thread reaches each __syncthreads(), so ITS and pre-Volta agree.
// Opens small (n = 8192, 16 blocks); the textbook size is --arg n=16777216 (the grid and arrays follow n).
// @kernel reduceInterleaved
// @arg n = 1 << 13
// @block 512
// @grid n / 512
// @arg g_idata int[n] = rand(0, 255)
// @arg g_odata int[n / 512] = 0

// Interleaved Pair Implementation with less divergence
__global__ void reduceInterleaved(int *g_idata, int *g_odata, unsigned int n)
{
    // set thread ID
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    // convert global data pointer to the local pointer of this block
    int *idata = g_idata + blockIdx.x * blockDim.x;

    // boundary check
    if (idx >= n) return;

    // in-place reduction in global memory
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1)
    {
        if (tid < stride)
        {
            idata[tid] += idata[tid + stride];
        }

        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

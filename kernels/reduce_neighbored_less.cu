// reduce_neighbored_less.cu - Cheng's reduceNeighboredLess: the same pairs as reduceNeighbored, but
// thread tid works on element 2*stride*tid, so the working threads are packed at the start of the block.
// Watch `if (index < blockDim.x)`: for strides 1..8 whole warps either all work or all skip; only warp 0
// diverges, at strides 16..256 (fewer than 32 working threads left): 0.3125 divergent branches per warp.
// Compare the active masks and thread counts per step with reduce_neighbored.cu. ITS and pre-Volta agree.
// Opens small (n = 8192, 16 blocks); the textbook size is --arg n=16777216 (the grid and arrays follow n).
// @kernel reduceNeighboredLess
// @arg n = 1 << 13
// @block 512
// @grid n / 512
// @arg g_idata int[n] = rand(0, 255)
// @arg g_odata int[n / 512] = 0

// Neighbored Pair Implementation with less divergence
__global__ void reduceNeighboredLess(int *g_idata, int *g_odata, unsigned int n)
{
    // set thread ID
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;

    // convert global data pointer to the local pointer of this block
    int *idata = g_idata + blockIdx.x * blockDim.x;

    // boundary check
    if (idx >= n) return;

    // in-place reduction in global memory
    for (int stride = 1; stride < blockDim.x; stride *= 2)
    {
        // convert tid into local array index
        int index = 2 * stride * tid;

        if (index < blockDim.x)
        {
            idata[index] += idata[index + stride];
        }

        // synchronize within threadblock
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

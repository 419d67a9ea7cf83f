// reduce_neighbored.cu - Cheng's reduceNeighbored: in-place sum per block, neighbouring pairs, stride 1,2,4,...
// Watch `if ((tid % (2 * stride)) == 0)`: only every (2*stride)-th thread works, so every warp diverges at
// strides 1..16, and at larger strides only the warps that still hold a working thread issue the add.
// Each __syncthreads() is reached by all threads (it sits after the if), so ITS and pre-Volta agree.
// Expect 5.9375 divergent branches per warp on the `if` line (Nsight Compute on H100 agrees); warpdbg also
// counts `if (tid == 0)`, which nvcc predicates. Opens small (n = 8192, 16 blocks); the textbook size is
// --arg n=16777216 (the grid and arrays follow n).
// @kernel reduceNeighbored
// @arg n = 1 << 13
// @block 512
// @grid n / 512
// @arg g_idata int[n] = rand(0, 255)
// @arg g_odata int[n / 512] = 0

// Neighbored Pair Implementation with divergence
__global__ void reduceNeighbored(int *g_idata, int *g_odata, unsigned int n)
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
        if ((tid % (2 * stride)) == 0)
        {
            idata[tid] += idata[tid + stride];
        }

        // synchronize within threadblock
        __syncthreads();
    }

    // write result for this block to global mem
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

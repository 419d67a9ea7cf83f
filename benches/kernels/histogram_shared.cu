// histogram_shared.cu - the privatised 256-bin histogram: each block counts into its own `__shared__` bins
// with `atomicAdd`, then adds them to the global bins (one atomic per bin and block). A benchmark kernel of
// issue 36 (atomics on shared memory): `benches/kinds.sh` runs it at n = 1<<22. Compare its steps and time
// with histogram_global.cu on the same input: the same bins, far fewer global atomics.
// @kernel histogramShared
// @arg n = 1 << 14
// @block 256
// @grid 64
// @arg data unsigned int[n] = rand(0, 255)
// @arg bins unsigned int[256] = 0
// @seed 3

#define BINS 256

__global__ void histogramShared(const unsigned int *data, unsigned int *bins, int n)
{
    __shared__ unsigned int local[BINS];
    local[threadIdx.x] = 0;
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&local[data[i]], 1);
    }
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

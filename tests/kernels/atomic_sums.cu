// atomic_sums.cu - each thread adds its element to one float sum with `atomicAdd`, after a block's warps
// add into a `__shared__` sum. Whole numbers (scale = 1) sum exactly in any order, so a whole run keeps the
// result; tenths (scale = 0.1) round differently in another order, so only the sequential run's order counts
// (tests/fast_continue.rs checks both against single-stepping).
// @kernel atomicSums
// @arg scale = 1
// @arg n = 4096
// @block 128
// @grid 16
// @arg x float[n] = i % 7
// @arg total float[1] = 0

__global__ void atomicSums(const float *x, float *total, float scale, int n)
{
    __shared__ float blockSum;
    if (threadIdx.x == 0) blockSum = 0.0f;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&blockSum, x[i] * scale);
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(total, blockSum);
}

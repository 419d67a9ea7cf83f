// shared_float_sum.cu - a block's threads add their elements into one `__shared__` float with `atomicAdd`,
// and thread 0 stores the block's sum with a plain store: no global atomic at all. Tenths (scale = 0.1) round
// differently in another order, so the whole run must refuse and the sequential run's order counts; whole
// numbers (scale = 1) sum exactly in any order (tests/fast_continue.rs checks both against single-stepping).
// @kernel sharedFloatSum
// @arg scale = 1
// @arg n = 2048
// @block 128
// @grid 16
// @arg x float[n] = i % 7
// @arg sums float[16] = 0

__global__ void sharedFloatSum(const float *x, float *sums, float scale, int n)
{
    __shared__ float blockSum;
    if (threadIdx.x == 0) blockSum = 0.0f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&blockSum, x[i] * scale);
    __syncthreads();
    if (threadIdx.x == 0) sums[blockIdx.x] = blockSum;
}

// loop_divergence.cu - a loop whose trip count differs per thread: lane t runs 4 + t % 5 iterations (4..8).
// Watch the loop condition `k < 4 + tid % 5`: the first 4 iterations run with all 32 lanes, then the
// active mask shrinks (lanes with tid % 5 == 0 leave first, those with tid % 5 == 4 stay for iteration 8).
// pre-Volta: finished lanes wait at the loop exit (the reconvergence point) until the last lane leaves,
// then all 32 store together. ITS: the hardware does not force them to wait, but nvcc brackets the loop
// with BSSY/BSYNC at its exit (sm_90), so on real GPUs they regroup there too; compare both modes' masks.
// @kernel loopDivergence
// @grid 1
// @block 32
// @arg out int[32] = 0
// @arg in int[32] = i + 1

__global__ void loopDivergence(int *out, const int *in)
{
    int tid = threadIdx.x;
    int sum = 0;

    for (int k = 0; k < 4 + tid % 5; k++)
    {
        sum += in[tid] * (k + 1);
    }

    out[tid] = sum;
}

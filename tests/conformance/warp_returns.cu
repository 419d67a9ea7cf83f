// Warp 1 returns before __syncthreads; warp 0 waits there (completes on an H100).
// @block 64
// @arg out int[64] = 0
__global__ void warpReturns(int *out) {
    int tid = threadIdx.x;
    if (tid >= 32) return;
    out[tid] = tid;
    __syncthreads();
    out[tid] = out[tid] + 1;
}

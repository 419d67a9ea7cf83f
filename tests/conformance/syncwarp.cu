// After a divergent if, __syncwarp() brings the lanes together again.
// @block 32
// @arg out int[32] = 0
__global__ void syncwarpJoin(int *out) {
    int tid = threadIdx.x;
    int v = 0;
    if (tid < 10) {
        for (int k = 0; k < 3; k++) v += k;
    }
    __syncwarp();
    out[tid] = v;
}

// Early return: threads 0-7 leave; the rest go on.
// @block 32
// @arg out int[32] = 0
__global__ void earlyReturn(int *out) {
    int tid = threadIdx.x;
    if (tid < 8) {
        return;
    }
    out[tid] = tid;
}

// The last thread writes one element past the end of out.
// @block 64
// @arg out int[64] = 0
__global__ void oobWrite(int *out) {
    int t = threadIdx.x;
    out[t + 1] = t;
}

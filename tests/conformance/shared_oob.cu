// Writes one element past a shared array.
// @block 64
// @arg out int[64] = 0
__global__ void sharedOob(int *out) {
    __shared__ int s[32];
    int tid = threadIdx.x;
    s[tid] = tid;
    out[tid] = 1;
}

// Thread 5 divides by zero.
// @block 32
// @arg out int[32] = 0
__global__ void divZero(int *out) {
    int tid = threadIdx.x;
    int d = tid - 5;
    out[tid] = 100 / d;
}

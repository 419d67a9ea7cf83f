// Nested if/else for SIMT-stack push/pop order.
// @block 32
// @arg out int[32] = 0
__global__ void nested(int *out) {
    int tid = threadIdx.x;
    int v = 0;
    if (tid < 16) {
        if (tid < 8) {
            v = 1;
        } else {
            v = 2;
        }
        v = v + 10;
    } else {
        v = 3;
    }
    out[tid] = v;
}

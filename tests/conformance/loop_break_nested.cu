// A loop with continue, a nested if/else and a per-thread break: each thread's own path, then all rejoin.
// @block 32
// @arg out int[32] = 0
__global__ void loopBreakNested(int *out) {
    int tid = threadIdx.x;
    int acc = 0;
    for (int k = 0; k < 10; k++) {
        if (k % 3 == 1) continue;
        if (tid % 4 == 0) {
            acc += k;
        } else if (tid % 4 == 1) {
            acc += 2 * k;
        } else {
            acc -= k;
        }
        if (k >= tid % 8) break;
    }
    out[tid] = acc;
}

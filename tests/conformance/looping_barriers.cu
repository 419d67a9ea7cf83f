// Even and odd threads each loop, then each side has its own __syncthreads (hangs on an H100).
// @block 64
// @arg out int[64] = 0
// @arg n = 4
__global__ void loopingBarriers(int *out, int n) {
    int tid = threadIdx.x;
    int acc = 0;
    if (tid % 2 == 0) {
        for (int k = 0; k < n; k++) acc += k;
        __syncthreads();
        out[tid] = acc;
    } else {
        for (int k = 0; k < n; k++) acc += 2 * k;
        __syncthreads();
        out[tid] = acc;
    }
}

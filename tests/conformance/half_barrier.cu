// Threads 0-15 loop then call __syncthreads; the others exit first (completes on an H100).
// @block 32
// @arg out int[32] = 0
__global__ void halfBarrier(int *out) {
    int tid = threadIdx.x;
    if (tid >= 16) return;
    int acc = 0;
    for (int k = 0; k <= tid; k++) acc += k;
    __syncthreads();
    out[tid] = acc;
}

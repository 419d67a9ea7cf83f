// Threads return from inside a loop at different iterations; the rest meet at __syncthreads (exited threads
// count as arrived), then thread 0 sums what everyone wrote.
// @block 64
// @arg out int[65] = 0
__global__ void returnInLoop(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 0;
    for (int k = 0; k < 8; k++) {
        s[t] += k;
        out[t] = s[t];
        if (t % 8 == k && t >= 32) return;
    }
    __syncthreads();
    if (t == 0) {
        int total = 0;
        for (int i = 0; i < 64; i++) total += out[i];
        out[64] = total;
    }
}

// Hillis-Steele inclusive scan of 128 ints in shared memory, with barriers in a uniform loop, two blocks.
// @grid 2
// @block 128
// @arg in int[256] = i % 7
// @arg out int[256] = 0
__global__ void sharedScan(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    s[t] = in[g];
    __syncthreads();
    for (int d = 1; d < 128; d *= 2) {
        int v = 0;
        if (t >= d) v = s[t - d];
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    out[g] = s[t];
}

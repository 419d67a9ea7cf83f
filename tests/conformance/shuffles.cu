// Warp shuffles: a shfl_down reduction, an xor butterfly, an inclusive scan with shfl_up, and a broadcast.
// @block 64
// @arg in int[64] = i * 3 + 1
// @arg out int[256] = 0
__global__ void shuffles(const int *in, int *out) {
    int t = threadIdx.x;
    int lane = t % 32;
    int v = in[t];
    int sum = v;
    for (int off = 16; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffff, sum, off);
    int bf = v;
    for (int m = 1; m < 32; m *= 2) bf += __shfl_xor_sync(0xffffffff, bf, m);
    int scan = v;
    for (int d = 1; d < 32; d *= 2) {
        int y = __shfl_up_sync(0xffffffff, scan, d);
        if (lane >= d) scan += y;
    }
    int b = __shfl_sync(0xffffffff, v, 5);
    out[t] = lane == 0 ? sum : 0;
    out[64 + t] = bf;
    out[128 + t] = scan;
    out[192 + t] = b;
}

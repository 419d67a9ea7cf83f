// Warp votes: ballot, any, all over the whole warp, and ballot of the lanes inside a divergent branch.
// @block 64
// @arg out unsigned int[256] = 0
__global__ void votes(unsigned int *out) {
    int t = threadIdx.x;
    int lane = t % 32;
    unsigned int b = __ballot_sync(0xffffffff, lane % 3 == 0);
    int any = __any_sync(0xffffffff, t == 40);
    int all = __all_sync(0xffffffff, lane < 31);
    out[t] = b;
    out[64 + t] = any;
    out[128 + t] = all;
    if (lane < 10) {
        out[192 + t] = __ballot_sync(0x3ff, lane % 2 == 1);
    }
}

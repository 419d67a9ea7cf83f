// The shuffles and votes of CUDA 8 and earlier, as a Pascal GPU ran them: implicitly the whole warp. CUDA 9
// removed them for Volta and later, and CUDA 13 can no longer build for Pascal: not recorded on hardware.
// @mode pre-volta
// @block 64
// @arg out int[64] = 0
// @arg votes unsigned int[6] = 0
__global__ void legacyShfl(int *out, unsigned int *votes) {
    int t = threadIdx.x;
    int v = t;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down(v, d);
    out[t] = __shfl(v, 0) + __shfl_xor(t, 1) * 1000 + __shfl_up(t, 3) * 100000;
    unsigned int b = __ballot(t % 3 == 0);
    int any = __any(t == 40);
    int all = __all(t < 60);
    if (t % 32 == 0) {
        votes[t / 32 * 3] = b;
        votes[t / 32 * 3 + 1] = any;
        votes[t / 32 * 3 + 2] = all;
    }
}

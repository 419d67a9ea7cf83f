// Lane 0 of each of four warps adds one to a counter without an atomic: a race whose result depends on how the
// warps' loads and stores interleave (4 when they do not overlap, less when they do).
// @block 128
// @arg counter int[1] = 0
__global__ void racyCounter(int *counter) {
    int t = threadIdx.x;
    if (t % 32 == 0) {
        int v = counter[0];
        v = v + 1;
        counter[0] = v;
    }
}

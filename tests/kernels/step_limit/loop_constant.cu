// A loop bounded by a constant (`#define N`), not an argument, as course programs write them: one warp of
// 2^21 iterations issues about 15 M steps, more than a kernel file's old limit for one warp (10 M); the
// constant raises the limit (docs/programs.md, "The step limit"), so the launch completes.
// @block 32
// @arg out unsigned[32] = 0
#define N (1 << 21)

__global__ void sumConstant(unsigned *out)
{
    unsigned s = 0;
    for (int k = 0; k < N; k++) {
        s += k ^ threadIdx.x;
    }
    // Not a loop: its constant does not count.
    if (s != 4000000000u) {
        out[threadIdx.x] = s;
    }
}

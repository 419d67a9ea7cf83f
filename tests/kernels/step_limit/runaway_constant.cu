// A runaway loop bounded by a constant: `k += 0` never moves, so the constant N raises the step limit (as an
// argument would) but the loop never ends: step limit, exit 4, at one warp x the kernel's instructions x N.
// @block 32
// @arg out int[32] = 0
#define N (1 << 20)

__global__ void runawayConstant(int *out)
{
    for (int k = 0; k < N; k += 0) {
        out[threadIdx.x] += 1;
    }
}

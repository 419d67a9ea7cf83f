// A runaway loop that writes memory, in a launch with an integer argument: `k += 0` never moves, so the
// loop bound n asks for steps (the step limit grows with it) but the loop never ends: step limit, exit 4.
// @block 32
// @arg out int[32] = 0
// @arg n = 1 << 20

__global__ void runawayN(int *out, int n)
{
    for (int k = 0; k < n; k += 0) {
        out[threadIdx.x] += 1;
    }
}

// A loop that never ends.
// @block 32
// @arg out int[1] = 0
__global__ void runaway(int *out) {
    int i = 0;
    while (true) {
        i = i + 1;
    }
    out[0] = i;
}

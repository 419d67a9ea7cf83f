// do/while with a per-thread trip count (Collatz steps from tid + 1).
// @block 64
// @arg out int[64] = 0
__global__ void doWhile(int *out) {
    unsigned int x = threadIdx.x + 1;
    int steps = 0;
    do {
        if (x % 2 == 0) x = x / 2;
        else x = 3 * x + 1;
        steps++;
    } while (x != 1 && steps < 200);
    out[threadIdx.x] = steps;
}

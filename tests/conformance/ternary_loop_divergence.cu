// Divergent loop whose trip count comes from a ?: and a while with a compound condition.
// @block 32
// @arg out int[32] = 0
__global__ void ternaryLoop(int *out) {
    int t = threadIdx.x;
    int n = t < 12 ? t : 24 - t / 2;
    int i = 0, acc = 1;
    while (i < n && acc < 1000) {
        acc = acc * 2 + (i & 1);
        i++;
    }
    out[t] = acc * 100 + i;
}

// && and || guard out-of-range reads; ?: picks per thread.
// @block 32
// @arg in int[16] = i - 8
// @arg out int[32] = 0
__global__ void shortCircuit(const int *in, int *out) {
    int t = threadIdx.x;
    int r = 0;
    if (t < 16 && in[t] > 0) r += 1;
    if (t >= 16 || in[t] < -4) r += 10;
    r += (t % 3 == 0) ? 100 : (t % 3 == 1 ? 200 : 300);
    out[t] = r;
}

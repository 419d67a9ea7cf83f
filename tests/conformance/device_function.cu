// A __device__ helper with a loop and an early return, called from a divergent branch.
// @block 32
// @arg out int[32] = 0
__device__ int firstDivisor(int x) {
    for (int d = 2; d * d <= x; d++) {
        if (x % d == 0) return d;
    }
    return x;
}

__global__ void deviceFunction(int *out) {
    int t = threadIdx.x;
    if (t % 2 == 1) out[t] = firstDivisor(t * 7 + 3);
    else out[t] = -firstDivisor(t + 2);
}

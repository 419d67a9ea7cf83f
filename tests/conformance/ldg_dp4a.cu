// `__ldg` of vector types (the read-only cache is not modelled: it is the load it names), `__dp4a` on
// `char4`, and a `__constant__` array passed to a device function's `int *` parameter.
// @grid 1
// @block 4
// @arg in uint4[4] = i
// @arg q char4[4] = i - 6
// @arg out int[4] = 0
// @arg dot int[4] = 0
// @symbol key = {3, 5, 7, 11}
__constant__ int key[4];

__device__ int pick(int *k, int i) { return k[i % 4]; }

__global__ void loads(const uint4 *__restrict__ in, const char4 *q, int *out, int *dot) {
    int t = threadIdx.x;
    uint4 a = __ldg(&in[t]);
    uint4 b = __ldg(in + (t + 1) % 4);
    out[t] = a.x + a.w + b.y + pick(key, t);
    dot[t] = __dp4a(q[t], q[t], 100);
}

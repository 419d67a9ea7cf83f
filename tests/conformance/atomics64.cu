// 64-bit, floating-point and wrapping atomics, with results that do not depend on the order threads run in.
// @grid 2
// @block 64
// @arg u unsigned long long[5] = 0
// @arg m long long[2] = 0
// @arg f float[2] = 0
// @arg d double[1] = 0
// @arg c unsigned int[2] = 0
__global__ void atomics64(unsigned long long *u, long long *m, float *f, double *d, unsigned int *c) {
    unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&u[0], 1ull << 33);
    atomicAdd(&u[1], (unsigned long long)t * 0x100000001ull);
    unsigned long long old;
    do {
        old = u[2];
    } while (atomicCAS(&u[2], old, old + 0x100000003ull) != old);
    if (t == 77) atomicExch(&u[3], 0xfedcba9876543210ull);
    atomicMax(&u[4], (unsigned long long)t << 40);
    atomicMin(&m[0], -(long long)t * 0x10000000000ll);
    atomicMax(&m[1], (long long)(t % 7) << 35);
    atomicAdd(&f[0], 0.5f);
    atomicAdd(&f[1], (float)(t % 4));
    atomicAdd(&d[0], 0.25);
    atomicInc(&c[0], 9u);
    atomicDec(&c[1], 5u);
}

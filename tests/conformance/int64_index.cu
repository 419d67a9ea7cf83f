// 64-bit integers as course code uses them: size_t indices, long long sums, and C's rules for mixing
// signed and unsigned operands of different widths.
// @grid 4
// @block 64
// @arg in int[256] = i - 100
// @arg sums long long[256] = 0
// @arg flags int[256] = 0
// @arg n = 250
__global__ void int64Index(const int *in, long long *sums, int *flags, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long acc = (long long)in[i] * 3000000000ll;
    unsigned long long u = (unsigned long long)in[i] << 40;
    sums[i] = acc + (long long)(u >> 50);
    int f = 0;
    if (-1 < 1u) f |= 1;
    if (-1L < 1u) f |= 2;
    if ((long long)in[i] * in[i] > 5000ll) f |= 4;
    short sh = (short)(in[i] * 1000);
    f |= (sh < 0) << 3;
    flags[i] = f + (int)(i % 3) * 16;
}

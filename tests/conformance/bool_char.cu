// bool and unsigned char arrays: flags and saturating byte arithmetic.
// @block 32
// @arg flags bool[32] = i % 3
// @arg bytes unsigned char[32] = i * 9
// @arg out int[32] = 0
__global__ void boolChar(bool *flags, unsigned char *bytes, int *out) {
    int t = threadIdx.x;
    bool f = flags[t];
    unsigned char b = bytes[t];
    unsigned char sum = b + 200;
    flags[t] = !f;
    bytes[t] = sum;
    out[t] = f ? b : -(int)b;
}

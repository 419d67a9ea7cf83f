// Signed and unsigned integer edge cases: wrapping, promotions, comparisons, shifts, division and remainder.
// @block 1
// @arg out int[16] = 0
// @arg uout unsigned int[8] = 0
// @arg big = 2147483647
// @arg neg = -7
__global__ void intEdges(int *out, unsigned int *uout, int big, int neg) {
    unsigned int u = 1;
    out[0] = big + 1;                 // wraps to INT_MIN
    out[1] = neg / 2;                 // truncates toward zero: -3
    out[2] = neg % 3;                 // sign of the dividend: -1
    out[3] = neg >> 1;                // arithmetic shift: -4
    out[4] = (neg < u) ? 1 : 0;       // neg converts to unsigned: 0
    out[5] = (unsigned int)neg / 2;   // 2147483644
    out[6] = big * 2;                 // -2
    out[7] = 1 << 31;                 // INT_MIN
    out[8] = (char)300;               // 44
    out[9] = (unsigned char)-1;       // 255
    out[10] = -neg * neg;             // -49
    out[11] = (int)(unsigned int)(neg) >> 28;  // -1
    out[12] = ~neg;                   // 6
    out[13] = neg & 0xff;             // 249
    out[14] = (big ^ neg) | 3;
    out[15] = (neg > 0) + (neg < 0) * 2 + (neg == -7) * 4 + (neg != 7) * 8;
    uout[0] = 0u - 1u;
    uout[1] = (unsigned int)neg >> 28;
    uout[2] = (unsigned int)big + 2u;
    uout[3] = 7u / 2u;
    uout[4] = (unsigned int)neg % 10u;
    uout[5] = u << 31;
    uout[6] = (unsigned int)(-1) * 3u;
    uout[7] = (unsigned int)big * (unsigned int)big;
}

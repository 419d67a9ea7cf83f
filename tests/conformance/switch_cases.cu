// switch: fall-through, default between cases, break, continue of the enclosing loop, a char switch value and
// a switch without default, each thread taking its own path.
// @block 64
// @arg out int[64] = 0
__global__ void switchCases(int *out) {
    int t = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < 4; i++) {
        switch ((t + i) % 6) {
        case 0:
            acc += 1;
        case 1:
            acc += 10;
            break;
        default:
            acc += 100;
            break;
        case 3:
            if (t & 1) continue;
            acc += 1000;
        case 4:
            acc *= 2;
        }
        acc += i;
    }
    char c = 'a' + t % 4;
    switch (c) {
    case 'a':
    case 'b':
        acc = -acc;
        break;
    case 'c':
        acc += 7;
    }
    out[t] = acc;
}

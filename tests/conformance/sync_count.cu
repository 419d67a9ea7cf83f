// The barriers that reduce a predicate over the block: __syncthreads_count counts the threads of each
// value (a histogram of 8 bins without atomics), __syncthreads_and and __syncthreads_or test all and any;
// every thread gets the result. clock64() is read around them only to check that it never goes backwards
// (its values differ between the GPU and warpdbg, so only the comparison is stored).
// @block 96
// @arg in int[96] = (i * 5 + i / 7) % 8
// @arg hist int[8] = 0
// @arg flags int[96] = 0
__global__ void syncCount(const int *in, int *hist, int *flags) {
    int v = in[threadIdx.x];
    long long start = clock64();
    for (int b = 0; b < 8; b++) {
        int n = __syncthreads_count(v == b);
        if (threadIdx.x == b) hist[b] = n;
    }
    int all_small = __syncthreads_and(v < 8);
    int any_seven = __syncthreads_or(v == 7);
    int none_big = !__syncthreads_or(v > 7);
    long long end = clock64();
    flags[threadIdx.x] = all_small + 2 * any_seven + 4 * none_big + 8 * (end >= start);
}

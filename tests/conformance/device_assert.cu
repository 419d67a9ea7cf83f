// A device-side assert that one thread fails (the last of the grid): the kernel stops with
// cudaErrorAssert, and the memory the others wrote before is not what the test compares.
// @grid 2
// @block 8
// @arg out int[16] = 0
// @arg n = 15
#include <assert.h>

__global__ void guarded(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
    out[i] = 2 * i;
}

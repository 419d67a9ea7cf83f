// A device-side assert guarding an index: the grid is larger than the data.
// @grid 2
// @block 8
// @arg out int[16] = 0
// @arg n = 13
#include <assert.h>

__global__ void guarded(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
    out[i] = 2 * i;
}

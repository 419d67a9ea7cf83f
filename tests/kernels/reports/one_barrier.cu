// Warp 0 loops before the one __syncthreads() while warp 1 already waits there.
// @kernel late
// @grid 1
// @block 64
// @arg out int[64] = 0
// @arg n = 20

__global__ void late(int *out, int n)
{
    int acc = 0;
    if (threadIdx.x < 32) {
        for (int k = 0; k < n; k++) acc += k;
    }
    __syncthreads();
    out[threadIdx.x] = acc;
}

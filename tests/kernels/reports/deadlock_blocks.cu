// Four blocks deadlock at two different __syncthreads(): blocks 0-2 split their threads even/odd, block 3
// splits them one in four. Blocks that wait alike share one explanation.
// @kernel split
// @grid 4
// @block 64
// @arg out int[256] = 0
// @arg n = 4

__global__ void split(int *out, int n)
{
    unsigned int tid = threadIdx.x;
    bool first = blockIdx.x == 3 ? tid % 4 == 0 : tid % 2 == 0;
    int acc = 0;
    if (first) {
        for (int k = 0; k < n; k++) acc += k;
        __syncthreads();
        out[blockIdx.x * 64 + tid] = acc;
    } else {
        for (int k = 0; k < n; k++) acc += 2 * k;
        __syncthreads();
        out[blockIdx.x * 64 + tid] = -acc;
    }
}

// vec_add.cu - vector addition, one thread per element (Kirk & Hwu).
// n = 1003 with 64-thread blocks gives 16 blocks (32 warps) and 21 spare threads in the last block.
// Watch `if (i < n)`: only the second warp of the last block diverges (lanes 11..31 skip the add,
// i = 1003..1023); every other warp takes the branch uniformly. Try --arg n=100: 4 warps, 1 divergent.
// ITS and pre-Volta behave the same here: the skipped lanes simply wait (pre-Volta) or exit (ITS).
// @kernel vecAdd
// @arg n = 1003
// @block 64
// @grid (n + 63) / 64
// @arg A float[n] = i * 0.5
// @arg B float[n] = 2 * i
// @arg C float[n] = 0

__global__ void vecAdd(float *A, float *B, float *C, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) C[i] = A[i] + B[i];
}

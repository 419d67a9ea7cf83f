// deadlock.cu - the textbook even/odd __syncthreads() bug, made long enough that nvcc really branches.
// Watch `if (tid % 2 == 0)`: every warp diverges, and even and odd lanes each run a loop and then reach a
// *different* __syncthreads(), one per side.
// ITS mode (default, Volta and later): a barrier counts threads, so the 32 even threads wait at the first
// barrier and the 32 odd threads at the second, each half waiting for the other: DEADLOCK (hangs on H100).
// pre-Volta mode: a barrier counts whole warps, so each side "completes" and the kernel finishes, but a
// divergent barrier is undefined behaviour and is reported as a hazard. (The one-statement textbook version
// is predicated by nvcc into @P0 BAR.SYNC and finishes on real GPUs; the loops here stop that.)
// @kernel evenOdd
// @grid 1
// @block 64
// @arg out int[64] = 0
// @arg in int[64] = i
// @arg n = 8

__global__ void evenOdd(int *out, const int *in, int n)
{
    __shared__ int s[64];
    unsigned int tid = threadIdx.x;

    if (tid % 2 == 0) {
        // even threads: sum n neighbours
        int sum = 0;
        for (int k = 0; k < n; k++) {
            sum += in[(tid + k) % 64];
        }
        s[tid] = sum;
        __syncthreads();                 // even threads wait here ...
        out[tid] = s[tid] + s[tid + 1];
    } else {
        // odd threads: a different loop over the same data
        int acc = 1;
        for (int k = 0; k < n; k++) {
            acc = acc * 3 + in[(tid + k) % 64];
        }
        s[tid] = acc;
        __syncthreads();                 // ... odd threads wait here
        out[tid] = s[tid] - s[tid - 1];
    }
}

// Even and odd lanes each write, then meet at their own __syncwarp() (sm_70+ allows different call sites),
// then read the other side's value: completes on Volta and later.
// @block 32
// @arg out int[32] = 0
__global__ void syncwarpSides(int *out) {
    __shared__ int s[32];
    int tid = threadIdx.x;
    if (tid % 2 == 0) {
        s[tid] = tid * 10;
        __syncwarp();
        out[tid] = s[tid ^ 1];
    } else {
        s[tid] = tid * 10 + 1;
        __syncwarp();
        out[tid] = s[tid ^ 1];
    }
}

// Thread 3 stores through a null pointer.
// @block 32
// @arg out int[32] = 0
__global__ void nullPointer(int *out) {
    int *p = 0;
    int t = threadIdx.x;
    out[t] = t;
    if (t == 3) *p = 1;
}

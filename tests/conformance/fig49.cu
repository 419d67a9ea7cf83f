// The textbook figure: threads 0-23 run A, then 24-31 run B, then all run C.
// @block 32
// @arg out int[32] = 0
__global__ void fig49(int *out) {
    unsigned int tid = threadIdx.x;
    int v = 0;
    if (tid < 24) {
        v = tid * 2;
    } else {
        v = tid * 3;
    }
    out[tid] = v;
}

// Each side of an if/else logs 4 entries with atomics, then all 32 threads log one after the if/else.
// @block 32
// @arg pos int[1] = 0
// @arg log int[96] = -1
__global__ void atomicLog(int *pos, int *log) {
    int tid = threadIdx.x;
    if (tid % 2 == 0) {
        for (int k = 0; k < 4; k++) {
            if (tid == 0) log[atomicAdd(pos, 1)] = 100 + k;
        }
    } else {
        for (int k = 0; k < 4; k++) {
            if (tid == 1) log[atomicAdd(pos, 1)] = 200 + k;
        }
    }
    log[atomicAdd(pos, 1)] = 1000 + tid;
}

// Warp-synchronous shared-memory reduction without __syncwarp: a race on Volta and later.
// @block 64
// @arg g_idata int[64] = i
// @arg g_odata int[1] = 0
__global__ void warpReduce(int *g_idata, int *g_odata) {
    __shared__ int smem[64];
    unsigned int tid = threadIdx.x;
    smem[tid] = g_idata[tid];
    __syncthreads();
    if (tid < 32) {
        volatile int *vsmem = smem;
        vsmem[tid] += vsmem[tid + 32];
        vsmem[tid] += vsmem[tid + 16];
        vsmem[tid] += vsmem[tid + 8];
        vsmem[tid] += vsmem[tid + 4];
        vsmem[tid] += vsmem[tid + 2];
        vsmem[tid] += vsmem[tid + 1];
    }
    if (tid == 0) g_odata[0] = smem[0];
}

// A reduction guard written `idx > n` instead of `idx >= n`: thread n reads one element past the end.
// @grid 2
// @block 512
// @arg g_idata int[1000] = 1
// @arg g_odata int[2] = 0
// @arg n = 1000
__global__ void offByOne(int *g_idata, int *g_odata, unsigned int n) {
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx > n) return;
    int v = g_idata[idx];
    atomicAdd(&g_odata[blockIdx.x], v);
}

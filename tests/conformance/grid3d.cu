// A 3-D launch: 2x2x2 blocks of 4x2x3 threads (24 threads: one warp with 8 lanes that never run).
// @grid 2, 2, 2
// @block 4, 2, 3
// @arg out int[192] = -1
__global__ void grid3d(int *out) {
    int t = threadIdx.z * blockDim.y * blockDim.x + threadIdx.y * blockDim.x + threadIdx.x;
    int b = blockIdx.z * gridDim.y * gridDim.x + blockIdx.y * gridDim.x + blockIdx.x;
    int n = blockDim.x * blockDim.y * blockDim.z;
    out[b * n + t] = 10000 * blockIdx.z + 1000 * blockIdx.y + 100 * blockIdx.x + 10 * threadIdx.z + threadIdx.y * 4 + threadIdx.x;
}

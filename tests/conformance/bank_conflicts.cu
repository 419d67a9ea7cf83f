// Shared-memory bank conflicts, one warp: a stride-2 store (2-way), a column of an unpadded 32x32 tile
// (32-way), the same column of a tile padded to 33 columns (conflict-free), and a broadcast read (free).
// @block 32
// @arg out int[32] = 0
__global__ void bankConflicts(int *out) {
    __shared__ int strided[64];
    __shared__ int tile[32][32];
    __shared__ int padded[32][33];
    int t = threadIdx.x;
    strided[2 * t] = t;
    tile[t][0] = t;
    padded[t][0] = t;
    __syncwarp();
    out[t] = strided[2 * t] + tile[t][0] + padded[t][0] + tile[0][0];
}

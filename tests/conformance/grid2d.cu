// A 2-D grid of 2-D blocks: each thread writes its global (col, row) and its block's linear index.
// @grid 3, 2
// @block 8, 4
// @arg out int[24 * 8] = -1
// @arg width = 24
__global__ void grid2d(int *out, int width) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    out[row * width + col] = 1000 * (blockIdx.y * gridDim.x + blockIdx.x) + 10 * row + col;
}

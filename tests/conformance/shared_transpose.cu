// A tiled transpose through a padded 2-D __shared__ tile, with a __syncthreads between write and read.
// @grid 2, 2
// @block 16, 16
// @arg in float[32 * 32] = i
// @arg out float[32 * 32] = 0
// @arg n = 32
__global__ void transpose(const float *in, float *out, int n) {
    __shared__ float tile[16][17];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    int tx = blockIdx.y * 16 + threadIdx.x;
    int ty = blockIdx.x * 16 + threadIdx.y;
    out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

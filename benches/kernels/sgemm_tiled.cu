// sgemm_tiled.cu - the tiled matrix product (Kirk & Hwu): each 16x16 block loads one 16x16 tile of A and one
// of B into `__shared__` arrays per phase, synchronises, and multiplies from shared memory, so each global
// element is read n / 16 times instead of n. A benchmark kernel of issue 36 (shared-memory matrix
// product): `benches/kinds.sh` runs it at n = 256. n need not be a multiple of 16 (the edge loads 0).
// @kernel sgemmTiled
// @arg n = 64
// @block 16 16
// @grid (n + 15) / 16, (n + 15) / 16
// @arg A float[n * n] = i % 7 * 0.5
// @arg B float[n * n] = i % 5 * 0.25
// @arg C float[n * n] = 0

#define TILE 16

__global__ void sgemmTiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int ph = 0; ph < (n + TILE - 1) / TILE; ph++) {
        As[ty][tx] = (row < n && ph * TILE + tx < n) ? A[row * n + ph * TILE + tx] : 0.0f;
        Bs[ty][tx] = (col < n && ph * TILE + ty < n) ? B[(ph * TILE + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++) {
            sum += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = sum;
}

// sgemm_naive.cu - the naive matrix product C = A * B of square n x n float matrices (Kirk & Hwu): one
// thread per element of C in 16x16 blocks, each looping over k = 0..n-1 with two global loads per step.
// A benchmark kernel of issue 36 (matrix product): `benches/kinds.sh` runs it at n = 256; n = 2048 is the
// issue's 3.2 G-step launch, which the step limit must let finish (docs/programs.md, "The step limit").
// @kernel sgemmNaive
// @arg n = 64
// @block 16 16
// @grid (n + 15) / 16, (n + 15) / 16
// @arg A float[n * n] = i % 7 * 0.5
// @arg B float[n * n] = i % 5 * 0.25
// @arg C float[n * n] = 0

__global__ void sgemmNaive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++) {
            sum += A[row * n + k] * B[k * n + col];
        }
        C[row * n + col] = sum;
    }
}

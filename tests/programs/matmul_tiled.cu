// Matrix multiply with shared-memory tiles, checked against a CPU product (course homework style).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define TILE_WIDTH 16
#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char *file, int line, bool abort = true)
{
    if (code != cudaSuccess) {
        fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
        if (abort) exit(code);
    }
}

__global__ void matMulTiled(const float *A, const float *B, float *C, int M, int K, int N)
{
    __shared__ float As[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = by * TILE_WIDTH + ty;
    int col = bx * TILE_WIDTH + tx;
    float acc = 0.0f;
    for (int ph = 0; ph < (K + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (row < M && ph * TILE_WIDTH + tx < K)
            As[ty][tx] = A[row * K + ph * TILE_WIDTH + tx];
        else
            As[ty][tx] = 0.0f;
        if (col < N && ph * TILE_WIDTH + ty < K)
            Bs[ty][tx] = B[(ph * TILE_WIDTH + ty) * N + col];
        else
            Bs[ty][tx] = 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

void matMulHost(const float *A, const float *B, float *C, int M, int K, int N)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float sum = 0.0f;
            for (int k = 0; k < K; k++) sum += A[i * K + k] * B[k * N + j];
            C[i * N + j] = sum;
        }
}

int main()
{
    const int M = 48, K = 40, N = 56;
    size_t sizeA = M * K * sizeof(float), sizeB = K * N * sizeof(float), sizeC = M * N * sizeof(float);
    float *h_A = (float *)malloc(sizeA);
    float *h_B = (float *)malloc(sizeB);
    float *h_C = (float *)malloc(sizeC);
    float *ref = (float *)malloc(sizeC);
    for (int i = 0; i < M * K; i++) h_A[i] = (float)(i % 7) - 3.0f;
    for (int i = 0; i < K * N; i++) h_B[i] = (float)(i % 5) * 0.5f;

    float *d_A, *d_B, *d_C;
    gpuErrchk(cudaMalloc(&d_A, sizeA));
    gpuErrchk(cudaMalloc(&d_B, sizeB));
    gpuErrchk(cudaMalloc(&d_C, sizeC));
    gpuErrchk(cudaMemcpy(d_A, h_A, sizeA, cudaMemcpyHostToDevice));
    gpuErrchk(cudaMemcpy(d_B, h_B, sizeB, cudaMemcpyHostToDevice));

    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH);
    printf("C(%dx%d) = A(%dx%d) * B(%dx%d), grid %dx%d of %dx%d tiles\n", M, N, M, K, K, N, dimGrid.x, dimGrid.y,
           TILE_WIDTH, TILE_WIDTH);
    matMulTiled<<<dimGrid, dimBlock>>>(d_A, d_B, d_C, M, K, N);
    gpuErrchk(cudaPeekAtLastError());
    gpuErrchk(cudaDeviceSynchronize());
    gpuErrchk(cudaMemcpy(h_C, d_C, sizeC, cudaMemcpyDeviceToHost));

    matMulHost(h_A, h_B, ref, M, K, N);
    int errors = 0;
    double maxErr = 0.0;
    for (int i = 0; i < M * N; i++) {
        double e = fabs(h_C[i] - ref[i]);
        if (e > maxErr) maxErr = e;
        if (e > 1e-3) errors++;
    }
    printf("C[0][0] = %.2f, C[%d][%d] = %.2f\n", h_C[0], M - 1, N - 1, h_C[M * N - 1]);
    printf("max error %.6f, %d mismatches: %s\n", maxErr, errors, errors == 0 ? "PASSED" : "FAILED");

    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(h_A);
    free(h_B);
    free(h_C);
    free(ref);
    return errors == 0 ? 0 : 1;
}

// The matrix-multiply shape of the CUDA Programming Guide: a Matrix struct passed to the kernel by value,
// file-scope host variables (sizes, a scale, a lookup table, the host buffers) shared by helper functions,
// M_PI from <math.h>, values built with dim3(...), a launch dimension computed with ceil, arrays made with
// new T[n]() and the environment set with setenv.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK 8

typedef struct {
    int width;
    int height;
    int stride;
    float *elements;
} Matrix;

int N = 24;
const float scale = 0.5f;
int weights[4] = {1, 2, 3, 4};
float *h_A, *h_B;
double checksum;

__device__ float get(const Matrix m, int r, int c) { return m.elements[r * m.stride + c]; }

__global__ void matmul(Matrix A, Matrix B, Matrix C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= C.height || col >= C.width) return;
    float sum = 0;
    for (int k = 0; k < A.width; ++k) sum += get(A, row, k) * get(B, k, col);
    C.elements[row * C.stride + col] = sum;
}

void init_host()
{
    h_A = new float[N * N]();
    h_B = new float[N * N]();
    for (int i = 0; i < N * N; i++) {
        h_A[i] = scale * weights[i % 4];
        h_B[i] = (float)sin(M_PI * (i % 6) / 6.0) > 0.4f ? 1.0f : 0.0f;
    }
}

Matrix on_device(const float *h, int n)
{
    Matrix m;
    m.width = m.height = m.stride = n;
    cudaMalloc(&m.elements, n * n * sizeof(float));
    if (h) cudaMemcpy(m.elements, h, n * n * sizeof(float), cudaMemcpyHostToDevice);
    return m;
}

int main()
{
    setenv("CUDA_LAUNCH_BLOCKING", "1", 1);
    printf("CUDA_LAUNCH_BLOCKING=%s, UNSET=%s\n", getenv("CUDA_LAUNCH_BLOCKING"), getenv("WARPDBG_UNSET") ? "set" : "(unset)");
    init_host();
    Matrix A = on_device(h_A, N), B = on_device(h_B, N), C = on_device(NULL, N);
    dim3 block = dim3(BLOCK, BLOCK);
    dim3 grid;
    grid = dim3(ceil((float)N / BLOCK), ceil(N / (double)BLOCK));
    matmul<<<grid, block>>>(A, B, C);
    float *h_C = new float[N * N];
    cudaMemcpy(h_C, C.elements, N * N * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < N * N; i++) checksum += h_C[i];
    printf("grid (%u, %u), block (%u, %u)\n", grid.x, grid.y, block.x, block.y);
    printf("C[0][0] = %.2f, C[%d][%d] = %.2f, checksum = %.2f\n", h_C[0], N - 1, N - 1, h_C[N * N - 1], checksum);
    cudaFree(A.elements);
    cudaFree(B.elements);
    cudaFree(C.elements);
    delete[] h_A;
    delete[] h_B;
    delete[] h_C;
    return 0;
}

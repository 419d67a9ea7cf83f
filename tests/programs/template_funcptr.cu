// Functions as template arguments, as the riemann-sum examples write them: a kernel template takes the
// integrand as a function-pointer parameter (`T (*func)(T)`, or `func_t<T> func` of an alias template) and
// calls it; the integrand is itself a `__device__` template, instantiated at the call.
#include <cstdio>

#define BLOCK_SIZE 128

template <typename T>
__device__ T square_gpu(T x) { return x * x; }

template <typename T>
__device__ T linear_gpu(T x) { return 2 * x + 1; }

template <typename T>
using func_t = T (*)(T);

template <typename T, T (*func)(T)>
__global__ void leftSum(T a, T dx, int n, T *result) {
    __shared__ T partial[BLOCK_SIZE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? func(a + i * dx) * dx : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) result[blockIdx.x] = partial[0];
}

template <typename T, func_t<T> func, unsigned int blockSize>
__global__ void applyAll(T *v, int n) {
    unsigned int i = blockIdx.x * blockSize + threadIdx.x;
    if (i < n) v[i] = func(v[i]);
}

int main() {
    const int n = 1024, blocks = n / BLOCK_SIZE;
    const double a = 0.0, dx = 1.0 / 64;
    double *d_partial, h_partial[blocks];
    cudaMalloc(&d_partial, blocks * sizeof(double));

    leftSum<double, square_gpu><<<blocks, BLOCK_SIZE>>>(a, dx, n, d_partial);
    cudaMemcpy(h_partial, d_partial, blocks * sizeof(double), cudaMemcpyDeviceToHost);
    double total = 0;
    for (int b = 0; b < blocks; b++) total += h_partial[b];
    printf("square on [0, 16): %.6f\n", total);

    leftSum<double, linear_gpu><<<blocks, BLOCK_SIZE>>>(a, dx, n, d_partial);
    cudaMemcpy(h_partial, d_partial, blocks * sizeof(double), cudaMemcpyDeviceToHost);
    total = 0;
    for (int b = 0; b < blocks; b++) total += h_partial[b];
    printf("linear on [0, 16): %.6f\n", total);

    int h[8] = {0, 1, 2, 3, 4, 5, 6, 7}, *d;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    applyAll<int, square_gpu, BLOCK_SIZE><<<1, BLOCK_SIZE>>>(d, 8);
    applyAll<int, linear_gpu, BLOCK_SIZE><<<1, BLOCK_SIZE>>>(d, 8);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++) printf("%d ", h[i]);
    printf("\n");
    cudaFree(d);
    cudaFree(d_partial);
    return 0;
}

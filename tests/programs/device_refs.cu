// Reference parameters of __device__ functions: a local variable, an array element in global memory and
// a shared-memory element passed by reference; const references are copies.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void add(const double x, const double y, double &z)
{
    z = x + y;
}

__device__ void swap_ints(int &a, int &b)
{
    int t = a;
    a = b;
    b = t;
}

__device__ void accumulate(const int &v, int &total)
{
    total += v;
}

__global__ void kernel(const double *x, const double *y, double *z, int *out, int n)
{
    __shared__ int s[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        add(x[i], y[i], z[i]);
    int a = i, b = 10 * i;
    swap_ints(a, b);
    if (threadIdx.x < 4)
        s[threadIdx.x] = 0;
    __syncthreads();
    if (threadIdx.x < 4)
        accumulate(b + a, s[threadIdx.x]);
    __syncthreads();
    if (i < n)
        out[i] = a - b + (threadIdx.x < 4 ? s[threadIdx.x] : 0);
}

int main()
{
    const int n = 8;
    double hx[n], hy[n], hz[n];
    int hout[n];
    for (int i = 0; i < n; i++) {
        hx[i] = 1.23 * i;
        hy[i] = 2.34;
    }
    double *x, *y, *z;
    int *out;
    cudaMalloc(&x, n * sizeof(double));
    cudaMalloc(&y, n * sizeof(double));
    cudaMalloc(&z, n * sizeof(double));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemcpy(x, hx, n * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy, n * sizeof(double), cudaMemcpyHostToDevice);
    kernel<<<2, 4>>>(x, y, z, out, n);
    cudaMemcpy(hz, z, n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(hout, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        printf("%d: z = %.2f, out = %d\n", i, hz[i], hout[i]);
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
    cudaFree(out);
    return 0;
}

// Half precision (cuda_fp16.h): conversions of edge values on host and device, the scalar intrinsics and
// the operators of sm_53+, each result rounded once to half.
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>

#define N 12

__global__ void convertKernel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half h = __float2half(in[i]);
        out[i] = __half2float(h);
    }
}

__global__ void opsKernel(const half *a, const half *b, half *sum, half *prod, half *fma, half *quot, int *less, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        sum[i] = __hadd(a[i], b[i]);
        prod[i] = __hmul(a[i], b[i]);
        fma[i] = __hfma(a[i], b[i], __float2half(1.0f));
        quot[i] = a[i] / b[i];
        less[i] = (a[i] < b[i]) ? 1 : 0;
    }
}

int main(void)
{
    const float edges[N] = {1.0f, 0.1f, 1.0f / 3.0f, 65504.0f, 65519.0f, 65520.0f,
                            1.0e5f, 5.9604645e-8f, 3.0e-8f, 2.9e-8f, 6.1e-5f, -2.5f};
    float *d_in, *d_out;
    float host[N], dev[N];
    cudaMalloc((void **)&d_in, N * sizeof(float));
    cudaMalloc((void **)&d_out, N * sizeof(float));
    cudaMemcpy(d_in, edges, N * sizeof(float), cudaMemcpyHostToDevice);
    convertKernel<<<1, 32>>>(d_in, d_out, N);
    cudaMemcpy(dev, d_out, N * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++) {
        host[i] = __half2float(__float2half(edges[i]));
        printf("%.8e -> host %.8e device %.8e\n", edges[i], host[i], dev[i]);
    }

    half *a = (half *)malloc(N * sizeof(half));
    half *b = (half *)malloc(N * sizeof(half));
    for (int i = 0; i < N; i++) {
        a[i] = __float2half(0.1f * (i + 1));
        b[i] = __float2half(3.0f - 0.7f * i);
    }
    half *d_a, *d_b, *d_sum, *d_prod, *d_fma, *d_quot;
    int *d_less;
    cudaMalloc((void **)&d_a, N * sizeof(half));
    cudaMalloc((void **)&d_b, N * sizeof(half));
    cudaMalloc((void **)&d_sum, N * sizeof(half));
    cudaMalloc((void **)&d_prod, N * sizeof(half));
    cudaMalloc((void **)&d_fma, N * sizeof(half));
    cudaMalloc((void **)&d_quot, N * sizeof(half));
    cudaMalloc((void **)&d_less, N * sizeof(int));
    cudaMemcpy(d_a, a, N * sizeof(half), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, b, N * sizeof(half), cudaMemcpyHostToDevice);
    opsKernel<<<1, 32>>>(d_a, d_b, d_sum, d_prod, d_fma, d_quot, d_less, N);
    half sum[N], prod[N], fma[N], quot[N];
    int less[N];
    cudaMemcpy(sum, d_sum, N * sizeof(half), cudaMemcpyDeviceToHost);
    cudaMemcpy(prod, d_prod, N * sizeof(half), cudaMemcpyDeviceToHost);
    cudaMemcpy(fma, d_fma, N * sizeof(half), cudaMemcpyDeviceToHost);
    cudaMemcpy(quot, d_quot, N * sizeof(half), cudaMemcpyDeviceToHost);
    cudaMemcpy(less, d_less, N * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++) {
        printf("%d: a=%.8e b=%.8e sum=%.8e prod=%.8e fma=%.8e quot=%.8e less=%d\n", i, __half2float(a[i]),
               __half2float(b[i]), __half2float(sum[i]), __half2float(prod[i]), __half2float(fma[i]),
               __half2float(quot[i]), less[i]);
    }
    printf("sizeof(half) = %d\n", (int)sizeof(half));

    free(a);
    free(b);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_sum);
    cudaFree(d_prod);
    cudaFree(d_fma);
    cudaFree(d_quot);
    cudaFree(d_less);
    return 0;
}

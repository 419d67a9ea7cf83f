// Small constructs course programs use: a functional cast of a keyword type (`long(x)`), arrays whose first
// size the initialiser gives (host and device), `auto d = duration_cast<...>(...)` then `d.count()`, the
// runtime's version macro, limits and device attributes by name.
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

#define MB(x) (long(x) * 1024 * 1024)

__global__ void stencil(const int *in, int *out, int n)
{
    int offsets[] = {-1, 0, 1};
    const float weights[][3] = {{0.25f, 0.5f, 0.25f}, {0.0f, 1.0f, 0.0f}};
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int k = 0; k < 3; k++) {
        int j = i + offsets[k];
        if (j >= 0 && j < n) sum += weights[i % 2][k] * in[j];
    }
    out[i] = (int)(4 * sum);
}

int main()
{
    printf("MB(3) = %ld, unsigned(-1) = %u, short(70000) = %d\n", MB(3), unsigned(-1), short(70000));
    int table[][3] = {{1, 2, 3}, {4, 5, 6}};
    char word[] = "warp";
    printf("table has %d rows, table[1][2] = %d, word has %d bytes\n", (int)(sizeof(table) / sizeof(table[0])),
           table[1][2], (int)sizeof(word));

    const int n = 8;
    int h[n], *d_in, *d_out;
    for (int i = 0; i < n; i++) h[i] = i * i;
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_out, sizeof h);
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    auto t0 = std::chrono::high_resolution_clock::now();
    stencil<<<1, 32>>>(d_in, d_out, n);
    cudaDeviceSynchronize();
    auto t1 = std::chrono::high_resolution_clock::now();
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0);
    auto whole_ms = std::chrono::duration_cast<std::chrono::milliseconds>(t1 - t0);
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) printf("%d ", h[i]);
    printf("\nlaunch time: %s\n", us.count() >= 0 && whole_ms.count() <= us.count() ? "measured" : "wrong");

    printf("runtime version macro at least 11000: %s\n", CUDART_VERSION >= 11000 ? "yes" : "no");
    printf("set printf FIFO: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, MB(8))));
    int concurrent = -1, engines = -1, pools = -1;
    cudaError_t a = cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentKernels, 0);
    cudaError_t b = cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, 0);
    cudaError_t c = cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0);
    printf("attributes: %s %s %s; concurrent kernels %d, copy engines > 0: %d, memory pools %d\n", cudaGetErrorName(a),
           cudaGetErrorName(b), cudaGetErrorName(c), concurrent, engines > 0, pools);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}

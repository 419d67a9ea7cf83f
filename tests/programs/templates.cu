// Templates as a course's exercises write them: a kernel template launched without explicit arguments (its
// type comes from the pointer passed), a block-sum kernel template with a shared array of the same type, and
// a host helper template that allocates through a reference; an overflowing float sum printed with cout.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#define BLOCK 256

template <typename T>
void alloc_bytes(T &ptr, size_t num_bytes) {
    ptr = (T)malloc(num_bytes);
}

template <typename T>
__global__ void axpb(T *x, T a, T b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + b;
}

template <typename T>
__global__ void block_sum(const T *x, T *out, int n) {
    __shared__ T s[BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : (T)0;
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        __syncthreads();
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

template <typename T>
T host_total(const T *v, int n) {
    T t = 0;
    for (int i = 0; i < n; i++) t += v[i];
    return t;
}

int main() {
    const int n = 4096, blocks = n / BLOCK;
    float *hf, *df, *sf, *hs;
    double *hd, *dd, *sd, *hsd;
    alloc_bytes(hf, n * sizeof(float));
    alloc_bytes(hd, n * sizeof(double));
    alloc_bytes(hs, blocks * sizeof(float));
    alloc_bytes(hsd, blocks * sizeof(double));
    for (int i = 0; i < n; i++) {
        hf[i] = (float)(i % 17) * 0.5f;
        hd[i] = (double)(i % 23) * 0.25;
    }
    cudaMalloc(&df, n * sizeof(float));
    cudaMalloc(&dd, n * sizeof(double));
    cudaMalloc(&sf, blocks * sizeof(float));
    cudaMalloc(&sd, blocks * sizeof(double));
    cudaMemcpy(df, hf, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dd, hd, n * sizeof(double), cudaMemcpyHostToDevice);
    axpb<<<blocks, BLOCK>>>(df, 2.0f, 1.0f, n);
    axpb<<<blocks, BLOCK>>>(dd, 3.0, -0.5, n);
    block_sum<<<blocks, BLOCK>>>(df, sf, n);
    block_sum<<<blocks, BLOCK>>>(dd, sd, n);
    cudaMemcpy(hs, sf, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hsd, sd, blocks * sizeof(double), cudaMemcpyDeviceToHost);
    printf("float sums: %.1f %.1f, total %.1f\n", hs[0], hs[blocks - 1], host_total(hs, blocks));
    printf("double sums: %.2f %.2f, total %.2f\n", hsd[0], hsd[blocks - 1], host_total(hsd, blocks));
    // Scaled past FLT_MAX: the sums overflow to infinity, as cout shows.
    axpb<<<blocks, BLOCK>>>(df, 3.0e37f, 0.0f, n);
    block_sum<<<blocks, BLOCK>>>(df, sf, n);
    cudaMemcpy(hs, sf, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    std::cout << "overflowed: " << hs[0] << " " << -hs[1] << " " << hs[0] - hs[0] << std::endl;
    cudaError_t err = cudaGetLastError();
    printf("%s\n", cudaGetErrorString(err));
    cudaFree(df);
    cudaFree(dd);
    cudaFree(sf);
    cudaFree(sd);
    free(hf);
    free(hd);
    free(hs);
    free(hsd);
    return 0;
}

// A half2 dot product in the style of CUDA's fp16ScalarProduct sample: the vectors are filled on the host
// with __float2half, each thread accumulates with __hfma2 (or the operators), a block reduces its half2
// values in shared memory with __hadd2 and writes __low2float + __high2float.
#include <cstdio>
#include <cstdlib>
#include "cuda_fp16.h"

#define BLOCKS 4
#define THREADS 64

__device__ void reduceInShared(half2 *const v)
{
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            v[threadIdx.x] = __hadd2(v[threadIdx.x], v[threadIdx.x + s]);
        __syncthreads();
    }
}

__global__ void dotIntrinsics(half2 const *const a, half2 const *const b, float *const results, int size)
{
    const int stride = gridDim.x * blockDim.x;
    __shared__ half2 shArray[THREADS];

    half2 value = __float2half2_rn(0.f);
    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < size; i += stride) {
        value = __hfma2(a[i], b[i], value);
    }
    shArray[threadIdx.x] = value;
    __syncthreads();
    reduceInShared(shArray);

    if (threadIdx.x == 0) {
        half2 result = shArray[0];
        results[blockIdx.x] = __low2float(result) + __high2float(result);
    }
}

__global__ void dotNative(half2 const *const a, half2 const *const b, float *const results, int size)
{
    const int stride = gridDim.x * blockDim.x;
    __shared__ half2 shArray[THREADS];

    half2 value(0.f, 0.f);
    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < size; i += stride) {
        value = __hadd2(__hmul2(a[i], b[i]), value);
    }
    shArray[threadIdx.x] = value;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            shArray[threadIdx.x] = shArray[threadIdx.x] + shArray[threadIdx.x + s];
        __syncthreads();
    }

    if (threadIdx.x == 0) {
        half2 result = shArray[0];
        results[blockIdx.x] = (float)result.x + (float)result.y;
    }
}

void generateInput(half2 *a, int size, int seed)
{
    for (int i = 0; i < size; ++i) {
        half2 temp;
        temp.x = static_cast<float>((i * 7 + seed) % 4);
        temp.y = static_cast<float>((i * 3 + seed) % 5) * 0.25f;
        a[i] = temp;
    }
}

int main(void)
{
    const int size = BLOCKS * THREADS * 8;
    half2 *vec[2], *devVec[2];
    float *results = (float *)malloc(BLOCKS * sizeof(float));
    float *devResults;

    for (int i = 0; i < 2; ++i) {
        vec[i] = (half2 *)malloc(size * sizeof(half2));
        cudaMalloc((void **)&devVec[i], size * sizeof(half2));
        generateInput(vec[i], size, i + 1);
        cudaMemcpy(devVec[i], vec[i], size * sizeof(half2), cudaMemcpyHostToDevice);
    }
    cudaMalloc((void **)&devResults, BLOCKS * sizeof(float));

    float expected = 0;
    for (int i = 0; i < size; ++i) {
        expected += __half2float(vec[0][i].x) * __half2float(vec[1][i].x);
        expected += __high2float(vec[0][i]) * __high2float(vec[1][i]);
    }

    dotNative<<<BLOCKS, THREADS>>>(devVec[0], devVec[1], devResults, size);
    cudaMemcpy(results, devResults, BLOCKS * sizeof(float), cudaMemcpyDeviceToHost);
    float native = 0;
    for (int i = 0; i < BLOCKS; ++i) {
        printf("native block %d: %f\n", i, results[i]);
        native += results[i];
    }

    dotIntrinsics<<<BLOCKS, THREADS>>>(devVec[0], devVec[1], devResults, size);
    cudaMemcpy(results, devResults, BLOCKS * sizeof(float), cudaMemcpyDeviceToHost);
    float intrinsics = 0;
    for (int i = 0; i < BLOCKS; ++i) {
        printf("intrinsics block %d: %f\n", i, results[i]);
        intrinsics += results[i];
    }

    printf("sizeof(half2) = %d\n", (int)sizeof(half2));
    printf("Result native operators\t: %f\n", native);
    printf("Result intrinsics\t: %f\n", intrinsics);
    printf("Result on the host\t: %f\n", expected);
    printf("&&&& fp16 dot %s\n", (native == intrinsics && native == expected) ? "PASSED" : "FAILED");

    for (int i = 0; i < 2; ++i) {
        cudaFree(devVec[i]);
        free(vec[i]);
    }
    cudaFree(devResults);
    free(results);
    return 0;
}

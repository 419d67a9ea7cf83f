// Functors as template type parameters: `blockReduction<int, AddOp>` takes `Op op` by value and calls
// `op(a, b)`, a `__device__ __host__ operator()` of a struct without fields.
#include <cstdio>
#include <climits>

struct AddOp {
    __device__ __host__ int operator()(int a, int b) const { return a + b; }
};

struct MaxOp {
    __device__ __host__ int operator()(int a, int b) const { return a > b ? a : b; }
};

template <typename T, typename Op>
__global__ void blockReduction(const T *in, T *out, int n, Op op, T identity) {
    extern __shared__ T s[];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = gid < n ? in[gid] : identity;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] = op(s[tid], s[tid + stride]);
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

int main() {
    const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = (i * 37) % 101;
    int *d_in, *d_out, out[blocks];
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, blocks * sizeof(int));
    cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    blockReduction<int, AddOp><<<blocks, threads, threads * sizeof(int)>>>(d_in, d_out, n, AddOp(), 0);
    cudaMemcpy(out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    int sum = 0;
    for (int b = 0; b < blocks; b++) sum += out[b];
    blockReduction<int, MaxOp><<<blocks, threads, threads * sizeof(int)>>>(d_in, d_out, n, MaxOp(), INT_MIN);
    cudaMemcpy(out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    int mx = INT_MIN;
    MaxOp m;
    for (int b = 0; b < blocks; b++) mx = m(mx, out[b]);
    printf("sum %d max %d\n", sum, mx);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}

// A kernel template whose operation is a class template: `transform<float, Scale<float>>` is deduced from
// the functor passed by value, the functor built as a temporary at the launch (`Scale<float>(2.5f)`), and a
// second functor (`Clamp<int> clamp = {0, 9}`) brace-initialised; device code builds `Pair<float>{...}` temporaries.
#include <cstdio>

template <typename T>
struct Scale {
    T factor;
    __host__ __device__ Scale(T f) : factor(f) {}
    __device__ T operator()(T x) const { return x * factor; }
};

template <typename T>
struct Clamp {
    T lo, hi;
    __device__ T operator()(T x) const { return x < lo ? lo : (x > hi ? hi : x); }
};

template <typename T>
struct Pair {
    T a, b;
};

template <typename T, typename Op>
__global__ void transform(T *data, int n, Op op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = op(data[i]);
}

__global__ void pairs(Pair<float> *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = Pair<float>{in[i], in[i] * in[i]};
}

int main() {
    const int n = 12;
    float hf[n];
    int hi[n];
    for (int i = 0; i < n; i++) {
        hf[i] = i * 0.5f;
        hi[i] = 3 * i - 10;
    }
    float *df;
    int *di;
    Pair<float> *dp;
    cudaMalloc(&df, n * sizeof(float));
    cudaMalloc(&di, n * sizeof(int));
    cudaMalloc(&dp, n * sizeof(Pair<float>));
    cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
    cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice);

    transform<<<1, 32>>>(df, n, Scale<float>(2.5f));
    Clamp<int> clamp = {0, 9};
    transform<<<1, 32>>>(di, n, clamp);
    pairs<<<1, 32>>>(dp, df, n);

    Pair<float> hp[n];
    cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
    cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
    cudaMemcpy(hp, dp, sizeof(hp), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) printf("%2d: %6.2f %2d  (%6.2f, %8.3f)\n", i, hf[i], hi[i], hp[i].a, hp[i].b);
    cudaFree(df);
    cudaFree(di);
    cudaFree(dp);
    return 0;
}

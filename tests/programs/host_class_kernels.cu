// A benchmark class as course programs write one: a method that takes the kernel to time as a function
// pointer, a table of named kernels (a struct with a function-pointer field), and a chrono timer member.
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

__global__ void scale(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 3.0f * in[i];
}

__global__ void reverse(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[n - 1 - i] = in[i];
}

struct NamedKernel {
    const char *name;
    void (*kernel)(const float *, float *, int);
    int expected_first;
};

class Bench {
  public:
    Bench(int n) : n_(n)
    {
        cudaMalloc(&in_, n * sizeof(float));
        cudaMalloc(&out_, n * sizeof(float));
        float *h = new float[n];
        for (int i = 0; i < n; i++) h[i] = (float)(i + 1);
        cudaMemcpy(in_, h, n * sizeof(float), cudaMemcpyHostToDevice);
        delete[] h;
    }
    ~Bench()
    {
        cudaFree(in_);
        cudaFree(out_);
    }
    float run(void (*kernel)(const float *, float *, int), int repeats)
    {
        start_ = std::chrono::steady_clock::now();
        for (int r = 0; r < repeats; r++) kernel<<<(n_ + 127) / 128, 128>>>(in_, out_, n_);
        cudaDeviceSynchronize();
        auto took = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_);
        elapsed_ns_ = took.count();
        float first;
        cudaMemcpy(&first, out_, sizeof(float), cudaMemcpyDeviceToHost);
        return first;
    }
    bool timed() const { return elapsed_ns_ > 0; }

  private:
    int n_;
    float *in_, *out_;
    std::chrono::steady_clock::time_point start_;
    long long elapsed_ns_ = 0;
};

int main()
{
    Bench bench(1000);
    NamedKernel table[] = {
        {"copy", copy, 1},
        {"scale", scale, 3},
        {"reverse", reverse, 1000},
    };
    for (int k = 0; k < 3; k++) {
        float first = bench.run(table[k].kernel, 5);
        printf("%-8s out[0] = %6.1f (%s), timed: %s\n", table[k].name, first,
               (int)first == table[k].expected_first ? "as expected" : "WRONG", bench.timed() ? "yes" : "no");
    }
    return 0;
}

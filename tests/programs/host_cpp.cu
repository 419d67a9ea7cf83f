// The C++ that homework's host code is written in: std::vector, std::cout with manipulators, new/delete,
// structs, references, default arguments, switch, std::generate with a lambda, std::accumulate, arrays sized
// by their initialiser. A kernel scales a vector; the host checks it.
#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CALL(x) check((x), #x)

struct Stats {
    int count;
    float min, max;
    double mean;
};

void check(cudaError_t err, const char *what, bool fatal = true)
{
    if (err != cudaSuccess) {
        std::cerr << what << " failed: " << cudaGetErrorString(err) << std::endl;
        if (fatal) exit(EXIT_FAILURE);
    }
}

void minmax(const std::vector<float> &v, float &lo, float &hi)
{
    lo = v[0];
    hi = v[0];
    for (size_t i = 1; i < v.size(); i++) {
        if (v[i] < lo) lo = v[i];
        if (v[i] > hi) hi = v[i];
    }
}

Stats summarise(const std::vector<float> &v)
{
    Stats s;
    s.count = (int)v.size();
    minmax(v, s.min, s.max);
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
    return s;
}

const char *sizeName(int n)
{
    switch (n % 4) {
    case 0:
        return "multiple of four";
    case 1:
    case 3:
        return "odd";
    default:
        return "even";
    }
}

__global__ void scale(float *v, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = a * v[i] + 1.0f;
}

int main()
{
    const int n = 1000;
    std::vector<float> h(n);
    int k = 0;
    std::generate(h.begin(), h.end(), [&k]() { return (float)(k++ % 17) * 0.25f; });
    std::vector<int> sizes;
    for (int i = 1; i <= 5; i++) sizes.push_back(i * i);
    int weights[] = {3, 1, 4, 1, 5, 9, 2, 6};
    char label[] = "scale";
    int wsum = 0;
    for (size_t i = 0; i < sizeof(weights) / sizeof(weights[0]); i++) wsum += weights[i];

    float *d = nullptr;
    CUDA_CALL(cudaMalloc(&d, n * sizeof(float)));
    CUDA_CALL(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
    CUDA_CALL(cudaGetLastError());
    float *back = new float[n];
    CUDA_CALL(cudaMemcpy(back, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<float> out(back, back + n);
    delete[] back;

    Stats before = summarise(h), after = summarise(out);
    std::cout << "kernel: " << label << ", " << n << " elements (" << sizeName(n) << ")" << std::endl;
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "before: min " << before.min << " max " << before.max << " mean " << before.mean << "\n";
    std::cout << "after:  min " << after.min << " max " << after.max << " mean " << after.mean << "\n";
    std::cout << std::setw(8) << "square" << std::setw(6) << "name" << '\n';
    for (int s : sizes) std::cout << std::setw(8) << s << std::setw(6) << (s % 2 ? "odd" : "even") << '\n';
    std::cout << "weights sum " << wsum << ", sizes " << sizes.size() << ", last " << sizes.back() << std::endl;
    assert(after.max == 2.0f * before.max + 1.0f);
    int ok = 0;
    for (int i = 0; i < n; i++) ok += out[i] == 2.0f * h[i] + 1.0f;
    printf("%d of %d scaled exactly\n", ok, n);
    CUDA_CALL(cudaFree(d));
    return 0;
}

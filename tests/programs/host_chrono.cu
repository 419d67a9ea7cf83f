// Timing with <chrono>, as modern courses do: a kernel timed with high_resolution_clock around a synchronise,
// durations read as seconds, milliseconds and a duration_cast to microseconds, with `using namespace` and with
// the full names, and `auto` for the time points. What the clocks read is warpdbg's virtual clock; the
// program prints only what holds on any machine (orderings and unit ratios), as a course's self-check would.
#include <chrono>
#include <cstdio>
#include <iostream>

using namespace std;

__global__ void scale(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] *= 2.0f;
    }
}

int main()
{
    const int n = 1 << 16;
    float *a;
    cudaMallocManaged(&a, n * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = 1.0f;
    }

    auto start_gpu = chrono::high_resolution_clock::now();
    scale<<<(n + 255) / 256, 256>>>(a, n);
    cudaDeviceSynchronize();
    auto end_gpu = chrono::high_resolution_clock::now();

    chrono::duration<double> seconds = end_gpu - start_gpu;
    std::chrono::duration<double, std::milli> ms = end_gpu - start_gpu;
    long long us = std::chrono::duration_cast<std::chrono::microseconds>(end_gpu - start_gpu).count();
    double ms2 = std::chrono::duration<double, std::milli>(end_gpu - start_gpu).count();

    printf("a[0] = %.1f, a[%d] = %.1f\n", a[0], n - 1, a[n - 1]);
    printf("the kernel took time: %s\n", seconds.count() > 0 ? "yes" : "no");
    printf("milliseconds per second: %.0f\n", ms.count() / seconds.count());
    printf("same reading twice: %s\n", ms.count() == ms2 ? "yes" : "no");
    printf("microseconds within a millisecond's thousand: %s\n", us <= ms.count() * 1000 + 1 ? "yes" : "no");

    auto t0 = std::chrono::steady_clock::now();
    auto t1 = std::chrono::steady_clock::now();
    std::cout << "steady clock never goes back: " << (std::chrono::duration<double>(t1 - t0).count() >= 0)
              << std::endl;
    cudaFree(a);
    return 0;
}

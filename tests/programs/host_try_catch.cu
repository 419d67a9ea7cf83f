// Exceptions caught as C++ courses catch them (issue 33): an error check throws std::runtime_error, main
// catches it by `const std::exception &` and prints what(); a bounds check's std::out_of_range is caught by
// its own type, an int by value, and anything else by `catch (...)`. Handlers are tried in order, and one
// that does not match lets the exception travel on to the caller's.
#include <cstdio>
#include <stdexcept>
#include <string>

void check(cudaError_t err, const char *what)
{
    if (err != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

__global__ void square(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * a[i];
}

float at(const float *a, int n, int i)
{
    if (i < 0 || i >= n) throw std::out_of_range("index " + std::to_string(i) + " out of range");
    return a[i];
}

int classify(int step)
{
    try {
        if (step == 0) throw 42;
        if (step == 1) throw std::invalid_argument("step 1 is invalid");
        if (step == 2) throw 2.5;
        return step * 10;
    } catch (int code) {
        printf("  caught int %d\n", code);
        return -code;
    } catch (const std::logic_error &e) {
        printf("  caught logic_error: %s\n", e.what());
        return -1;
    }
}

int main()
{
    const int n = 8;
    float h[n];
    for (int i = 0; i < n; i++) h[i] = i + 0.5f;
    float *d;
    try {
        check(cudaMalloc(&d, n * sizeof(float)), "cudaMalloc");
        check(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice), "copy in");
        square<<<1, n>>>(d, n);
        check(cudaGetLastError(), "launch");
        check(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost), "copy out");
        printf("h[3] = %.2f\n", at(h, n, 3));
        printf("h[9] = %.2f\n", at(h, n, 9));
        printf("not reached\n");
    } catch (const std::out_of_range &e) {
        printf("out_of_range: %s\n", e.what());
    } catch (const std::exception &e) {
        printf("exception: %s\n", e.what());
    }

    for (int step = 0; step < 4; step++) {
        try {
            printf("step %d -> %d\n", step, classify(step));
        } catch (...) {
            printf("step %d: classify let something else through\n", step);
        }
    }

    try {
        // The wrong direction: cudaErrorInvalidValue.
        check(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyHostToDevice), "copy back");
    } catch (std::runtime_error &e) {
        printf("runtime_error: %s\n", e.what());
    }
    cudaFree(d);
    printf("done\n");
    return 0;
}
// finding: cudaMemcpy at line 74
// status: 1

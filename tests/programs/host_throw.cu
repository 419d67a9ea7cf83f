// An error check that throws, as C++ courses write it (issue 33): a `std::runtime_error` built from a string
// stream, thrown when a CUDA call fails and caught by nobody. libstdc++'s terminate handler names the
// exception and its what(), and the program aborts (status 134).
#include <cstdio>
#include <sstream>
#include <stdexcept>

inline void check(cudaError_t err, const char *what, int line)
{
    if (err != cudaSuccess) {
        std::ostringstream ss;
        ss << what << " failed at line " << line << ": " << cudaGetErrorString(err);
        throw std::runtime_error(ss.str());
    }
}

#define CHECK(call) check((call), #call, __LINE__)

__global__ void fill(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 2.0f * i;
}

int main()
{
    const int n = 256;
    float *d_a;
    CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    fill<<<2, 128>>>(d_a, n);
    CHECK(cudaGetLastError());
    float h[n];
    CHECK(cudaMemcpy(h, d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("a[255] = %.1f\n", h[255]);
    // The wrong direction: cudaErrorInvalidValue, and the check throws.
    CHECK(cudaMemcpy(h, d_a, n * sizeof(float), cudaMemcpyHostToDevice));
    printf("not reached\n");
    CHECK(cudaFree(d_a));
    return 0;
}
// finding: cudaMemcpy at line 36
// status: 1

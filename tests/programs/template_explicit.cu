// Host function templates called with explicit template arguments, as course test drivers write them:
// `runTest<float>(argc, argv)` instantiating `initialize<T>`, `verify<T>` and the kernel `scaleAdd<T>`;
// `square<int>(3)`, `std::max<int>(...)`, `constexpr` sizes and `static_assert`.
#include <cstdio>
#include <cstdlib>
#include <algorithm>

constexpr int N = 256;
constexpr int THREADS = 64;
static_assert(N % THREADS == 0, "N must be a multiple of THREADS");

template <typename T>
T square(T x) { return x * x; }

template <typename T>
void initialize(T *a, int n) {
    for (int i = 0; i < n; i++) a[i] = static_cast<T>(i % 10);
}

template <typename T>
__global__ void scaleAdd(T *a, T factor, T offset, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * factor + offset;
}

template <typename T>
int verify(const T *a, int n, T factor, T offset) {
    int errors = 0;
    for (int i = 0; i < n; i++) {
        T want = static_cast<T>(i % 10) * factor + offset;
        if (a[i] != want) errors++;
    }
    return errors;
}

template <typename T>
int runTest(int argc, char **argv, const char *name) {
    static_assert(sizeof(T) >= 4, "4-byte elements or wider");
    T *h = (T *)malloc(N * sizeof(T));
    initialize<T>(h, N);
    T *d;
    cudaMalloc(&d, N * sizeof(T));
    cudaMemcpy(d, h, N * sizeof(T), cudaMemcpyHostToDevice);
    scaleAdd<T><<<N / THREADS, THREADS>>>(d, (T)3, (T)1, N);
    cudaMemcpy(h, d, N * sizeof(T), cudaMemcpyDeviceToHost);
    int errors = verify<T>(h, N, (T)3, (T)1);
    printf("%s: argc %d, a[9] = %.1f, %d errors\n", name, argc, (double)h[9], errors);
    free(h);
    cudaFree(d);
    return errors;
}

int main(int argc, char **argv) {
    printf("square<int>(7) = %d, square<double>(1.5) = %.2f\n", square<int>(7), square<double>(1.5));
    printf("std::max<int>(3, 9) = %d, std::min<long>(-4, 2) = %ld\n", std::max<int>(3, 9), std::min<long>(-4, 2));
    int errors = runTest<float>(argc, argv, "float");
    errors += runTest<double>(argc, argv, "double");
    errors += runTest<int>(argc, argv, "int");
    printf("%s\n", errors == 0 ? "PASSED" : "FAILED");
    return 0;
}

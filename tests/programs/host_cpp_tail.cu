// The long tail of host C++ that courses beyond the six measured use (issue 33), saved as Visual Studio saves
// it (a byte-order mark first): a POSIX timer (`struct timespec`, `clock_gettime`), a vector of a typedef'd
// element type, functional casts (`size_t(x)`, `real_t(x)`), C++14 digit separators, file-scope events and
// streams, a file-scope `const` that C++ initialises when the program starts, the stream priority range, and
// <cmath> beyond the basics on the host.
#include <cmath>
#include <cstdio>
#include <ctime>
#include <vector>

typedef double real_t;

const int N = 1'024;
const int THREADS = 128;

int imin(int a, int b) { return a < b ? a : b; }

// Computed when the program starts (not a constant expression): only host code uses it.
const int BLOCKS = imin(4, (N + THREADS - 1) / THREADS);

cudaEvent_t start, stop;
cudaStream_t streams[2];

__global__ void axpy(real_t a, const real_t *x, real_t *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}

double seconds(const timespec &t) { return t.tv_sec + t.tv_nsec * 1e-9; }

int main()
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);

    std::vector<real_t> x(N), y(N, real_t(1));
    for (int i = 0; i < N; i++) {
        x[i] = real_t(i) / 2;
    }
    real_t *dx, *dy;
    size_t bytes = size_t(N) * sizeof(real_t);
    cudaMalloc(&dx, bytes);
    cudaMalloc(&dy, bytes);
    cudaStreamCreate(&streams[0]);
    cudaStreamCreate(&streams[1]);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaMemcpyAsync(dx, x.data(), bytes, cudaMemcpyHostToDevice, streams[0]);
    cudaMemcpyAsync(dy, y.data(), bytes, cudaMemcpyHostToDevice, streams[0]);
    cudaEventRecord(start, streams[0]);
    axpy<<<BLOCKS, THREADS, 0, streams[0]>>>(2.0, dx, dy, N);
    cudaEventRecord(stop, streams[0]);
    cudaEventSynchronize(stop);
    cudaMemcpy(y.data(), dy, bytes, cudaMemcpyDeviceToHost);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);

    int least = 1, greatest = 1;
    cudaDeviceGetStreamPriorityRange(&least, &greatest);
    printf("stream priorities: least %d, greatest %d\n", least, greatest);
    printf("blocks %d of %d threads, y[0] = %.1f, y[%d] = %.1f\n", BLOCKS, THREADS, y[0], N - 1, y[N - 1]);
    printf("kernel timed: %s\n", ms > 0 ? "yes" : "no");

    double h = 3.0, w = 4.0;
    printf("atan %.6f atan2 %.6f hypot %.1f cbrt %.1f\n", atan(1.0), atan2(h, w), hypot(h, w), cbrt(27.0));
    printf("asin %.6f acos %.6f sinh %.6f cosh %.6f tanh %.6f\n", asin(0.5), acos(0.5), sinh(1.0), cosh(1.0),
           tanh(0.5));
    printf("expm1 %.9f log1p %.9f copysign %.1f log10f %.3f exp2f %.1f tanf %.6f\n", expm1(1e-5), log1p(1e-5),
           copysign(2.0, -1.0), log10f(1000.0f), exp2f(10.0f), tanf(0.25f));

    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("elapsed is positive: %d\n", seconds(t1) - seconds(t0) > 0);
    for (int i = 0; i < 2; i++) {
        cudaStreamDestroy(streams[i]);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}

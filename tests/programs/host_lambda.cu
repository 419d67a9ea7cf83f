// Host lambdas as course code writes them (issue 33): captures by value ([x], [=]) and by reference ([&x],
// [&]), state kept through a reference capture, a copy taken before the variable changes, lambdas stored in
// `auto` and called, `mutable`, `-> T`, a lambda calling another, and lambdas passed to function templates
// (`template <class F> void run(F f)`) that time and check a kernel.
#include <cstdio>
#include <functional>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

// Runs `body` `reps` times and reports the mean virtual time of one run, as course timing helpers do.
template <class F> float timeIt(const char *what, int reps, F body)
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    for (int r = 0; r < reps; r++) {
        body(r);
    }
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    printf("%s: %d runs\n", what, reps);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms / reps;
}

// Counts the elements a predicate accepts.
template <typename T, typename Pred> int countWhere(const T *data, int n, Pred accept)
{
    int hits = 0;
    for (int i = 0; i < n; i++) {
        if (accept(data[i])) {
            hits++;
        }
    }
    return hits;
}

int main()
{
    const int n = 1000;
    float *x, *y;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = 1.0f;
        y[i] = 2.0f;
    }

    // A lambda stored in `auto`, capturing by reference: each call launches and counts.
    int launches = 0;
    auto step = [&](float a) {
        saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
        cudaDeviceSynchronize();
        launches++;
    };
    step(2.0f);
    step(0.5f);
    printf("after two steps: y[0] = %.2f, launches = %d\n", y[0], launches);

    // A copy taken when the lambda is made keeps the old value; a reference sees the new one.
    float scale = 3.0f;
    auto byValue = [scale](float v) { return v * scale; };
    auto byRef = [&scale](float v) { return v * scale; };
    scale = 10.0f;
    printf("byValue(2) = %.1f, byRef(2) = %.1f\n", byValue(2.0f), byRef(2.0f));

    // [=] copies everything the body names; `mutable` lets the body change its own copies.
    int base = 5;
    auto counter = [=]() mutable -> int {
        base += 1;
        return base;
    };
    int c1 = counter();
    int c2 = counter();
    printf("counter: %d %d, base still %d\n", c1, c2, base);

    // A lambda calling another lambda it captured.
    auto square = [](float v) { return v * v; };
    auto sumSquares = [&](int count) {
        float s = 0;
        for (int i = 0; i < count; i++) {
            s += square(y[i]);
        }
        return s;
    };
    printf("sum of squares of the first 4: %.2f\n", sumSquares(4));

    // Lambdas passed to function templates.
    float mean = timeIt("saxpy", 3, [&](int rep) { step(1.0f + rep); });
    printf("mean time positive: %s, launches = %d\n", mean > 0 ? "yes" : "no", launches);
    float threshold = 10.0f;
    int big = countWhere(y, n, [threshold](float v) { return v > threshold; });
    int all = countWhere(y, n, [](float v) { return v == v; });
    printf("y[0] = %.2f: %d of %d above %.1f\n", y[0], big, all, threshold);

    // std::function holding a lambda.
    std::function<float(float)> f = [&](float v) { return byValue(v) + 1.0f; };
    printf("f(1) = %.1f\n", f(1.0f));

    cudaFree(x);
    cudaFree(y);
    return 0;
}

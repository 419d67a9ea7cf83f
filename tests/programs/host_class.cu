// Host classes as course code writes them: a seeded generator with a constructor, operator() and default
// member initialisers, an accumulator with member functions that call each other, a timer whose methods read
// gettimeofday, and a class whose __host__ __device__ member both sides call. A histogram kernel counts the
// generated values.
#include <cstdio>
#include <sys/time.h>
#include <cuda_runtime.h>

#define BINS 8

class LcgGenerator {
    public:
        LcgGenerator(int seed, int lo, int hi) : _last(seed), _lo(lo), _hi(hi) { }
        int operator()() {
            _last = (1103 * _last + 12345) % 32749;
            _count++;
            return _last % (_hi - _lo) + _lo;
        }
        int draws() const { return _count; }
        int id() const { return _id; }
    private:
        int _last;
        int _lo;
        int _hi;
        int _count = 0;
        int _id = 7;
};

struct Stats {
    long sum;
    int n, lo, hi;
    void add(int x) {
        if (n == 0 || x < lo) lo = x;
        if (n == 0 || x > hi) hi = x;
        sum += x;
        n++;
    }
    void add_all(const int *v, int count) { for (int i = 0; i < count; i++) add(v[i]); }
    double mean() const { return n ? (double)sum / n : 0.0; }
};

class Timer {
    double start_s;
    static double now() {
        timeval tv;
        gettimeofday(&tv, NULL);
        return tv.tv_sec + tv.tv_usec * 1e-6;
    }
    public:
        void start() { start_s = now(); }
        double elapsed_ms() { return (now() - start_s) * 1000.0; }
};

struct Bin {
    int width;
    __host__ __device__ int of(int x) const { return x / width; }
};

__global__ void histogram(const int *v, int n, int *bins, Bin b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[b.of(v[i])], 1);
}

int main()
{
    const int n = 1000;
    LcgGenerator gen(2024, 0, 64);
    int *h = new int[n];
    for (int i = 0; i < n; i++) h[i] = gen();
    Stats s = {0, 0, 0, 0};
    s.add_all(h, n);
    printf("%d values in [%d, %d], mean %.3f, sum %ld (%d draws counted by generator %d)\n", s.n, s.lo, s.hi,
           s.mean(), s.sum, gen.draws(), gen.id());

    Bin b = {64 / BINS};
    Timer t;
    t.start();
    int *d_v, *d_bins;
    cudaMalloc(&d_v, n * sizeof(int));
    cudaMalloc(&d_bins, BINS * sizeof(int));
    cudaMemcpy(d_v, h, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_bins, 0, BINS * sizeof(int));
    histogram<<<(n + 127) / 128, 128>>>(d_v, n, d_bins, b);
    int bins[BINS];
    cudaMemcpy(bins, d_bins, sizeof(bins), cudaMemcpyDeviceToHost);
    printf("histogram took %.3f ms\n", t.elapsed_ms());

    int host_bins[BINS] = {0};
    for (int i = 0; i < n; i++) host_bins[b.of(h[i])]++;
    int total = 0;
    for (int k = 0; k < BINS; k++) {
        printf("bin %d: %3d %s\n", k, bins[k], bins[k] == host_bins[k] ? "ok" : "MISMATCH");
        total += bins[k];
    }
    printf("total %d\n", total);
    cudaFree(d_v);
    cudaFree(d_bins);
    delete[] h;
    return 0;
}

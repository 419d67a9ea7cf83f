// <algorithm> and <numeric> with lambdas, as courses prepare and check a kernel's data (issue 33):
// std::generate and std::for_each with any body, std::transform (one and two ranges), std::count_if,
// std::find_if, std::all_of / std::any_of, std::accumulate with an operation, std::min_element /
// std::max_element with a comparison, std::sort with a comparing lambda (elements that compare equal stay
// where libstdc++'s introsort leaves them) and std::stable_sort.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

struct Particle {
    int cell;
    int id;
    float energy;
};

__global__ void relax(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] = 0.5f * v[i] + 1.0f;
    }
}

int main()
{
    const int n = 64;
    std::vector<float> h(n);
    int seed = 7;
    // A generator with state kept through a reference capture.
    std::generate(h.begin(), h.end(), [&seed]() {
        seed = (seed * 1103 + 12345) % 1000;
        return seed / 100.0f;
    });
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    relax<<<1, 64>>>(d, n);
    std::vector<float> out(n);
    cudaMemcpy(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);

    // for_each with a body of several statements, reading and writing captured variables.
    int wrong = 0;
    float maxErr = 0.0f;
    int i = 0;
    std::for_each(out.begin(), out.end(), [&](float got) {
        float want = 0.5f * h[i] + 1.0f;
        float err = fabsf(got - want);
        if (err > maxErr) maxErr = err;
        if (err > 1e-6f) wrong++;
        i++;
    });
    printf("checked %d values: %d wrong, max error %g\n", i, wrong, maxErr);

    std::vector<float> diff(n);
    std::transform(out.begin(), out.end(), h.begin(), diff.begin(), [](float a, float b) { return a - b; });
    std::vector<int> rounded(n);
    std::transform(out.begin(), out.end(), rounded.begin(), [](float v) { return (int)(v * 10); });
    long above = std::count_if(out.begin(), out.end(), [](float v) { return v > 5.0f; });
    float limit = 1.5f;
    bool allAbove = std::all_of(out.begin(), out.end(), [limit](float v) { return v >= limit; });
    bool anyNegative = std::any_of(diff.begin(), diff.end(), [](float v) { return v < 0; });
    float sumSq = std::accumulate(diff.begin(), diff.end(), 0.0f, [](float acc, float v) { return acc + v * v; });
    printf("above 5: %ld, all >= %.1f: %d, any gain negative: %d, sum of squared gains %.3f\n", above, limit,
           (int)allAbove, (int)anyNegative, sumSq);
    auto firstBig = std::find_if(rounded.begin(), rounded.end(), [](int r) { return r >= 50; });
    printf("first rounded >= 50: %d at %ld\n", *firstBig, (long)(firstBig - rounded.begin()));
    auto byDistance = [](float a, float b) { return fabsf(a - 3.0f) < fabsf(b - 3.0f); };
    float nearest = *std::min_element(out.begin(), out.end(), byDistance);
    float farthest = *std::max_element(out.begin(), out.end(), byDistance);
    printf("nearest to 3: %.3f, farthest: %.3f\n", nearest, farthest);

    // Sorting records by a key: equal keys end where libstdc++'s std::sort leaves them.
    Particle ps[40];
    for (int k = 0; k < 40; k++) {
        ps[k].cell = rounded[k] % 6;
        ps[k].id = k;
        ps[k].energy = out[k];
    }
    std::sort(ps, ps + 40, [](const Particle &a, const Particle &b) { return a.cell < b.cell; });
    for (int k = 0; k < 40; k++) printf("%d:%d ", ps[k].cell, ps[k].id);
    printf("\n");
    std::stable_sort(ps, ps + 40, [](const Particle &a, const Particle &b) { return a.id % 4 < b.id % 4; });
    for (int k = 0; k < 40; k++) printf("%d ", ps[k].id);
    printf("\n");
    // Descending by the magnitude of the gain, 64 elements (more than one partition step).
    std::sort(diff.begin(), diff.end(), [](float a, float b) { return fabsf(a) > fabsf(b); });
    printf("largest gains: %.2f %.2f %.2f, smallest: %.2f\n", diff[0], diff[1], diff[2], diff[n - 1]);
    cudaFree(d);
    return 0;
}

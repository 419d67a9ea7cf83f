// <algorithm> and <numeric> as course code checks and ranks a kernel's results (issue 33): std::sort (with
// std::greater and with a comparing lambda), std::min_element / std::max_element, std::equal, std::reverse,
// std::iota, std::count, std::find, and std::swap of numbers, pointers (ping-pong buffers), structs and vectors.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

struct Pair {
    int key;
    float value;
};

__global__ void square(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = (in[i] * in[i]) % 23 - 7;
    }
}

int main()
{
    const int n = 16;
    std::vector<int> h_in(n), h_out(n);
    std::iota(h_in.begin(), h_in.end(), 3);
    int *d_a, *d_b;
    cudaMalloc(&d_a, n * sizeof(int));
    cudaMalloc(&d_b, n * sizeof(int));
    cudaMemcpy(d_a, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    // Two passes, swapping the buffers in between as stencil codes do.
    for (int pass = 0; pass < 2; pass++) {
        square<<<1, n>>>(d_a, d_b, n);
        std::swap(d_a, d_b);
    }
    cudaMemcpy(h_out.data(), d_a, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int x : h_out) printf("%d ", x);
    printf("\n");

    auto lo = std::min_element(h_out.begin(), h_out.end());
    auto hi = std::max_element(h_out.begin(), h_out.end());
    printf("min %d at %ld, max %d at %ld\n", *lo, (long)(lo - h_out.begin()), *hi, (long)(hi - h_out.begin()));
    printf("count of %d: %ld, first %d at %ld\n", h_out[0], (long)std::count(h_out.begin(), h_out.end(), h_out[0]),
           h_out[5], (long)(std::find(h_out.begin(), h_out.end(), h_out[5]) - h_out.begin()));

    std::vector<int> sorted(h_out.begin(), h_out.end());
    std::sort(sorted.begin(), sorted.end());
    for (int x : sorted) printf("%d ", x);
    printf("\n");
    std::sort(sorted.begin(), sorted.end(), std::greater<int>());
    for (int x : sorted) printf("%d ", x);
    printf("\n");
    std::reverse(sorted.begin(), sorted.end());
    std::vector<int> again(h_out.begin(), h_out.end());
    std::sort(again.begin(), again.end(), [](int a, int b) { return a < b; });
    printf("equal after reverse: %d, equal to the unsorted: %d\n", (int)std::equal(sorted.begin(), sorted.end(), again.begin()),
           (int)std::equal(sorted.begin(), sorted.end(), h_out.begin()));

    float f[6] = {2.5f, 0.5f, 7.25f, -3.5f, 0.0f, 1e-3f};
    std::sort(f, f + 6, [](float a, float b) { return a > b; });
    for (float x : f) printf("%g ", x);
    printf("\n");
    printf("count of zeros: %ld\n", (long)std::count(f, f + 6, 0.0f));

    Pair p = {1, 1.5f}, q = {2, 2.5f};
    std::swap(p, q);
    int i = 10, j = 20;
    std::swap(i, j);
    std::vector<int> small(2, 9), large(5, 4);
    std::swap(small, large);
    printf("p {%d, %.1f} q {%d, %.1f} i %d j %d small %zu x %d large %zu x %d\n", p.key, p.value, q.key, q.value, i, j,
           small.size(), small[0], large.size(), large[0]);

    cudaFree(d_a);
    cudaFree(d_b);
    return 0;
}

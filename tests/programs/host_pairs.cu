// std::pair, structured bindings and vectors of strings in host code: a kernel histograms values into
// buckets, and the host ranks the buckets as (count, bucket) pairs and names them.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

__global__ void histogram(const int *values, int n, int *counts, int buckets) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&counts[values[i] % buckets], 1);
}

std::pair<int, int> busiest(const std::vector<std::pair<int, int>> &ranked) {
    return {ranked.back().second, ranked.back().first};
}

int main() {
    const int n = 200, buckets = 5;
    int h_values[n];
    for (int i = 0; i < n; i++) h_values[i] = (i * i + 3 * i) % 17;
    int *d_values, *d_counts;
    cudaMalloc(&d_values, n * sizeof(int));
    cudaMalloc(&d_counts, buckets * sizeof(int));
    cudaMemset(d_counts, 0, buckets * sizeof(int));
    cudaMemcpy(d_values, h_values, n * sizeof(int), cudaMemcpyHostToDevice);
    histogram<<<(n + 63) / 64, 64>>>(d_values, n, d_counts, buckets);
    int counts[buckets];
    cudaMemcpy(counts, d_counts, sizeof(counts), cudaMemcpyDeviceToHost);
    cudaFree(d_values);
    cudaFree(d_counts);

    std::vector<std::string> names = {"zero", "one", "two"};
    names.push_back("three");
    names.emplace_back("four");
    std::vector<std::pair<int, int>> ranked;
    for (int b = 0; b < buckets; b++) ranked.push_back(std::make_pair(counts[b], b));
    std::sort(ranked.begin(), ranked.end());
    for (const auto &[count, bucket] : ranked) {
        std::cout << names[bucket] << ": " << count << std::endl;
    }
    auto [bucket, count] = busiest(ranked);
    printf("busiest %s with %d\n", names[bucket].c_str(), count);
    std::pair<double, int> share = std::make_pair(100.0 * count / n, bucket);
    printf("%.1f%% in bucket %d\n", share.first, share.second);
    return 0;
}

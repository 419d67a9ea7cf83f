// nvcc: --expt-relaxed-constexpr
// std::numeric_limits and the <cfloat>/<climits> constants on host and device: a max/min reduction that
// starts from -infinity and FLT_MAX, as course reductions do.
#include <cstdio>
#include <cfloat>
#include <climits>
#include <limits>

__global__ void extremes(const float *in, int n, float *out, int *counts) {
    __shared__ float hi[64];
    __shared__ float lo[64];
    int t = threadIdx.x;
    float h = -std::numeric_limits<float>::infinity();
    float l = FLT_MAX;
    for (int i = t; i < n; i += blockDim.x) {
        h = fmaxf(h, in[i]);
        l = fminf(l, in[i]);
    }
    hi[t] = h;
    lo[t] = l;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            hi[t] = fmaxf(hi[t], hi[t + s]);
            lo[t] = fminf(lo[t], lo[t + s]);
        }
        __syncthreads();
    }
    if (t == 0) {
        out[0] = hi[0];
        out[1] = lo[0];
        out[2] = std::numeric_limits<float>::lowest();
        out[3] = std::numeric_limits<float>::epsilon();
        counts[0] = INT_MAX;
        counts[1] = std::numeric_limits<int>::min();
        counts[2] = (int)std::numeric_limits<short>::max();
    }
}

int main() {
    const int n = 1000;
    float h_in[n];
    for (int i = 0; i < n; i++) h_in[i] = (float)((i * 37) % 1001) - 500.0f;
    float *d_in, *d_out;
    int *d_counts;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, 4 * sizeof(float));
    cudaMalloc(&d_counts, 3 * sizeof(int));
    cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
    extremes<<<1, 64>>>(d_in, n, d_out, d_counts);
    float out[4];
    int counts[3];
    cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
    cudaMemcpy(counts, d_counts, sizeof(counts), cudaMemcpyDeviceToHost);
    printf("device: max %g min %g lowest %g eps %g\n", out[0], out[1], out[2], out[3]);
    printf("device: %d %d %d\n", counts[0], counts[1], counts[2]);

    float best = std::numeric_limits<float>::max();
    double worst = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; i++) {
        if (h_in[i] < best) best = h_in[i];
        if (h_in[i] > worst) worst = h_in[i];
    }
    printf("host: min %g max %g\n", best, worst);
    printf("int %d %d unsigned %u long long %lld size_t %zu\n", std::numeric_limits<int>::max(),
           std::numeric_limits<int>::lowest(), std::numeric_limits<unsigned int>::max(),
           std::numeric_limits<long long>::min(), std::numeric_limits<size_t>::max());
    printf("float %g %g %g double %g %g\n", std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
           std::numeric_limits<float>::epsilon(), std::numeric_limits<double>::max(),
           std::numeric_limits<double>::epsilon());
    printf("cfloat %g %g %g climits %d %u %lld\n", FLT_MAX, DBL_MIN, FLT_EPSILON, INT_MIN, UINT_MAX, LLONG_MAX);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_counts);
    return 0;
}

// std::array in host code, as C++ courses use it (issue 33): fixed-size buffers copied to the device through
// data() and sizeof, brace initialisers with and without the inner braces, arrays of structs and of arrays,
// a length from a constant, range-for, <algorithm> over begin()/end(), fill, front/back/at, passing by
// reference, copying, and an array inside a struct.
#include <array>
#include <algorithm>
#include <cstdio>
#include <numeric>

constexpr int N = 8;
const int TILE = 4;

struct Particle {
    float x, y;
    int id;
};

struct Stats {
    std::array<float, 3> mean;
    int count;
};

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void move(Particle *p, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        p[i].x += 1.0f;
        p[i].y *= 2.0f;
    }
}

float sum(const std::array<float, N> &v)
{
    float s = 0.0f;
    for (float e : v) s += e;
    return s;
}

void scale(std::array<float, N> &v, float k)
{
    for (size_t i = 0; i < v.size(); i++) v[i] *= k;
}

int main()
{
    std::array<float, N> x;
    std::array<float, N> y{};
    for (int i = 0; i < N; i++) x[i] = 0.5f * i;
    y.fill(1.0f);
    printf("sizeof(x) = %zu, x.size() = %zu, empty: %d\n", sizeof(x), x.size(), (int)x.empty());

    float *d_x, *d_y;
    cudaMalloc(&d_x, sizeof(x));
    cudaMalloc(&d_y, sizeof(y));
    cudaMemcpy(d_x, x.data(), sizeof(x), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, y.data(), y.size() * sizeof(float), cudaMemcpyHostToDevice);
    saxpy<<<1, 32>>>(2.0f, d_x, d_y, N);
    cudaMemcpy(y.data(), d_y, sizeof(y), cudaMemcpyDeviceToHost);
    printf("y:");
    for (const auto &v : y) printf(" %.2f", v);
    printf("\nsum(y) = %.2f, front %.2f, back %.2f, at(3) %.2f\n", sum(y), y.front(), y.back(), y.at(3));

    std::array<float, N> z = y;
    scale(z, 0.5f);
    printf("z[7] = %.2f, y[7] = %.2f (a copy)\n", z[7], y[7]);

    std::array<int, 6> keys = {42, 7, 19, 3, 25, 11};
    std::sort(keys.begin(), keys.end());
    int total = std::accumulate(keys.begin(), keys.end(), 0);
    auto largest = std::max_element(std::begin(keys), std::end(keys));
    printf("sorted:");
    for (int k : keys) printf(" %d", k);
    printf("  total %d, largest %d at %d\n", total, *largest, (int)(largest - keys.begin()));

    std::array<std::array<int, TILE>, 2> tiles = {{{1, 2, 3, 4}, {5, 6, 7, 8}}};
    tiles[1][2] *= 10;
    int corner = 0;
    for (const auto &row : tiles) corner += row[TILE - 1];
    printf("tiles[1][2] = %d, corners %d, sizeof %zu\n", tiles[1][2], corner, sizeof(tiles));

    std::array<Particle, 3> ps = {{{0.0f, 1.0f, 10}, {2.0f, 3.0f, 11}, {4.0f, 5.0f, 12}}};
    Particle *d_p;
    cudaMalloc(&d_p, sizeof(ps));
    cudaMemcpy(d_p, ps.data(), sizeof(ps), cudaMemcpyHostToDevice);
    move<<<1, 32>>>(d_p, (int)ps.size());
    cudaMemcpy(ps.data(), d_p, sizeof(ps), cudaMemcpyDeviceToHost);
    for (const Particle &p : ps) printf("particle %d: (%.1f, %.1f)\n", p.id, p.x, p.y);

    Stats st{};
    st.mean[0] = 1.5f;
    st.mean[1] = st.mean[0] + 1.0f;
    st.mean.back() = 3.5f;
    st.count = 3;
    printf("stats: %.1f %.1f %.1f over %d\n", st.mean[0], st.mean[1], st.mean[2], st.count);

    std::array<double, 1 << 3> powers{};
    powers[0] = 1.0;
    for (size_t i = 1; i < powers.size(); i++) powers[i] = powers[i - 1] * 2.0;
    printf("powers back %.0f, size %zu\n", powers.back(), powers.size());

    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_p);
    return 0;
}

// std::vector of structs in host code (issue 33): a course's particles kept in a vector of a plain struct,
// filled with push_back, copied to the device through data(), moved by a kernel, read back and resized;
// CUDA's vector types in a vector too.
#include <cstdio>
#include <vector>

struct Particle {
    float x, y;
    float vx, vy;
    int id;
};

__global__ void advance(Particle *p, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].x += p[i].vx * dt;
        p[i].y += p[i].vy * dt;
        p[i].id += 100;
    }
}

__global__ void lengths(const float2 *v, float *len2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) len2[i] = v[i].x * v[i].x + v[i].y * v[i].y;
}

int main()
{
    std::vector<Particle> ps;
    for (int i = 0; i < 5; i++) {
        Particle p = {1.0f * i, 2.0f * i, 0.5f, -0.25f * i, i};
        ps.push_back(p);
    }
    ps.emplace_back(ps[2]);
    printf("%zu particles, last id %d, first x %.2f\n", ps.size(), ps.back().id, ps.front().x);

    Particle *d_ps;
    size_t bytes = ps.size() * sizeof(Particle);
    cudaMalloc(&d_ps, bytes);
    cudaMemcpy(d_ps, ps.data(), bytes, cudaMemcpyHostToDevice);
    advance<<<1, 32>>>(d_ps, (int)ps.size(), 2.0f);
    cudaMemcpy(ps.data(), d_ps, bytes, cudaMemcpyDeviceToHost);
    for (const Particle &p : ps) printf("particle %d at (%.2f, %.2f)\n", p.id, p.x, p.y);

    std::vector<Particle> more(3);
    Particle origin = {0.0f, 0.0f, 1.0f, 1.0f, -1};
    more.resize(5, origin);
    printf("more: %zu, [1].id %d, [4].id %d, [4].vx %.1f\n", more.size(), more[1].id, more[4].id, more[4].vx);
    more.clear();
    printf("cleared: %zu, empty %d\n", more.size(), (int)more.empty());

    std::vector<float2> v(4, make_float2(3.0f, 4.0f));
    v[1] = make_float2(1.0f, 1.0f);
    v.push_back(make_float2(6.0f, 8.0f));
    float2 *d_v;
    float *d_len;
    cudaMalloc(&d_v, v.size() * sizeof(float2));
    cudaMalloc(&d_len, v.size() * sizeof(float));
    cudaMemcpy(d_v, v.data(), v.size() * sizeof(float2), cudaMemcpyHostToDevice);
    lengths<<<1, 32>>>(d_v, d_len, (int)v.size());
    std::vector<float> len2(v.size());
    cudaMemcpy(len2.data(), d_len, len2.size() * sizeof(float), cudaMemcpyDeviceToHost);
    printf("squared lengths:");
    for (float l : len2) printf(" %.1f", l);
    printf("\n");

    cudaFree(d_ps);
    cudaFree(d_v);
    cudaFree(d_len);
    return 0;
}

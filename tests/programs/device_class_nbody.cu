// One n-body step with a `float3`-like class in device code: default and parameterised constructors, `+=`,
// a free `operator*` (scalar first), a static member function, default member initialisers, a class member
// default-constructed, and a per-thread array of objects (each element default-constructed). The printout
// rounds to 4 decimals, far coarser than float rounding (or nvcc's FMA contraction) could show.
#include <cstdio>

struct Vec3 {
    float x, y, z;
    __device__ Vec3() : x(0.0f), y(0.0f), z(0.0f) {}
    __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
    __device__ Vec3 operator-(const Vec3 &o) const { return Vec3(x - o.x, y - o.y, z - o.z); }
    __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
    __device__ Vec3 &operator+=(const Vec3 &o) {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
    __device__ float norm2() const { return x * x + y * y + z * z; }
    __device__ static Vec3 zero() { return Vec3(); }
};

__device__ Vec3 operator*(float s, const Vec3 &v) { return Vec3(s * v.x, s * v.y, s * v.z); }

struct Body {
    float px, py, pz;
    float mass;
};

struct Accumulator {
    Vec3 force;
    int interactions = 0;
    float softening = 1.0f;
    __device__ void add(const Vec3 &d, float m) {
        float r2 = d.norm2() + softening;
        float inv = 1.0f / (r2 * sqrtf(r2));
        force += (m * inv) * d;
        interactions++;
    }
};

#define N 6

__global__ void step(const Body *bodies, Body *out, float dt) {
    int i = threadIdx.x;
    if (i >= N) return;
    Vec3 pos[N];
    for (int j = 0; j < N; j++) pos[j] = pos[j] + Vec3(bodies[j].px, bodies[j].py, bodies[j].pz);
    Accumulator acc;
    for (int j = 0; j < N; j++) {
        if (j != i) acc.add(pos[j] - pos[i], bodies[j].mass);
    }
    Vec3 vel = Vec3::zero();
    vel += dt * acc.force;
    Vec3 p = pos[i] + dt * vel;
    out[i].px = p.x;
    out[i].py = p.y;
    out[i].pz = p.z;
    out[i].mass = (float)acc.interactions;
}

int main() {
    Body h[N];
    for (int i = 0; i < N; i++) {
        h[i].px = (float)(i % 3) * 2.0f;
        h[i].py = (float)(i / 3) * 3.0f;
        h[i].pz = (float)(i % 2);
        h[i].mass = (float)(1 << (i % 3));
    }
    Body *d_in, *d_out;
    cudaMalloc(&d_in, sizeof(h));
    cudaMalloc(&d_out, sizeof(h));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    step<<<1, 32>>>(d_in, d_out, 0.5f);
    cudaMemcpy(h, d_out, sizeof(h), cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++) printf("%d: %.4f %.4f %.4f (%d)\n", i, h[i].px, h[i].py, h[i].pz, (int)h[i].mass);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}

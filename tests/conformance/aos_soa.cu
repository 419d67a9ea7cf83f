// Array of structures against structure of arrays (the textbook's chapter 4 pair), in one kernel, with a
// struct passed by value to a device function and a typedef'd vector type.
// @grid 2
// @block 32
// @arg aos float[128] = i
// @arg soa float[128] = i
// @arg out float[64] = 0
struct Particle {
    float x;
    float y;
};
typedef struct {
    float *x;
    float *y;
} Particles;

__device__ float energy(Particle p) { return p.x * p.x + 0.5f * p.y; }

__global__ void aosSoa(float *aos, float *soa, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Particle *ps = reinterpret_cast<Particle *>(aos);
    Particles s = {soa, soa + 64};
    Particle p = ps[i];
    p.x += 1.0f;
    ps[i] = p;
    s.x[i] += 2.0f;
    float2 q = make_float2(s.x[i], s.y[i]);
    out[i] = energy(p) + q.x * q.y;
}

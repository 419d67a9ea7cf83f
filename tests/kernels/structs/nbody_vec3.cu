class Vec3 {
public:
    float x, y, z;
    __host__ __device__ Vec3() : x(0), y(0), z(0) {}
    __host__ __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
    __device__ float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
    __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
    __device__ Vec3 operator-(const Vec3 &o) const { return Vec3(x - o.x, y - o.y, z - o.z); }
    __device__ Vec3 &operator+=(const Vec3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
    __device__ float length2() const;
    void print() const;
};
__device__ float Vec3::length2() const { return dot(*this); }
__device__ Vec3 operator*(float s, const Vec3 &v) { return Vec3(s * v.x, s * v.y, s * v.z); }

// @grid 1
// @block 4
// @arg pos Vec3[4] = i
// @arg vel Vec3[4] = 0
// @arg out float[4] = 0
__global__ void step(Vec3 *pos, Vec3 *vel, float *out) {
    int i = threadIdx.x;
    Vec3 acc;
    for (int j = 0; j < 4; j++) {
        Vec3 d = pos[j] - pos[i];
        float r2 = d.length2() + 1.0f;
        acc += (1.0f / r2) * d;
    }
    vel[i] += 0.5f * acc;
    out[i] = pos[i].dot(vel[i]) + vel[i].length2();
}

// Ray casting against spheres with small classes in device code: a `Vec3` class with public and private
// sections, constructors, operators and a method defined outside the class; `Ray` and `Sphere` built from
// them. The spheres live in a `__shared__` array (CUDA runs no constructor there: thread 0 assigns them), a
// `Sphere` is passed to the kernel by value, and each pixel's nearest hit is drawn and the hits counted.
#include <cstdio>

class Vec3 {
public:
    float x, y, z;
    __device__ Vec3() : x(0.0f), y(0.0f), z(0.0f) {}
    __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
    __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
    __device__ Vec3 operator-(const Vec3 &o) const { return Vec3(x - o.x, y - o.y, z - o.z); }
    __device__ Vec3 operator*(float s) const { return Vec3(x * s, y * s, z * s); }
    __device__ Vec3 operator-() const { return Vec3(-x, -y, -z); }
    __device__ float dot(const Vec3 &o) const;
    __device__ bool operator==(const Vec3 &o) const { return x == o.x && y == o.y && z == o.z; }
private:
    __device__ float sum() const { return x + y + z; }
};

__device__ float Vec3::dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }

struct Ray {
    Vec3 origin, dir;
    __device__ Ray(const Vec3 &o, const Vec3 &d) : origin(o), dir(d) {}
    __device__ Vec3 at(float t) const { return origin + dir * t; }
};

struct Sphere {
    Vec3 center;
    float radius;
    int id;
    __host__ __device__ Sphere() : radius(0.0f), id(-1) {}
    __device__ Sphere(Vec3 c, float r, int i) : center(c), radius(r), id(i) {}
    // The distance along the ray to the first hit, or -1 when the ray misses (`dir` has length 1).
    __device__ float hit(const Ray &ray) const {
        Vec3 oc = ray.origin - center;
        float b = oc.dot(ray.dir);
        float c = oc.dot(oc) - radius * radius;
        float disc = b * b - c;
        if (disc < 0.0f) return -1.0f;
        return -b - sqrtf(disc);
    }
};

#define W 24
#define H 12

__global__ void render(char *image, int *hits, Sphere extra) {
    __shared__ Sphere spheres[3];
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        spheres[0] = Sphere(Vec3(-5.0f, 0.0f, 0.0f), 4.0f, 0);
        spheres[1] = Sphere(Vec3(4.0f, 1.0f, 2.0f), 3.0f, 1);
        spheres[2] = extra;
    }
    __syncthreads();
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= W || py >= H) return;
    Ray ray(Vec3(px - 12.0f, py - 6.0f, -20.0f), -Vec3(0.0f, 0.0f, -1.0f));
    float nearest = 1e30f;
    int which = -1;
    for (int s = 0; s < 3; s++) {
        float t = spheres[s].hit(ray);
        if (t > 0.0f && t < nearest) {
            nearest = t;
            which = spheres[s].id;
        }
    }
    char shade = '.';
    if (which >= 0) {
        atomicAdd(&hits[which], 1);
        Vec3 p = ray.at(nearest);
        shade = (p.z < -2.0f) ? 'A' + which : 'a' + which;
    }
    image[py * W + px] = shade;
}

int main() {
    char *d_image;
    int *d_hits;
    char h_image[W * H];
    int h_hits[3] = {0, 0, 0};
    cudaMalloc(&d_image, W * H);
    cudaMalloc(&d_hits, sizeof(h_hits));
    cudaMemcpy(d_hits, h_hits, sizeof(h_hits), cudaMemcpyHostToDevice);
    Sphere extra;
    extra.center.x = 1.0f;
    extra.center.y = -4.0f;
    extra.center.z = -6.0f;
    extra.radius = 2.0f;
    extra.id = 2;
    dim3 block(8, 4);
    dim3 grid((W + block.x - 1) / block.x, (H + block.y - 1) / block.y);
    render<<<grid, block>>>(d_image, d_hits, extra);
    cudaMemcpy(h_image, d_image, W * H, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_hits, d_hits, sizeof(h_hits), cudaMemcpyDeviceToHost);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) putchar(h_image[y * W + x]);
        putchar('\n');
    }
    printf("hits: %d %d %d\n", h_hits[0], h_hits[1], h_hits[2]);
    cudaFree(d_image);
    cudaFree(d_hits);
    return 0;
}

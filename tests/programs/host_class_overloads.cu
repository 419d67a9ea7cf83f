// Overloads by parameter types (free functions, methods and several constructors of one class), and a
// virtual destructor called through a base pointer: `delete` runs the derived class's destructor, then the
// base's. A kernel sums the samples the host built through the overloads.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void total(const float *a, int n, float *out) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float s = 0.0f;
        for (int i = 0; i < n; i++) s += a[i];
        *out = s;
    }
}

int twice(int x) { return 2 * x; }
float twice(float x) { return 2.0f * x + 0.25f; }
double twice(double x) { return 2.0 * x + 0.5; }
int twice(int x, int y) { return 2 * (x + y); }
void describe(int v) { printf("int %d\n", v); }
void describe(const char *s) { printf("text %s\n", s); }
void describe(float *p) { printf("array starting %.1f\n", p[0]); }

class Samples {
    float v[8];
    int n;

public:
    Samples() : n(0) {}
    Samples(float x) : n(1) { v[0] = x; }
    Samples(float x, int count) : n(count) {
        for (int i = 0; i < count; i++) v[i] = x + i;
    }
    void add(float x) { v[n++] = x; }
    void add(int x) { v[n++] = x * 10.0f; }
    void add(const Samples &o) {
        for (int i = 0; i < o.n; i++) v[n++] = o.v[i];
    }
    int size() const { return n; }
    const float *data() const { return v; }
};

class Resource {
public:
    int id;
    Resource(int i) : id(i) { printf("acquire %d\n", id); }
    virtual ~Resource() { printf("release resource %d\n", id); }
    virtual const char *kind() const { return "resource"; }
};

class DeviceBuffer : public Resource {
    float *d;

public:
    DeviceBuffer(int i, int n) : Resource(i) {
        cudaMalloc(&d, n * sizeof(float));
        printf("buffer %d holds %d floats\n", id, n);
    }
    ~DeviceBuffer() {
        cudaFree(d);
        printf("free buffer %d\n", id);
    }
    const char *kind() const override { return "device buffer"; }
};

int main() {
    printf("%d %.2f %.2f %d\n", twice(3), twice(1.5f), twice(1.5), twice(1, 2));
    float arr[2] = {4.5f, 5.5f};
    describe(7);
    describe("seven");
    describe(arr);

    Samples a;
    Samples b(0.5f);
    Samples c(1.0f, 3);
    a.add(2.5f);
    a.add(2);
    a.add(c);
    b.add(c);
    printf("sizes %d %d %d\n", a.size(), b.size(), c.size());

    float *d_a, *d_out, sum = 0.0f;
    cudaMalloc(&d_a, a.size() * sizeof(float));
    cudaMalloc(&d_out, sizeof(float));
    cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
    total<<<1, 32>>>(d_a, a.size(), d_out);
    cudaMemcpy(&sum, d_out, sizeof(float), cudaMemcpyDeviceToHost);
    printf("sum of a = %.2f\n", sum);
    cudaFree(d_a);
    cudaFree(d_out);

    Resource *rs[2];
    rs[0] = new Resource(1);
    rs[1] = new DeviceBuffer(2, 64);
    for (int i = 0; i < 2; i++) printf("%d is a %s\n", rs[i]->id, rs[i]->kind());
    for (int i = 0; i < 2; i++) delete rs[i];
    return 0;
}

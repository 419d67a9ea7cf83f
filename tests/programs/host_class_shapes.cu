// A shape hierarchy as courses write it: an abstract base class with a pure virtual area(), derived classes
// whose constructors call the base's from their initialiser lists, an override chosen through base pointers
// and references, inherited fields and methods, and destructors run derived first. The areas are summed on
// the GPU too.
#include <cstdio>

class Shape {
protected:
    int id;

public:
    Shape(int i) : id(i) {}
    virtual ~Shape() {}
    virtual float area() const = 0;
    virtual const char *name() const { return "shape"; }
    int getId() const { return id; }
};

class Rect : public Shape {
    float w, h;

public:
    Rect(int i, float w_, float h_) : Shape(i), w(w_), h(h_) {}
    ~Rect() { printf("~Rect %d\n", id); }
    float area() const override { return w * h; }
    const char *name() const override { return "rect"; }
};

class Square : public Rect {
public:
    Square(int i, float s) : Rect(i, s, s) {}
    const char *name() const override { return "square"; }
};

class Circle : public Shape {
    float r;

public:
    Circle(int i, float r_) : Shape(i), r(r_) {}
    float area() const override { return 3.0f * r * r; }
};

__global__ void sum(const float *a, float *out, int n) {
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] = t < n ? a[t] : 0.0f;
    __syncthreads();
    for (int k = 16; k > 0; k /= 2) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) *out = s[0];
}

float describe(const Shape *s) { return s->area(); }

int main() {
    Rect r(1, 2.0f, 3.0f);
    Square q(2, 4.0f);
    Circle c(3, 1.0f);
    Shape *shapes[3] = {&r, &q, &c};
    float areas[3];
    for (int i = 0; i < 3; i++) {
        Shape *s = shapes[i];
        areas[i] = describe(s);
        printf("shape %d is a %s of area %.1f\n", s->getId(), s->name(), s->area());
    }
    float *d_a, *d_sum, total;
    cudaMalloc(&d_a, 3 * sizeof(float));
    cudaMalloc(&d_sum, sizeof(float));
    cudaMemcpy(d_a, areas, 3 * sizeof(float), cudaMemcpyHostToDevice);
    sum<<<1, 32>>>(d_a, d_sum, 3);
    cudaMemcpy(&total, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
    printf("total area %.1f\n", total);
    cudaFree(d_a);
    cudaFree(d_sum);
    return 0;
}

// A host Matrix class with operator() to read an element, operator+ and operator* (a member and a free
// function), operator+= and operator==, temporaries returned by value, and a destructor that frees its
// storage; the product is checked against a kernel.
#include <cstdio>
#include <cstdlib>

#define N 4

struct Vec2 {
    float x, y;
    __host__ __device__ Vec2 operator+(const Vec2 &o) const {
        Vec2 r;
        r.x = x + o.x;
        r.y = y + o.y;
        return r;
    }
    __host__ __device__ Vec2 operator-() const {
        Vec2 r;
        r.x = -x;
        r.y = -y;
        return r;
    }
};

class Complex {
public:
    double re, im;
    Complex(double r, double i) : re(r), im(i) {}
    Complex operator+(const Complex &o) const { return Complex(re + o.re, im + o.im); }
    Complex operator*(const Complex &o) const { return Complex(re * o.re - im * o.im, re * o.im + im * o.re); }
    Complex &operator+=(const Complex &o) {
        re += o.re;
        im += o.im;
        return *this;
    }
    bool operator==(const Complex &o) const { return re == o.re && im == o.im; }
};

Complex operator-(const Complex &a, const Complex &b) { return Complex(a.re - b.re, a.im - b.im); }

class Matrix {
    float *data;
    int rows, cols;

public:
    Matrix(int r, int c) : rows(r), cols(c) {
        data = (float *)malloc(r * c * sizeof(float));
        for (int i = 0; i < r * c; i++) data[i] = 0.0f;
    }
    ~Matrix() {
        free(data);
        printf("freed a %dx%d matrix\n", rows, cols);
    }
    float operator()(int r, int c) const { return data[r * cols + c]; }
    void set(int r, int c, float v) { data[r * cols + c] = v; }
    float *raw() { return data; }
    int size() const { return rows * cols; }
    float trace() {
        float t = 0;
        for (int i = 0; i < rows; i++) t += data[i * cols + i];
        return t;
    }
};

__global__ void matmul(const float *a, const float *b, float *c, int n) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n && col < n) {
        float s = 0;
        for (int k = 0; k < n; k++) s += a[r * n + k] * b[k * n + col];
        c[r * n + col] = s;
    }
}

int main() {
    Vec2 p[3];
    for (int i = 0; i < 3; i++) {
        p[i].x = i;
        p[i].y = 10 * i;
    }
    Vec2 q = p[1] + p[2] + p[2];
    Vec2 m = -q;
    printf("q = (%.1f, %.1f), -q = (%.1f, %.1f)\n", q.x, q.y, m.x, m.y);

    Complex a(1, 2), b(3, -1);
    Complex c = a + b * a;
    Complex d = c - Complex(0.5, 0.5);
    d += a;
    printf("c = %.1f%+.1fi, d = %.1f%+.1fi, a == a: %d, a == b: %d\n", c.re, c.im, d.re, d.im, a == a, a == b);

    Matrix A(N, N), B(N, N), C(N, N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A.set(i, j, i + j);
            B.set(i, j, (i == j) ? 2.0f : 0.0f);
        }
    float *dA, *dB, *dC;
    size_t bytes = A.size() * sizeof(float);
    cudaMalloc(&dA, bytes);
    cudaMalloc(&dB, bytes);
    cudaMalloc(&dC, bytes);
    cudaMemcpy(dA, A.raw(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B.raw(), bytes, cudaMemcpyHostToDevice);
    matmul<<<dim3(1, 1), dim3(N, N)>>>(dA, dB, dC, N);
    cudaMemcpy(C.raw(), dC, bytes, cudaMemcpyDeviceToHost);
    printf("C(1,2) = %.1f, C(3,3) = %.1f, trace = %.1f\n", C(1, 2), C(3, 3), C.trace());
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}

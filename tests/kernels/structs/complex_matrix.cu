struct Complex {
    float r, i;
    __device__ Complex(float a, float b) : r(a), i(b) {}
    __device__ float magnitude2() const { return r * r + i * i; }
    __device__ Complex operator*(const Complex &a) const { return Complex(r * a.r - i * a.i, i * a.r + r * a.i); }
    __device__ Complex operator+(const Complex &a) const { return Complex(r + a.r, i + a.i); }
};

struct Matrix {
    int width;
    int height;
    int stride;
    float *elements;
};

__device__ Matrix GetSubMatrix(Matrix A, int row, int col) {
    Matrix s;
    s.width = 2;
    s.height = 2;
    s.stride = A.stride;
    s.elements = &A.elements[A.stride * 2 * row + 2 * col];
    return s;
}

struct Point {
    int x, y;
    static __device__ Point make(int a, int b) { Point p; p.x = a; p.y = b; return p; }
};

// @grid 1
// @block 8
// @arg iters int[8] = 0
// @arg m float[16] = i
// @arg sub float[8] = 0
__global__ void k(int *iters, float *m, float *sub) {
    int t = threadIdx.x;
    Complex c(-2.0f + 0.5f * t, 0.25f);
    Complex z(0.0f, 0.0f);
    int n = 0;
    while (n < 20 && z.magnitude2() < 4.0f) {
        z = z * z + c;
        n++;
    }
    Point p = Point::make(t % 2, t / 4);
    Matrix A;
    A.width = 4; A.height = 4; A.stride = 4; A.elements = m;
    Matrix S = GetSubMatrix(A, p.y, p.x);
    iters[t] = n;
    sub[t] = S.elements[(t / 2) % 2 * S.stride + t % 2];
}

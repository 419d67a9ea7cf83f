// Host functions and member functions returning references: `float &operator[](int)`, `float
// &operator()(int, int)`, `float &at(int)`, `Grid &operator+=(const Grid &)` returning `*this`, and a free
// function returning a reference into a file-scope array; a kernel doubles the grid the host filled
// through these references.
#include <cstdio>
#include <cuda_runtime.h>

#define W 4
#define H 3

__global__ void twice(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 2.0f * a[i];
}

class Grid {
    float cells[W * H];

public:
    Grid() {
        for (int i = 0; i < W * H; i++) cells[i] = 0.0f;
    }
    float &operator[](int i) { return cells[i]; }
    float &operator()(int r, int c) { return cells[r * W + c]; }
    float &at(int i) { return cells[i]; }
    Grid &operator+=(const Grid &o) {
        for (int i = 0; i < W * H; i++) cells[i] += o.cells[i];
        return *this;
    }
    float *data() { return cells; }
    float sum() const {
        float s = 0.0f;
        for (int i = 0; i < W * H; i++) s += cells[i];
        return s;
    }
};

int counts[8];

int &bucket(int v) { return counts[v % 8]; }

int main() {
    Grid g;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) g(r, c) = r * 10 + c;
    g[0] = 100.0f;
    g.at(1) += 0.5f;
    g[2]++;
    Grid h;
    h[11] = 1.0f;
    g += h;
    g += h;
    g[3] = 7.0f;
    printf("g[0] = %.1f, g(0, 1) = %.1f, g.at(2) = %.1f, g[3] = %.1f, g(2, 3) = %.1f\n", g[0], g(0, 1), g.at(2),
           g[3], g(2, 3));
    printf("sum = %.1f\n", g.sum());

    float *d;
    cudaMalloc(&d, W * H * sizeof(float));
    cudaMemcpy(d, g.data(), W * H * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<1, 32>>>(d, W * H);
    cudaMemcpy(g.data(), d, W * H * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
    for (int r = 0; r < H; r++) {
        for (int c = 0; c < W; c++) printf("%6.1f", g(r, c));
        printf("\n");
    }

    for (int v = 0; v < 20; v++) bucket(v * 3) += 1;
    bucket(5) = bucket(5) * 10;
    for (int b = 0; b < 8; b++) printf("%d ", counts[b]);
    printf("\n");
    return 0;
}

// Single-precision math as courses print it: a sin^2 + cos^2 "max error" check, a rotary embedding's angles,
// log-likelihoods and angles of points, printed to the last digit (the GPU's libdevice results, not the C
// library's correctly rounded ones).
#include <cmath>
#include <cstdio>

__global__ void identity(const float *x, float *err, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = sinf(x[i]), c = cosf(x[i]);
        err[i] = fabsf(s * s + c * c - 1.0f);
    }
}

__global__ void rope(const float *q, float *out, int dim, int positions) {
    int p = blockIdx.x, k = threadIdx.x;
    if (p >= positions || 2 * k >= dim) return;
    float theta = p / (1.0f + 3.0f * k);
    float s, c;
    sincosf(theta, &s, &c);
    float a = q[2 * k], b = q[2 * k + 1];
    out[p * dim + 2 * k] = a * c - b * s;
    out[p * dim + 2 * k + 1] = a * s + b * c;
}

__global__ void measures(const float *x, const float *y, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i] = logf(x[i]) + log2f(y[i] + 1.0f);
        out[4 * i + 1] = atan2f(y[i], x[i] - 3.0f);
        out[4 * i + 2] = log1pf(x[i] * 0.001f) * 1000.0f;
        out[4 * i + 3] = hypotf(x[i], y[i]) - log10f(x[i] + y[i]);
    }
}

int main() {
    const int n = 4096, dim = 16, positions = 8;
    float *hx = new float[n], *hy = new float[n], *hout = new float[4 * n];
    for (int i = 0; i < n; i++) {
        hx[i] = 0.25f + i * 0.0137f;
        hy[i] = (i % 97) * 0.31f;
    }
    float *x, *y, *out, *err, *q, *rot;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&out, 4 * n * sizeof(float));
    cudaMalloc(&err, n * sizeof(float));
    cudaMalloc(&q, dim * sizeof(float));
    cudaMalloc(&rot, positions * dim * sizeof(float));
    cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(q, hy, dim * sizeof(float), cudaMemcpyHostToDevice);

    identity<<<n / 256, 256>>>(x, err, n);
    cudaMemcpy(hout, err, n * sizeof(float), cudaMemcpyDeviceToHost);
    float maxError = 0.0f;
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        maxError = fmaxf(maxError, hout[i]);
        wrong += hout[i] > 0.0f;
    }
    printf("sin^2 + cos^2: max error %e, %d of %d not exactly 1\n", maxError, wrong, n);

    rope<<<positions, dim / 2>>>(q, rot, dim, positions);
    cudaMemcpy(hout, rot, positions * dim * sizeof(float), cudaMemcpyDeviceToHost);
    for (int p = 1; p < positions; p += 3) {
        printf("rope p=%d:", p);
        for (int k = 0; k < 6; k++) printf(" %.9g", hout[p * dim + k]);
        printf("\n");
    }

    measures<<<n / 128, 128>>>(x, y, out, n);
    cudaMemcpy(hout, out, 4 * n * sizeof(float), cudaMemcpyDeviceToHost);
    double sums[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) sums[k] += hout[4 * i + k];
    for (int i = 1; i < n; i += 911)
        printf("i=%4d: %.9g %.9g %.9g %.9g\n", i, hout[4 * i], hout[4 * i + 1], hout[4 * i + 2], hout[4 * i + 3]);
    printf("sums: %.10g %.10g %.10g %.10g\n", sums[0], sums[1], sums[2], sums[3]);
    cudaFree(x); cudaFree(y); cudaFree(out); cudaFree(err); cudaFree(q); cudaFree(rot);
    delete[] hx; delete[] hy; delete[] hout;
    return 0;
}

// <cmath> in device code beyond sqrt/exp/sin: a kernel tabulates the inverse trigonometric, hyperbolic and
// root functions in float and double, and the host prints them beside its own. The GPU's single-precision
// functions may differ from glibc's in the last place, so the table prints 5 significant digits.
#include <cmath>
#include <cstdio>

#define N 5

__global__ void table(float *f, double *d)
{
    int i = threadIdx.x;
    float x = 0.2f * i + 0.1f;
    double y = 0.2 * i + 0.1;
    f[i * 8 + 0] = atanf(x);
    f[i * 8 + 1] = atan2f(x, 1.5f);
    f[i * 8 + 2] = asinf(x);
    f[i * 8 + 3] = acosf(x);
    f[i * 8 + 4] = tanhf(x);
    f[i * 8 + 5] = cbrtf(x);
    f[i * 8 + 6] = hypotf(x, 2.0f);
    f[i * 8 + 7] = log1pf(x);
    d[i * 4 + 0] = atan(y);
    d[i * 4 + 1] = sinh(y);
    d[i * 4 + 2] = cosh(y);
    d[i * 4 + 3] = expm1(y);
}

int main()
{
    float *f;
    double *d;
    cudaMallocManaged(&f, N * 8 * sizeof(float));
    cudaMallocManaged(&d, N * 4 * sizeof(double));
    table<<<1, N>>>(f, d);
    cudaDeviceSynchronize();
    for (int i = 0; i < N; i++) {
        printf("%d:", i);
        for (int j = 0; j < 8; j++) {
            printf(" %.5g", f[i * 8 + j]);
        }
        for (int j = 0; j < 4; j++) {
            printf(" %.10g", d[i * 4 + j]);
        }
        double y = 0.2 * i + 0.1;
        printf(" | host %.10g %.10g\n", atan(y), expm1(y));
    }
    cudaFree(f);
    cudaFree(d);
    return 0;
}

// CUDA's single-precision math library (sinf, logf, expf, ...) on a spread of inputs: what warpdbg's
// src/sim/libdevice/ models. One kernel per function (its SASS is what the model was read from), a host main
// that writes inputs and results. Build and run (record.sh beside this does it):
//
//     nvcc -O2 -arch=sm_90 -o libm libm.cu && LIBM_OUT=DIR ./libm
//
// DIR/f32_a.bin, f32_b.bin, f64.bin: per function, a record: 16 bytes of name, then u32 arguments, u32
// results per input, u32 n, then x[n], y[n], results[n * results] (float or double bits, little-endian).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#define N 65536

#define K1(NAME, EXPR)                                                                                       \
    __global__ void k_##NAME(const float *xs, const float *ys, float *o, int n) {                         \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                                       \
        if (i < n) {                                                                                         \
            float x = xs[i], y = ys[i];                                                                      \
            (void)y;                                                                                         \
            o[i] = EXPR;                                                                                     \
        }                                                                                                    \
    }
#define D1(NAME, EXPR)                                                                                       \
    __global__ void k_##NAME(const double *xs, const double *ys, double *o, int n) {                      \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                                       \
        if (i < n) {                                                                                         \
            double x = xs[i], y = ys[i];                                                                     \
            (void)y;                                                                                         \
            o[i] = EXPR;                                                                                     \
        }                                                                                                    \
    }

K1(sinf, sinf(x))
K1(cosf, cosf(x))
K1(tanf, tanf(x))
K1(logf, logf(x))
K1(log2f, log2f(x))
K1(log10f, log10f(x))
K1(log1pf, log1pf(x))
K1(expf, expf(x))
K1(exp2f, exp2f(x))
K1(exp10f, exp10f(x))
K1(expm1f, expm1f(x))
K1(powf, powf(x, y))
K1(atanf, atanf(x))
K1(atan2f, atan2f(x, y))
K1(asinf, asinf(x))
K1(acosf, acosf(x))
K1(erff, erff(x))
K1(erfcf, erfcf(x))
K1(tanhf, tanhf(x))
K1(sinhf, sinhf(x))
K1(coshf, coshf(x))
K1(asinhf, asinhf(x))
K1(acoshf, acoshf(x))
K1(atanhf, atanhf(x))
K1(cbrtf, cbrtf(x))
K1(hypotf, hypotf(x, y))
K1(rsqrtf, rsqrtf(x))
K1(lgammaf, lgammaf(x))
K1(tgammaf, tgammaf(x))
K1(fmodf, fmodf(x, y))

__global__ void k_sincosf(const float *xs, const float *ys, float *o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s, c;
        sincosf(xs[i], &s, &c);
        o[i] = s;
        o[n + i] = c;
    }
}

D1(sin, sin(x))
D1(cos, cos(x))
D1(exp, exp(x))
D1(log, log(x))
D1(pow, pow(x, y))
D1(tanh, tanh(x))

// Input domains.
enum Dom { GEN, POS, UNIT, LOG1P, POW, PAIR, ACOSH, BIG };

static unsigned s = 12345;
static unsigned next() {
    s = s * 1664525u + 1013904223u;
    return s;
}
static float uni() { return (next() >> 8) * (1.0f / 16777216.0f); }
static float bits(unsigned b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}
// A float of random mantissa and sign with exponent in [lo, hi] (unbiased).
static float wide(int lo, int hi) {
    unsigned e = (unsigned)(lo + 127 + (int)(next() % (unsigned)(hi - lo + 1)));
    unsigned m = next() & 0x7fffff;
    unsigned sg = next() & 0x80000000u;
    return bits(sg | (e << 23) | m);
}
static const float SPECIAL[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f,
                                1e-45f, -1e-45f, 1e-40f, 1.17549435e-38f, 3.4028235e38f, -3.4028235e38f,
                                3.14159265f, 1.57079633f, 0.78539816f, 10.0f, 100.0f, 88.0f, 89.0f, -87.0f,
                                -104.0f, 1e-8f, 0.999999f, 1.000001f, 105615.0f, 105616.0f, 1e30f};
#define NSPECIAL (int)(sizeof(SPECIAL) / sizeof(SPECIAL[0]))

static float gen(int i) {
    switch (i % 8) {
    case 0: return uni() * 20.f - 10.f;
    case 1: return uni() * 200.f - 100.f;
    case 2: return uni() * 1e4f;
    case 3: return uni();
    case 4: return uni() * 2.f - 1.f;
    case 5: return wide(-30, 30);
    case 6: return bits(next());  // any pattern (NaNs too)
    default: return uni() * 6.f - 3.f;
    }
}

static void inputs(Dom d, float *x, float *y) {
    for (int i = 0; i < N; i++) {
        float a = gen(i), b = gen(i / 8 + i);
        switch (d) {
        case GEN: break;
        case POS: a = fabsf(a); break;
        case UNIT:
            if (i % 8 == 5) a = wide(-30, -1);
            else if (i % 8 == 1) a = (uni() < 0.5f ? -1.f : 1.f) * (1.f - uni() * 1e-3f);
            else if (i % 8 == 2) a = uni() * 2.4f - 1.2f;
            break;
        case LOG1P:
            if (a <= -1.f) a = fabsf(a);
            if (i % 8 == 2) a = wide(-30, 10);
            if (i % 8 == 1) a = uni() - 1.f;
            break;
        case ACOSH: a = 1.f + fabsf(a); if (i % 8 == 3) a = 1.f + uni() * 1e-3f; break;
        case BIG: break;
        case POW: {
            a = fabsf(a);
            int k = (i >> 3) % 4;
            if (k == 0) b = uni() * 6.f - 3.f;
            else if (k == 1) { b = (float)((int)(next() % 17) - 8); if (next() & 1) a = -a; }
            else if (k == 2) { const float h[] = {0.5f, 2.f, -0.5f, 1.f / 3, 3.f, -1.f, 1.5f, 0.25f}; b = h[next() % 8]; }
            else b = wide(-10, 10);
            break;
        }
        case PAIR: break;
        }
        if (i < NSPECIAL) a = SPECIAL[i];
        if (i >= NSPECIAL && i < 2 * NSPECIAL) b = SPECIAL[i - NSPECIAL];
        x[i] = a;
        y[i] = b;
    }
}

typedef void (*Kf)(const float *, const float *, float *, int);
typedef void (*Kd)(const double *, const double *, double *, int);
struct F32 { const char *name; Kf k; Dom d; int args, outs; };
struct F64 { const char *name; Kd k; Dom d; int args; };

static const F32 F32S[] = {
    {"sinf", k_sinf, GEN, 1, 1}, {"cosf", k_cosf, GEN, 1, 1}, {"tanf", k_tanf, GEN, 1, 1},
    {"sincosf", k_sincosf, GEN, 1, 2}, {"logf", k_logf, POS, 1, 1}, {"log2f", k_log2f, POS, 1, 1},
    {"log10f", k_log10f, POS, 1, 1}, {"log1pf", k_log1pf, LOG1P, 1, 1}, {"expf", k_expf, GEN, 1, 1},
    {"exp2f", k_exp2f, GEN, 1, 1}, {"exp10f", k_exp10f, GEN, 1, 1}, {"expm1f", k_expm1f, GEN, 1, 1},
    {"powf", k_powf, POW, 2, 1}, {"atanf", k_atanf, GEN, 1, 1}, {"atan2f", k_atan2f, PAIR, 2, 1},
    {"asinf", k_asinf, UNIT, 1, 1}, {"acosf", k_acosf, UNIT, 1, 1},
    // second file
    {"erff", k_erff, GEN, 1, 1}, {"erfcf", k_erfcf, GEN, 1, 1}, {"tanhf", k_tanhf, GEN, 1, 1},
    {"sinhf", k_sinhf, GEN, 1, 1}, {"coshf", k_coshf, GEN, 1, 1}, {"asinhf", k_asinhf, GEN, 1, 1},
    {"acoshf", k_acoshf, ACOSH, 1, 1}, {"atanhf", k_atanhf, UNIT, 1, 1}, {"cbrtf", k_cbrtf, GEN, 1, 1},
    {"hypotf", k_hypotf, PAIR, 2, 1}, {"rsqrtf", k_rsqrtf, POS, 1, 1}, {"lgammaf", k_lgammaf, GEN, 1, 1},
    {"tgammaf", k_tgammaf, GEN, 1, 1}, {"fmodf", k_fmodf, PAIR, 2, 1},
};
#define FIRST_FILE 17
static const F64 F64S[] = {
    {"sin", k_sin, GEN, 1}, {"cos", k_cos, GEN, 1}, {"exp", k_exp, GEN, 1},
    {"log", k_log, POS, 1}, {"pow", k_pow, POW, 2}, {"tanh", k_tanh, GEN, 1},
};

static void header(FILE *f, const char *name, unsigned args, unsigned outs) {
    char nm[16] = {0};
    strncpy(nm, name, 15);
    unsigned n = N;
    fwrite(nm, 1, 16, f);
    fwrite(&args, 4, 1, f);
    fwrite(&outs, 4, 1, f);
    fwrite(&n, 4, 1, f);
}

int main() {
    std::string dir = getenv("LIBM_OUT") ? getenv("LIBM_OUT") : ".";
    float *hx = (float *)malloc(N * 4), *hy = (float *)malloc(N * 4), *ho = (float *)malloc(N * 8);
    double *dx_h = (double *)malloc(N * 8), *dy_h = (double *)malloc(N * 8), *do_h = (double *)malloc(N * 8);
    float *dx, *dy, *dout;
    double *ddx, *ddy, *ddout;
    cudaMalloc(&dx, N * 4); cudaMalloc(&dy, N * 4); cudaMalloc(&dout, N * 8);
    cudaMalloc(&ddx, N * 8); cudaMalloc(&ddy, N * 8); cudaMalloc(&ddout, N * 8);
    FILE *f = fopen((dir + "/f32_a.bin").c_str(), "wb");
    int nf = sizeof(F32S) / sizeof(F32S[0]);
    for (int j = 0; j < nf; j++) {
        if (j == FIRST_FILE) { fclose(f); f = fopen((dir + "/f32_b.bin").c_str(), "wb"); }
        const F32 &e = F32S[j];
        s = 12345u + 7919u * j;
        inputs(e.d, hx, hy);
        cudaMemcpy(dx, hx, N * 4, cudaMemcpyHostToDevice);
        cudaMemcpy(dy, hy, N * 4, cudaMemcpyHostToDevice);
        e.k<<<N / 256, 256>>>(dx, dy, dout, N);
        cudaMemcpy(ho, dout, (size_t)N * 4 * e.outs, cudaMemcpyDeviceToHost);
        header(f, e.name, e.args, e.outs);
        fwrite(hx, 4, N, f); fwrite(hy, 4, N, f); fwrite(ho, 4, (size_t)N * e.outs, f);
        printf("%s %s\n", e.name, cudaGetErrorString(cudaGetLastError()));
    }
    fclose(f);
    f = fopen((dir + "/f64.bin").c_str(), "wb");
    for (int j = 0; j < (int)(sizeof(F64S) / sizeof(F64S[0])); j++) {
        const F64 &e = F64S[j];
        s = 54321u + 7919u * j;
        inputs(e.d, hx, hy);
        for (int i = 0; i < N; i++) {
            // a double's own spread: the float input plus low bits
            dx_h[i] = (double)hx[i] + (i % 8 == 6 || !std::isfinite(hx[i]) ? 0.0 : (double)hx[i] * 1e-9 * (uni() - 0.5));
            dy_h[i] = hy[i];
        }
        cudaMemcpy(ddx, dx_h, N * 8, cudaMemcpyHostToDevice);
        cudaMemcpy(ddy, dy_h, N * 8, cudaMemcpyHostToDevice);
        e.k<<<N / 256, 256>>>(ddx, ddy, ddout, N);
        cudaMemcpy(do_h, ddout, N * 8, cudaMemcpyDeviceToHost);
        header(f, e.name, e.args, 1);
        fwrite(dx_h, 8, N, f); fwrite(dy_h, 8, N, f); fwrite(do_h, 8, N, f);
        printf("%s %s\n", e.name, cudaGetErrorString(cudaGetLastError()));
    }
    fclose(f);
    return 0;
}

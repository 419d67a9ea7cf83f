// <random> on the host with libstdc++'s results: engines, distributions, seeding, lambdas that draw.
#include <cstdio>
#include <random>
#include <vector>
#include <algorithm>

#define N 64

__global__ void twice(int *ints, float *floats, double *doubles, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        ints[i] *= 2;
        floats[i] *= 2.0f;
        doubles[i] *= 2.0;
    }
}

int main()
{
    static int ints[N];
    static float floats[N];
    static double doubles[N];
    std::mt19937 mt(2024);
    std::mt19937 mtd;
    std::mt19937_64 mt64(7);
    std::default_random_engine dre(0xcaffe);
    std::minstd_rand ms(-3);
    unsigned long r0 = mt();
    unsigned long r1 = mtd();
    unsigned long r2 = mt64();
    unsigned long r3 = dre();
    unsigned long r4 = ms();
    printf("raw: %lu %lu %lu %lu %lu\n", r0, r1, r2, r3, r4);
    std::uniform_int_distribution<int> dice(1, 6);
    std::uniform_int_distribution<int> wide(-1000000, 1000000);
    std::uniform_int_distribution<unsigned int> full;
    std::uniform_int_distribution<long long> big(-5000000000LL, 5000000000LL);
    std::uniform_real_distribution<float> uf(-1.0f, 1.0f);
    std::uniform_real_distribution<double> ud(0.0, 10.0);
    std::uniform_real_distribution<> u01;
    std::normal_distribution<float> nf(42.0f);
    std::normal_distribution<double> nd(0.0, 2.5);
    for (int i = 0; i < N; i++) {
        int k = dice(mt);
        k += wide(dre);
        k += dice(mt64);
        k += (int)(full(ms) % 1000u);
        k += (int)(big(mt) % 1000);
        ints[i] = k;
        float f = uf(mt);
        f += uf(dre);
        f += uf(mt64);
        f += nf(mt);
        f += nf(dre);
        floats[i] = f;
        double d = ud(mt);
        d += ud(dre);
        d += u01(mt64);
        d += nd(mt);
        d += nd(ms);
        doubles[i] = d;
    }
    mt.seed(5);
    mtd.seed();
    unsigned long again = mt();
    int roll = dice(mtd);
    printf("reseeded: %lu %d\n", again, roll);
    std::vector<float> vals(8);
    std::for_each(vals.begin(), vals.end(), [&nf, &dre](float &f) { f = nf(dre); });
    std::vector<int> rolls(8);
    std::generate(rolls.begin(), rolls.end(), [&]() { return dice(mt); });
    for (int i = 0; i < 8; i++) printf("%.7g %d\n", vals[i], rolls[i]);
    int *d_i;
    float *d_f;
    double *d_d;
    cudaMalloc(&d_i, N * sizeof(int));
    cudaMalloc(&d_f, N * sizeof(float));
    cudaMalloc(&d_d, N * sizeof(double));
    cudaMemcpy(d_i, ints, N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_f, floats, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_d, doubles, N * sizeof(double), cudaMemcpyHostToDevice);
    twice<<<2, 32>>>(d_i, d_f, d_d, N);
    cudaMemcpy(ints, d_i, N * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(floats, d_f, N * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(doubles, d_d, N * sizeof(double), cudaMemcpyDeviceToHost);
    long long isum = 0;
    double fsum = 0, dsum = 0;
    for (int i = 0; i < N; i += 9)
        printf("%d %d %.9g %.17g\n", i, ints[i], floats[i], doubles[i]);
    for (int i = 0; i < N; i++) {
        isum += ints[i];
        fsum += floats[i];
        dsum += doubles[i];
    }
    printf("sums: %lld %.9g %.17g\n", isum, fsum, dsum);
    cudaFree(d_i);
    cudaFree(d_f);
    cudaFree(d_d);
    return 0;
}

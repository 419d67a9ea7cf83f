// Infinities and NaNs as a course program meets them: device and host printf, the GPU's canonical float NaN
// (0x7fffffff, printed "nan") against x86's (0xffc00000, "-nan"), and a per-thread array initialised from
// values known only at run time.
#include <cstdio>
#include <cmath>

__global__ void specials(const float *in, float *out, unsigned int *bits)
{
    int t = threadIdx.x;
    float x = in[t];
    float r[4] = { x - x, x * 0.0f, sqrtf(-x), x / x };
    for (int k = 0; k < 4; k++) {
        out[t * 4 + k] = r[k];
        bits[t * 4 + k] = __float_as_uint(r[k]);
    }
    if (t == 0) printf("device: %f %f %f %f\n", r[0], r[1], r[2], r[3]);
    double d = (double)x;
    if (t == 0) printf("device double: %f %e\n", d - d, -d);
}

int main(void)
{
    float h_in[2] = { INFINITY, 2.0f };
    float *d_in, *d_out;
    unsigned int *d_bits;
    cudaMalloc(&d_in, sizeof(h_in));
    cudaMalloc(&d_out, 8 * sizeof(float));
    cudaMalloc(&d_bits, 8 * sizeof(unsigned int));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    specials<<<1, 2>>>(d_in, d_out, d_bits);
    float h_out[8];
    unsigned int h_bits[8];
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_bits, d_bits, sizeof(h_bits), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++)
        printf("%d: %f %08x %s\n", i, h_out[i], h_bits[i], std::isnan(h_out[i]) ? "isnan" : "");
    float inf = h_in[0];
    float hn = inf - inf;
    printf("host: %f %f %f\n", hn, -hn, inf);
    unsigned int hb;
    memcpy(&hb, &hn, 4);
    printf("host bits %08x\n", hb);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_bits);
    return 0;
}

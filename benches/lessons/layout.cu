// Lesson 8: data layout, array of structures (AoS) against structure of arrays (SoA).
//   aosPair / soaPair          the course texts' innerStruct {float x; float y;}: x += 10, y += 20 for 4M
//                              elements (32 MB); AoS reads each field at a stride of 8 bytes
//   aosParticle / soaParticle  a particle of 8 floats (2M particles, 64 MB as AoS), of which the kernel
//                              uses two: x += vx * dt. AoS drags whole 32-byte sectors of unused fields
//                              through the memory system; SoA moves only the x and vx arrays
//
// usage: ./layout [reps]
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define NPAIR (1 << 22)
#define NPART (1 << 21)
#define BLOCK 256
#define DT 0.5f

struct innerStruct {
    float x;
    float y;
};

struct Particle {
    float x, y, z;
    float vx, vy, vz;
    float mass, charge;
};


#define CHECK(call)                                                                      \
    {                                                                                    \
        cudaError_t err = (call);                                                        \
        if (err != cudaSuccess) {                                                        \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err), __LINE__);     \
            exit(1);                                                                     \
        }                                                                                \
    }

// ---------------------------------------------------------------- timing helpers
static float g_times[1024];
static int g_reps = 10;

// call after the launch of repetition r (r = -1 is the untimed warm-up)
void stopTimer(cudaEvent_t start, cudaEvent_t stop, int r)
{
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 0) g_times[r] = ms;
}

void report(const char *lesson, const char *variant)
{
    CHECK(cudaGetLastError());
    // insertion sort, then the median
    for (int i = 1; i < g_reps; i++) {
        float v = g_times[i];
        int j = i - 1;
        while (j >= 0 && g_times[j] > v) {
            g_times[j + 1] = g_times[j];
            j--;
        }
        g_times[j + 1] = v;
    }
    float med = (g_reps % 2 == 1) ? g_times[g_reps / 2] : 0.5f * (g_times[g_reps / 2 - 1] + g_times[g_reps / 2]);
    printf("%s %s %.4f\n", lesson, variant, med);
}

void readArgs(int argc, char **argv)
{
    if (argc > 1) g_reps = atoi(argv[1]);
    if (g_reps < 1) g_reps = 1;
    if (g_reps > 1024) g_reps = 1024;
}

// ---------------------------------------------------------------- kernels
__global__ void aosPair(const innerStruct *data, innerStruct *result, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        innerStruct tmp = data[i];
        tmp.x += 10.0f;
        tmp.y += 20.0f;
        result[i] = tmp;
    }
}

__global__ void soaPair(const float *x, const float *y, float *rx, float *ry, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        rx[i] = x[i] + 10.0f;
        ry[i] = y[i] + 20.0f;
    }
}

__global__ void aosParticle(Particle *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i].x += p[i].vx * DT;
}

__global__ void soaParticle(float *x, const float *vx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += vx[i] * DT;
}

// ---------------------------------------------------------------- host
int main(int argc, char **argv)
{
    readArgs(argc, argv);
    int fails = 0;
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    // ---- pairs
    size_t pairBytes = NPAIR * sizeof(innerStruct);
    size_t fieldBytes = NPAIR * sizeof(float);
    innerStruct *h_pairs = (innerStruct *)malloc(pairBytes);
    innerStruct *h_pairOut = (innerStruct *)malloc(pairBytes);
    float *h_x = (float *)malloc(fieldBytes);
    float *h_y = (float *)malloc(fieldBytes);
    for (int i = 0; i < NPAIR; i++) {
        h_pairs[i].x = (float)(i % 1000);
        h_pairs[i].y = (float)(i % 777);
        h_x[i] = h_pairs[i].x;
        h_y[i] = h_pairs[i].y;
    }
    innerStruct *d_pairs, *d_pairOut;
    CHECK(cudaMalloc((void **)&d_pairs, pairBytes));
    CHECK(cudaMalloc((void **)&d_pairOut, pairBytes));
    CHECK(cudaMemcpy(d_pairs, h_pairs, pairBytes, cudaMemcpyHostToDevice));
    dim3 gridPair(NPAIR / BLOCK);

    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        aosPair<<<gridPair, BLOCK>>>(d_pairs, d_pairOut, NPAIR);
        stopTimer(start, stop, r);
    }
    report("layout", "aosPair");
    CHECK(cudaMemcpy(h_pairOut, d_pairOut, pairBytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NPAIR; i++) {
        if (h_pairOut[i].x != h_pairs[i].x + 10.0f || h_pairOut[i].y != h_pairs[i].y + 20.0f) {
            printf("FAIL layout aosPair: element %d\n", i);
            fails++;
            break;
        }
    }
    CHECK(cudaFree(d_pairs));
    CHECK(cudaFree(d_pairOut));

    float *d_x, *d_y, *d_rx, *d_ry;
    CHECK(cudaMalloc((void **)&d_x, fieldBytes));
    CHECK(cudaMalloc((void **)&d_y, fieldBytes));
    CHECK(cudaMalloc((void **)&d_rx, fieldBytes));
    CHECK(cudaMalloc((void **)&d_ry, fieldBytes));
    CHECK(cudaMemcpy(d_x, h_x, fieldBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, h_y, fieldBytes, cudaMemcpyHostToDevice));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        soaPair<<<gridPair, BLOCK>>>(d_x, d_y, d_rx, d_ry, NPAIR);
        stopTimer(start, stop, r);
    }
    report("layout", "soaPair");
    float *h_rx = (float *)malloc(fieldBytes);
    float *h_ry = (float *)malloc(fieldBytes);
    CHECK(cudaMemcpy(h_rx, d_rx, fieldBytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_ry, d_ry, fieldBytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NPAIR; i++) {
        if (h_rx[i] != h_x[i] + 10.0f || h_ry[i] != h_y[i] + 20.0f) {
            printf("FAIL layout soaPair: element %d\n", i);
            fails++;
            break;
        }
    }
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_rx));
    CHECK(cudaFree(d_ry));

    // ---- particles: each repetition moves x on by vx * DT; vx is a multiple of 1/4 so every sum is exact
    size_t partBytes = NPART * sizeof(Particle);
    size_t arrBytes = NPART * sizeof(float);
    Particle *h_p = (Particle *)malloc(partBytes);
    float *h_px = (float *)malloc(arrBytes);
    float *h_pvx = (float *)malloc(arrBytes);
    for (int i = 0; i < NPART; i++) {
        h_p[i].x = (float)(i % 512);
        h_p[i].y = 1.0f;
        h_p[i].z = 2.0f;
        h_p[i].vx = (float)(i % 8) * 0.25f;
        h_p[i].vy = 0.0f;
        h_p[i].vz = 0.0f;
        h_p[i].mass = 1.0f;
        h_p[i].charge = -1.0f;
        h_px[i] = h_p[i].x;
        h_pvx[i] = h_p[i].vx;
    }
    Particle *d_p;
    CHECK(cudaMalloc((void **)&d_p, partBytes));
    CHECK(cudaMemcpy(d_p, h_p, partBytes, cudaMemcpyHostToDevice));
    dim3 gridPart(NPART / BLOCK);
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        aosParticle<<<gridPart, BLOCK>>>(d_p, NPART);
        stopTimer(start, stop, r);
    }
    report("layout", "aosParticle");
    Particle *h_pOut = (Particle *)malloc(partBytes);
    CHECK(cudaMemcpy(h_pOut, d_p, partBytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NPART; i++) {
        float want = h_p[i].x + (float)(g_reps + 1) * (h_p[i].vx * DT);
        if (h_pOut[i].x != want || h_pOut[i].vy != 0.0f || h_pOut[i].charge != -1.0f) {
            printf("FAIL layout aosParticle: particle %d x = %f, expected %f\n", i, h_pOut[i].x, want);
            fails++;
            break;
        }
    }
    CHECK(cudaFree(d_p));

    float *d_px, *d_pvx;
    CHECK(cudaMalloc((void **)&d_px, arrBytes));
    CHECK(cudaMalloc((void **)&d_pvx, arrBytes));
    CHECK(cudaMemcpy(d_px, h_px, arrBytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_pvx, h_pvx, arrBytes, cudaMemcpyHostToDevice));
    for (int r = -1; r < g_reps; r++) {
        CHECK(cudaEventRecord(start));
        soaParticle<<<gridPart, BLOCK>>>(d_px, d_pvx, NPART);
        stopTimer(start, stop, r);
    }
    report("layout", "soaParticle");
    float *h_pxOut = (float *)malloc(arrBytes);
    CHECK(cudaMemcpy(h_pxOut, d_px, arrBytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NPART; i++) {
        float want = h_px[i] + (float)(g_reps + 1) * (h_pvx[i] * DT);
        if (h_pxOut[i] != want) {
            printf("FAIL layout soaParticle: x[%d] = %f, expected %f\n", i, h_pxOut[i], want);
            fails++;
            break;
        }
    }
    CHECK(cudaFree(d_px));
    CHECK(cudaFree(d_pvx));

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    free(h_pairs);
    free(h_pairOut);
    free(h_x);
    free(h_y);
    free(h_rx);
    free(h_ry);
    free(h_p);
    free(h_px);
    free(h_pvx);
    free(h_pOut);
    free(h_pxOut);
    return fails ? 1 : 0;
}

// args: 1000 0x40 2.5
// The C library that homework's host code leans on: argv parsed with atoi/strtol/atof, labels built with
// sprintf/snprintf, a buffer grown with realloc, results compared with memcmp, a __host__ __device__ helper
// called from both sides, and the freshman-book timer with its struct timezone.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/time.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
    {                                                                        \
        const cudaError_t error = call;                                      \
        if (error != cudaSuccess) {                                          \
            fprintf(stderr, "Error: %s:%d, ", __FILE__, __LINE__);           \
            fprintf(stderr, "code:%d, reason: %s\n", error,                  \
                    cudaGetErrorString(error));                              \
            exit(1);                                                         \
        }                                                                    \
    }

double cpuSecond()
{
    struct timeval tp;
    struct timezone tzp;
    gettimeofday(&tp, &tzp);
    return ((double)tp.tv_sec + (double)tp.tv_usec * 1.e-6);
}

__host__ __device__ int triangle(int i) { return i * (i + 1) / 2; }

__global__ void triangles(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = triangle(i);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    char *end;
    long block = argc > 2 ? strtol(argv[2], &end, 0) : 32;
    double scale = argc > 3 ? atof(argv[3]) : 1.0;
    printf("n = %d, block = %ld (parsed %d chars), scale = %.2f\n", n, block, (int)(end - argv[2]), scale);
    long octal = strtol("777 left", &end, 8);
    printf("strtol(\"777 left\", 8) = %ld, rest \"%s\"\n", octal, end);
    printf("atol = %ld, strtoul(\"-1\") = %lu\n", atol("-9000000000"), strtoul("-1", NULL, 10));

    char label[32];
    int len = sprintf(label, "triangles<<<%d, %ld>>>", (int)((n + block - 1) / block), block);
    printf("%s (%d chars)\n", label, len);
    char cut[8];
    len = snprintf(cut, sizeof(cut), "%s", label);
    printf("snprintf kept \"%s\", wanted %d\n", cut, len);

    // Grow a host buffer as input arrives.
    int cap = 4, used = 0;
    int *h = (int *)malloc(cap * sizeof(int));
    for (int i = 0; i < n; i++) {
        if (used == cap) {
            cap *= 2;
            h = (int *)realloc(h, cap * sizeof(int));
        }
        h[used++] = triangle(i);
    }
    printf("host buffer: %d of %d used\n", used, cap);

    double start = cpuSecond();
    int *d, *back = (int *)malloc(n * sizeof(int));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    triangles<<<(n + block - 1) / block, block>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(back, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    double elapsed = cpuSecond() - start;
    fflush(stdout);

    int same = memcmp(h, back, n * sizeof(int)) == 0;
    printf("device %s host: last = %d, scaled = %.1f\n", same ? "matches" : "differs from", back[n - 1],
           back[n - 1] * scale);
    printf("elapsed %f sec\n", elapsed);
    CHECK(cudaFree(d));
    free(h);
    free(back);
    return same ? 0 : 1;
}

// Host-side mistakes, one per command-line argument: oob, uaf, double, fault, config, exit.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void fill(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i;   // no bounds check
}

int sum(int *v, int n)
{
    int s = 0;
    for (int i = 0; i <= n; i++) s += v[i];   // one too many when n is the length
    return s;
}

int main(int argc, char *argv[])
{
    const char *what = argc > 1 ? argv[1] : "none";
    int *h = (int *)calloc(10, sizeof(int));
    printf("mode %s\n", what);
    if (strcmp(what, "oob") == 0) {
        printf("sum %d\n", sum(h, 10));
    } else if (strcmp(what, "uaf") == 0) {
        free(h);
        h[2] = 5;
    } else if (strcmp(what, "double") == 0) {
        free(h);
        free(h);
    } else if (strcmp(what, "fault") == 0) {
        int *d;
        cudaMalloc(&d, 100 * sizeof(int));
        fill<<<1, 128>>>(d, 100);
        cudaError_t err = cudaDeviceSynchronize();
        printf("sync: %s\n", cudaGetErrorString(err));
        err = cudaMemcpy(h, d, 10 * sizeof(int), cudaMemcpyDeviceToHost);
        printf("memcpy: %s (%d)\n", cudaGetErrorName(err), err);
    } else if (strcmp(what, "config") == 0) {
        int *d;
        cudaMalloc(&d, 4096 * sizeof(int));
        fill<<<2, 2048>>>(d, 4096);
        cudaError_t err = cudaGetLastError();
        printf("launch: %s (%d)\n", cudaGetErrorString(err), err);
        printf("after: %s\n", cudaGetErrorString(cudaGetLastError()));
    } else if (strcmp(what, "exit") == 0) {
        fprintf(stderr, "bailing out\n");
        exit(7);
    }
    printf("done\n");
    return 0;
}

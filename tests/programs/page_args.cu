// args: 7 'two words' last
// not compared: the playground page's tests' program (hand-outs with arguments, links to a launch and step, the Program pane scrolled down and sideways); what it prints is its own arguments, checked against `warpdbg run` itself
// A program that prints its arguments, more lines than the Program pane shows and one line wider than it,
// then scales an array in two launches and prints the result.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(int *v, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] = v[i] * k;
    }
}

int main(int argc, char **argv)
{
    printf("argc = %d\n", argc);
    for (int i = 1; i < argc; i++) {
        printf("argv[%d] = %s\n", i, argv[i]);
    }
    for (int i = 1; i <= 24; i++) {
        printf("line %2d of the output before the first launch\n", i);
    }
    printf("a long line: the quick brown fox jumps over the lazy dog, and the lazy dog sleeps on; the end is here >END<\n");
    const int n = 64;
    int h[n];
    for (int i = 0; i < n; i++) {
        h[i] = i;
    }
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    scale<<<2, 32>>>(d, 2, n);
    scale<<<2, 32>>>(d, 3, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    for (int row = 0; row < n; row += 16) {
        for (int i = row; i < row + 16; i++) {
            printf("%4d", h[i]);
        }
        printf("\n");
    }
    return 0;
}

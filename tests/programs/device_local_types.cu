// Types declared inside function bodies: a struct in a kernel, an enum class and a struct in main.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int *out)
{
    struct Pair { int a; int b; };
    Pair p = {threadIdx.x, 2};
    out[threadIdx.x] = p.a * p.b;
}
int main()
{
    enum class Mode { Copy, Async };
    struct Stat { int n; float mean; };
    Stat s = {3, 1.5f};
    Mode m = Mode::Async;
    int *d, h[4];
    cudaMalloc(&d, sizeof(h));
    k<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%d %d %d %d | %d %.1f %d\n", h[0], h[1], h[2], h[3], s.n, s.mean, m == Mode::Async);
    cudaFree(d);
    return 0;
}

// nvcc: -rdc=true
// Dynamic parallelism as course code writes it: kernels that launch grids of their own, recursively, per
// block with dim3 configurations, and a recursive reduction whose levels each launch the next.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t err = (call);                                                       \
        if (err != cudaSuccess) {                                                       \
            printf("Error: %s:%d, %s\n", __FILE__, __LINE__, cudaGetErrorString(err));  \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

__global__ void hello(int size, int depth)
{
    printf("depth %d: hello from thread %d of %d\n", depth, threadIdx.x, size);
    if (size == 1) return;
    if (threadIdx.x == 0) {
        hello<<<1, size / 2>>>(size / 2, depth + 1);
        printf("depth %d launched depth %d\n", depth, depth + 1);
    }
}

__global__ void scale(float *x, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

// Each block hands its chunk of the array to a child grid of its own.
__global__ void by_chunks(float *x, int chunk)
{
    if (threadIdx.x == 0) {
        dim3 block(64);
        dim3 grid((chunk + block.x - 1) / block.x);
        scale<<<grid, block>>>(x + blockIdx.x * chunk, chunk, (float)(blockIdx.x + 1));
    }
}

// One level of a pairwise sum: the upper half is added onto the lower half, then the next level is launched
// on the lower half once the whole block has added (the child sees what the block wrote before the launch).
__global__ void fold(int *v, int n)
{
    int half = n / 2;
    int i = threadIdx.x;
    if (i < half) v[i] += v[i + half];
    __syncthreads();
    if (i == 0 && half > 1) fold<<<1, half / 2>>>(v, half);
}

int main(void)
{
    printf("hello, recursively:\n");
    hello<<<1, 8>>>(8, 0);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    const int blocks = 4, chunk = 100, n = blocks * chunk;
    float *h_x = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h_x[i] = 0.5f * i;
    float *d_x;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice));
    by_chunks<<<blocks, 32>>>(d_x, chunk);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (h_x[i] != 0.5f * i * (i / chunk + 1)) bad++;
    printf("chunks scaled by child grids: x[0] %.1f x[150] %.1f x[399] %.1f, %d wrong\n", h_x[0], h_x[150], h_x[399], bad);

    const int m = 2048;
    int *h_v = (int *)malloc(m * sizeof(int));
    long long cpu = 0;
    for (int i = 0; i < m; i++) {
        h_v[i] = (i * 37) % 101;
        cpu += h_v[i];
    }
    int *d_v;
    CHECK(cudaMalloc(&d_v, m * sizeof(int)));
    CHECK(cudaMemcpy(d_v, h_v, m * sizeof(int), cudaMemcpyHostToDevice));
    fold<<<1, m / 2>>>(d_v, m);
    CHECK(cudaDeviceSynchronize());
    int gpu = 0;
    CHECK(cudaMemcpy(&gpu, d_v, sizeof(int), cudaMemcpyDeviceToHost));
    printf("recursive sum: gpu %d cpu %lld %s\n", gpu, cpu, gpu == cpu ? "PASS" : "FAIL");

    printf("%s: %s\n", cudaGetErrorName(cudaErrorLaunchMaxDepthExceeded),
           cudaGetErrorString(cudaErrorLaunchMaxDepthExceeded));
    printf("%s: %s\n", cudaGetErrorName(cudaErrorLaunchPendingCountExceeded),
           cudaGetErrorString(cudaErrorLaunchPendingCountExceeded));

    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_v));
    free(h_x);
    free(h_v);
    return 0;
}

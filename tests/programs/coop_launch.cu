// Launching through the runtime's launch functions instead of <<<>>>: a grid-wide reduction launched with
// cudaLaunchCooperativeKernel (its arguments passed as an array of their addresses), the same launch with
// one block more than can be resident at once (refused: cudaErrorCooperativeLaunchTooLarge), and an ordinary
// kernel launched with cudaLaunchKernel next to the same launch written with <<<>>>.
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define N (1 << 14)
#define THREADS 256
#define BLOCKS 32

__global__ void gridSum(const int *in, int *partial, int *total, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[THREADS];

    int sum = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size())
        sum += in[i];
    s[block.thread_rank()] = sum;
    block.sync();
    for (int k = THREADS / 2; k > 0; k >>= 1) {
        if (block.thread_rank() < k)
            s[block.thread_rank()] += s[block.thread_rank() + k];
        block.sync();
    }
    if (block.thread_rank() == 0)
        partial[grid.block_rank()] = s[0];

    grid.sync();

    if (grid.thread_rank() == 0) {
        int t = 0;
        for (int b = 0; b < grid.num_blocks(); b++)
            t += partial[b];
        *total = t;
    }
}

__global__ void validity(int *valid)
{
    cg::grid_group grid = cg::this_grid();
    if (grid.thread_rank() == 0)
        *valid = grid.is_valid();
}

__global__ void scale(int *a, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = a[i] * k + i;
}

int main()
{
    int dev = 0, sms = 0, perSm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, gridSum, THREADS, 0);
    int maxBlocks = perSm * sms;
    printf("at most %d blocks of %d threads resident: %s\n", maxBlocks, THREADS, BLOCKS <= maxBlocks ? "enough" : "too few");

    int *h = (int *)malloc(N * sizeof(int));
    int expected = 0;
    for (int i = 0; i < N; i++) {
        h[i] = (i * 7 + 3) % 100;
        expected += h[i];
    }
    int *in, *partial, *total, *valid;
    cudaMalloc(&in, N * sizeof(int));
    cudaMalloc(&partial, (maxBlocks + 1) * sizeof(int));
    cudaMalloc(&total, sizeof(int));
    cudaMalloc(&valid, sizeof(int));
    cudaMemcpy(in, h, N * sizeof(int), cudaMemcpyHostToDevice);

    int n = N;
    void *args[] = {&in, &partial, &total, &n};
    cudaError_t err = cudaLaunchCooperativeKernel((void *)gridSum, dim3(BLOCKS), dim3(THREADS), args, 0, 0);
    printf("cooperative launch of %d blocks: %s\n", BLOCKS, cudaGetErrorName(err));
    cudaDeviceSynchronize();
    int t = 0;
    cudaMemcpy(&t, total, sizeof(int), cudaMemcpyDeviceToHost);
    printf("total %d (expected %d)\n", t, expected);

    cudaMemset(total, 0, sizeof(int));
    err = cudaLaunchCooperativeKernel((void *)gridSum, dim3(maxBlocks + 1), dim3(THREADS), args, 0, 0);
    printf("cooperative launch of maxBlocks + 1: %s (%s)\n", cudaGetErrorName(err), cudaGetErrorString(err));
    err = cudaGetLastError();
    printf("cudaGetLastError: %s\n", cudaGetErrorName(err));
    cudaMemcpy(&t, total, sizeof(int), cudaMemcpyDeviceToHost);
    printf("total after the refused launch: %d\n", t);
    err = cudaGetLastError();
    printf("cudaGetLastError again: %s\n", cudaGetErrorName(err));

    void *vargs[] = {&valid};
    err = cudaLaunchCooperativeKernel((const void *)validity, dim3(4), dim3(64), vargs, 0, 0);
    int v = -1;
    cudaMemcpy(&v, valid, sizeof(int), cudaMemcpyDeviceToHost);
    printf("is_valid() in a cooperative launch: %d (%s)\n", v, cudaGetErrorName(err));

    int *a, *b;
    cudaMalloc(&a, 256 * sizeof(int));
    cudaMalloc(&b, 256 * sizeof(int));
    cudaMemcpy(a, h, 256 * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(b, h, 256 * sizeof(int), cudaMemcpyHostToDevice);
    int k = 3;
    void *sargs[] = {&a, &k};
    err = cudaLaunchKernel((const void *)scale, dim3(2), dim3(128), sargs, 0, 0);
    scale<<<2, 128>>>(b, k);
    int ha[256], hb[256];
    cudaMemcpy(ha, a, sizeof(ha), cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, b, sizeof(hb), cudaMemcpyDeviceToHost);
    int same = 0;
    for (int i = 0; i < 256; i++)
        same += ha[i] == hb[i];
    printf("cudaLaunchKernel: %s, %d of 256 equal to <<<>>>, a[0] %d a[255] %d\n", cudaGetErrorName(err), same, ha[0], ha[255]);

    cudaFree(in);
    cudaFree(partial);
    cudaFree(total);
    cudaFree(valid);
    cudaFree(a);
    cudaFree(b);
    free(h);
    return 0;
}

// The grid-level lesson of a cooperative-groups course: one kernel sums an array in two phases separated by
// grid.sync() (each block's partial sum, then block 0 adds the partials), and a second grid.sync() lets every
// block read the total. The grid is sized so all its blocks are resident at once (checked against the
// occupancy API), and launched with <<<>>>: a kernel that calls grid.sync() gets a valid grid group even
// so; one that does not reads is_valid() 0.
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define N (1 << 14)
#define THREADS 256
#define BLOCKS 24

__global__ void gridSum(const int *in, int *partial, int *total, int *seen, int n)
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

    grid.sync();

    if (block.thread_rank() == 0)
        seen[grid.block_rank()] = *total + 1000000 * grid.is_valid();
}

__global__ void plainKernel(int *valid)
{
    cg::grid_group grid = cg::this_grid();
    if (grid.thread_rank() == 0)
        *valid = grid.is_valid();
}

int main()
{
    int dev = 0, sms = 0, perSm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, gridSum, THREADS, 0);
    printf("%d blocks of %d threads fit at once: %s\n", BLOCKS, THREADS, BLOCKS <= perSm * sms ? "yes" : "no");

    int *h = (int *)malloc(N * sizeof(int));
    int expected = 0;
    for (int i = 0; i < N; i++) {
        h[i] = (i * 7 + 3) % 100;
        expected += h[i];
    }
    int *in, *partial, *total, *seen, *valid;
    cudaMalloc(&in, N * sizeof(int));
    cudaMalloc(&partial, BLOCKS * sizeof(int));
    cudaMalloc(&total, sizeof(int));
    cudaMalloc(&seen, BLOCKS * sizeof(int));
    cudaMalloc(&valid, sizeof(int));
    cudaMemcpy(in, h, N * sizeof(int), cudaMemcpyHostToDevice);

    gridSum<<<BLOCKS, THREADS>>>(in, partial, total, seen, N);
    cudaError_t err = cudaDeviceSynchronize();
    printf("gridSum: %s\n", cudaGetErrorString(err));

    int partials[BLOCKS], seens[BLOCKS], t = 0;
    cudaMemcpy(partials, partial, sizeof(partials), cudaMemcpyDeviceToHost);
    cudaMemcpy(seens, seen, sizeof(seens), cudaMemcpyDeviceToHost);
    cudaMemcpy(&t, total, sizeof(int), cudaMemcpyDeviceToHost);
    printf("partials: %d %d %d ... %d\n", partials[0], partials[1], partials[2], partials[BLOCKS - 1]);
    printf("total %d (expected %d)\n", t, expected);
    int agree = 0;
    for (int b = 0; b < BLOCKS; b++)
        agree += seens[b] == t + 1000000;
    printf("blocks that read the total with a valid grid group: %d of %d\n", agree, BLOCKS);

    plainKernel<<<4, 64>>>(valid);
    int v = -1;
    cudaMemcpy(&v, valid, sizeof(int), cudaMemcpyDeviceToHost);
    printf("is_valid() without grid.sync(): %d\n", v);

    cudaFree(in);
    cudaFree(partial);
    cudaFree(total);
    cudaFree(seen);
    cudaFree(valid);
    free(h);
    return 0;
}

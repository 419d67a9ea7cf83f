// Cooperative groups' collectives as a course teaches them after the hand-written shuffle reduction:
// cg::reduce with each of cg::plus/less/greater/bit_and/bit_or/bit_xor and with a lambda, cg::inclusive_scan
// and cg::exclusive_scan (with and without an operation), over tiles and coalesced groups; the partitions
// cg::binary_partition and cg::labeled_partition; a tile's meta_group_rank/meta_group_size. The float and
// lambda cases depend on the order in which CUDA combines values, so they show it.
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

#define N 64

__global__ void tileCollectives(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int v = in[block.thread_rank()];
    int *o = out + 16 * block.thread_rank();
    o[0] = cg::reduce(tile, v, cg::plus<int>());
    o[1] = cg::reduce(tile, v, cg::less<int>());
    o[2] = cg::reduce(tile, v, cg::greater<int>());
    o[3] = cg::reduce(tile, (unsigned)v, cg::bit_and<unsigned>());
    o[4] = cg::reduce(tile, (unsigned)v, cg::bit_or<unsigned>());
    o[5] = cg::reduce(tile, (unsigned)v, cg::bit_xor<unsigned>());
    // Not commutative: each lane's result shows whose value it combined with, in which order.
    o[6] = cg::reduce(tile, v, [](int a, int b) { return 2 * a - b; });
    cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
    o[7] = cg::inclusive_scan(half, v);
    o[8] = cg::exclusive_scan(half, v);
    o[9] = cg::inclusive_scan(half, v, cg::greater<int>());
    o[10] = cg::exclusive_scan(half, (unsigned)v, cg::bit_xor<unsigned>());
    o[11] = cg::inclusive_scan(half, v, [](int a, int b) { return 2 * a - b; });
    o[12] = tile.meta_group_rank() * 100 + tile.meta_group_size() * 10 + tile.num_threads() / 8;
    o[13] = half.meta_group_rank() * 100 + half.meta_group_size();
}

__global__ void partitions(const int *in, int *out)
{
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int v = in[threadIdx.x];
    int *o = out + 8 * threadIdx.x;
    // Odd and even values, each a coalesced group of its own.
    cg::coalesced_group parity = cg::binary_partition(warp, v & 1);
    o[0] = parity.size() * 100 + parity.thread_rank();
    o[1] = cg::reduce(parity, v, cg::plus<int>());
    o[2] = cg::exclusive_scan(parity, 1);
    // Three groups by the value's remainder.
    cg::coalesced_group label = cg::labeled_partition(warp, (unsigned)(v % 3 + 3) % 3);
    o[3] = label.size() * 100 + label.thread_rank();
    o[4] = cg::reduce(label, v, cg::greater<int>());
    o[5] = cg::inclusive_scan(label, v);
    // A coalesced group made inside a branch.
    if (threadIdx.x % 4 != 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        o[6] = cg::reduce(active, v, [](int a, int b) { return 2 * a - b; });
        o[7] = active.shfl(v, 0) * 1000 + cg::inclusive_scan(active, 1);
    }
}

__global__ void floatReduce(const float *x, float *out)
{
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    auto quad = cg::tiled_partition<4>(cg::this_thread_block());
    float v = x[threadIdx.x];
    out[threadIdx.x] = cg::reduce(warp, v, cg::plus<float>());
    out[32 + threadIdx.x] = cg::reduce(quad, v, cg::plus<float>());
    out[64 + threadIdx.x] = cg::inclusive_scan(warp, v);
    out[96 + threadIdx.x] = 0;
    if (threadIdx.x < 20) {
        cg::coalesced_group first = cg::coalesced_threads();
        out[96 + threadIdx.x] = cg::reduce(first, v, cg::plus<float>());
    }
}

int main()
{
    int h_in[N], *d_in, *d_out;
    for (int i = 0; i < N; i++) h_in[i] = (i * 37) % 101 - 50;
    cudaMalloc(&d_in, N * sizeof(int));
    cudaMalloc(&d_out, 16 * N * sizeof(int));
    cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, 16 * N * sizeof(int));

    int h_out[16 * N];
    const char *names[] = {"plus", "less", "greater", "bit_and", "bit_or", "bit_xor", "lambda", "incl",
                           "excl", "incl_max", "excl_xor", "incl_lambda", "meta8", "meta16"};
    tileCollectives<<<1, N>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    for (int k = 0; k < 14; k++) {
        printf("%-11s", names[k]);
        for (int i = 0; i < N; i += (k == 6 || k >= 7 ? 1 : 8))
            printf(" %d", h_out[16 * i + k]);
        printf("\n");
    }

    cudaMemset(d_out, 0, 16 * N * sizeof(int));
    partitions<<<1, 32>>>(d_in, d_out);
    cudaMemcpy(h_out, d_out, 8 * 32 * sizeof(int), cudaMemcpyDeviceToHost);
    const char *pnames[] = {"parity", "parity_sum", "parity_excl", "label", "label_max", "label_incl",
                            "active_lambda", "active_scan"};
    for (int k = 0; k < 8; k++) {
        printf("%-13s", pnames[k]);
        for (int i = 0; i < 32; i++)
            printf(" %d", h_out[8 * i + k]);
        printf("\n");
    }

    float h_x[32], *d_x, *d_f, h_f[128];
    for (int i = 0; i < 32; i++) h_x[i] = (i % 3 == 0) ? 1.0e7f + i : 0.1f * (i + 1);
    cudaMalloc(&d_x, sizeof(h_x));
    cudaMalloc(&d_f, sizeof(h_f));
    cudaMemcpy(d_x, h_x, sizeof(h_x), cudaMemcpyHostToDevice);
    floatReduce<<<1, 32>>>(d_x, d_f);
    cudaMemcpy(h_f, d_f, sizeof(h_f), cudaMemcpyDeviceToHost);
    const char *fnames[] = {"warp_sum", "quad_sum", "warp_scan", "first20_sum"};
    for (int k = 0; k < 4; k++) {
        printf("%s:", fnames[k]);
        for (int i = 0; i < 32; i++)
            printf(" %.9g", h_f[32 * k + i]);
        printf("\n");
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_x);
    cudaFree(d_f);
    return 0;
}

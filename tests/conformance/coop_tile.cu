// Cooperative groups as courses teach them: a block, 32- and 8-thread tiles, a tile reduction with
// shfl_down, ranks, ballots and the threads coalesced inside a divergent branch.
// @block 64
// @arg in int[64] = i * 3 + 1
// @arg out int[64] = 0
// @arg info unsigned int[64] = 0
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int tileSum(cg::thread_block_tile<32> tile, int v) {
    for (int d = tile.size() / 2; d > 0; d /= 2) v += tile.shfl_down(v, d);
    return v;
}

__global__ void coopTile(const int *in, int *out, unsigned int *info) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
    int v = in[block.thread_rank()];
    int s = tileSum(warp, v);
    block.sync();
    out[block.thread_rank()] = warp.shfl(s, 0) + eight.shfl_xor(v, 1) * 10000;
    unsigned int r = eight.meta_group_rank() * 1000 + eight.ballot(v % 2 == 0);
    if (threadIdx.x % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        r += active.thread_rank() * 100000 + active.size() * 10000000;
    }
    info[block.thread_rank()] = r;
}

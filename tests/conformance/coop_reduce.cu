// Cooperative groups beyond tiles of a fixed type: a block reduction through a `const thread_group &`
// (shared memory and g.sync()), the global index from group_index()/group_dim()/thread_index(), runtime
// tiled_partition(block, 16), cg::reduce over 8-thread tiles with plus and greater, and a coalesced group
// inside a divergent branch aggregating one atomicAdd per warp on the warp's own counter (so the result does
// not depend on the order of warps), its leader's old value shuffled to the rest by rank.
// @grid 2
// @block 64
// @arg in int[128] = (i * 37) % 101
// @arg sums int[8] = 0
// @arg tiles int[128] = 0
// @arg counter int[4] = i * 1000
// @arg slot int[128] = -1
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ int groupSum(const cg::thread_group &g, int *tmp, int v) {
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        tmp[lane] = v;
        g.sync();
        if (lane < i) v += tmp[lane + i];
        g.sync();
    }
    return v;
}

__global__ void coopReduce(const int *in, int *sums, int *tiles, int *counter, int *slot) {
    __shared__ int tmp[64];
    cg::thread_block block = cg::this_thread_block();
    int gid = block.group_index().x * block.group_dim().x + block.thread_index().x;
    int v = in[gid];
    int total = groupSum(block, tmp, v);
    if (block.thread_rank() == 0) sums[blockIdx.x * 4] = total;
    cg::thread_group sixteen = cg::tiled_partition(block, 16);
    int part = groupSum(sixteen, tmp + threadIdx.x / 16 * 16, v);
    if (sixteen.thread_rank() == 0 && threadIdx.x < 48) sums[blockIdx.x * 4 + 1 + threadIdx.x / 16] = part;
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
    int s = cg::reduce(eight, v, cg::plus<int>());
    int m = cg::reduce(eight, v, cg::greater<int>());
    tiles[gid] = s * 1000 + m;
    if (v % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        int base = 0;
        if (active.thread_rank() == 0) base = atomicAdd(&counter[gid / 32], active.size());
        base = active.shfl(base, 0);
        slot[gid] = base + active.thread_rank();
    }
}

//! A resident block: its registers, shared memory, warps, and what its barriers and race detection keep.

use crate::front::launch::Dim3;
use crate::sim::lane_mask::LaneMask;
use crate::sim::race::RaceShadow;
use crate::sim::warp::Warp;

/// A resident block.
#[derive(Clone, Debug)]
pub struct BlockState {
    pub idx: Dim3,
    pub linear: u64,
    pub threads: u32,
    /// Threads rounded up to whole warps: the register file's row length.
    pub stride: usize,
    pub regs: Vec<u64>,
    pub shared: Vec<u8>,
    pub warps: Vec<Warp>,
    /// Per warp: the line and lanes it last issued with (`None` before its first issue), so a breakpoint
    /// stops a warp arriving at a line and not the warp already there. Empty in whole runs (never read).
    pub last_issued: Vec<Option<(u32, LaneMask)>>,
    /// Per warp (ITS): hashes of spin states seen at loop back edges while threads wait to reconverge.
    pub(super) spin_seen: Vec<Vec<u64>>,
    /// Shared-memory race detection: shadow words, `__syncthreads()` count, `__syncwarp()` count per warp.
    pub(super) race: RaceShadow,
    pub(super) barrier_epoch: u32,
    pub(super) warp_epochs: Vec<u32>,
    /// Reducing barriers (`__syncthreads_count`, ...): (non-zero predicates, arrived threads) of the
    /// barrier the block is gathering at, and of the last one released (what the threads then read).
    pub(super) barrier_votes: (u32, u32),
    pub(super) barrier_result: (u32, u32),
    /// The barrier the block gathers at is a grid-wide one (`this_grid().sync()`).
    pub(super) at_grid: bool,
    /// Every thread of the block has arrived at a grid-wide barrier: the block waits for the grid.
    pub grid_waiting: bool,
}

impl BlockState {
    /// Thread index within the block -> threadIdx.
    pub fn thread_idx(&self, tid: u32, block_dim: Dim3) -> Dim3 {
        Dim3::new(tid % block_dim.x, (tid / block_dim.x) % block_dim.y, tid / (block_dim.x * block_dim.y))
    }

    /// Register `r` of thread `tid`.
    pub fn reg(&self, r: u32, tid: u32) -> u64 {
        self.regs[r as usize * self.stride + tid as usize]
    }
}

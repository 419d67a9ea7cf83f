//! Occupancy by the CUDA occupancy calculator's rules: resident blocks per SM are limited by the SM's blocks,
//! warps (threads), registers and shared memory. Registers per thread are not in the source: warpdbg estimates
//! them from the kernel's register pressure (docs/performance.md).

use serde::Serialize;

use super::device::Device;
use crate::ir::Kernel;

/// What limits resident blocks per SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limiter {
    Blocks,
    Warps,
    Registers,
    SharedMemory,
}

/// A launch's occupancy.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Occupancy {
    /// The estimate of registers per thread.
    pub registers_per_thread: u32,
    pub warps_per_block: u64,
    /// Resident blocks per SM at most, and what limits them.
    pub blocks_per_sm: u64,
    pub limiter: Limiter,
    /// Resident warps per SM over the maximum, in percent: at most (theoretical) and on average over the
    /// launch's waves of blocks (achieved, Nsight's `sm__warps_active.avg.pct_of_peak_sustained_active`).
    pub theoretical: f64,
    pub achieved: f64,
    /// Waves of blocks: how many times the GPU fills with resident blocks.
    pub waves: u64,
}

/// Registers per thread nvcc would give `kernel`: its most registers live at once, 64-bit values counted twice,
/// plus a fixed overhead (indices, the stack pointer), rounded up to 8 as the allocator does; at least 16.
pub fn registers_per_thread(kernel: &Kernel) -> u32 {
    let live = crate::ir::liveness::live_in(kernel);
    let wide = |r: usize| kernel.regs.get(r).is_some_and(|i| i.ty.size() > 4);
    let mut most = 0usize;
    for b in 0..kernel.blocks.len() {
        let out = crate::ir::liveness::live_out(kernel, b, &live);
        crate::ir::liveness::walk(kernel, b, out, &mut |_, after| {
            let n: usize = after.iter().enumerate().filter(|(_, l)| **l).map(|(r, _)| 1 + wide(r) as usize).sum();
            most = most.max(n);
        });
    }
    ((most as u32 + 10).next_multiple_of(8)).clamp(16, 255)
}

/// The occupancy of `blocks` blocks of `threads` threads, each using `shared` bytes of shared memory.
pub fn occupancy(dev: &Device, kernel: &Kernel, blocks: u64, threads: u64, shared: u64) -> Occupancy {
    occupancy_with(dev, registers_per_thread(kernel), blocks, threads, shared)
}

/// [`occupancy`] with `regs` registers per thread (nvcc's, where a recording has them).
pub fn occupancy_with(dev: &Device, regs: u32, blocks: u64, threads: u64, shared: u64) -> Occupancy {
    let warps = threads.div_ceil(32).max(1);
    // Registers are allocated per warp in units of 256.
    let regs_per_warp = (regs as u64 * 32).next_multiple_of(256);
    let by_regs = dev.registers_per_sm / regs_per_warp / warps;
    let by_warps = (dev.max_warps_per_sm / warps).min(dev.max_threads_per_sm / (warps * 32));
    let by_shared = if shared == 0 {
        u64::MAX
    } else {
        dev.shared_per_sm / (shared.next_multiple_of(128) + dev.shared_reserved_per_block)
    };
    let limits = [
        (dev.max_blocks_per_sm, Limiter::Blocks),
        (by_warps, Limiter::Warps),
        (by_regs, Limiter::Registers),
        (by_shared, Limiter::SharedMemory),
    ];
    let (per_sm, limiter) = limits.iter().copied().min_by_key(|l| l.0).unwrap_or((1, Limiter::Blocks));
    let per_sm = per_sm.max(1);
    let waves = blocks.div_ceil(dev.sms * per_sm).max(1);
    let theoretical = 100.0 * (per_sm * warps) as f64 / dev.max_warps_per_sm as f64;
    // On average a wave holds the blocks spread over the SMs in use (Nsight averages over active SMs), at most
    // the resident limit.
    let per_wave = (blocks as f64 / (waves * dev.sms.min(blocks)) as f64).min(per_sm as f64);
    let achieved = 100.0 * per_wave * warps as f64 / dev.max_warps_per_sm as f64;
    Occupancy {
        registers_per_thread: regs,
        warps_per_block: warps,
        blocks_per_sm: per_sm,
        limiter,
        theoretical: theoretical.min(100.0),
        achieved: achieved.min(100.0),
        waves,
    }
}

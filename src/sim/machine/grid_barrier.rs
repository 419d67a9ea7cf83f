//! The grid-wide barrier (`this_grid().sync()`): a block whose threads all reach it waits until every block
//! of the grid has, then all go on. It needs every block resident at once, so a launch of a kernel that has
//! one keeps as many blocks resident as the device holds (`capacity`); when the grid is larger, the blocks
//! that are not resident can never start and the resident ones wait forever: a deadlock, explained here.
//!
//! Memory needs no fence of its own: the machine's global memory is one, and every write before the barrier
//! happened before any read after it.

use super::Machine;
use crate::front::launch::{Launch, Mode};
use crate::ir::{Instr, Kernel};

/// Blocks of `launch` the device (an H200: 132 SMs; a pre-Volta model's device as `perf` has it) holds at
/// once, by occupancy, when `kernel` has a grid-wide barrier; None when it has none. `shared` is a block's
/// shared memory, static and dynamic.
pub(super) fn capacity(kernel: &Kernel, launch: &Launch, shared: u64) -> Option<u64> {
    if !has_grid_sync(kernel) {
        return None;
    }
    Some(co_resident_blocks(kernel, launch.mode, launch.block.count(), shared))
}

/// Whether `kernel` calls `this_grid().sync()`.
pub(super) fn has_grid_sync(kernel: &Kernel) -> bool {
    grid_sync_line(kernel).is_some()
}

/// The source line of `kernel`'s first `this_grid().sync()`, if it calls one.
pub fn grid_sync_line(kernel: &Kernel) -> Option<u32> {
    let pc = kernel.instrs.iter().position(|i| matches!(i, Instr::SyncThreads { grid: true, .. }))?;
    Some(kernel.line(crate::ir::Pc(pc as u32)))
}

/// Blocks of `threads` threads with `shared` bytes of shared memory each that the device holds at once:
/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor` times the SMs (what a cooperative launch may have).
pub fn co_resident_blocks(kernel: &Kernel, mode: Mode, threads: u64, shared: u64) -> u64 {
    let dev = crate::sim::device::Device::of(mode);
    let regs = crate::sim::occupancy::registers_per_thread(kernel);
    crate::sim::occupancy::occupancy_with(&dev, regs, 1, threads.max(1), shared).blocks_per_sm * dev.sms
}

impl Machine {
    /// Releases the grid-wide barrier when every block of the grid waits at it: all are resident (none has
    /// finished: a block that exits before the barrier never arrives, and the others wait for it forever, as
    /// on a GPU) and each has all its threads there.
    pub(super) fn check_grid_barrier(&mut self) {
        let all = self.next_block >= self.total_blocks && self.blocks.len() as u64 == self.total_blocks;
        if !all || !self.blocks.iter().all(|b| b.grid_waiting) {
            return;
        }
        for b in &mut self.blocks {
            super::apply::release(b);
        }
        self.metrics.grid_syncs += 1;
        self.progress();
    }

    /// Why a deadlock at a grid-wide barrier happened, when it did: blocks that are not resident (the grid
    /// is larger than the device holds) or that finished without reaching it. None when no block waits at
    /// one.
    pub(super) fn grid_deadlock_text(&self) -> Option<String> {
        let waiting = self.blocks.iter().filter(|b| b.grid_waiting).count() as u64;
        if waiting == 0 {
            return None;
        }
        let line = grid_sync_line(&self.kernel).unwrap_or(0);
        let total = self.total_blocks;
        let capacity = self.grid_capacity.unwrap_or(total);
        if self.next_block < total {
            let (first, last) = (self.next_block, total - 1);
            let never = if first == last { format!("block {first}") } else { format!("blocks {first}-{last}") };
            return Some(format!(
                "Deadlock: grid.sync() on line {line} waits for all {total} blocks of the grid, but the device holds \
                 only {capacity} of them at once ({} per SM on {} SMs, by occupancy): {never} can never start, \
                 because no resident block finishes.\nFix: launch the kernel with cudaLaunchCooperativeKernel \
                 (which refuses a grid that does not fit, with cudaErrorCooperativeLaunchTooLarge, instead of \
                 hanging) and size the grid by cudaOccupancyMaxActiveBlocksPerMultiprocessor x the SM count \
                 (cudaDevAttrMultiProcessorCount).",
                capacity / crate::sim::device::Device::of(self.launch.mode).sms.max(1),
                crate::sim::device::Device::of(self.launch.mode).sms,
            ));
        }
        let gone = total - self.blocks.len() as u64;
        (gone > 0).then(|| {
            format!(
                "Deadlock: grid.sync() on line {line} waits for all {total} blocks of the grid, but {gone} of them \
                 finished without reaching it, so it can never complete.\nFix: every thread of every block must \
                 reach grid.sync(): don't return early from the kernel before it."
            )
        })
    }
}

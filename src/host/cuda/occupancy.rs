//! The occupancy API and `cudaFuncGetAttributes`, computed from the simulated device's limits as CUDA's
//! occupancy calculator computes them: resident blocks per SM are the fewest that the SM's 32 blocks, its
//! 2048 threads (64 warps), its 65,536 registers (per warp, in units of 256) and its 228 KB of shared memory
//! (each block's rounded up to 128 bytes, plus 1 KB the driver keeps) allow. Registers per thread are
//! warpdbg's estimate (`perf::occupancy::registers_per_thread`), not nvcc's. Checked on an H200 (CUDA 13):
//! a block of more than 1024 threads, or more than 48 KB of shared memory in all (without the opt-in
//! `cudaFuncSetAttribute`), gives 0 blocks and `cudaSuccess`.

use super::*;
use crate::front::launch::Mode;
use crate::host::interp::{Interp, Unwind};
use crate::perf::occupancy::occupancy_with;

/// What a kernel needs of an SM, for the occupancy API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelResources {
    /// Registers per thread (warpdbg's estimate).
    pub registers: u32,
    /// Bytes of its `__shared__` arrays of fixed size.
    pub static_shared: u64,
}

/// Shared memory a block may use without opting in (`cudaFuncAttributeMaxDynamicSharedMemorySize`).
const SHARED_PER_BLOCK: u64 = 48 * 1024;
const MAX_THREADS_PER_BLOCK: u64 = 1024;

/// Resident blocks per SM of a kernel needing `res`, in blocks of `threads` threads with `dynamic` bytes of
/// dynamic shared memory: 0 when such a block cannot run at all.
pub fn blocks_per_sm(dev: &crate::perf::Device, res: KernelResources, threads: u64, dynamic: u64) -> u64 {
    let shared = res.static_shared + dynamic;
    if threads == 0 || threads > MAX_THREADS_PER_BLOCK || shared > SHARED_PER_BLOCK {
        return 0;
    }
    occupancy_with(dev, res.registers, 1, threads, shared).blocks_per_sm
}

/// `cudaOccupancyMaxPotentialBlockSize`'s search: from the largest block size allowed (`limit`, 0 for none)
/// down by warps, the size whose resident threads per SM are the most (the first found wins a tie), stopping
/// at a full SM. Returns (block size, its blocks per SM).
pub fn best_block(dev: &crate::perf::Device, res: KernelResources, dynamic: u64, limit: u64) -> (u64, u64) {
    let limit = if limit == 0 { MAX_THREADS_PER_BLOCK } else { limit.min(MAX_THREADS_PER_BLOCK) };
    let (mut best, mut most) = ((0, 0), 0);
    let mut aligned = limit.next_multiple_of(32);
    while aligned > 0 {
        let size = aligned.min(limit);
        let blocks = blocks_per_sm(dev, res, size, dynamic);
        if size * blocks > most {
            (best, most) = ((size, blocks), size * blocks);
        }
        if most == dev.max_threads_per_sm {
            break;
        }
        aligned -= 32;
    }
    best
}

impl Interp<'_> {
    fn perf_device(&self) -> crate::perf::Device {
        crate::perf::Device::of(if self.dev.gpu().pre_volta { Mode::PreVolta } else { Mode::Its })
    }

    /// The occupancy calls and `cudaFuncGetAttributes`; the kernel argument is its name (a string id).
    pub(super) fn occupancy_call(&mut self, api: Api, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        let kernel_at = if api == Api::OccupancyBlockSize { 2 } else { 1 };
        let kernel = self.literal(v[kernel_at] as u32);
        let Some(res) = self.dev.kernel_resources(&kernel) else {
            return Ok(self.status(INVALID_DEVICE_FUNCTION));
        };
        let dev = self.perf_device();
        match api {
            Api::OccupancyBlockSize => {
                let (size, blocks) = best_block(&dev, res, v[3], v[4] as u32 as i32 as i64 as u64);
                self.out_param(v[0], 4, blocks * dev.sms, e)?;
                self.out_param(v[1], 4, size, e)?;
            }
            Api::OccupancyActiveBlocks => {
                let threads = v[2] as u32 as i32;
                if threads <= 0 {
                    return Ok(self.status(INVALID_VALUE));
                }
                let n = blocks_per_sm(&dev, res, threads as u64, v[3]);
                self.out_param(v[0], 4, n, e)?;
            }
            _ => {
                let def = super::structs::func_attributes();
                let at = |f: &str| v[0] + super::structs::offset(&def, f);
                let version = if self.dev.gpu().pre_volta { 60 } else { 90 };
                let max_dynamic = SHARED_PER_BLOCK.saturating_sub(res.static_shared);
                for (f, size, value) in [
                    ("sharedSizeBytes", 8, res.static_shared),
                    ("constSizeBytes", 8, 0),
                    ("localSizeBytes", 8, 0),
                    ("maxThreadsPerBlock", 4, MAX_THREADS_PER_BLOCK),
                    ("numRegs", 4, res.registers as u64),
                    ("ptxVersion", 4, version),
                    ("binaryVersion", 4, version),
                    ("cacheModeCA", 4, 0),
                    ("maxDynamicSharedSizeBytes", 4, max_dynamic),
                    // cudaSharedmemCarveoutDefault.
                    ("preferredShmemCarveout", 4, u32::MAX as u64),
                ] {
                    self.out_param(at(f), size, value, e)?;
                }
                for f in &def.fields[10..] {
                    self.out_param(v[0] + f.offset as u64, 4, 0, e)?;
                }
            }
        }
        Ok(self.status(SUCCESS))
    }
}

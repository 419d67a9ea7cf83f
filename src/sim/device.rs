//! The simulated GPU's facts. ITS mode stands for an H100 SXM5 (sm_90), pre-Volta mode for a P100-class part
//! (sm_60). Sources: NVIDIA's H100 architecture white paper and CUDA C Programming Guide (compute capability
//! tables), and our own measurements on the H100 (`benches/lessons/h100.json`, fitted in docs/performance.md).

use crate::front::launch::Mode;

/// What the timing model and the occupancy calculator need to know about the GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Device {
    pub sms: u64,
    /// SM clock in kHz (`nvidia-smi`'s maximum: 1,980 MHz on the recorded H100).
    pub clock_khz: u64,
    pub schedulers_per_sm: u64,
    pub max_warps_per_sm: u64,
    pub max_blocks_per_sm: u64,
    pub max_threads_per_sm: u64,
    pub registers_per_sm: u64,
    /// Shared memory an SM can give its blocks, and what each block costs beyond its own (the driver's 1 KB).
    pub shared_per_sm: u64,
    pub shared_reserved_per_block: u64,
    /// L2 capacity in bytes (50 MB on the H100).
    pub l2_bytes: u64,
    /// DRAM bandwidth a streaming kernel reaches, bytes per ns (fitted: 2.45 TB/s on the H100 for
    /// kernels of tens of microseconds; the 3.35 TB/s peak is not reached at that length).
    pub dram_bytes_per_ns: f64,
}

impl Device {
    /// The device a launch in `mode` runs on.
    pub fn of(mode: Mode) -> Device {
        match mode {
            Mode::Its => Device {
                sms: 132,
                clock_khz: 1_980_000,
                schedulers_per_sm: 4,
                max_warps_per_sm: 64,
                max_blocks_per_sm: 32,
                max_threads_per_sm: 2048,
                registers_per_sm: 65_536,
                shared_per_sm: 228 * 1024,
                shared_reserved_per_block: 1024,
                l2_bytes: 50 * 1024 * 1024,
                dram_bytes_per_ns: 2450.0,
            },
            Mode::PreVolta => Device {
                sms: 56,
                clock_khz: 1_480_000,
                schedulers_per_sm: 2,
                max_warps_per_sm: 64,
                max_blocks_per_sm: 32,
                max_threads_per_sm: 2048,
                registers_per_sm: 65_536,
                shared_per_sm: 64 * 1024,
                shared_reserved_per_block: 0,
                l2_bytes: 4 * 1024 * 1024,
                dram_bytes_per_ns: 550.0,
            },
        }
    }

    /// Nanoseconds of `cycles` SM cycles.
    pub fn ns(&self, cycles: f64) -> f64 {
        cycles * 1_000_000.0 / self.clock_khz as f64
    }
}

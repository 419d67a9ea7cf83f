//! The simulated GPU's cost model: how long a launch takes in virtual time (docs/programs.md). A kernel's
//! duration grows with the warp-instructions it issued (divergent code issues more: each side of a branch
//! is issued separately) and with its shared-memory bank conflicts (each extra wavefront is a replay), spread
//! over the warps the device can run at once.

use crate::host::cuda::props::Gpu;
use crate::sim::Machine;

/// Fixed time of every launch on the device (start-up and drain).
pub const LAUNCH_LATENCY_NS: u64 = 2_000;
/// Cycles an issued warp-instruction occupies its scheduler (latency not hidden by other warps).
pub const CYCLES_PER_INSTRUCTION: u64 = 4;
/// Warp schedulers per SM.
pub const SCHEDULERS_PER_SM: u64 = 4;

/// The virtual duration of a launch that issued `m`'s instructions.
pub fn kernel_ns(gpu: &Gpu, m: &Machine) -> u64 {
    let work = m.metrics.warp_instructions + m.metrics.banks.total_conflicts();
    duration_ns(gpu, work, m.metrics.warps)
}

/// `work` warp-instructions (replays included) of `warps` warps.
pub fn duration_ns(gpu: &Gpu, work: u64, warps: u64) -> u64 {
    let lanes = warps.clamp(1, gpu.sms() * SCHEDULERS_PER_SM);
    let cycles = work.saturating_mul(CYCLES_PER_INSTRUCTION).div_ceil(lanes);
    LAUNCH_LATENCY_NS.saturating_add(cycles.saturating_mul(1_000_000) / gpu.clock_khz())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_work_takes_longer() {
        let g = Gpu { pre_volta: false, total_mem: 1 << 30 };
        assert_eq!(duration_ns(&g, 0, 1), LAUNCH_LATENCY_NS);
        assert!(duration_ns(&g, 2000, 2) > duration_ns(&g, 1000, 2));
        // 1,755 cycles at 1.755 GHz: 1 us over the latency.
        assert_eq!(duration_ns(&g, 1755 * 528 / 4, 100_000), LAUNCH_LATENCY_NS + 1000);
    }
}

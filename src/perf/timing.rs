//! A launch's virtual duration, as a GPU architect would estimate it from the launch's counts: the launch
//! overhead plus the largest of
//!
//! - **issue**: warp-instructions over the SMs in use, each issuing from 4 schedulers, a warp at most once every
//!   [`DEPENDENT_ISSUE_CYCLES`] (so few resident warps issue slowly); a `__constant__` read whose lanes ask for
//!   `n` different addresses takes `n` issue slots (the constant cache serves one address at a time);
//! - **shared memory**: wavefronts (a bank conflict's replays included) at [`SHARED_WAVEFRONTS_PER_CYCLE`] per SM;
//! - **L2**: 128-byte line requests that miss L1, at [`L2_LINES_PER_CYCLE`] for the whole GPU;
//! - **DRAM**: the bytes that must come from or go to DRAM (each line's sectors once, and again for reuse
//!   from blocks that ran too long ago for the L2 to still hold them), at the device's bandwidth;
//! - **atomics**: same-address atomics serialise at L2, [`ATOMIC_NS`] per request on the busiest address;
//! - **latency**: each warp waits for its loads one after another ([`LOAD_ILP`] in flight), L1 hits, L2 hits
//!   and DRAM at their latencies, wave after wave of resident blocks; other resident warps hide it only by
//!   running at the same time.
//!
//! Each constant says where it comes from. docs/performance.md has the derivation and the comparison with the
//! H100 (`benches/lessons`).

use serde::Serialize;

use super::{Device, Occupancy, occupancy};
use crate::sim::Machine;
use crate::sim::traffic::SECTOR_BYTES;

/// Fixed cost of a launch as events time it (start-up, drain), fitted on the H100: the event time of the
/// shortest lessons minus their bytes at DRAM bandwidth.
pub const LAUNCH_NS: f64 = 2_600.0;
/// Cycles between two dependent instructions of one warp (the ALU pipeline's latency, about 4 cycles on
/// Volta and later: Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking").
pub const DEPENDENT_ISSUE_CYCLES: f64 = 4.0;
/// Shared-memory wavefronts an SM serves per cycle (32 banks of 4 bytes: 128 bytes a cycle, halved by the
/// load's round trip through the MIO queue; fitted on the bank-conflict lesson).
pub const SHARED_WAVEFRONTS_PER_CYCLE: f64 = 0.5;
/// 128-byte line requests the L2 slices accept per SM cycle, all together (fitted on the stride-32 read).
pub const L2_LINES_PER_CYCLE: f64 = 40.0;
/// Latencies in cycles (microbenchmarks of Hopper: L1 hit about 33, L2 hit about 260, DRAM about 480-600).
pub const L1_LATENCY: f64 = 33.0;
pub const L2_LATENCY: f64 = 260.0;
/// DRAM under a streaming load (fitted on the occupancy lesson: one warp per SM waits about 770 cycles per
/// load; unloaded microbenchmarks measure 480-600).
pub const DRAM_LATENCY: f64 = 700.0;
pub const SHARED_LATENCY: f64 = 30.0;
/// Independent loads a warp has in flight at once: one (a loop's next load waits for nothing, but nvcc does
/// not unroll a loop whose trip count it cannot see, and a warp stalls at the first use).
pub const LOAD_ILP: f64 = 1.0;
/// Nanoseconds per atomic request on one address at L2 (fitted: 131,072 same-address requests took 101 us).
pub const ATOMIC_NS: f64 = 0.77;

/// Nanoseconds every block waits at a grid-wide barrier beyond its block barrier: each block's arrival is an
/// atomic at one L2 address and the last one's release a flag the others poll (about 2 us for a few hundred
/// blocks on Volta: Zhang et al., "A Study of Single and Multi-device Synchronization Methods in Nvidia GPUs",
/// IPDPS 2020). Added once per `grid.sync()` the grid passes: no other work overlaps it.
pub const GRID_SYNC_NS: f64 = 2_000.0;

/// Where a launch's global sectors were served (sector requests; reuse counted each time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Served {
    /// Reuse within one block: its SM's L1 still holds the line.
    pub l1: u64,
    /// First touches and reuse by blocks resident at the same time: the L2.
    pub l2: u64,
    /// Reuse by blocks of other waves when the launch's footprint exceeds the L2: DRAM again.
    pub dram_again: u64,
}

/// A launch's virtual duration and its terms, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KernelTime {
    pub total_ns: u64,
    pub launch_ns: f64,
    pub issue_ns: f64,
    pub shared_ns: f64,
    pub l2_ns: f64,
    pub dram_ns: f64,
    pub atomic_ns: f64,
    pub latency_ns: f64,
    /// The largest term's name: what bounds the kernel.
    pub bound: &'static str,
    pub dram_bytes: u64,
    pub served: Served,
    pub occupancy: Occupancy,
}

/// Classifies every sector request of `m`'s launch by where it was served, with `window` blocks resident at
/// once on the whole GPU.
fn served(m: &Machine, window: u64, l2_bytes: u64) -> (Served, u64) {
    let lines = &m.metrics.traffic.lines_used;
    let (read, written) = lines.footprints();
    let footprint = (read + written) * SECTOR_BYTES;
    let mut s = Served::default();
    for u in lines.lines() {
        let unique = ((u.sectors & 15) | (u.sectors >> 4)).count_ones() as u64;
        let reuse = (u.touches as u64).saturating_sub(unique);
        s.l2 += unique;
        let span = (u.last - u.first) as u64;
        // L1 is write-through and a store invalidates the line there: only lines never written are hit again
        // in L1.
        if span == 0 && u.sectors >> 4 == 0 {
            s.l1 += reuse;
        } else if span < window || footprint <= l2_bytes {
            s.l2 += reuse;
        } else {
            s.dram_again += reuse;
        }
    }
    (s, (read + written + s.dram_again) * SECTOR_BYTES)
}

/// The virtual duration of `m`'s launch (which has finished) on `dev`.
pub fn kernel_time(dev: &Device, m: &Machine) -> KernelTime {
    let l = &m.launch;
    let blocks = l.grid.count().max(1);
    let threads = l.block.count().max(1);
    let occ = occupancy(dev, &m.kernel, blocks, threads, m.layout.bytes as u64);
    let mt = &m.metrics;
    let sms = blocks.min(dev.sms) as f64;
    let warps = mt.warps.max(1) as f64;
    let resident = (occ.blocks_per_sm * occ.warps_per_block).min(blocks.div_ceil(dev.sms) * occ.warps_per_block);
    // Issue: each scheduler issues once a cycle, a warp once every DEPENDENT_ISSUE_CYCLES.
    let ipc = (dev.schedulers_per_sm as f64).min(resident as f64 / DEPENDENT_ISSUE_CYCLES).max(0.25);
    // A constant read is replayed once per distinct address after the first (CUDA C++ Best Practices Guide,
    // "Constant Memory": accesses to different addresses by threads of a warp are serialized).
    let (const_requests, const_addresses) = mt.traffic.constant.totals();
    let replays = const_addresses.saturating_sub(const_requests);
    let issue = dev.ns((mt.warp_instructions + replays) as f64 / sms / ipc);
    let ((ld_req, ld_wf), (_, st_wf)) = mt.banks.totals();
    let shared = dev.ns((ld_wf + st_wf) as f64 / sms / SHARED_WAVEFRONTS_PER_CYCLE);
    let (load, store, atomic) = mt.traffic.totals();
    let window = dev.sms * occ.blocks_per_sm;
    let (served, dram_bytes) = served(m, window, dev.l2_bytes);
    // Stores and atomics always go to L2; loads that hit L1 don't.
    let reads = (load.sectors + atomic.sectors).max(1) as f64;
    let l1_reads = (served.l1 as f64 / reads).min(1.0);
    let l2_lines = load.lines as f64 * (1.0 - l1_reads) + (store.lines + atomic.lines) as f64;
    let l2 = dev.ns(l2_lines / L2_LINES_PER_CYCLE);
    let dram = dram_bytes as f64 / dev.dram_bytes_per_ns;
    let atomic_ns = mt.traffic.max_atomics_per_address() as f64 * ATOMIC_NS;
    // Latency: a warp's loads one after another, wave after wave; a load waits as long as where its sectors
    // come from (first reads and reuse from long ago: DRAM).
    let (read_first, _) = mt.traffic.lines_used.footprints();
    let dram_share = ((read_first + served.dram_again) as f64 / reads).min(1.0 - l1_reads);
    let global_latency =
        l1_reads * L1_LATENCY + dram_share * DRAM_LATENCY + (1.0 - l1_reads - dram_share).max(0.0) * L2_LATENCY;
    let chain =
        (load.requests + atomic.requests) as f64 / warps * global_latency + ld_req as f64 / warps * SHARED_LATENCY;
    let latency = dev.ns(occ.waves as f64 * chain / LOAD_ILP);
    let terms = [
        ("issue", issue),
        ("shared", shared),
        ("l2", l2),
        ("dram", dram),
        ("atomics", atomic_ns),
        ("latency", latency),
    ];
    let (bound, longest) = terms.iter().copied().fold(("issue", 0.0), |a, t| if t.1 > a.1 { t } else { a });
    KernelTime {
        total_ns: (LAUNCH_NS + longest + mt.grid_syncs as f64 * GRID_SYNC_NS).round() as u64,
        launch_ns: LAUNCH_NS,
        issue_ns: issue,
        shared_ns: shared,
        l2_ns: l2,
        dram_ns: dram,
        atomic_ns,
        latency_ns: latency,
        bound,
        dram_bytes,
        served,
        occupancy: occ,
    }
}

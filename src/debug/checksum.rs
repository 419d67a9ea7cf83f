//! Checksums of a machine's state: where the simulation is (step count, outcome, counters) and all of global
//! memory. Recordings store them to notice when a replay no longer matches the simulation; `run --explore`
//! groups schedules by the memory checksum.

use crate::sim::Machine;

/// FNV-1a, fixed here so checksums mean the same in every warpdbg build.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>, mut h: u64) -> u64 {
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// A cheap checksum of where the simulation is (step count, outcome, counters).
pub fn state_check(m: &Machine) -> String {
    let mt = &m.metrics;
    let outcome = m.outcome().map_or("running", |o| o.name());
    let nums = [m.steps, mt.warp_instructions, mt.thread_instructions, mt.branches, mt.divergent_branches];
    let h = fnv1a(nums.iter().flat_map(|n| n.to_le_bytes()).chain(outcome.bytes()), FNV_OFFSET);
    format!("{h:016x}")
}

/// A checksum of all global memory.
pub fn memory_check(m: &Machine) -> String {
    let mut h = FNV_OFFSET;
    for a in &m.global.allocs {
        h = fnv1a(a.name.bytes().chain(a.data.iter().copied()), h);
    }
    format!("{h:016x}")
}

//! Hazards: undefined behaviour that does not stop the machine (divergent barriers, races, shuffles from
//! inactive lanes, uninitialised reads), one record per (kind, line) with its count and the lowest-numbered
//! thread's occurrence described. (The machine records them: `issue.rs`.)

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HazardKind {
    DivergentBarrier,
    DivergentSyncwarp,
    ShuffleInactiveLane,
    SyncMaskInactive,
    SharedRace,
    /// A global read of memory nothing wrote (whole programs: `cudaMalloc` memory never copied to).
    UninitializedRead,
    /// Whole programs: an out-of-bounds access a GPU does not trap (near an allocation, or within a block's
    /// shared memory rounded up to 128 bytes), which went on instead of faulting.
    OutOfBounds,
}

impl HazardKind {
    pub fn name(self) -> &'static str {
        match self {
            HazardKind::DivergentBarrier => "divergent_barrier",
            HazardKind::DivergentSyncwarp => "divergent_syncwarp",
            HazardKind::ShuffleInactiveLane => "shuffle_inactive_lane",
            HazardKind::SyncMaskInactive => "sync_mask_inactive",
            HazardKind::SharedRace => "shared_race",
            HazardKind::UninitializedRead => "uninitialized_read",
            HazardKind::OutOfBounds => "out_of_bounds",
        }
    }
}

/// Undefined behaviour that did not stop the machine, one per (kind, line): how often it happened, and the
/// occurrence of the lowest-numbered thread described (by block, then thread: the same whatever order the
/// blocks ran in, so a whole run on several cores reports what a sequential one does).
#[derive(Clone, Debug, PartialEq)]
pub struct Hazard {
    pub kind: HazardKind,
    pub line: u32,
    pub message: String,
    pub count: u64,
    /// The described occurrence's thread: (block's linear index, thread's linear index in its block).
    pub who: (u64, u32),
    /// Out-of-bounds hazards: the described occurrence as the fault a kernel file's run reports (for the
    /// program's hints).
    pub fault: Option<Box<crate::sim::Fault>>,
}

/// The rule of [`Hazard::who`]: `n` more occurrences, the newest by thread `who`; true when `who` is now the
/// lowest-numbered thread, whose occurrence the record then describes. Order-free: any order of the same
/// occurrences ends at the same record.
pub(super) fn count_lowest(count: &mut u64, lowest: &mut (u64, u32), n: u64, who: (u64, u32)) -> bool {
    *count += n;
    let lower = who < *lowest;
    if lower {
        *lowest = who;
    }
    lower
}

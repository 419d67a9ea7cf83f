//! What a run records as it goes: issued instructions (trace lines), device printf output, the last atomic
//! write of each address, and the recent issues a livelock explanation reads.

use crate::front::launch::Dim3;
use crate::ir::Pc;
use crate::sim::lane_mask::LaneMask;
use crate::sim::warp::WarpId;

/// One line of device printf output.
#[derive(Clone, Debug, PartialEq)]
pub struct PrintfLine {
    pub step: u64,
    pub block: Dim3,
    pub thread: Dim3,
    pub text: String,
}

/// One issued instruction (a trace line).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Issue {
    /// 1-based: the first instruction issued is step 1.
    pub step: u64,
    pub block: Dim3,
    pub warp: WarpId,
    pub pc: Pc,
    pub line: u32,
    pub mask: LaneMask,
    /// Pre-Volta: SIMT-stack depth when it issued.
    pub stack_depth: Option<u32>,
}

/// The last atomic that changed an address: who holds a lock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AtomicWrite {
    pub block: Dim3,
    pub tid: u32,
    pub line: u32,
    pub step: u64,
}

/// One issue recorded for a livelock's explanation.
#[derive(Clone, Copy, Debug)]
pub(super) struct Recent {
    pub(super) slot: usize,
    pub(super) warp: u32,
    pub(super) pc: Pc,
    pub(super) mask: LaneMask,
}

//! How a run ended, and for a deadlock or livelock, where threads wait and why.

use crate::front::launch::Dim3;
use crate::sim::fault::Fault;
use crate::sim::lane_mask::format_ranges;

/// How a run (or a call to [`Machine::step`]) ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The budget ran out; the machine can go on.
    Paused,
    Completed,
    Fault(Box<Fault>),
    Deadlock(Box<Stuck>),
    Livelock(Box<Stuck>),
    StepLimit,
}

impl Outcome {
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Paused => "paused",
            Outcome::Completed => "completed",
            Outcome::Fault(_) => "fault",
            Outcome::Deadlock(_) => "deadlock",
            Outcome::Livelock(_) => "livelock",
            Outcome::StepLimit => "step_limit",
        }
    }

    pub fn is_final(&self) -> bool {
        !matches!(self, Outcome::Paused)
    }
}

/// Where threads wait or spin, for deadlock and livelock explanations.
#[derive(Clone, Debug, PartialEq)]
pub struct Wait {
    pub line: u32,
    pub kind: WaitKind,
    pub block: Dim3,
    /// Thread indices within the block.
    pub tids: Vec<u32>,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitKind {
    Barrier,
    Convergence,
    WarpSync,
    Spin,
    Reconvergence,
}

impl WaitKind {
    pub fn name(self) -> &'static str {
        match self {
            WaitKind::Barrier => "barrier",
            WaitKind::Convergence => "convergence",
            WaitKind::WarpSync => "warp_sync",
            WaitKind::Spin => "spin",
            WaitKind::Reconvergence => "reconvergence",
        }
    }
}

impl Wait {
    pub fn threads(&self) -> String {
        format_ranges(&self.tids)
    }
}

/// A deadlock or livelock: the explanation and every place threads wait.
#[derive(Clone, Debug, PartialEq)]
pub struct Stuck {
    pub explanation: String,
    pub waits: Vec<Wait>,
}

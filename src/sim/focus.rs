//! The thread a final outcome is about: the faulting thread, or a waiting thread of the first stuck block.
//! The TUI selects it (so the detail pane shows its values) and `--print` evaluates in its warp.

use crate::sim::{Machine, Outcome};

/// A thread of a resident block: the block's linear index, the warp in the block, the lane in the warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Focus {
    pub block: u64,
    pub warp: u32,
    pub lane: u32,
}

impl Focus {
    /// Thread `tid` (its index within the block) of block `block` (linear).
    pub fn of_tid(block: u64, tid: u32) -> Focus {
        Focus { block, warp: tid / 32, lane: tid % 32 }
    }

    /// The block's slot among the resident blocks (None once it retired).
    pub fn slot(&self, m: &Machine) -> Option<usize> {
        m.blocks.iter().position(|b| b.linear == self.block)
    }

    /// The thread's index within its block.
    pub fn tid(&self) -> u32 {
        self.warp * 32 + self.lane
    }
}

/// The thread a final outcome is about: the faulting one; a waiting one of the first stuck block. None when
/// it is about no thread (completed, step limit).
pub fn of_outcome(m: &Machine, o: &Outcome) -> Option<Focus> {
    match o {
        Outcome::Fault(f) => {
            let tid = f.thread.linear_in(m.launch.block) as u32;
            Some(Focus::of_tid(f.block.linear_in(m.launch.grid), tid))
        }
        Outcome::Deadlock(s) | Outcome::Livelock(s) => {
            let w = s.waits.iter().find(|w| !w.tids.is_empty())?;
            Some(Focus::of_tid(w.block.linear_in(m.launch.grid), w.tids[0]))
        }
        Outcome::Completed | Outcome::StepLimit | Outcome::Paused => None,
    }
}

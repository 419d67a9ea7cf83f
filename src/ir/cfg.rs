//! Basic blocks and the control-flow graph between them.

use super::Pc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// A maximal straight-line run of instructions `start..end`; the last one is its terminator.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub start: Pc,
    pub end: Pc,
    pub succs: Vec<BlockId>,
    pub preds: Vec<BlockId>,
    /// Immediate post-dominator; `None` when it is the virtual exit.
    pub ipdom: Option<BlockId>,
}

impl Block {
    pub fn terminator(&self) -> Pc {
        Pc(self.end.0 - 1)
    }
}

//! The pre-Volta SIMT reconvergence stack: one PC per warp, entries of (PC, reconvergence PC, active mask),
//! immediate-post-dominator reconvergence. Only the top entry runs.
//!
//! Rules (execution-model.md, and gpgpu-sim's `simt_stack::update`):
//! - a divergent branch turns the top entry into the reconvergence entry (its PC becomes the branch's IPDOM),
//!   then pushes the not-taken path and then the taken path, so the taken (`then`, loop-body) path runs first;
//!   when the IPDOM equals the top entry's own RPC (a loop branch diverging again) the top entry is replaced
//!   instead, so the stack does not grow per iteration;
//! - a path whose target is the IPDOM itself is not pushed (its threads simply wait in the entry below);
//! - an entry is popped when its PC reaches its RPC or when all its threads have exited.

use std::fmt;

use super::lane_mask::LaneMask;
use crate::ir::Pc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StackEntry {
    pub pc: Pc,
    /// Reconvergence PC: where this entry is popped. [`Pc::EXIT`] for the base entry.
    pub rpc: Pc,
    pub mask: LaneMask,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SimtStack {
    /// Bottom first; the last entry is the top.
    pub entries: Vec<StackEntry>,
}

impl SimtStack {
    /// A warp starting at PC 0 with `mask` threads.
    pub fn new(mask: LaneMask) -> Self {
        let mut s = SimtStack { entries: Vec::with_capacity(1) };
        s.reset(mask);
        s
    }

    /// Starts over as [`SimtStack::new`] would, keeping the allocation.
    pub fn reset(&mut self, mask: LaneMask) {
        self.entries.clear();
        self.entries.push(StackEntry { pc: Pc(0), rpc: Pc::EXIT, mask });
        self.normalize();
    }

    pub fn top(&self) -> Option<&StackEntry> {
        self.entries.last()
    }

    pub fn depth(&self) -> usize {
        self.entries.len()
    }

    /// Pops entries that reached their reconvergence point or have no threads left.
    fn normalize(&mut self) {
        while let Some(top) = self.entries.last() {
            if top.mask.is_empty() || top.pc == top.rpc {
                self.entries.pop();
            } else {
                break;
            }
        }
    }

    /// The top entry moves to `next` (straight-line code, a jump, or a branch all threads agree on).
    pub fn advance(&mut self, next: Pc) {
        if let Some(top) = self.entries.last_mut() {
            top.pc = next;
        }
        self.normalize();
    }

    /// A divergent branch: `taken` lanes go to `then_pc`, the rest of the top mask to `else_pc`.
    pub fn diverge(&mut self, taken: LaneMask, then_pc: Pc, else_pc: Pc, reconv: Pc) {
        let Some(top) = self.entries.last_mut() else { return };
        let not_taken = top.mask.minus(taken);
        if reconv == top.rpc {
            self.entries.pop();
        } else {
            top.pc = reconv;
        }
        for (pc, mask) in [(else_pc, not_taken), (then_pc, taken)] {
            if pc != reconv && !mask.is_empty() {
                self.entries.push(StackEntry { pc, rpc: reconv, mask });
            }
        }
        self.normalize();
    }

    /// Threads leave the warp (return, or the end of the kernel): removed from every entry.
    pub fn exit(&mut self, lanes: LaneMask) {
        for e in &mut self.entries {
            e.mask = e.mask.minus(lanes);
        }
        // Empty entries below the top can stay until they surface; normalize handles the top.
        self.entries.retain(|e| !e.mask.is_empty());
        self.normalize();
    }
}

impl fmt::Display for SimtStack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.entries.iter().enumerate().rev() {
            let rpc = if e.rpc == Pc::EXIT { "exit".to_string() } else { e.rpc.0.to_string() };
            writeln!(f, "{i}: pc {:>4} rpc {:>4} mask {}", e.pc.0, rpc, e.mask)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_4_9_split_then_else_then_join() {
        // Threads 0-23 take A (pc 10), 24-31 take B (pc 20), all reconverge at C (pc 30).
        let mut s = SimtStack::new(LaneMask::FULL);
        s.advance(Pc(5));
        s.diverge(LaneMask::first(24), Pc(10), Pc(20), Pc(30));
        assert_eq!(s.depth(), 3);
        assert_eq!(s.top(), Some(&StackEntry { pc: Pc(10), rpc: Pc(30), mask: LaneMask::first(24) }));
        s.advance(Pc(30)); // A done: popped
        assert_eq!(s.top(), Some(&StackEntry { pc: Pc(20), rpc: Pc(30), mask: LaneMask(0xff00_0000) }));
        s.advance(Pc(30)); // B done
        assert_eq!(s.entries, vec![StackEntry { pc: Pc(30), rpc: Pc::EXIT, mask: LaneMask::FULL }]);
    }

    #[test]
    fn loop_that_diverges_every_iteration_keeps_depth_two() {
        let mut s = SimtStack::new(LaneMask::first(4));
        // Loop head at 1, body at 2, exit at 9. Lane 3 leaves first, then 2, then 1, then 0.
        for stay in [0b0111u32, 0b0011, 0b0001] {
            s.advance(Pc(1));
            s.diverge(LaneMask(stay), Pc(2), Pc(9), Pc(9));
            assert_eq!(s.depth(), 2);
            assert_eq!(s.top().map(|e| e.mask), Some(LaneMask(stay)));
        }
        s.advance(Pc(1));
        s.advance(Pc(9)); // the last lane leaves uniformly: its entry pops
        assert_eq!(s.entries, vec![StackEntry { pc: Pc(9), rpc: Pc::EXIT, mask: LaneMask::first(4) }]);
    }

    #[test]
    fn early_return_removes_threads_everywhere() {
        let mut s = SimtStack::new(LaneMask::FULL);
        s.diverge(LaneMask(0xffff), Pc(3), Pc(6), Pc::EXIT);
        s.exit(LaneMask(0xffff));
        assert_eq!(s.top(), Some(&StackEntry { pc: Pc(6), rpc: Pc::EXIT, mask: LaneMask(0xffff_0000) }));
        s.exit(LaneMask(0xffff_0000));
        assert!(s.top().is_none());
    }
}

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
//!
//! [`SimtWarp`] is the model of one warp: its stack and the `__syncthreads()` it waits at (a pre-Volta warp
//! arrives at a barrier whole, as one thread would).

use std::fmt;

use super::{Applied, BackEdge, DetailNote, DetailRow, LaneStop, Model, ModelHazard, NoteKind, WarpDetail};
use crate::front::launch::Mode;
use crate::ir::{Instr, Kernel, Pc};
use crate::sim::exec::Effect;
use crate::sim::lane_mask::LaneMask;

/// One entry of the stack: where its threads run next, where they reconverge, and which they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StackEntry {
    pub pc: Pc,
    /// Reconvergence PC: where this entry is popped. [`Pc::EXIT`] for the base entry.
    pub rpc: Pc,
    pub mask: LaneMask,
}

/// A warp's reconvergence stack.
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

    /// The entry that runs.
    pub fn top(&self) -> Option<&StackEntry> {
        self.entries.last()
    }

    /// Entries on the stack.
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

/// The pre-Volta model of one warp: one PC (the stack's top) for all its threads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SimtWarp {
    pub stack: SimtStack,
    /// The barrier's PC while the warp waits at `__syncthreads()`.
    pub at_barrier: Option<Pc>,
}

impl SimtWarp {
    /// The PC each of the `live` lanes runs next: that of the topmost entry holding it.
    fn lane_pcs(&self, live: LaneMask) -> Vec<(u32, Pc)> {
        let mut out = vec![];
        for l in live.iter() {
            if let Some(e) = self.stack.entries.iter().rev().find(|e| e.mask.contains(l)) {
                out.push((l, e.pc));
            }
        }
        out
    }
}

impl Model for SimtWarp {
    const MODE: Mode = Mode::PreVolta;

    fn new(exists: LaneMask) -> Self {
        SimtWarp { stack: SimtStack::new(exists), at_barrier: None }
    }

    fn reset(&mut self, exists: LaneMask) {
        self.stack.reset(exists);
        self.at_barrier = None;
    }

    #[inline]
    fn candidate(&mut self) -> Option<(Pc, LaneMask)> {
        if self.at_barrier.is_some() {
            return None;
        }
        self.stack.top().map(|e| (e.pc, e.mask))
    }

    /// (One schedule for a warp: nothing to draw.)
    fn reseed(&mut self, _noise: u64) {}

    #[inline]
    fn lockstep(&self) -> bool {
        true
    }

    #[inline]
    fn runs_as_one(&self) -> bool {
        true
    }

    #[inline]
    fn keeps_running(&self, _lanes: LaneMask, _to: Pc) -> bool {
        true
    }

    /// A back edge only moves the top entry: no other path to yield to.
    #[inline]
    fn back_edge(&self) -> BackEdge {
        BackEdge::Free
    }

    /// The warp runs in lockstep: a `_sync` intrinsic's lanes are there together, or never.
    #[inline]
    fn waits_for_lanes(&self, _instr: &Instr) -> bool {
        false
    }

    #[inline]
    fn advance(&mut self, _lanes: LaneMask, _from: Pc, to: Pc) {
        self.stack.advance(to);
    }

    fn diverge(&mut self, _lanes: LaneMask, _branch: Pc, taken: LaneMask, then_pc: Pc, else_pc: Pc, reconv: Pc) {
        self.stack.diverge(taken, then_pc, else_pc, reconv);
    }

    #[inline]
    fn apply(&mut self, effect: Effect, pc: Pc, lanes: LaneMask, live: LaneMask) -> Applied {
        let next = Pc(pc.0 + 1);
        let mut out = Applied::default();
        match effect {
            Effect::Next => self.stack.advance(next),
            Effect::Jump(t) => self.stack.advance(t),
            // (Only a branch all lanes agree on: a divergent one splits the warp, `Model::diverge`.)
            Effect::Branch { taken, then_pc, else_pc, .. } => {
                self.stack.advance(if taken.is_empty() { else_pc } else { then_pc })
            }
            Effect::Exit => {
                self.exit(lanes);
                out.exited = true;
            }
            Effect::SyncThreads => {
                // The lanes a divergent barrier leaves behind, where they wait (only then: it allocates).
                let pending: Vec<(u32, Pc)> = if lanes != live {
                    self.lane_pcs(live).into_iter().filter(|(l, _)| !lanes.contains(*l)).collect()
                } else {
                    vec![]
                };
                self.arrive_at_barrier(lanes, pc);
                if lanes != live {
                    out.hazard = Some(ModelHazard::DivergentBarrier { pending });
                }
                out.at_barrier = true;
            }
            Effect::SyncWarp(named) => {
                self.stack.advance(next);
                if !named.and(live).is_subset_of(lanes) {
                    out.hazard = Some(ModelHazard::DivergentSyncwarp { named });
                }
            }
        }
        out
    }

    fn exit(&mut self, lanes: LaneMask) {
        self.stack.exit(lanes);
    }

    /// The whole warp waits (it counts as arrived, whichever lanes executed the barrier).
    fn arrive_at_barrier(&mut self, _lanes: LaneMask, pc: Pc) {
        self.at_barrier = Some(pc);
        self.stack.advance(Pc(pc.0 + 1));
    }

    #[inline]
    fn barrier_arrived(&self, _live: LaneMask) -> bool {
        self.at_barrier.is_some()
    }

    /// A warp waits whole, at the one barrier its PC is at.
    fn at_one_barrier(&self) -> bool {
        true
    }

    fn release_barrier(&mut self) {
        self.at_barrier = None;
    }

    fn lanes_at_barrier(&self, live: LaneMask) -> LaneMask {
        if self.at_barrier.is_some() { live } else { LaneMask::EMPTY }
    }

    fn warp_sync_arrive(&mut self, _: &Kernel, _: LaneMask, _: Pc, _: LaneMask, _: &[LaneMask; 32]) -> bool {
        false
    }

    fn release_warp_syncs(&mut self, _kernel: &Kernel, _live: LaneMask) {}

    /// (Threads wait in the stack, not at a convergence barrier: nothing for a spinner to release.)
    fn waiting_to_reconverge(&self) -> LaneMask {
        LaneMask::EMPTY
    }

    fn release_waiters(&mut self, _spinners: LaneMask) -> LaneMask {
        LaneMask::EMPTY
    }

    fn simt_stack(&self) -> Option<&SimtStack> {
        Some(&self.stack)
    }

    fn lane_pcs(&self, live: LaneMask) -> Vec<(u32, Pc)> {
        SimtWarp::lane_pcs(self, live)
    }

    fn lane_stop(&self, lane: u32) -> LaneStop {
        match self.at_barrier {
            Some(pc) => LaneStop::Barrier(pc),
            None => LaneStop::Running(
                self.stack.entries.iter().rev().find(|e| e.mask.contains(lane)).map_or(Pc(0), |e| e.pc),
            ),
        }
    }

    fn thread_pieces(&self, live: LaneMask, mut add: impl FnMut(Pc, &'static str, LaneMask)) {
        let entries = &self.stack.entries;
        // A lane waits in the topmost entry that holds it (the entries below hold it too, for later).
        let mut claimed = !live.0;
        for (i, e) in entries.iter().enumerate().rev() {
            let mask = e.mask.0 & !claimed;
            claimed |= e.mask.0;
            if mask == 0 {
                continue;
            }
            let top = i + 1 == entries.len();
            let what = if top && self.at_barrier.is_some() {
                "at barrier"
            } else if top {
                "running"
            } else {
                "waiting in stack"
            };
            let pc = if top { self.at_barrier.unwrap_or(e.pc) } else { e.pc };
            add(pc, what, LaneMask(mask));
        }
    }

    fn reconvergence(&self) -> Option<Pc> {
        self.stack.top().map(|e| e.rpc).filter(|p| *p != Pc::EXIT)
    }

    fn detail(&self, kernel: &Kernel, _groups: &[(Pc, LaneMask, &'static str)]) -> WarpDetail {
        let line_of = |pc: Pc| super::line_label(kernel, pc);
        let entries = &self.stack.entries;
        let rows = entries
            .iter()
            .enumerate()
            .rev()
            .map(|(i, e)| {
                let top = i + 1 == entries.len();
                let rpc =
                    if e.rpc == Pc::EXIT { "exit".to_string() } else { format!("{} ({})", e.rpc.0, line_of(e.rpc)) };
                DetailRow {
                    text: format!(
                        "{}#{i}  pc {} ({})  rpc {rpc}",
                        if top { "▶ " } else { "  " },
                        e.pc.0,
                        line_of(e.pc)
                    ),
                    lanes: e.mask,
                    current: top,
                }
            })
            .collect();
        let notes = self
            .at_barrier
            .map(|pc| DetailNote {
                text: format!("waiting at the __syncthreads() on line {}", kernel.line(pc)),
                kind: NoteKind::Barrier,
            })
            .into_iter()
            .collect();
        WarpDetail { heading: "SIMT stack (top first): pc, reconvergence pc, mask", rows, notes }
    }

    fn heap_bytes(&self) -> usize {
        self.stack.entries.capacity() * std::mem::size_of::<StackEntry>()
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

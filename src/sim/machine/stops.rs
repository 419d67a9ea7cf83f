//! Stepping with stops checked inside the machine: a debugger's continue with line breakpoints and
//! break-on-divergence runs at the scheduler's own speed, with no per-step work in the caller.
//!
//! [`Machine::step_until`] issues exactly the instructions [`Machine::step`] would, one scheduling decision
//! per unit of budget, and halts before a warp arriving at a breakpoint line issues (a warp whose last issue
//! was on another line, or that has not issued yet: not the warp already on the line) or right after a
//! divergent branch.

use super::{BlockState, Issue, Machine, Outcome};
use crate::ir::{Kernel, Pc};
use crate::sim::lane_mask::LaneMask;

/// What ends one scheduling decision of [`Machine::step_once`].
pub(super) enum Step {
    /// An instruction issued, or a `_sync` intrinsic's lanes went on waiting (nothing issued).
    Issued,
    /// The machine reached this final outcome.
    Final(Outcome),
    /// Halted before issuing: the warp about to issue arrives at a breakpoint on this line.
    Halt(u32),
}

/// Whether a warp arriving at a breakpoint line stops: (its block, the warp, the PC, the lanes about to
/// issue). Conditional line breakpoints evaluate their condition here.
pub type ArrivalFilter<'a> = &'a dyn Fn(&BlockState, u32, Pc, LaneMask) -> bool;

/// The stops [`Machine::step_until`] checks.
#[derive(Clone, Default)]
pub struct Stops<'a> {
    /// Per PC: its line has a breakpoint.
    at_pc: Vec<bool>,
    /// Stop right after a branch diverges.
    pub divergence: bool,
    /// When set, a warp arriving at a breakpoint line stops only if this holds.
    pub filter: Option<ArrivalFilter<'a>>,
}

impl<'a> Stops<'a> {
    /// Breakpoints on `lines` of `kernel` (and break-on-divergence when `divergence`).
    pub fn new(kernel: &Kernel, lines: impl Fn(u32) -> bool, divergence: bool) -> Stops<'a> {
        let at_pc: Vec<bool> = (0..kernel.instrs.len()).map(|pc| lines(kernel.line(Pc(pc as u32)))).collect();
        let at_pc = if at_pc.iter().any(|b| *b) { at_pc } else { vec![] };
        Stops { at_pc, divergence, filter: None }
    }

    /// Nothing would stop a run.
    pub fn is_empty(&self) -> bool {
        self.at_pc.is_empty() && !self.divergence
    }

    /// The breakpoint line warp `w` of `block` arrives at if it issues `pc` next.
    #[inline]
    pub(super) fn halts(&self, kernel: &Kernel, block: &BlockState, w: usize, pc: Pc, mask: LaneMask) -> Option<u32> {
        if !self.at_pc.get(pc.0 as usize).copied().unwrap_or(false) {
            return None;
        }
        let line = kernel.line(pc);
        let last = block.last_issued.get(w).copied().flatten().map(|(l, _)| l);
        (last != Some(line) && self.filter.is_none_or(|f| f(block, w as u32, pc, mask))).then_some(line)
    }
}

/// Why [`Machine::step_until`] returned.
#[derive(Clone, Debug, PartialEq)]
pub enum Halt {
    /// The budget ran out.
    Budget,
    /// A warp is about to run a breakpoint line, arriving there (nothing issued for it).
    Line(u32),
    /// A branch on this line just diverged.
    Divergence(u32),
    /// The machine reached a final outcome.
    Final(Outcome),
}

impl Machine {
    /// Like [`Machine::step_traced`] (at most `budget` scheduling decisions), halting at `stops`.
    pub fn step_until(&mut self, budget: u64, stops: &Stops, sink: &mut dyn FnMut(&Issue)) -> Halt {
        self.abandon_whole_run();
        let kernel = self.kernel.clone();
        let stops_at = (!stops.at_pc.is_empty()).then_some(stops);
        for _ in 0..budget {
            if let Some(o) = &self.outcome {
                return Halt::Final(o.clone());
            }
            let divergent = self.metrics.divergent_branches;
            let mut line = 0;
            let step = self.step_once(
                &kernel,
                &mut |i| {
                    line = i.line;
                    sink(i)
                },
                stops_at,
            );
            match step {
                Step::Issued => {}
                Step::Final(o) => {
                    self.outcome = Some(o.clone());
                    return Halt::Final(o);
                }
                Step::Halt(line) => return Halt::Line(line),
            }
            if stops.divergence && self.metrics.divergent_branches > divergent {
                return Halt::Divergence(line);
            }
        }
        Halt::Budget
    }
}

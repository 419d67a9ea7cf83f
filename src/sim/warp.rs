//! A warp: which lanes exist, its execution model's state, and its own statistics.

use super::exec::Effect;
use super::its::{ItsWarp, ThreadState};
use super::lane_mask::LaneMask;
use super::metrics::{Metrics, WarpDivergence};
use super::simt_stack::SimtStack;
use crate::front::launch::Mode;
use crate::ir::Pc;

/// Index of a warp within its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WarpId(pub u32);

/// The scheduling state of one warp, by execution model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WarpModel {
    /// One PC and a reconvergence stack; `at_barrier` holds the barrier's PC while the warp waits there.
    PreVolta {
        stack: SimtStack,
        at_barrier: Option<Pc>,
    },
    Its(Box<ItsWarp>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Warp {
    pub id: WarpId,
    /// Lanes that are threads of the block (the last warp of an odd-sized block has fewer).
    pub exists: LaneMask,
    /// Lanes that have not exited.
    pub live: LaneMask,
    pub model: WarpModel,
    pub divergence: WarpDivergence,
    /// Per lane: the divergent branch that last left it waiting (branch PC, the step it issued at), and the
    /// instruction where the lane exited; for "why is this lane inactive?".
    pub masked_by: LaneEvents<(Pc, u64)>,
    pub exited_at: LaneEvents<Pc>,
}

/// Per lane, the latest of some event (a divergent branch, an exit), kept as one entry per group of lanes
/// it happened to together: recording costs a few mask operations, not a write per lane.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LaneEvents<T> {
    /// Disjoint lane sets, oldest first.
    entries: Vec<(LaneMask, T)>,
}

impl<T> Default for LaneEvents<T> {
    fn default() -> Self {
        LaneEvents { entries: vec![] }
    }
}

impl<T: Copy> LaneEvents<T> {
    /// `lanes` had the event `v`: it replaces what they had before.
    pub fn record(&mut self, lanes: LaneMask, v: T) {
        for e in &mut self.entries {
            e.0 = e.0.minus(lanes);
        }
        self.entries.retain(|e| !e.0.is_empty());
        self.entries.push((lanes, v));
    }

    /// Forgets every lane's events.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Lane `lane`'s latest event.
    pub fn get(&self, lane: u32) -> Option<T> {
        self.entries.iter().find(|e| e.0.contains(lane)).map(|e| e.1)
    }
}

impl Warp {
    pub fn new(id: WarpId, exists: LaneMask, mode: Mode) -> Self {
        let model = match mode {
            Mode::PreVolta => WarpModel::PreVolta { stack: SimtStack::new(exists), at_barrier: None },
            Mode::Its => WarpModel::Its(Box::new(ItsWarp::new(exists))),
        };
        Warp {
            id,
            exists,
            live: exists,
            model,
            divergence: WarpDivergence::default(),
            masked_by: LaneEvents::default(),
            exited_at: LaneEvents::default(),
        }
    }

    /// Starts the warp over for a new block, as [`Warp::new`] would, keeping its allocations (a whole run
    /// starts thousands of blocks).
    pub fn reset(&mut self, id: WarpId, exists: LaneMask, mode: Mode) {
        match (&mut self.model, mode) {
            (WarpModel::PreVolta { stack, at_barrier }, Mode::PreVolta) => {
                stack.reset(exists);
                *at_barrier = None;
            }
            (WarpModel::Its(its), Mode::Its) => its.reset(exists),
            _ => *self = Warp::new(id, exists, mode),
        }
        self.id = id;
        self.exists = exists;
        self.live = exists;
        self.divergence.divergent_branches = 0;
        self.divergence.lines.clear();
        self.masked_by.clear();
        self.exited_at.clear();
    }

    pub fn done(&self) -> bool {
        self.live.is_empty()
    }

    /// A divergent branch `branch` issued by lanes `mask` at `pc` (step `step`): the branch's counts, which
    /// lanes it left waiting, and the split in the execution model.
    pub fn diverge(&mut self, metrics: &mut Metrics, pc: Pc, mask: LaneMask, branch: Effect, step: u64) {
        if let Effect::Branch { site, .. } = branch
            && site.counted
        {
            metrics.count_branch(site.line, true);
        }
        self.split(metrics, pc, mask, branch, step);
    }

    /// [`Warp::diverge`] but for the branch's own count, which the caller adds (a group of warps counts its
    /// divergent branches at once).
    pub fn split(&mut self, metrics: &mut Metrics, pc: Pc, mask: LaneMask, branch: Effect, step: u64) {
        let Effect::Branch { taken, then_pc, else_pc, reconv, site } = branch else { return };
        if site.counted {
            self.divergence.record(site.line, metrics);
        }
        // Every lane of a divergent branch remembers it: the side that waits is "masked by" it.
        self.masked_by.record(mask, (pc, step));
        match &mut self.model {
            WarpModel::PreVolta { stack, .. } => {
                stack.diverge(taken, then_pc, else_pc, reconv);
                metrics.max_stack_depth = metrics.max_stack_depth.max(stack.depth() as u32);
            }
            WarpModel::Its(its) => its.diverge(mask, pc, taken, then_pc, else_pc, reconv),
        }
    }

    /// What this warp would issue now: (PC, lanes). None if it is finished or waiting.
    #[inline]
    pub fn candidate(&mut self) -> Option<(Pc, LaneMask)> {
        match &mut self.model {
            WarpModel::PreVolta { stack, at_barrier } => {
                if at_barrier.is_some() {
                    return None;
                }
                stack.top().map(|e| (e.pc, e.mask))
            }
            WarpModel::Its(w) => w.candidate(),
        }
    }

    /// Lanes waiting at `__syncthreads()`.
    pub fn at_barrier(&self) -> LaneMask {
        match &self.model {
            WarpModel::PreVolta { at_barrier: Some(_), .. } => self.live,
            WarpModel::PreVolta { .. } => LaneMask::EMPTY,
            WarpModel::Its(w) => w.lanes_in(ThreadState::AtBarrier),
        }
    }

    /// SIMT-stack depth (pre-Volta), for traces.
    pub fn stack_depth(&self) -> Option<u32> {
        match &self.model {
            WarpModel::PreVolta { stack, .. } => Some(stack.depth() as u32),
            WarpModel::Its(_) => None,
        }
    }

    /// The PC each live lane will run next (for explanations and views).
    pub fn lane_pcs(&self) -> Vec<(u32, Pc)> {
        match &self.model {
            WarpModel::PreVolta { stack, .. } => {
                let mut out = vec![];
                for l in self.live.iter() {
                    // A lane waits in the topmost entry that holds it.
                    if let Some(e) = stack.entries.iter().rev().find(|e| e.mask.contains(l)) {
                        out.push((l, e.pc));
                    }
                }
                out
            }
            WarpModel::Its(w) => self.live.iter().map(|l| (l, w.pc[l as usize])).collect(),
        }
    }
}

//! A warp: which lanes exist, its execution model's state, and its own statistics.

use super::exec::Effect;
use super::lane_mask::LaneMask;
use super::metrics::{Metrics, WarpDivergence};
use super::model::WarpModel;
use crate::front::launch::Mode;
use crate::ir::Pc;

/// Index of a warp within its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WarpId(pub u32);

/// One warp of a resident block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Warp {
    pub id: WarpId,
    /// Lanes that are threads of the block (the last warp of an odd-sized block has fewer).
    pub exists: LaneMask,
    /// Lanes that have not exited.
    pub live: LaneMask,
    /// Its execution model's state (`model`): every question about scheduling goes there.
    pub(super) model: WarpModel,
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
    /// Warp `id` of the lanes `exists`, at the kernel's first instruction under `mode`.
    pub fn new(id: WarpId, exists: LaneMask, mode: Mode) -> Self {
        Warp {
            id,
            exists,
            live: exists,
            model: WarpModel::new(mode, exists),
            divergence: WarpDivergence::default(),
            masked_by: LaneEvents::default(),
            exited_at: LaneEvents::default(),
        }
    }

    /// Starts the warp over for a new block, as [`Warp::new`] would, keeping its allocations (a whole run
    /// starts thousands of blocks).
    pub fn reset(&mut self, id: WarpId, exists: LaneMask, mode: Mode) {
        self.model.reset(mode, exists);
        self.id = id;
        self.exists = exists;
        self.live = exists;
        self.divergence.divergent_branches = 0;
        self.divergence.lines.clear();
        self.masked_by.clear();
        self.exited_at.clear();
    }

    /// Every thread has exited.
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
        self.model.diverge(mask, pc, taken, then_pc, else_pc, reconv);
        metrics.note_stack_depth(self.model.depth());
    }

    /// What this warp would issue now: (PC, lanes). None if it is finished or waiting.
    #[inline]
    pub fn candidate(&mut self) -> Option<(Pc, LaneMask)> {
        self.model.candidate()
    }

    /// Lanes waiting at `__syncthreads()`.
    pub fn at_barrier(&self) -> LaneMask {
        self.model.lanes_at_barrier(self.live)
    }

    /// SIMT-stack depth (pre-Volta), for traces.
    pub fn stack_depth(&self) -> Option<u32> {
        self.model.depth()
    }

    /// The PC each live lane will run next (for explanations and views).
    pub fn lane_pcs(&self) -> Vec<(u32, Pc)> {
        self.model.lane_pcs(self.live)
    }

    /// The PC lane `lane` will run next (None once it exited).
    pub fn lane_pc(&self, lane: u32) -> Option<Pc> {
        self.lane_pcs().into_iter().find(|(l, _)| *l == lane).map(|(_, pc)| pc)
    }
}

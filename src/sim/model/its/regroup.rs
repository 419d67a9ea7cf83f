//! Which thread group of an ITS warp issues next: threads arriving at convergence barriers and the barriers
//! releasing (`settle`), then the pick among the ready groups (`pick`); and the shortcuts that reach the
//! same state without the general pass where the warp's state says what it will be: the split of a converged
//! warp at a divergent branch, a group arriving last at the warp's only convergence barrier, and a warp with
//! nothing to issue, which the scheduler asks again at every group of warps it forms.

use std::hash::{Hash, Hasher};

use super::{ItsWarp, ThreadState};
use crate::ir::Pc;
use crate::sim::lane_mask::LaneMask;

/// A cached answer about a warp's state, not part of it: equal and hashed alike whatever it holds, so state
/// comparisons and the livelock detector's hashes see the state alone.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Memo<T>(pub T);

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Memo<T> {}

impl<T> Hash for Memo<T> {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

/// What the first [`ItsWarp::choose_group`] after a converged warp's divergent branch decides, worked out at
/// the branch (`ItsWarp::split_plan`): the side standing at the reconvergence point waits there, and the
/// other side runs.
#[derive(Clone, Copy, Debug)]
pub(super) struct SplitPlan {
    pc: Pc,
    group: LaneMask,
    waiting: LaneMask,
}

impl ItsWarp {
    /// [`Model::candidate`] of a warp that is not one group (out of line: the converged warp's test is the
    /// one inlined into the schedulers' loops): the running group while it goes on alone, else what joins it,
    /// else a new choice.
    #[inline(never)]
    pub(super) fn diverged_candidate(&mut self) -> Option<(Pc, LaneMask)> {
        if let Some(group) = self.running
            && let Some(l) = group.lowest()
        {
            let pc = self.pc[l as usize];
            if self.nothing_joins(group, pc) {
                return Some((pc, group));
            }
            return self.rejoin(pc);
        }
        self.regroup()
    }

    /// The group that issues next when the warp is neither converged nor running a group that goes on alone:
    /// the plan its divergent branch left, else nothing when nothing changed since the last pass found
    /// nothing ready, else the general pass.
    #[inline]
    fn regroup(&mut self) -> Option<(Pc, LaneMask)> {
        if let Some(plan) = self.split.0.take() {
            if !plan.waiting.is_empty() {
                self.set_state(plan.waiting, ThreadState::Converging);
            }
            self.current = Some(plan.pc);
            self.running = Some(plan.group);
            return Some((plan.pc, plan.group));
        }
        if self.stalled.0 {
            return None;
        }
        self.choose_group()
    }

    /// What `choose_group` will decide after the converged warp `lanes` (every live thread, ready at one PC,
    /// no convergence barrier open) split at a divergent branch: `taken` at `then_pc`, the rest at `else_pc`,
    /// and a new barrier for all of them at `reconv` (none at the exit). The side standing at `reconv`
    /// arrives there, and the other side runs: the taken side unless it is the one waiting (then the
    /// round-robin's next PC, the other side's). None for a seeded schedule or a branch whose sides meet.
    pub(super) fn split_plan(
        lanes: LaneMask,
        taken: LaneMask,
        (then_pc, else_pc, reconv): (Pc, Pc, Pc),
    ) -> Option<SplitPlan> {
        if then_pc == else_pc {
            return None;
        }
        let not_taken = lanes.minus(taken);
        let barrier = reconv != Pc::EXIT;
        let plan = if barrier && then_pc == reconv {
            SplitPlan { pc: else_pc, group: not_taken, waiting: taken }
        } else {
            let waiting = if barrier && else_pc == reconv { not_taken } else { LaneMask::EMPTY };
            SplitPlan { pc: then_pc, group: taken, waiting }
        };
        Some(plan)
    }

    /// The running group reached `pc`, where another group may join it. When `pc` is where the warp's
    /// only convergence barrier reconverges and every other member waits there (or exited), the barrier
    /// releases: `settle`'s two passes (the arrival, the release; the second finds nothing), reached without
    /// their loops. Otherwise the general pass.
    #[inline]
    fn rejoin(&mut self, pc: Pc) -> Option<(Pc, LaneMask)> {
        if let [b] = self.barriers.as_slice()
            && b.reconv == pc
        {
            let converging = self.lanes_in(ThreadState::Converging).or(b.members.and(self.group_at(pc)));
            let members = b.members;
            if members.minus(self.lanes_in(ThreadState::Exited)).is_subset_of(converging) {
                // (The arriving lanes stay ready: `settle` makes them wait, then releases them with the rest.)
                self.set_state(members.and(converging), ThreadState::Ready);
                self.barriers.clear();
                self.current = Some(pc);
                // Every live thread ready and a member (the warp was one group at the branch): all stand at
                // `pc`, and the warp is one group again (`pick`'s first case, without its compare of the PCs).
                let ready = self.lanes_in(ThreadState::Ready);
                if ready == self.live() && ready.is_subset_of(members) {
                    self.converged = Some(ready);
                    return Some((pc, ready));
                }
                return self.pick();
            }
        }
        self.choose_group()
    }

    /// Ready threads standing at the reconvergence point of their innermost barrier start waiting there;
    /// barriers whose members have all arrived (or exited) release. Returns true if a barrier released: only
    /// then can another pass find more (released threads may stand at an outer barrier's point); arrivals
    /// alone leave nothing for it, as every barrier was checked after them.
    fn settle(&mut self) -> bool {
        let mut released = false;
        let mut arrived = LaneMask::EMPTY;
        let ready = self.lanes_in(ThreadState::Ready);
        for (i, b) in self.barriers.iter().enumerate() {
            let here = self.innermost_in(i).and(ready);
            if !here.is_empty() {
                arrived = arrived.or(here.and(self.lanes_at(b.reconv)));
            }
        }
        if !arrived.is_empty() {
            self.set_state(arrived, ThreadState::Converging);
        }
        let mut i = 0;
        while i < self.barriers.len() {
            let converging = self.lanes_in(ThreadState::Converging);
            let all_in = self.barriers[i]
                .members
                .minus(self.lanes_in(ThreadState::Exited))
                .is_subset_of(converging.and(self.innermost_in(i)));
            if all_in {
                let b = self.barriers.remove(i);
                let back = b.members.and(self.lanes_in(ThreadState::Converging));
                self.set_state(back, ThreadState::Ready);
                // The reconverged group runs next, as on hardware after BSYNC.
                self.current = Some(b.reconv);
                released = true;
                i = 0;
            } else {
                i += 1;
            }
        }
        released
    }

    /// No other ready thread stands at `pc` and no convergence barrier reconverges there: the group `lanes`
    /// arriving there goes on alone.
    #[inline]
    pub(super) fn nothing_joins(&self, lanes: LaneMask, pc: Pc) -> bool {
        !self.barriers.iter().any(|b| b.reconv == pc)
            && self.lanes_at(pc).and(self.lanes_in(ThreadState::Ready)).minus(lanes).is_empty()
    }

    /// [`Model::candidate`] off its fast paths: reconverge what can, then pick a group.
    #[inline(never)]
    pub(super) fn choose_group(&mut self) -> Option<(Pc, LaneMask)> {
        while self.settle() {}
        self.pick()
    }

    /// The group that issues next, once nothing more reconverges: the whole warp when it is one group again,
    /// else the group at the current PC, else the next one round-robin by PC.
    fn pick(&mut self) -> Option<(Pc, LaneMask)> {
        let ready = self.lanes_in(ThreadState::Ready);
        if ready.is_empty() {
            // Nothing changes that until the state does (`set_state`, `set_pc` forget it).
            self.stalled.0 = true;
            return None;
        }
        // One group, everyone live in it, nothing to reconverge: the fast path until something splits it.
        if self.barriers.is_empty() && ready == self.live() {
            let pc0 = self.pc[ready.lowest().unwrap_or(0) as usize];
            if ready.is_subset_of(self.lanes_at(pc0)) {
                self.converged = Some(ready);
                self.current = Some(pc0);
                return Some((pc0, ready));
            }
        }
        let current = self.current.map(|c| (c, ready.and(self.lanes_at(c))));
        let (pc, group) = match current {
            Some((c, group)) if !group.is_empty() => (c, group),
            _ => {
                // Round-robin by PC: the next group after the current one (the lowest PC above it), wrapping
                // to the lowest PC of all.
                let from = self.current.unwrap_or(Pc(0));
                let (mut above, mut lowest) = (None::<Pc>, Pc(u32::MAX));
                for l in ready.iter() {
                    let p = self.pc[l as usize];
                    lowest = lowest.min(p);
                    if p > from && above.is_none_or(|a| p < a) {
                        above = Some(p);
                    }
                }
                let next = above.unwrap_or(lowest);
                self.current = Some(next);
                (next, self.group_at(next))
            }
        };
        self.running = Some(group);
        Some((pc, group))
    }
}

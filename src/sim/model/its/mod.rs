//! The ITS model (Volta and later): a PC per thread; threads of a warp at the same PC issue together.
//!
//! Convergence is what the compiler arranges with `BSSY`/`BSYNC`: a divergent branch opens a convergence
//! barrier at its immediate post-dominator for the threads that executed it; a thread reaching that point
//! waits until every other member has arrived or exited, then the group continues as one. A loop branch that
//! diverges again reuses the barrier it already has (like the SIMT stack). Loops yield at their back edge:
//! the warp then switches to its next thread group, so a group waiting on another makes progress.
//!
//! Forward progress (the naive spin lock completes on Volta+): when the only runnable threads of a warp keep
//! repeating the same state while other threads wait at a convergence barrier, the waiters are released to go
//! on without them (see `Machine`'s spin detection, which calls [`Model::release_waiters`]).
//!
//! `_sync` intrinsics (`__syncwarp(mask)`, `__shfl_sync`, `__ballot_sync`, ...) wait until every live lane
//! their mask names is there to execute them together ([`Model::warp_sync_arrive`]).

mod regroup;
#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
mod warp_sync;

use regroup::{Memo, SplitPlan};

use super::{Applied, BackEdge, DetailNote, DetailRow, LaneStop, Model, NoteKind, WarpDetail, lanes_text, line_label};
use crate::front::launch::Mode;
use crate::ir::{Instr, Kernel, Pc};
use crate::sim::exec::Effect;
use crate::sim::lane_mask::LaneMask;

/// What one thread is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThreadState {
    /// The lane exists in the warp but not in the block (partial last warp).
    Absent = 0,
    Ready = 1,
    Exited = 2,
    /// Waiting at `__syncthreads()`.
    AtBarrier = 3,
    /// Waiting at a convergence barrier (BSYNC) at its PC.
    Converging = 4,
    /// Waiting at `__syncwarp(mask)` or a `_sync` shuffle/vote for the other lanes of its mask.
    WarpSync = 5,
}

impl ThreadState {
    const ALL: [ThreadState; 6] = [
        ThreadState::Absent,
        ThreadState::Ready,
        ThreadState::Exited,
        ThreadState::AtBarrier,
        ThreadState::Converging,
        ThreadState::WarpSync,
    ];
}

/// A convergence barrier opened by a divergent branch.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConvBarrier {
    pub id: u32,
    pub reconv: Pc,
    /// The branch that opened it.
    pub branch: Pc,
    pub members: LaneMask,
}

/// The ITS model of one warp: a PC and a state per thread.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ItsWarp {
    pub pc: [Pc; 32],
    /// The lanes in each [`ThreadState`] (indexed by it): every lane is in exactly one. Masks rather than a
    /// state per lane, so the scheduler's questions ("which lanes are ready?") cost one load.
    states: [LaneMask; 6],
    pub barriers: Vec<ConvBarrier>,
    /// The PC of the group the scheduler is running; it keeps running until it yields or blocks.
    pub current: Option<Pc>,
    /// Per lane: the mask a `WarpSync` thread waits for.
    pub sync_mask: [LaneMask; 32],
    /// Lanes whose `_sync` intrinsic has completed (every named lane arrived) but that have not issued it
    /// yet: they issue it without waiting again. With `__syncwarp` they may stand at different call sites
    /// (sm_70+ lets the lanes of one mask meet at different `__syncwarp`s).
    pub sync_passed: LaneMask,
    next_id: u32,
    /// Fast path: all live threads are ready at one PC with no open convergence barrier; the lanes.
    converged: Option<LaneMask>,
    /// Fast path while diverged: the group [`Model::candidate`] last chose, as long as it has only moved
    /// forward (nothing else changed, so the scheduler would choose it again unless it reached a
    /// reconvergence point or meets other ready threads).
    running: Option<LaneMask>,
    /// Fast path after a converged warp's divergent branch: what the next [`Model::candidate`] picks
    /// (`regroup.rs`), until anything else changes.
    split: Memo<Option<SplitPlan>>,
    /// The last pass found no thread ready, and nothing changed since: the next [`Model::candidate`] is None.
    stalled: Memo<bool>,
    /// The warp arrived at `__syncthreads()` as one group (every live thread, one PC, nothing to reconverge)
    /// and has not changed since: it stands at one barrier, and releases as one group.
    arrived_whole: Memo<bool>,
    /// A seeded schedule (`--schedule-seed`): a random number for this step's choices (which side of a
    /// divergent branch runs first, which group runs after a yield). `None`: the documented default.
    pub noise: Option<u64>,
}

impl ItsWarp {
    #[inline]
    fn lanes_in(&self, s: ThreadState) -> LaneMask {
        self.states[s as usize]
    }

    /// The state of lane `l`.
    fn state(&self, l: u32) -> ThreadState {
        ThreadState::ALL.into_iter().find(|&s| self.states[s as usize].contains(l)).unwrap_or(ThreadState::Absent)
    }

    /// Puts `lanes` in state `s`.
    #[inline]
    fn set_state(&mut self, lanes: LaneMask, s: ThreadState) {
        self.running = None;
        self.forget_plans();
        for m in &mut self.states {
            *m = m.minus(lanes);
        }
        self.states[s as usize] = self.states[s as usize].or(lanes);
    }

    #[inline]
    fn live(&self) -> LaneMask {
        LaneMask::FULL.minus(self.lanes_in(ThreadState::Absent).or(self.lanes_in(ThreadState::Exited)))
    }

    /// Lane `l`'s innermost open convergence barrier: the most recently opened one it belongs to. (Barriers
    /// open in order and close innermost first, so a lane's barriers nest in the order of `barriers`.)
    fn innermost(&self, l: u32) -> Option<&ConvBarrier> {
        self.barriers.iter().rev().find(|b| b.members.contains(l))
    }

    /// The lanes whose innermost barrier is `barriers[i]`.
    fn innermost_in(&self, i: usize) -> LaneMask {
        let inner = self.barriers[i + 1..].iter().fold(LaneMask::EMPTY, |m, b| m.or(b.members));
        self.barriers[i].members.minus(inner)
    }

    fn group_at(&self, pc: Pc) -> LaneMask {
        self.lanes_in(ThreadState::Ready).and(self.lanes_at(pc))
    }

    /// The lanes (in any state) whose PC is `pc`.
    #[inline]
    fn lanes_at(&self, pc: Pc) -> LaneMask {
        LaneMask(crate::sim::lane_bits::eq_mask(Pc::numbers(&self.pc), pc.0))
    }

    /// The shortcuts of [`Model::candidate`] that hold only while nothing changes.
    #[inline]
    fn forget_plans(&mut self) {
        self.split.0 = None;
        self.stalled.0 = false;
        self.arrived_whole.0 = false;
    }

    #[inline]
    fn set_pc(&mut self, lanes: LaneMask, pc: Pc) {
        self.forget_plans();
        // A whole warp: one store of all 32 (a converged warp's every move); a few lanes one at a time; else
        // a vector select (eight selects of four lanes cost about what six lanes one at a time do).
        if lanes == LaneMask::FULL {
            self.pc = [pc; 32];
        } else if lanes.count() <= 6 {
            for l in lanes.iter() {
                self.pc[l as usize] = pc;
            }
        } else {
            crate::sim::lane_bits::fill_where(Pc::numbers_mut(&mut self.pc), lanes.0, pc.0);
        }
    }

    /// Let the next group (in PC order after `pc`) run, if there is another.
    fn yield_from(&mut self, pc: Pc) {
        self.running = None;
        let ready = self.lanes_in(ThreadState::Ready);
        let Some(r) = self.noise else {
            // The lowest other PC above `pc`, else the lowest other PC, else `pc`: the default schedule's pick
            // from the sorted list below, without building it (a divergent loop yields at every back edge).
            let (mut above, mut lowest) = (None::<Pc>, None::<Pc>);
            for l in ready.iter() {
                let p = self.pc[l as usize];
                if p == pc {
                    continue;
                }
                lowest = Some(lowest.map_or(p, |q| q.min(p)));
                if p > pc {
                    above = Some(above.map_or(p, |q| q.min(p)));
                }
            }
            self.current = Some(above.or(lowest).unwrap_or(pc));
            return;
        };
        let mut pcs: Vec<Pc> = ready.iter().map(|l| self.pc[l as usize]).filter(|p| *p != pc).collect();
        pcs.sort();
        pcs.dedup();
        pcs.push(pc);
        self.current = Some(pcs[(r % pcs.len() as u64) as usize]);
    }

    /// Threads wait (barrier, warp sync) at their current PC.
    fn block(&mut self, lanes: LaneMask, s: ThreadState) {
        self.converged = None;
        self.set_state(lanes, s);
    }

    /// Waiting threads resume at the next instruction.
    fn resume_after(&mut self, lanes: LaneMask) {
        self.converged = None;
        self.set_state(lanes, ThreadState::Ready);
        if lanes == LaneMask::FULL {
            self.pc.iter_mut().for_each(|p| p.0 += 1);
        } else {
            for l in lanes.iter() {
                self.pc[l as usize].0 += 1;
            }
        }
    }
}

impl Model for ItsWarp {
    const MODE: Mode = Mode::Its;

    fn new(exists: LaneMask) -> Self {
        let mut states = [LaneMask::EMPTY; 6];
        states[ThreadState::Absent as usize] = LaneMask::FULL.minus(exists);
        states[ThreadState::Ready as usize] = exists;
        ItsWarp {
            pc: [Pc(0); 32],
            states,
            barriers: vec![],
            current: Some(Pc(0)),
            sync_mask: [LaneMask::EMPTY; 32],
            sync_passed: LaneMask::EMPTY,
            next_id: 0,
            converged: Some(exists),
            running: None,
            split: Memo(None),
            stalled: Memo(false),
            arrived_whole: Memo(false),
            noise: None,
        }
    }

    /// Starts over as [`Model::new`] would, keeping the barrier list's allocation.
    fn reset(&mut self, exists: LaneMask) {
        let mut barriers = std::mem::take(&mut self.barriers);
        barriers.clear();
        *self = <ItsWarp as Model>::new(exists);
        self.barriers = barriers;
    }

    /// The group that issues next: (PC, lanes), or None when no thread of this warp can issue.
    #[inline]
    fn candidate(&mut self) -> Option<(Pc, LaneMask)> {
        if let Some(lanes) = self.converged
            && let Some(l) = lanes.lowest()
        {
            return Some((self.pc[l as usize], lanes));
        }
        self.diverged_candidate()
    }

    fn reseed(&mut self, noise: u64) {
        self.forget_plans();
        self.noise = Some(noise);
    }

    #[inline]
    fn lockstep(&self) -> bool {
        false
    }

    /// All live threads run as one group with nothing to reconverge (the fast path).
    #[inline]
    fn runs_as_one(&self) -> bool {
        self.converged.is_some()
    }

    /// One pass instead of [`ItsWarp::nothing_joins`] at every instruction: the stretch ends before the first
    /// PC past `pc` where a convergence barrier reconverges or other ready threads stand.
    #[inline]
    fn stretch_len(&self, kernel: &Kernel, lanes: LaneMask, pc: Pc, n: u32) -> u32 {
        // (Instructions that wait for lanes decode to the general path: only the stretch's end may be one.)
        debug_assert!((pc.0 + 1..pc.0 + n).all(|p| !self.waits_for_lanes(&kernel.instrs[p as usize])));
        let end = pc.0 + n;
        // The first next instruction the group may not run alone.
        let mut stop = end + 1;
        if kernel.instrs.get(end as usize).is_some_and(|i| self.waits_for_lanes(i)) {
            stop = end;
        }
        if self.converged.is_none() {
            if self.running != Some(lanes) {
                return 0;
            }
            for b in &self.barriers {
                if b.reconv.0 > pc.0 && b.reconv.0 < stop {
                    stop = b.reconv.0;
                }
            }
            for l in self.lanes_in(ThreadState::Ready).minus(lanes).iter() {
                let p = self.pc[l as usize].0;
                if p > pc.0 && p < stop {
                    stop = p;
                }
            }
        }
        stop - pc.0 - 1
    }

    #[inline]
    fn keeps_running(&self, lanes: LaneMask, to: Pc) -> bool {
        self.converged.is_some() || (self.running == Some(lanes) && self.nothing_joins(lanes, to))
    }

    /// A warp that is one group has nothing to yield to and no thread waiting for a spinner; otherwise the
    /// back edge yields and may be a spin loop.
    #[inline]
    fn back_edge(&self) -> BackEdge {
        if self.converged.is_some() { BackEdge::ClearsSpin } else { BackEdge::General }
    }

    /// Instructions that wait for the lanes their mask names.
    #[inline]
    fn waits_for_lanes(&self, instr: &Instr) -> bool {
        matches!(instr, Instr::SyncWarp { .. } | Instr::Shfl { .. } | Instr::Vote { .. })
    }

    /// The group moves on; a backward jump (a loop's back edge) yields to the next group.
    fn advance(&mut self, lanes: LaneMask, from: Pc, to: Pc) {
        self.set_pc(lanes, to);
        if self.converged.is_some() {
            // The only group moved: still one group, and it keeps running.
            self.current = Some(to);
            return;
        }
        if self.running != Some(lanes) || to <= from {
            self.running = None;
        }
        if to <= from {
            self.yield_from(to);
        } else {
            self.current = Some(to);
        }
    }

    /// Opens (or reuses) a convergence barrier at `reconv` for `lanes`.
    fn diverge(&mut self, lanes: LaneMask, branch: Pc, taken: LaneMask, then_pc: Pc, else_pc: Pc, reconv: Pc) {
        let was_one_group = self.converged == Some(lanes);
        self.converged = None;
        self.running = None;
        if reconv != Pc::EXIT {
            let first = lanes.lowest().unwrap_or(0);
            let reuse = self
                .innermost(first)
                .filter(|b| b.reconv == reconv)
                .map(|b| b.id)
                .filter(|&id| lanes.iter().all(|l| self.innermost(l).map(|b| b.id) == Some(id)));
            if reuse.is_none() {
                let id = self.next_id;
                self.next_id += 1;
                self.barriers.push(ConvBarrier { id, reconv, branch, members: lanes });
            }
        }
        if lanes == LaneMask::FULL {
            // (The whole warp to one side, then the taken lanes: one store and a select instead of two.)
            self.set_pc(lanes, else_pc);
        } else {
            self.set_pc(lanes.minus(taken), else_pc);
        }
        self.set_pc(taken, then_pc);
        // The taken side runs first, as in the pre-Volta model (a seeded schedule may pick either).
        self.current = Some(match self.noise {
            Some(r) if r & 1 == 1 => else_pc,
            _ => then_pc,
        });
        if was_one_group && self.noise.is_none() {
            self.split.0 = ItsWarp::split_plan(lanes, taken, (then_pc, else_pc, reconv));
        }
    }

    fn apply(&mut self, effect: Effect, pc: Pc, lanes: LaneMask, _live: LaneMask) -> Applied {
        let next = Pc(pc.0 + 1);
        let mut out = Applied::default();
        match effect {
            // (A `_sync` intrinsic's lanes waited for each other before it issued.)
            Effect::Next | Effect::SyncWarp(_) => self.advance(lanes, pc, next),
            Effect::Jump(t) => {
                self.advance(lanes, pc, t);
                out.spin_at = (t <= pc).then_some(t);
            }
            // (Only a branch all lanes agree on: a divergent one splits the warp, `Model::diverge`.)
            Effect::Branch { taken, then_pc, else_pc, .. } => {
                let t = if taken.is_empty() { else_pc } else { then_pc };
                self.advance(lanes, pc, t);
                out.spin_at = (t <= pc).then_some(t);
            }
            Effect::Exit => {
                self.exit(lanes);
                out.exited = true;
            }
            Effect::SyncThreads => {
                self.arrive_at_barrier(lanes, pc);
                out.at_barrier = true;
            }
        }
        out
    }

    fn exit(&mut self, lanes: LaneMask) {
        self.converged = None;
        self.set_state(lanes, ThreadState::Exited);
    }

    /// Per thread: the lanes that executed it wait.
    fn arrive_at_barrier(&mut self, lanes: LaneMask, _pc: Pc) {
        let whole = self.converged == Some(lanes);
        self.block(lanes, ThreadState::AtBarrier);
        self.arrived_whole.0 = whole;
    }

    /// Every live thread waits, and at one barrier instruction (`__syncthreads` compiles to `WARPSYNC.ALL;
    /// BAR.SYNC`).
    #[inline]
    fn barrier_arrived(&self, live: LaneMask) -> bool {
        self.lanes_in(ThreadState::AtBarrier) == live
    }

    fn at_one_barrier(&self) -> bool {
        if self.arrived_whole.0 {
            return true;
        }
        let at = self.lanes_in(ThreadState::AtBarrier);
        at.lowest().is_none_or(|l| at.is_subset_of(self.lanes_at(self.pc[l as usize])))
    }

    fn release_barrier(&mut self) {
        let whole = self.arrived_whole.0;
        let at = self.lanes_in(ThreadState::AtBarrier);
        self.resume_after(at);
        if let Some(l) = at.lowest() {
            let pc = self.pc[l as usize];
            self.current = Some(pc);
            // A whole warp at one `__syncthreads()` with nothing to reconverge goes on as one group: the state
            // `choose_group` would reach at the next `candidate` (its converged case), set here without its
            // pass over the barriers and the lanes (a reduction's warps release once per stride).
            if whole || (self.barriers.is_empty() && at == self.live() && at.is_subset_of(self.lanes_at(pc))) {
                self.converged = Some(at);
            }
        }
    }

    fn lanes_at_barrier(&self, _live: LaneMask) -> LaneMask {
        self.lanes_in(ThreadState::AtBarrier)
    }

    fn warp_sync_arrive(
        &mut self,
        kernel: &Kernel,
        live: LaneMask,
        pc: Pc,
        lanes: LaneMask,
        named: &[LaneMask; 32],
    ) -> bool {
        if lanes.is_subset_of(self.sync_passed) {
            self.sync_passed = self.sync_passed.minus(lanes);
            return false;
        }
        // The lanes whose named lanes are not all here wait; if every lane's are, the group issues.
        let waiting = lanes.iter().filter(|&l| !named[l as usize].and(live).is_subset_of(lanes));
        let waiting = waiting.fold(LaneMask::EMPTY, |m, l| m.or(LaneMask::lane(l)));
        if waiting.is_empty() {
            return false;
        }
        self.block(waiting, ThreadState::WarpSync);
        for l in waiting.iter() {
            self.sync_mask[l as usize] = named[l as usize];
        }
        // Lanes whose named lanes are all here (waiting at this PC, or for `__syncwarp` at any `__syncwarp`
        // with the same mask) go on together; the rest of the group issues without the waiting lanes next.
        self.release_ready(kernel, live, pc);
        true
    }

    /// Lanes waiting at a `_sync` intrinsic for lanes that have now exited go on.
    fn release_warp_syncs(&mut self, kernel: &Kernel, live: LaneMask) {
        for l in self.lanes_in(ThreadState::WarpSync).iter() {
            if self.state(l) != ThreadState::WarpSync {
                continue; // released with an earlier lane's group
            }
            let pc = self.pc[l as usize];
            self.release_ready(kernel, live, pc);
        }
    }

    fn waiting_to_reconverge(&self) -> LaneMask {
        self.lanes_in(ThreadState::Converging)
    }

    /// Forward progress: threads waiting at a convergence barrier that `spinners` belong to go on without
    /// them. Returns the released lanes.
    fn release_waiters(&mut self, spinners: LaneMask) -> LaneMask {
        self.converged = None;
        let mut released = LaneMask::EMPTY;
        let waiting = self.lanes_in(ThreadState::Converging);
        for i in 0..self.barriers.len() {
            if self.barriers[i].members.and(spinners).is_empty() {
                continue;
            }
            let w = waiting.and(self.innermost_in(i)).minus(spinners);
            if w.is_empty() {
                continue;
            }
            self.barriers[i].members = self.barriers[i].members.minus(w);
            released = released.or(w);
        }
        self.set_state(released, ThreadState::Ready);
        if let Some(l) = released.lowest() {
            self.current = Some(self.pc[l as usize]);
        }
        released
    }

    fn simt_stack(&self) -> Option<&super::SimtStack> {
        None
    }

    fn lane_pcs(&self, live: LaneMask) -> Vec<(u32, Pc)> {
        live.iter().map(|l| (l, self.pc[l as usize])).collect()
    }

    fn lane_stop(&self, lane: u32) -> LaneStop {
        let pc = self.pc[lane as usize];
        match self.state(lane) {
            ThreadState::AtBarrier => LaneStop::Barrier(pc),
            ThreadState::Converging => LaneStop::Convergence(pc),
            ThreadState::WarpSync => LaneStop::WarpSync(pc),
            _ => LaneStop::Running(pc),
        }
    }

    fn thread_pieces(&self, live: LaneMask, mut add: impl FnMut(Pc, &'static str, LaneMask)) {
        for l in live.iter() {
            let what = match self.state(l) {
                ThreadState::Ready => "ready",
                ThreadState::AtBarrier => "at barrier",
                ThreadState::Converging => "waiting to reconverge",
                ThreadState::WarpSync => "at warp sync",
                ThreadState::Exited | ThreadState::Absent => continue,
            };
            add(self.pc[l as usize], what, LaneMask::lane(l));
        }
    }

    /// The innermost convergence barrier of the group that runs next.
    fn reconvergence(&self) -> Option<Pc> {
        let mut probe = self.clone();
        let (_, mask) = probe.candidate()?;
        let lane = mask.lowest()?;
        self.innermost(lane).map(|b| b.reconv)
    }

    fn detail(&self, kernel: &Kernel, groups: &[(Pc, LaneMask, &'static str)]) -> WarpDetail {
        let line_of = |pc: Pc| line_label(kernel, pc);
        let rows = groups
            .iter()
            .map(|&(pc, lanes, what)| DetailRow {
                text: format!("  {} pc {}: {what}", line_of(pc), pc.0),
                lanes,
                current: false,
            })
            .collect();
        let notes = self
            .barriers
            .iter()
            .map(|cb| DetailNote {
                text: format!(
                    "  convergence barrier: lanes {} reconverge at {} (branch at {})",
                    lanes_text(cb.members),
                    line_of(cb.reconv),
                    line_of(cb.branch)
                ),
                kind: NoteKind::Reconvergence,
            })
            .collect();
        WarpDetail { heading: "Threads by PC (ITS: every thread has its own PC)", rows, notes }
    }

    fn heap_bytes(&self) -> usize {
        std::mem::size_of::<ItsWarp>() + self.barriers.capacity() * std::mem::size_of::<ConvBarrier>()
    }
}

//! The execution models: how a warp's threads are scheduled, apart from what they compute (`exec`), in one
//! place behind one dispatcher, as miri's `borrow_tracker` dispatches between its borrow models.
//!
//! - [`simt_stack`]: pre-Volta, one PC per warp and an immediate-post-dominator reconvergence stack;
//! - [`its`]: Volta and later, independent thread scheduling (a PC per thread, convergence barriers).
//!
//! Every run path (the machine's single step, and a whole run's `warp_run.rs` and `gang.rs`) and every view
//! (`inspect`, `explain`) asks a warp's [`WarpModel`], and only this file matches on it: one `match`, in
//! `dispatch!`, sends each call of the [`Model`] interface to the warp's model. The interface is what the
//! machine needs of a model: what issues next, advancing, applying an instruction's effect (a divergent
//! branch splits the warp: [`Model::diverge`]), barrier arrival and release, `_sync` intrinsics,
//! reconvergence and forward progress, and what to show (thread groups, the lane that waits where, a
//! detail for the warp pane).
//!
//! Dispatch is an enum and a `match`, not a trait object: the scheduler asks a warp's model at every issue.
//!
//! The models' files implement the interface defined here, and this file holds their states: those
//! parent-child imports are the only circles (`its` and `simt_stack` never use each other).
//!
//! Adding a third model: a new file here whose warp state implements [`Model`] (the compiler lists what is
//! missing), its variant of [`WarpModel`] with its one arm in `dispatch!`, and the launch mode that selects
//! it in [`WarpModel::new`] (a new `front::launch::Mode`). Nothing else in the simulator changes.

pub mod its;
pub mod simt_stack;

pub use its::ItsWarp;
pub use simt_stack::{SimtStack, SimtWarp, StackEntry};

use crate::front::launch::Mode;
use crate::ir::{Instr, Kernel, Pc};
use crate::sim::exec::Effect;
use crate::sim::lane_mask::{LaneMask, format_ranges};

/// The scheduling state of one warp, by execution model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WarpModel {
    /// One PC and a reconvergence stack.
    PreVolta(SimtWarp),
    /// A PC and a state per thread (boxed: 32 of each).
    Its(Box<ItsWarp>),
}

/// Sends a call to the warp's model: `dispatch!(self, m => m.method(args))`. The one match on the model.
macro_rules! dispatch {
    ($model:expr, $m:ident => $call:expr) => {
        match $model {
            WarpModel::PreVolta($m) => $call,
            WarpModel::Its($m) => $call,
        }
    };
}

/// What an execution model does for one warp. Lanes are the warp's (bit `l`: lane `l`); `live` is the
/// warp's lanes that have not exited, which the warp keeps.
pub trait Model: Sized {
    /// The launch mode that runs this model.
    const MODE: Mode;

    /// [`Model::MODE`], of a warp's model.
    fn mode(&self) -> Mode {
        Self::MODE
    }

    /// A warp of the lanes `exists` at the kernel's first instruction.
    fn new(exists: LaneMask) -> Self;

    /// Starts over as [`Model::new`] would, keeping allocations (a whole run starts thousands of blocks).
    fn reset(&mut self, exists: LaneMask);

    /// What the warp issues next: (PC, lanes). None if it is finished or waiting.
    fn candidate(&mut self) -> Option<(Pc, LaneMask)>;

    /// A seeded schedule's random number for this step's choices (`--schedule-seed`).
    fn reseed(&mut self, noise: u64);

    /// Whether the warp's live threads always issue together (one PC per warp): a group of such warps may
    /// issue a jump or arrive at a barrier as one, telling each model afterwards.
    fn lockstep(&self) -> bool;

    /// Whether all the warp's live threads run as one group, with nothing to reconverge: then a group of
    /// warps (`gang.rs`) need not ask the model how far the warp's lanes run on before another group of its
    /// threads may join them ([`WarpModel::stretch_len`]).
    fn runs_as_one(&self) -> bool;

    /// Would the scheduler keep running the group `lanes`, which issued last, once it moves forward to `to`?
    /// Then a caller may run it there without telling the model at every step (`warp_run.rs`).
    fn keeps_running(&self, lanes: LaneMask, to: Pc) -> bool;

    /// How many instructions of the straight stretch of `n` at `pc` the group `lanes` may issue in one go
    /// ([`WarpModel::stretch_len`]; the stretch's instructions `pc..pc + n` decode to straight operations).
    /// By default: all of them in a lockstep model (a basic block's instructions run in order with the same
    /// lanes); otherwise while the scheduler would keep running the group at each next instruction (the
    /// last one of the stretch included, which must not be a `_sync` intrinsic that waits for lanes).
    #[inline(always)]
    fn stretch_len(&self, kernel: &Kernel, lanes: LaneMask, pc: Pc, n: u32) -> u32 {
        if self.lockstep() {
            return n;
        }
        let mut len = 0;
        while len < n {
            let next = Pc(pc.0 + len + 1);
            if !self.keeps_running(lanes, next)
                || kernel.instrs.get(next.0 as usize).is_some_and(|i| self.waits_for_lanes(i))
            {
                break;
            }
            len += 1;
        }
        len
    }

    /// What a backward move (a loop's back edge) of the running group asks of a caller that runs the warp
    /// alone without telling the model at every step.
    fn back_edge(&self) -> BackEdge;

    /// Whether the instruction waits for the lanes its mask names before it issues ([`Model::warp_sync_arrive`]).
    fn waits_for_lanes(&self, instr: &Instr) -> bool;

    /// The lanes `lanes` move from `from` to `to` (straight-line code, a jump, a branch they all agree on).
    fn advance(&mut self, lanes: LaneMask, from: Pc, to: Pc);

    /// A divergent branch at `branch`: of `lanes`, `taken` go to `then_pc` and the rest to `else_pc`; they
    /// reconverge at `reconv`.
    fn diverge(&mut self, lanes: LaneMask, branch: Pc, taken: LaneMask, then_pc: Pc, else_pc: Pc, reconv: Pc);

    /// The lanes `lanes` issued the instruction at `pc`, whose control-flow effect is `effect` (a branch
    /// they all agree on; a divergent one goes to [`Model::diverge`]).
    fn apply(&mut self, effect: Effect, pc: Pc, lanes: LaneMask, live: LaneMask) -> Applied;

    /// Threads leave the warp (return, or the end of the kernel).
    fn exit(&mut self, lanes: LaneMask);

    /// The lanes `lanes` arrive at the `__syncthreads()` at `pc`.
    fn arrive_at_barrier(&mut self, lanes: LaneMask, pc: Pc);

    /// Whether the warp, not finished, counts as arrived at the block's barrier (a cheap test: it runs for
    /// every warp at every arrival).
    fn barrier_arrived(&self, live: LaneMask) -> bool;

    /// Whether the warp's waiting threads stand at one barrier instruction; asked only once every warp of the
    /// block has arrived (ITS: `__syncthreads` compiles to `WARPSYNC.ALL; BAR.SYNC`).
    fn at_one_barrier(&self) -> bool;

    /// The block's barrier released: the waiting threads go on after it.
    fn release_barrier(&mut self);

    /// The lanes waiting at `__syncthreads()`.
    fn lanes_at_barrier(&self, live: LaneMask) -> LaneMask;

    /// The group `lanes` stands at the `_sync` intrinsic at `pc`, whose mask names `named[l]` for lane `l`:
    /// lanes whose named live lanes are not all there wait for them. True when the group waited (nothing
    /// issues).
    fn warp_sync_arrive(
        &mut self,
        kernel: &Kernel,
        live: LaneMask,
        pc: Pc,
        lanes: LaneMask,
        named: &[LaneMask; 32],
    ) -> bool;

    /// Lanes waiting at a `_sync` intrinsic for lanes that have now exited go on.
    fn release_warp_syncs(&mut self, kernel: &Kernel, live: LaneMask);

    /// Threads waiting at a convergence barrier (forward progress: a spinner may be what they wait for).
    fn waiting_to_reconverge(&self) -> LaneMask;

    /// Forward progress: threads waiting at a convergence barrier that `spinners` belong to go on without
    /// them. Returns the released lanes.
    fn release_waiters(&mut self, spinners: LaneMask) -> LaneMask;

    /// The SIMT stack, in a model that has one.
    fn simt_stack(&self) -> Option<&SimtStack>;

    /// The PC each of the `live` lanes runs next.
    fn lane_pcs(&self, live: LaneMask) -> Vec<(u32, Pc)>;

    /// Where the live lane `lane` stands and why.
    fn lane_stop(&self, lane: u32) -> LaneStop;

    /// The `live` lanes in pieces: (PC each runs next, what they are doing, the lanes), a PC and doing
    /// possibly in several pieces.
    fn thread_pieces(&self, live: LaneMask, add: impl FnMut(Pc, &'static str, LaneMask));

    /// Where the innermost divergent region of the group that runs next reconverges.
    fn reconvergence(&self) -> Option<Pc>;

    /// The warp pane's detail; `groups` are the warp's [`WarpModel::thread_groups`].
    fn detail(&self, kernel: &Kernel, groups: &[(Pc, LaneMask, &'static str)]) -> WarpDetail;

    /// Bytes the model holds beyond the warp (snapshot budgets).
    fn heap_bytes(&self) -> usize;
}

/// What applying an instruction's effect asks of the machine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Applied {
    /// Lanes left the warp.
    pub exited: bool,
    /// Lanes arrived at `__syncthreads()`: the block's barrier may release.
    pub at_barrier: bool,
    /// A backward move to this PC, which may be a spin loop that other threads wait on (forward progress).
    pub spin_at: Option<Pc>,
    /// Undefined behaviour under this model.
    pub hazard: Option<ModelHazard>,
}

/// Undefined behaviour a model finds in an issue.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelHazard {
    /// `__syncthreads()` reached by part of a warp; the other lanes, each with the PC it waits at.
    DivergentBarrier { pending: Vec<(u32, Pc)> },
    /// `__syncwarp(named)` executed by only part of the lanes it names.
    DivergentSyncwarp { named: LaneMask },
}

/// What a backward move of the running group asks of a caller ([`Model::back_edge`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackEdge {
    /// Nothing: it is a move like any other.
    Free,
    /// Nothing to yield to and no thread waits for a spinner: the warp's spin record just clears.
    ClearsSpin,
    /// The machine's general path applies it (the group yields, and it may be a spin loop).
    General,
}

/// Where a live lane stands and why ([`Model::lane_stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneStop {
    /// Waiting at the `__syncthreads()` at this PC.
    Barrier(Pc),
    /// Waiting at a convergence barrier at this PC.
    Convergence(Pc),
    /// Waiting at the `_sync` intrinsic at this PC for the other lanes of its mask.
    WarpSync(Pc),
    /// Not waiting for other threads: it runs this PC next (or waits its turn).
    Running(Pc),
}

/// What the warp pane shows of a warp's model: a heading, rows of lanes, and notes under them.
#[derive(Clone, Debug, PartialEq)]
pub struct WarpDetail {
    pub heading: &'static str,
    pub rows: Vec<DetailRow>,
    pub notes: Vec<DetailNote>,
}

/// A row of [`WarpDetail`]: its text and the lanes it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct DetailRow {
    pub text: String,
    pub lanes: LaneMask,
    /// The row that runs (shown marked).
    pub current: bool,
}

/// A note under the rows of [`WarpDetail`].
#[derive(Clone, Debug, PartialEq)]
pub struct DetailNote {
    pub text: String,
    pub kind: NoteKind,
}

/// What a [`DetailNote`] is about (views color it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// A barrier the warp waits at.
    Barrier,
    /// Where threads reconverge.
    Reconvergence,
}

/// "L12" for a PC on line 12, "exit" for the end of the kernel.
fn line_label(kernel: &Kernel, pc: Pc) -> String {
    if pc == Pc::EXIT { "exit".to_string() } else { format!("L{}", kernel.line(pc)) }
}

/// "0-7,16" for lanes 0 to 7 and 16.
fn lanes_text(lanes: LaneMask) -> String {
    format_ranges(&lanes.iter().collect::<Vec<_>>())
}

impl WarpModel {
    /// A warp of the lanes `exists` at the kernel's first instruction, under `mode`.
    pub fn new(mode: Mode, exists: LaneMask) -> WarpModel {
        match mode {
            Mode::PreVolta => WarpModel::PreVolta(SimtWarp::new(exists)),
            Mode::Its => WarpModel::Its(Box::new(ItsWarp::new(exists))),
        }
    }

    /// Starts over as [`WarpModel::new`] would, keeping allocations.
    pub fn reset(&mut self, mode: Mode, exists: LaneMask) {
        if dispatch!(self, m => m.mode()) == mode {
            dispatch!(self, m => m.reset(exists))
        } else {
            *self = WarpModel::new(mode, exists);
        }
    }

    /// See [`Model::candidate`].
    #[inline]
    pub fn candidate(&mut self) -> Option<(Pc, LaneMask)> {
        dispatch!(self, m => m.candidate())
    }

    /// See [`Model::reseed`].
    #[inline]
    pub fn reseed(&mut self, noise: u64) {
        dispatch!(self, m => m.reseed(noise))
    }

    /// See [`Model::lockstep`].
    #[inline]
    pub fn lockstep(&self) -> bool {
        dispatch!(self, m => m.lockstep())
    }

    /// Whether the warp may issue the instruction at `pc` with a group of warps (`gang.rs`): any warp may,
    /// its threads one group or not (the group issues with the lanes its model picks, and asks the model
    /// again wherever the warp's own scheduler would), unless the instruction waits for lanes.
    #[inline]
    pub fn may_join_group(&self, kernel: &Kernel, pc: Pc) -> bool {
        !self.waits_for_lanes(&kernel.instrs[pc.0 as usize])
    }

    /// See [`Model::runs_as_one`].
    #[inline]
    pub fn runs_as_one(&self) -> bool {
        dispatch!(self, m => m.runs_as_one())
    }

    /// Whether the group `lanes`, which issued last, may run on to `to` alone: the scheduler would keep
    /// running it ([`Model::keeps_running`]) and the instruction there does not wait for lanes.
    #[inline]
    pub fn keeps_running_to(&self, kernel: &Kernel, lanes: LaneMask, to: Pc) -> bool {
        dispatch!(self, m => m.keeps_running(lanes, to) && !m.waits_for_lanes(&kernel.instrs[to.0 as usize]))
    }

    /// How many instructions of the straight stretch of `n` at `pc` (instructions `pc..pc + n` decode to
    /// straight operations, so none waits for lanes) the group `lanes` may issue in one go: see
    /// [`Model::stretch_len`].
    #[inline(always)]
    pub fn stretch_len(&self, kernel: &Kernel, lanes: LaneMask, pc: Pc, n: u32) -> u32 {
        dispatch!(self, m => m.stretch_len(kernel, lanes, pc, n))
    }

    /// See [`Model::back_edge`].
    #[inline]
    pub fn back_edge(&self) -> BackEdge {
        dispatch!(self, m => m.back_edge())
    }

    /// See [`Model::waits_for_lanes`].
    #[inline]
    pub fn waits_for_lanes(&self, instr: &Instr) -> bool {
        dispatch!(self, m => m.waits_for_lanes(instr))
    }

    /// See [`Model::advance`].
    #[inline]
    pub fn advance(&mut self, lanes: LaneMask, from: Pc, to: Pc) {
        dispatch!(self, m => m.advance(lanes, from, to))
    }

    /// Brings the model up to date with a run that moved the lanes `lanes` from `from` forward to `to` inside
    /// one basic block without telling it (a straight stretch: `warp_run.rs`, `gang.rs`).
    #[inline]
    pub fn catch_up(&mut self, lanes: LaneMask, from: Pc, to: Pc) {
        if from != to {
            self.advance(lanes, from, to);
        }
    }

    /// See [`Model::diverge`].
    #[inline]
    pub fn diverge(&mut self, lanes: LaneMask, branch: Pc, taken: LaneMask, then_pc: Pc, else_pc: Pc, reconv: Pc) {
        dispatch!(self, m => m.diverge(lanes, branch, taken, then_pc, else_pc, reconv))
    }

    /// See [`Model::apply`].
    #[inline]
    pub fn apply(&mut self, effect: Effect, pc: Pc, lanes: LaneMask, live: LaneMask) -> Applied {
        dispatch!(self, m => m.apply(effect, pc, lanes, live))
    }

    /// See [`Model::arrive_at_barrier`].
    #[inline]
    pub fn arrive_at_barrier(&mut self, lanes: LaneMask, pc: Pc) {
        dispatch!(self, m => m.arrive_at_barrier(lanes, pc))
    }

    /// See [`Model::barrier_arrived`].
    #[inline]
    pub fn barrier_arrived(&self, live: LaneMask) -> bool {
        dispatch!(self, m => m.barrier_arrived(live))
    }

    /// See [`Model::at_one_barrier`].
    #[inline]
    pub fn at_one_barrier(&self) -> bool {
        dispatch!(self, m => m.at_one_barrier())
    }

    /// See [`Model::release_barrier`].
    #[inline]
    pub fn release_barrier(&mut self) {
        dispatch!(self, m => m.release_barrier())
    }

    /// See [`Model::lanes_at_barrier`].
    #[inline]
    pub fn lanes_at_barrier(&self, live: LaneMask) -> LaneMask {
        dispatch!(self, m => m.lanes_at_barrier(live))
    }

    /// See [`Model::warp_sync_arrive`].
    #[inline]
    pub fn warp_sync_arrive(
        &mut self,
        kernel: &Kernel,
        live: LaneMask,
        pc: Pc,
        lanes: LaneMask,
        named: &[LaneMask; 32],
    ) -> bool {
        dispatch!(self, m => m.warp_sync_arrive(kernel, live, pc, lanes, named))
    }

    /// See [`Model::release_warp_syncs`].
    #[inline]
    pub fn release_warp_syncs(&mut self, kernel: &Kernel, live: LaneMask) {
        dispatch!(self, m => m.release_warp_syncs(kernel, live))
    }

    /// See [`Model::waiting_to_reconverge`].
    #[inline]
    pub fn waiting_to_reconverge(&self) -> LaneMask {
        dispatch!(self, m => m.waiting_to_reconverge())
    }

    /// See [`Model::release_waiters`].
    #[inline]
    pub fn release_waiters(&mut self, spinners: LaneMask) -> LaneMask {
        dispatch!(self, m => m.release_waiters(spinners))
    }

    /// See [`Model::simt_stack`].
    #[inline]
    pub fn simt_stack(&self) -> Option<&SimtStack> {
        dispatch!(self, m => m.simt_stack())
    }

    /// The SIMT-stack depth, in a model that has one (traces, `max_stack_depth`).
    #[inline]
    pub fn depth(&self) -> Option<u32> {
        self.simt_stack().map(|s| s.depth() as u32)
    }

    /// See [`Model::lane_pcs`].
    #[inline]
    pub fn lane_pcs(&self, live: LaneMask) -> Vec<(u32, Pc)> {
        dispatch!(self, m => m.lane_pcs(live))
    }

    /// See [`Model::lane_stop`].
    #[inline]
    pub fn lane_stop(&self, lane: u32) -> LaneStop {
        dispatch!(self, m => m.lane_stop(lane))
    }

    /// The `live` lanes grouped by the PC they run next and what they are doing, in (PC, doing) order.
    pub fn thread_groups(&self, live: LaneMask) -> Vec<(Pc, LaneMask, &'static str)> {
        // A warp has a handful of groups: a small vector searched in order beats a tree (compare mode asks this
        // for every warp the two models move, every step).
        let mut by_pc: Vec<((Pc, &'static str), u32)> = Vec::with_capacity(4);
        let add = |pc: Pc, what: &'static str, lanes: LaneMask| match by_pc.iter_mut().find(|(k, _)| *k == (pc, what)) {
            Some((_, m)) => *m |= lanes.0,
            None => by_pc.push(((pc, what), lanes.0)),
        };
        dispatch!(self, m => m.thread_pieces(live, add));
        by_pc.sort_unstable_by_key(|(k, _)| *k);
        by_pc.into_iter().map(|((pc, what), m)| (pc, LaneMask(m), what)).collect()
    }

    /// See [`Model::reconvergence`].
    #[inline]
    pub fn reconvergence(&self) -> Option<Pc> {
        dispatch!(self, m => m.reconvergence())
    }

    /// See [`Model::detail`].
    #[inline]
    pub fn detail(&self, kernel: &Kernel, live: LaneMask) -> WarpDetail {
        let groups = self.thread_groups(live);
        dispatch!(self, m => m.detail(kernel, &groups))
    }

    /// See [`Model::heap_bytes`].
    #[inline]
    pub fn heap_bytes(&self) -> usize {
        dispatch!(self, m => m.heap_bytes())
    }
}

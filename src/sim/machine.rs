//! The simulated SM: resident blocks, a deterministic warp scheduler, barriers, and the one engine API,
//! [`Machine::step`], that the TUI, the headless commands and replay all drive.
//!
//! Scheduling (documented choice): blocks are dispatched in linear order, at most `max_resident` at once (a
//! new one starts when one finishes, as on an SM); every step issues one instruction for one warp (one thread
//! group in ITS), round-robin over the resident warps in (block, warp) order, skipping warps that cannot issue.
//!
//! This file holds the machine's state and its stepping. Each child module either adds one concern's
//! methods to [`Machine`] (`issue`: the data path of an issue and what it reports, hazards included;
//! `apply`: its effect on the warp's execution model, barriers, `_sync` waits, spins; `livelock`; `stops`:
//! breakpoints; `parallel`, `gang`, `warp_run`, `whole_run`: whole runs on several cores; `clock_spin`:
//! clock spins a whole run skips; `explain`:
//! deadlock, livelock and hazard texts) or holds types (`block`, `config`, `outcome`, `records`,
//! `hazards`, `template`), which use no other file here. The only import circles are between this file and
//! `stops`, `parallel` and `whole_run`: they add methods to the machine, which keeps their state (its
//! breakpoints' `Stops`, a whole run's `ParState` and `Slot`): one type with its methods grouped by concern.
//! Among the children, `gang` uses `warp_run` and `parallel`, `warp_run` uses `parallel`, and several use
//! `explain` and the type files; none of these runs back.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

use super::child_launch::ChildLaunch;
use super::exec::Effect;
use super::lane_bits::DataPath;
use super::lane_mask::LaneMask;
use super::memory::{GlobalMemory, SharedLayout};
use super::metrics::Metrics;
use super::race::RaceShadow;
use super::traffic::Traffic;
use super::warp::{Warp, WarpId};
use crate::compile::Compiled;
use crate::front::launch::{Dim3, Launch, Mode};
use crate::ir::{Kernel, Pc};

mod apply;
mod block;
mod clock_spin;
mod config;
mod conflicts;
mod explain;
mod gang;
mod grid_barrier;
pub use grid_barrier::{co_resident_blocks, grid_sync_line};
mod hazards;
mod issue;
mod livelock;
mod outcome;
mod par_state;
mod parallel;
mod records;
mod spin;
mod stops;
mod template;
mod warp_run;
mod whole_run;
pub use block::BlockState;
pub use config::{
    ARGUMENT_STEP_CEILING, Config, DeviceJit, LaunchError, Tuning, argument_steps, kernel_file_step_limit,
    largest_bound, largest_integer_argument, largest_loop_constant, program_step_limit,
};
pub use hazards::{Hazard, HazardKind};
pub use outcome::{Outcome, Stuck, Wait, WaitKind};
use records::Recent;
pub use records::{AtomicWrite, Issue, PrintfLine};
use stops::Step;
pub use stops::{ArrivalFilter, Halt, Stops};
pub use whole_run::WholeProgress;

/// Quiet steps (no thread finished, no barrier released, no memory changed) before state hashing starts.
const QUIET_BEFORE_HASHING: u64 = 20_000;
const HASH_EVERY: u64 = 1024;
/// A whole run gives up when one warp goes this many steps in a barrier interval without progress: almost
/// surely a livelock, which the sequential run then finds and explains. (Not a bound the result depends on:
/// a completed whole run never met a state the sequential run would have seen twice.)
const QUIET_REFUSED: u64 = 1 << 20;

/// The hasher of machine states (spin and livelock detection compare states by hash).
fn state_hasher() -> impl Hasher {
    foldhash::fast::FixedState::with_seed(0).build_hasher()
}

/// The whole simulated launch. Cloning it is a snapshot (time travel re-executes from snapshots).
#[derive(Clone)]
pub struct Machine {
    pub kernel: Arc<Kernel>,
    pub launch: Launch,
    /// The kernel file's name, for reports.
    pub file: String,
    /// Global memory: the launch's (`GlobalMemory::from_launch`) until an instruction changes it. Only issued
    /// instructions change it (a refused whole run makes it again from the launch: `parallel.rs`).
    pub global: GlobalMemory,
    pub layout: SharedLayout,
    params: Vec<u64>,
    pub blocks: Vec<BlockState>,
    next_block: u64,
    pub total_blocks: u64,
    max_resident: usize,
    /// Resident (block slot, warp) in scheduling order.
    order: Vec<(usize, usize)>,
    cursor: usize,
    pub steps: u64,
    pub max_steps: u64,
    pub metrics: Metrics,
    pub hazards: Vec<Hazard>,
    pub output: Vec<PrintfLine>,
    /// Grids device threads launched, in launch order (dynamic parallelism: `sim::child_launch`).
    pub children: Vec<ChildLaunch>,
    outcome: Option<Outcome>,
    quiet: u64,
    seen: HashSet<u64>,
    /// States the livelock detector counts as held without storing them: skipped clock spins' (`clock_spin`).
    unseen: u64,
    recent: VecDeque<Recent>,
    pub last_atomic: HashMap<u64, AtomicWrite>,
    mem_epoch: u64,
    schedule_seed: Option<u64>,
    tuning: Tuning,
    /// Which build of the data path runs (`tuning.portable`, and the CPU).
    path: DataPath,
    /// Reused buffer for one instruction's shared-memory accesses (no allocation per step).
    shared_scratch: Vec<(u32, u32)>,
    /// Set in the machines that run a range of blocks of a whole run on several cores (`parallel`).
    par: Option<Box<par_state::ParState>>,
    /// The last [`Machine::run`] ran the blocks on several cores.
    ran_parallel: bool,
    /// Global memory is the launch's own (`GlobalMemory::from_launch`), so a refused parallel run can make
    /// it again; false for a program's launch, whose memory is the program's device heap.
    launch_memory: bool,
    /// A whole run in pieces in progress ([`Machine::start_whole_run`]); never cloned.
    whole: whole_run::Slot,
    /// The buffers of whole runs' groups of warps (`gang.rs`).
    group: gang::GroupSlot,
    /// Blocks of this launch the device holds at once, for a kernel with a grid-wide barrier (all of them
    /// are resident when the grid fits; `grid_barrier.rs`); None for other kernels.
    grid_capacity: Option<u64>,
    /// Clock spins whole runs skip (`clock_spin.rs`).
    spins: clock_spin::Spins,
}

impl Machine {
    /// Allocates memory and dispatches the first blocks.
    pub fn new(compiled: &Compiled, config: &Config) -> Result<Machine, LaunchError> {
        let launch = compiled.launch.clone();
        let needed = launch.global_bytes();
        if needed > config.memory_cap {
            return Err(LaunchError::MemoryCap { needed, cap: config.memory_cap });
        }
        if let (Mode::Its, Some(name)) = (launch.mode, &compiled.program.legacy_warp) {
            return Err(LaunchError::LegacyWarp { name: name.clone() });
        }
        let kernel = Arc::new(compiled.kernel.clone());
        let (global, params) = GlobalMemory::from_launch(&launch);
        let warps = launch.grid.count() * launch.warps_per_block();
        let asked = || argument_steps(warps, kernel.instrs.len() as u64, largest_bound(&kernel, &params));
        let max_steps = config.max_steps.unwrap_or_else(|| kernel_file_step_limit(warps, asked()));
        let file = compiled.source().name.clone();
        Ok(Machine::start(kernel, launch, file, (global, params, true), max_steps, config))
    }

    /// A launch of a whole program: `kernel` runs on `global` (the program's device memory, which persists
    /// across launches), with parameter register values `params`. Every check of [`Machine::new`] holds;
    /// [`Machine::into_memory`] gives the memory back afterwards. [`Machine::run`] runs it on several cores
    /// where the rule of `parallel.rs` holds, with a copy of the memory to put back when it does not.
    pub fn with_memory(
        kernel: Arc<Kernel>,
        launch: Launch,
        file: String,
        global: GlobalMemory,
        params: Vec<u64>,
        config: &Config,
    ) -> Machine {
        let warps = launch.grid.count() * launch.warps_per_block();
        let device_bytes = global.allocs.iter().map(|a| a.data.len() as u64).sum();
        let asked = || argument_steps(warps, kernel.instrs.len() as u64, largest_bound(&kernel, &params));
        let max_steps = config.max_steps.unwrap_or_else(|| program_step_limit(warps, device_bytes, asked()));
        Machine::start(kernel, launch, file, (global, params, false), max_steps, config)
    }

    /// The machine of a launch of `kernel` on `global` (the launch's own memory when `launch_memory`) with
    /// parameter values `params`, its first blocks dispatched.
    fn start(
        kernel: Arc<Kernel>,
        launch: Launch,
        file: String,
        (global, params, launch_memory): (GlobalMemory, Vec<u64>, bool),
        max_steps: u64,
        config: &Config,
    ) -> Machine {
        let layout = SharedLayout::new(&kernel, launch.dynamic_shared);
        // (Whole programs let an access past the shared arrays go on, as a GPU does: `SharedLayout::padded`.)
        let layout = if global.padding.is_some() { layout.padded() } else { layout };
        let threads = launch.block.count().max(1);
        let total_blocks = launch.grid.count();
        let mut max_resident = config.max_resident_blocks.unwrap_or((16_384 / threads).max(1) as usize).max(1);
        // A grid-wide barrier needs the grid's blocks resident together: as many as the device holds.
        let grid_capacity = grid_barrier::capacity(&kernel, &launch, layout.bytes as u64);
        if let Some(c) = grid_capacity {
            max_resident = c.clamp(1, total_blocks.max(1)) as usize;
        }
        let warps = total_blocks * launch.warps_per_block();
        let traffic = Traffic::for_launch(&kernel, &params, total_blocks * launch.block.count());
        let spins = clock_spin::Spins::new(&kernel, config.tuning.no_spin_skip);
        let mut m = Machine {
            kernel,
            file,
            launch,
            global,
            layout,
            params,
            blocks: vec![],
            next_block: 0,
            total_blocks,
            max_resident,
            order: vec![],
            cursor: 0,
            steps: 0,
            max_steps,
            metrics: Metrics { warps, traffic, ..Default::default() },
            hazards: vec![],
            output: vec![],
            children: vec![],
            outcome: None,
            quiet: 0,
            seen: HashSet::new(),
            unseen: 0,
            recent: VecDeque::with_capacity(512),
            last_atomic: HashMap::new(),
            mem_epoch: 0,
            schedule_seed: config.schedule_seed,
            tuning: config.tuning,
            path: DataPath::new(config.tuning.portable),
            shared_scratch: Vec::with_capacity(32),
            par: None,
            ran_parallel: false,
            launch_memory,
            whole: whole_run::Slot::default(),
            group: gang::GroupSlot::default(),
            grid_capacity,
            spins,
        };
        m.dispatch();
        m
    }

    /// The machine's global memory, taken out (a program's device memory after a launch).
    pub fn into_memory(self) -> GlobalMemory {
        self.global
    }

    pub fn mode(&self) -> Mode {
        self.launch.mode
    }

    /// The final outcome, once there is one.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn dispatch(&mut self) {
        let nregs = self.kernel.regs.len();
        while self.blocks.len() < self.max_resident && self.next_block < self.total_blocks {
            let linear = self.next_block;
            self.next_block += 1;
            let idx = self.launch.block_idx(linear);
            // A whole run's blocks reuse the last one's state (its buffers: a fresh register file of this
            // size is a fresh mapping from the system, and its unmapping stalls every thread).
            let block = match self.par.as_mut().and_then(|p| p.spare.take()) {
                Some(old) => self.reused_block(old, idx, linear),
                None => self.new_block(idx, linear, nregs),
            };
            self.blocks.push(block);
        }
        // (In place: a whole run dispatches a block per retired one.)
        self.order.clear();
        for (b, bs) in self.blocks.iter().enumerate() {
            self.order.extend((0..bs.warps.len()).map(|w| (b, w)));
        }
    }

    /// A block's state at its start, in new buffers.
    fn new_block(&self, idx: Dim3, linear: u64, nregs: usize) -> BlockState {
        let threads = self.launch.block.count() as u32;
        let nwarps = threads.div_ceil(32);
        let stride = nwarps as usize * 32;
        // A whole run's register file has rows after the registers for the pre-decoded program's constants.
        let mut regs = match self.par.as_ref() {
            Some(p) => {
                let mut r = vec![0u64; p.program.rows() * stride];
                p.program.fill_consts(&mut r, stride);
                r
            }
            None => vec![0u64; nregs * stride],
        };
        for (p, v) in self.kernel.params.iter().zip(&self.params) {
            let row = p.reg.0 as usize * stride;
            regs[row..row + stride].fill(*v);
        }
        let exists = |w: u32| LaneMask::first(threads - 32 * w);
        BlockState {
            idx,
            linear,
            threads,
            stride,
            regs,
            shared: vec![0u8; self.layout.padded as usize],
            last_issued: if self.par.is_some() { vec![] } else { vec![None; nwarps as usize] },
            warps: (0..nwarps).map(|w| Warp::new(WarpId(w), exists(w), self.launch.mode)).collect(),
            spin_seen: vec![vec![]; nwarps as usize],
            race: RaceShadow::new(self.layout.bytes),
            barrier_epoch: 0,
            warp_epochs: vec![0; nwarps as usize],
            barrier_votes: (0, 0),
            barrier_result: (0, 0),
            at_grid: false,
            grid_waiting: false,
        }
    }

    /// Block `linear`'s state at its start, made from a retired block's (a whole run's blocks all have the
    /// same shape): what [`Machine::new_block`] gives, without allocating.
    fn reused_block(&self, mut b: BlockState, idx: Dim3, linear: u64) -> BlockState {
        let p = self.par.as_ref().expect("only whole runs keep a retired block");
        (b.idx, b.linear) = (idx, linear);
        let stride = b.stride;
        // Only the registers some path reads before writing start at zero; the rest keep the last block's
        // values, which no thread reads (`ir::defined`), and the constants' rows stay as they are.
        for reg in p.read_before_written.iter() {
            let row = reg.0 as usize * stride;
            b.regs[row..row + stride].fill(0);
        }
        for (p, v) in self.kernel.params.iter().zip(&self.params) {
            let row = p.reg.0 as usize * stride;
            b.regs[row..row + stride].fill(*v);
        }
        let threads = b.threads;
        for (w, warp) in (0..).zip(&mut b.warps) {
            warp.reset(WarpId(w), LaneMask::first(threads - 32 * w), self.launch.mode);
        }
        b.shared.fill(0);
        b.spin_seen.iter_mut().for_each(Vec::clear);
        if self.layout.bytes > 0 {
            b.race = RaceShadow::new(self.layout.bytes);
        }
        b.barrier_epoch = 0;
        b.warp_epochs.fill(0);
        b.barrier_votes = (0, 0);
        b.barrier_result = (0, 0);
        (b.at_grid, b.grid_waiting) = (false, false);
        b
    }

    fn progress(&mut self) {
        if let Some(p) = &mut self.par {
            p.progressed = true;
        }
        self.quiet = 0;
        if !self.seen.is_empty() {
            self.seen.clear();
        }
        self.unseen = 0;
        if !self.recent.is_empty() {
            self.recent.clear();
        }
    }

    /// Runs up to `budget` instructions; the engine API every front end drives.
    pub fn step(&mut self, budget: u64) -> Outcome {
        self.step_traced(budget, &mut |_| {})
    }

    /// Like [`Machine::step`], reporting every issued instruction to `sink`.
    pub fn step_traced(&mut self, budget: u64, sink: &mut dyn FnMut(&Issue)) -> Outcome {
        self.abandon_whole_run();
        let kernel = self.kernel.clone();
        for _ in 0..budget {
            if let Some(o) = &self.outcome {
                return o.clone();
            }
            if let Step::Final(o) = self.step_once(&kernel, sink, None) {
                self.outcome = Some(o.clone());
                return o;
            }
        }
        self.outcome.clone().unwrap_or(Outcome::Paused)
    }

    /// Runs to a final outcome: on several cores where that provably gives the sequential result (see
    /// `parallel`), else one instruction at a time as [`Machine::step`] does.
    pub fn run(&mut self) -> Outcome {
        if let Some(o) = self.run_parallel() {
            return o;
        }
        self.spins.enabled = true;
        let o = loop {
            let o = self.step(1 << 20);
            if o.is_final() {
                break o;
            }
        };
        self.spins.enabled = false;
        o
    }

    /// Whether [`Machine::run`] ran the launch's blocks on several cores (the parallel rule held) rather than
    /// one instruction at a time.
    pub fn ran_parallel(&self) -> bool {
        self.ran_parallel
    }

    /// Bytes a snapshot (clone) of this machine holds: memory, registers, shared memory and its race shadow,
    /// warps, counters, hazards, printf output and the livelock detector's history. Time travel budgets
    /// snapshots with it, so it must not leave out anything that grows with the launch or the run.
    pub fn approx_bytes(&self) -> u64 {
        use std::mem::size_of;
        let global: u64 = self.global.allocs.iter().map(|a| a.bytes() + a.name.len() as u64 + 64).sum();
        let blocks: u64 = self
            .blocks
            .iter()
            .map(|b| {
                let warps: u64 = b.warps.iter().map(|w| (size_of::<Warp>() + w.model.heap_bytes()) as u64).sum();
                let spins: usize = b.spin_seen.iter().map(|v| v.capacity() * 8 + 24).sum();
                (size_of::<BlockState>() + b.regs.capacity() * 8 + b.shared.capacity() + spins) as u64
                    + b.race.bytes()
                    + b.warp_epochs.capacity() as u64 * 4
                    + warps
            })
            .sum();
        let metrics = self.metrics.line_instructions.capacity() * 16
            + self.metrics.per_line.len() * (size_of::<super::metrics::LineMetrics>() + 32)
            + self.metrics.banks.per_line.len() * 128
            + self.metrics.traffic.heap_bytes();
        let hazards: usize = self.hazards.iter().map(|h| size_of::<Hazard>() + h.message.capacity()).sum();
        let output: usize = self.output.iter().map(|o| size_of::<PrintfLine>() + o.text.capacity()).sum();
        // Hash sets and maps hold about one word of control bytes per bucket beyond their entries.
        let detector = self.seen.capacity() * 9
            + self.recent.capacity() * size_of::<Recent>()
            + self.last_atomic.capacity() * (size_of::<(u64, AtomicWrite)>() + 1);
        let rest = size_of::<Machine>()
            + self.blocks.capacity() * size_of::<BlockState>()
            + self.order.capacity() * 16
            + self.params.capacity() * 8
            + self.shared_scratch.capacity() * 8;
        global + blocks + (metrics + hazards + output + detector + rest) as u64
    }

    /// What the next step will issue, without issuing it: (block slot, warp, PC, lanes).
    pub fn peek(&mut self) -> Option<(usize, usize, Pc, LaneMask)> {
        if self.outcome.is_some() {
            return None;
        }
        self.find_issue().map(|(_, b, w, pc, mask)| (b, w, pc, mask))
    }

    fn find_issue(&mut self) -> Option<(usize, usize, usize, Pc, LaneMask)> {
        let n = self.order.len();
        // A seeded schedule starts the search at a random warp; a function of the step, so `peek` agrees.
        let start = match self.schedule_seed {
            Some(seed) => (crate::front::launch::random_u64(seed, 1, self.steps) % n.max(1) as u64) as usize,
            None => self.cursor,
        };
        for k in 0..n {
            let i = (start + k) % n;
            let (b, w) = self.order[i];
            if let Some((pc, mask)) = self.blocks[b].warps[w].candidate() {
                return Some((i, b, w, pc, mask));
            }
        }
        None
    }

    /// One scheduling decision: issues one instruction (or lets a `_sync` wait), or finds the final outcome,
    /// or (with `stops`) halts before a warp arriving at a breakpoint line issues.
    fn step_once(&mut self, kernel: &Kernel, sink: &mut dyn FnMut(&Issue), stops: Option<&Stops>) -> Step {
        if self.order.is_empty() {
            return Step::Final(Outcome::Completed);
        }
        if self.steps >= self.max_steps {
            return Step::Final(Outcome::StepLimit);
        }
        let Some((i, b, w, pc, mask)) = self.find_issue() else {
            return Step::Final(self.explain_deadlock());
        };
        if let Some(line) = stops.and_then(|s| s.halts(kernel, &self.blocks[b], w, pc, mask)) {
            return Step::Halt(line);
        }
        // ITS: `_sync` intrinsics wait until every named, live lane is there to execute together.
        let instr = &kernel.instrs[pc.0 as usize];
        if self.blocks[b].warps[w].model.waits_for_lanes(instr) && self.warp_sync_wait(b, w, pc, mask, instr) {
            return Step::Issued;
        }
        let issue = Issue {
            step: self.steps + 1,
            block: self.blocks[b].idx,
            warp: WarpId(w as u32),
            pc,
            line: kernel.line(pc),
            mask,
            stack_depth: self.blocks[b].warps[w].stack_depth(),
        };
        self.cursor = i + 1;
        let effect = match self.execute_issue(kernel, b, w, pc, mask) {
            Ok(e) => e,
            Err(fault) => return Step::Final(Outcome::Fault(fault)),
        };
        // Recent issues explain a livelock; they only matter once the machine has been quiet for a while.
        if self.quiet >= QUIET_BEFORE_HASHING / 2 {
            if self.recent.len() == 512 {
                self.recent.pop_front();
            }
            self.recent.push_back(Recent { slot: b, warp: w as u32, pc, mask });
        }
        sink(&issue);
        if let Some(last) = self.blocks[b].last_issued.get_mut(w) {
            *last = Some((issue.line, mask));
        }

        let exits = effect == Effect::Exit;
        let spin_head = self.spins.head_after(pc, mask, &effect);
        if let Some(seed) = self.schedule_seed {
            self.blocks[b].warps[w].model.reseed(crate::front::launch::random_u64(seed, 2, self.steps));
        }
        self.apply(b, w, pc, mask, effect);

        if let Some(p) = &mut self.par {
            p.end_step(w as u32);
        }
        if exits && self.blocks[b].warps.iter().all(Warp::done) {
            self.retire(b);
            self.progress();
        } else if let Some(o) = self.watch_livelock() {
            return Step::Final(o);
        }
        if self.order.is_empty() && self.next_block >= self.total_blocks {
            return Step::Final(Outcome::Completed);
        }
        if let Some(head) = spin_head {
            self.skip_clock_spin(b, w, head);
        }
        Step::Issued
    }

    fn retire(&mut self, b: usize) {
        if let Some(p) = &mut self.par {
            p.end_block(self.blocks[b].linear);
        }
        let old = self.blocks.remove(b);
        if let Some(p) = &mut self.par {
            p.spare = Some(old);
        }
        let n_before = self.order.len();
        self.dispatch();
        // Keep the round-robin position roughly where it was.
        if !self.order.is_empty() {
            self.cursor = self.cursor.min(n_before) % self.order.len();
        }
    }
}

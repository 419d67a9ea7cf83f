//! The simulated SM: resident blocks, a deterministic warp scheduler, barriers, and the one engine API,
//! [`Machine::step`], that the TUI, the headless commands and replay all drive.
//!
//! Scheduling (documented choice): blocks are dispatched in linear order, at most `max_resident` at once (a
//! new one starts when one finishes, as on an SM); every step issues one instruction for one warp (one thread
//! group in ITS), round-robin over the resident warps in (block, warp) order, skipping warps that cannot issue.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::Arc;

use super::child_launch::ChildLaunch;
use super::exec::{self, Ctx, Effect, ExecError, Note};
use super::explain;
use super::fault::{self, Fault, FaultSite};
use super::lane_mask::{LaneMask, format_ranges};
use super::memory::{GlobalMemory, SharedLayout};
use super::metrics::Metrics;
use super::race::RaceShadow;
use super::model::ModelHazard;
use super::warp::{Warp, WarpId};
use crate::compile::Compiled;
use crate::front::launch::{Dim3, Launch, Mode};
use crate::ir::{Instr, Kernel, Pc};

mod gang;
mod hazards;
mod parallel;
mod shared_global;
mod stops;
mod warp_run;
mod whole_run;
pub use hazards::{Hazard, HazardKind};
pub use shared_global::SharedGlobal;
use stops::Step;
pub use stops::{ArrivalFilter, Halt, Stops};
pub use whole_run::WholeProgress;

/// Limits of one run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Stop after this many issued instructions; `None` = a default that scales with the launch.
    pub max_steps: Option<u64>,
    /// Refuse launches whose arrays need more bytes than this.
    pub memory_cap: u64,
    /// Blocks resident at once; `None` = as many as fit in 16,384 threads (at least one).
    pub max_resident_blocks: Option<usize>,
    /// A seeded schedule instead of round-robin: which warp issues, and in ITS which thread group, are
    /// drawn from this seed. Reproducible: the same seed gives the same run.
    pub schedule_seed: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        // (The page keeps 2 GiB: a wasm32 module cannot address 4.)
        let memory_cap = if cfg!(target_arch = "wasm32") { 2 << 30 } else { 4 << 30 };
        Config { max_steps: None, memory_cap, max_resident_blocks: None, schedule_seed: None }
    }
}

/// The default step limit of a kernel file's launch of `warps` warps: 10,000 instructions per warp, at
/// least 10 million (its kernels are teaching-sized).
pub fn kernel_file_step_limit(warps: u64) -> u64 {
    warps.saturating_mul(10_000).max(10_000_000)
}

/// The default step limit of a program's launch of `warps` warps on `device_bytes` of device memory:
/// 100,000 instructions per warp (a thread looping over a 16K-element row) or 2 per byte of device memory
/// (a few threads walking the program's large arrays), at least 2^28 and at most 2^30. A runaway loop is
/// then stopped after at most about a minute, a whole run's attempt and the sequential run that reaches the
/// exact state together (docs/programs.md).
pub fn program_step_limit(warps: u64, device_bytes: u64) -> u64 {
    warps.saturating_mul(100_000).max(device_bytes.saturating_mul(2)).clamp(1 << 28, 1 << 30)
}

/// Why a launch cannot start.
#[derive(Clone, Debug, PartialEq)]
pub enum LaunchError {
    MemoryCap {
        needed: u64,
        cap: u64,
    },
    /// The kernel uses a warp function of CUDA 8 and earlier, which has no meaning under ITS.
    LegacyWarp {
        name: String,
    },
}

impl std::fmt::Display for LaunchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LaunchError::MemoryCap { needed, cap } => write!(
                f,
                "the launch needs {needed} bytes of global memory, more than the cap of {cap} bytes; \
                 pass --memory-cap BYTES to allow it"
            ),
            LaunchError::LegacyWarp { name } => write!(
                f,
                "`{name}` exists only for pre-Volta GPUs: under independent thread scheduling \"the whole warp\" \
                 it exchanges between is not defined (CUDA 9 removed it for Volta); use its _sync form to run \
                 this kernel in ITS mode"
            ),
        }
    }
}

/// How a run (or a call to [`Machine::step`]) ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The budget ran out; the machine can go on.
    Paused,
    Completed,
    Fault(Box<Fault>),
    Deadlock(Box<Stuck>),
    Livelock(Box<Stuck>),
    StepLimit,
}

impl Outcome {
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Paused => "paused",
            Outcome::Completed => "completed",
            Outcome::Fault(_) => "fault",
            Outcome::Deadlock(_) => "deadlock",
            Outcome::Livelock(_) => "livelock",
            Outcome::StepLimit => "step_limit",
        }
    }

    pub fn is_final(&self) -> bool {
        !matches!(self, Outcome::Paused)
    }
}

/// Where threads wait or spin, for deadlock and livelock explanations.
#[derive(Clone, Debug, PartialEq)]
pub struct Wait {
    pub line: u32,
    pub kind: WaitKind,
    pub block: Dim3,
    /// Thread indices within the block.
    pub tids: Vec<u32>,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitKind {
    Barrier,
    Convergence,
    WarpSync,
    Spin,
    Reconvergence,
}

impl WaitKind {
    pub fn name(self) -> &'static str {
        match self {
            WaitKind::Barrier => "barrier",
            WaitKind::Convergence => "convergence",
            WaitKind::WarpSync => "warp_sync",
            WaitKind::Spin => "spin",
            WaitKind::Reconvergence => "reconvergence",
        }
    }
}

impl Wait {
    pub fn threads(&self) -> String {
        format_ranges(&self.tids)
    }
}

/// A deadlock or livelock: the explanation and every place threads wait.
#[derive(Clone, Debug, PartialEq)]
pub struct Stuck {
    pub explanation: String,
    pub waits: Vec<Wait>,
}

/// One line of device printf output.
#[derive(Clone, Debug, PartialEq)]
pub struct PrintfLine {
    pub step: u64,
    pub block: Dim3,
    pub thread: Dim3,
    pub text: String,
}

/// One issued instruction (a trace line).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Issue {
    /// 1-based: the first instruction issued is step 1.
    pub step: u64,
    pub block: Dim3,
    pub warp: WarpId,
    pub pc: Pc,
    pub line: u32,
    pub mask: LaneMask,
    /// Pre-Volta: SIMT-stack depth when it issued.
    pub stack_depth: Option<u32>,
}

/// A resident block.
#[derive(Clone, Debug)]
pub struct BlockState {
    pub idx: Dim3,
    pub linear: u64,
    pub threads: u32,
    /// Threads rounded up to whole warps: the register file's row length.
    pub stride: usize,
    pub regs: Vec<u64>,
    pub shared: Vec<u8>,
    pub warps: Vec<Warp>,
    /// Per warp: the line and lanes it last issued with (`None` before its first issue), so a breakpoint
    /// stops a warp arriving at a line and not the warp already there. Empty in whole runs (never read).
    pub last_issued: Vec<Option<(u32, LaneMask)>>,
    /// Per warp (ITS): hashes of spin states seen at loop back edges while threads wait to reconverge.
    spin_seen: Vec<Vec<u64>>,
    /// Shared-memory race detection: shadow words, `__syncthreads()` count, `__syncwarp()` count per warp.
    race: RaceShadow,
    barrier_epoch: u32,
    warp_epochs: Vec<u32>,
    /// Reducing barriers (`__syncthreads_count`, ...): (non-zero predicates, arrived threads) of the
    /// barrier the block is gathering at, and of the last one released (what the threads then read).
    barrier_votes: (u32, u32),
    barrier_result: (u32, u32),
}

impl BlockState {
    /// Thread index within the block -> threadIdx.
    pub fn thread_idx(&self, tid: u32, block_dim: Dim3) -> Dim3 {
        Dim3::new(tid % block_dim.x, (tid / block_dim.x) % block_dim.y, tid / (block_dim.x * block_dim.y))
    }

    pub fn reg(&self, r: u32, tid: u32) -> u64 {
        self.regs[r as usize * self.stride + tid as usize]
    }
}

/// The last atomic that changed an address: who holds a lock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AtomicWrite {
    pub block: Dim3,
    pub tid: u32,
    pub line: u32,
    pub step: u64,
}

#[derive(Clone, Copy, Debug)]
struct Recent {
    slot: usize,
    warp: u32,
    pc: Pc,
    mask: LaneMask,
}

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
    recent: VecDeque<Recent>,
    pub last_atomic: HashMap<u64, AtomicWrite>,
    mem_epoch: u64,
    schedule_seed: Option<u64>,
    /// Reused buffer for one instruction's shared-memory accesses (no allocation per step).
    shared_scratch: Vec<(u32, u32)>,
    /// Set in the machines that run a range of blocks of a whole run on several cores (`parallel`).
    par: Option<Box<parallel::ParState>>,
    /// The last [`Machine::run`] ran the blocks on several cores.
    ran_parallel: bool,
    /// Global memory is the launch's own (`GlobalMemory::from_launch`), so a refused parallel run can make
    /// it again; false for a program's launch, whose memory is the program's device heap.
    launch_memory: bool,
    /// A whole run in pieces in progress ([`Machine::start_whole_run`]); never cloned.
    whole: whole_run::Slot,
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
        let layout = SharedLayout::new(&kernel, launch.dynamic_shared);
        let threads = launch.block.count().max(1);
        let total_blocks = launch.grid.count();
        let max_resident = config.max_resident_blocks.unwrap_or((16_384 / threads).max(1) as usize).max(1);
        let warps = total_blocks * launch.warps_per_block();
        let max_steps = config.max_steps.unwrap_or_else(|| kernel_file_step_limit(warps));
        let mut m = Machine {
            kernel,
            file: compiled.source().name.clone(),
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
            metrics: Metrics { warps, ..Default::default() },
            hazards: vec![],
            output: vec![],
            children: vec![],
            outcome: None,
            quiet: 0,
            seen: HashSet::new(),
            recent: VecDeque::with_capacity(512),
            last_atomic: HashMap::new(),
            mem_epoch: 0,
            schedule_seed: config.schedule_seed,
            shared_scratch: Vec::with_capacity(32),
            par: None,
            ran_parallel: false,
            launch_memory: true,
            whole: whole_run::Slot::default(),
        };
        m.dispatch();
        Ok(m)
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
        let layout = SharedLayout::new(&kernel, launch.dynamic_shared);
        let threads = launch.block.count().max(1);
        let total_blocks = launch.grid.count();
        let max_resident = config.max_resident_blocks.unwrap_or((16_384 / threads).max(1) as usize).max(1);
        let warps = total_blocks * launch.warps_per_block();
        let device_bytes = global.allocs.iter().map(|a| a.data.len() as u64).sum();
        let max_steps = config.max_steps.unwrap_or_else(|| program_step_limit(warps, device_bytes));
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
            metrics: Metrics { warps, ..Default::default() },
            hazards: vec![],
            output: vec![],
            children: vec![],
            outcome: None,
            quiet: 0,
            seen: HashSet::new(),
            recent: VecDeque::with_capacity(512),
            last_atomic: HashMap::new(),
            mem_epoch: 0,
            schedule_seed: config.schedule_seed,
            shared_scratch: Vec::with_capacity(32),
            par: None,
            ran_parallel: false,
            launch_memory: false,
            whole: whole_run::Slot::default(),
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
            let threads = self.launch.block.count() as u32;
            let nwarps = threads.div_ceil(32);
            let stride = nwarps as usize * 32;
            // A whole run's blocks reuse the last one's register file (a fresh one of this size is a fresh
            // mapping from the system, and its unmapping stalls every thread). Only the registers some path
            // reads before writing start at zero; the rest keep the last block's values, which no thread
            // reads (`ir::defined`). Its rows after the registers hold the pre-decoded program's constants.
            let mut regs = match self.par.as_mut() {
                Some(p) if p.spare_regs.len() == p.program.rows() * stride => {
                    let mut r = std::mem::take(&mut p.spare_regs);
                    for reg in &p.read_before_written {
                        let row = reg.0 as usize * stride;
                        r[row..row + stride].fill(0);
                    }
                    r
                }
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
            let warps = match self.par.as_mut() {
                Some(p) if p.spare_warps.len() == nwarps as usize => {
                    let mut warps = std::mem::take(&mut p.spare_warps);
                    for (w, warp) in (0..).zip(&mut warps) {
                        warp.reset(WarpId(w), exists(w), self.launch.mode);
                    }
                    warps
                }
                _ => (0..nwarps).map(|w| Warp::new(WarpId(w), exists(w), self.launch.mode)).collect(),
            };
            self.blocks.push(BlockState {
                idx,
                linear,
                threads,
                stride,
                regs,
                shared: vec![0u8; self.layout.bytes as usize],
                last_issued: if self.par.is_some() { vec![] } else { vec![None; nwarps as usize] },
                warps,
                spin_seen: match self.par.as_mut() {
                    Some(p) if p.spare_spin_seen.len() == nwarps as usize => {
                        let mut v = std::mem::take(&mut p.spare_spin_seen);
                        v.iter_mut().for_each(Vec::clear);
                        v
                    }
                    _ => vec![vec![]; nwarps as usize],
                },
                race: RaceShadow::new(self.layout.bytes),
                barrier_epoch: 0,
                warp_epochs: vec![0; nwarps as usize],
                barrier_votes: (0, 0),
                barrier_result: (0, 0),
            });
        }
        // (In place: a whole run dispatches a block per retired one.)
        self.order.clear();
        for (b, bs) in self.blocks.iter().enumerate() {
            self.order.extend((0..bs.warps.len()).map(|w| (b, w)));
        }
    }

    fn progress(&mut self) {
        if let Some(p) = &mut self.par {
            p.progressed = true;
        }
        self.quiet = 0;
        if !self.seen.is_empty() {
            self.seen.clear();
        }
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
        loop {
            let o = self.step(1 << 20);
            if o.is_final() {
                return o;
            }
        }
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
                let warps: u64 = b
                    .warps
                    .iter()
                    .map(|w| {
                        (size_of::<Warp>() + w.model.heap_bytes()) as u64
                    })
                    .sum();
                let spins: usize = b.spin_seen.iter().map(|v| v.capacity() * 8 + 24).sum();
                (size_of::<BlockState>() + b.regs.capacity() * 8 + b.shared.capacity() + spins) as u64
                    + b.race.bytes()
                    + b.warp_epochs.capacity() as u64 * 4
                    + warps
            })
            .sum();
        let metrics = self.metrics.line_instructions.capacity() * 16
            + self.metrics.per_line.len() * (size_of::<super::metrics::LineMetrics>() + 32)
            + self.metrics.banks.per_line.len() * 128;
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
            return Step::Final(explain::deadlock(self));
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
        Step::Issued
    }

    /// Issues the instruction at `pc` for `mask` of warp `w` in block slot `b`: the data path, then every
    /// count an issue makes (steps, metrics, notes, progress). The caller applies the returned effect.
    fn execute_issue(
        &mut self,
        kernel: &Kernel,
        b: usize,
        w: usize,
        pc: Pc,
        mask: LaneMask,
    ) -> Result<Effect, Box<Fault>> {
        let line = kernel.line(pc);
        // Only whole runs on several cores record the global bytes an instruction touches.
        let mut touched = self.par.as_ref().map(|_| exec::Touched::default());
        let (result, notes, wrote) = {
            let block = &mut self.blocks[b];
            let mut ctx = Ctx {
                kernel,
                regs: &mut block.regs,
                stride: block.stride,
                base: w * 32,
                shared: &mut block.shared,
                layout: &self.layout,
                global: &mut self.global,
                block_idx: block.idx,
                block_dim: self.launch.block,
                grid_dim: self.launch.grid,
                wrote: false,
                notes: vec![],
                race: Some(exec::RaceCtx {
                    shadow: &mut block.race,
                    block_epoch: block.barrier_epoch,
                    warp_epochs: &block.warp_epochs,
                    lockstep_warps: self.launch.mode == Mode::PreVolta,
                }),
                pc,
                shared_accesses: std::mem::take(&mut self.shared_scratch),
                par: self.par.as_ref().map(|p| &*p.view),
                touched: touched.as_mut(),
                counters: exec::Counters { clock: self.steps, barrier: block.barrier_result },
            };
            let r = exec::execute(&mut ctx, pc, mask);
            let warp = block.linear * self.launch.warps_per_block() + w as u64;
            self.metrics.banks.record(line, warp, &ctx.shared_accesses);
            ctx.shared_accesses.clear();
            self.shared_scratch = ctx.shared_accesses;
            let (notes, wrote) = (ctx.notes, ctx.wrote);
            if let Some(p) = &mut self.par {
                let write = matches!(kernel.instrs[pc.0 as usize], Instr::Store { .. });
                let ranges = touched.as_ref().map_or(&[][..], |t| t.as_slice());
                p.step(block.linear, block.barrier_epoch, w as u32, ranges, write);
            }
            (r, notes, wrote)
        };
        self.steps += 1;
        let effect = result.map_err(|err| Box::new(self.fault(b, w, pc, err)))?;
        if wrote {
            self.mem_epoch += 1;
            self.progress();
        }
        if !notes.is_empty() {
            self.notes(b, w, pc, line, notes);
        }
        self.metrics.count_instruction(line, mask.count());
        Ok(effect)
    }

    fn retire(&mut self, b: usize) {
        if let Some(p) = &mut self.par {
            p.end_block(self.blocks[b].linear);
        }
        let old = self.blocks.remove(b);
        if let Some(p) = &mut self.par {
            p.spare_regs = old.regs;
            p.spare_warps = old.warps;
            p.spare_spin_seen = old.spin_seen;
        }
        let n_before = self.order.len();
        self.dispatch();
        // Keep the round-robin position roughly where it was.
        if !self.order.is_empty() {
            self.cursor = self.cursor.min(n_before) % self.order.len();
        }
    }

    fn fault(&self, b: usize, w: usize, pc: Pc, err: ExecError) -> Fault {
        let block = &self.blocks[b];
        let lane = match &err {
            ExecError::Memory { lane, .. } | ExecError::DivideByZero { lane } | ExecError::Assert { lane, .. } => *lane,
        };
        let tid = w as u32 * 32 + lane;
        let site = FaultSite {
            kernel: &self.kernel.name,
            file: &self.file,
            line: self.kernel.line(pc),
            pc,
            block: block.idx,
            thread: block.thread_idx(tid, self.launch.block),
        };
        match err {
            ExecError::Memory { access, size, addr, err, .. } => fault::memory(&site, access, size, addr, &err),
            ExecError::DivideByZero { .. } => fault::division_by_zero(&site),
            ExecError::Assert { text, .. } => {
                // CUDA names the kernel by its signature (`void guarded(int *, int)`).
                let params: Vec<String> = self.kernel.params.iter().map(|p| p.ty.to_string()).collect();
                let signature = format!("void {}({})", self.kernel.name, params.join(", "));
                fault::assertion(&FaultSite { kernel: &signature, ..site }, &self.kernel.strings[text as usize])
            }
        }
    }

    fn notes(&mut self, b: usize, w: usize, pc: Pc, line: u32, notes: Vec<Note>) {
        let (idx, block_dim, linear) = (self.blocks[b].idx, self.launch.block, self.blocks[b].linear);
        for n in notes {
            match n {
                Note::Printf { lane, text } => {
                    let thread = self.blocks[b].thread_idx(w as u32 * 32 + lane, block_dim);
                    self.output.push(PrintfLine { step: self.steps, block: idx, thread, text });
                }
                Note::Launch { lane, kernel, config, args } => {
                    let tid = w as u32 * 32 + lane;
                    self.children.push(ChildLaunch {
                        kernel: self.kernel.strings[kernel as usize].clone(),
                        grid: [config[0], config[1], config[2]],
                        block: [config[3], config[4], config[5]],
                        shared: config[6],
                        args,
                        line,
                        order: (linear, tid),
                    });
                }
                Note::AtomicWrite { lane, addr } => {
                    let tid = w as u32 * 32 + lane;
                    self.last_atomic.insert(addr, AtomicWrite { block: idx, tid, line, step: self.steps });
                }
                Note::ShuffleInactive { lane, src } => self.hazard(HazardKind::ShuffleInactiveLane, line, (linear, w as u32 * 32 + lane), || {
                    format!(
                        "shuffle on line {line}: lane {lane} of warp {w} in block {idx} read lane {src}, which was not \
                         executing the shuffle; its value is undefined"
                    )
                }),
                Note::UninitRead { lane, addr } => self.uninit_read(line, linear, w as u32 * 32 + lane, addr, 1),
                Note::SharedRace(r) => {
                    let msg = explain::shared_race(self, &r);
                    self.hazard(HazardKind::SharedRace, line, (linear, w as u32 * 32), || msg);
                }
                Note::SyncMaskInactive { named, active } => self.hazard(HazardKind::SyncMaskInactive, line, (linear, w as u32 * 32), || {
                    format!(
                        "`_sync` intrinsic on line {line}: its mask {named} names lanes that were not executing it \
                         (active {active}) in warp {w} of block {idx}: undefined behaviour"
                    )
                }),
            }
        }
        let _ = pc;
    }

    /// A group at a `_sync` intrinsic whose mask names live lanes not in the group waits for them (ITS).
    /// Returns true when the group waited (nothing issued).
    fn warp_sync_wait(&mut self, b: usize, w: usize, pc: Pc, mask: LaneMask, instr: &Instr) -> bool {
        let mask_op = match instr {
            Instr::SyncWarp { mask } | Instr::Shfl { mask, .. } | Instr::Vote { mask, .. } => *mask,
            _ => return false,
        };
        let block = &mut self.blocks[b];
        // Each lane's own mask: the lanes of a warp's tiles each name their tile.
        let mut named = [LaneMask::EMPTY; 32];
        for l in mask.iter() {
            named[l as usize] = LaneMask(match mask_op {
                crate::ir::Operand::Imm(v) => v as u32,
                crate::ir::Operand::Reg(r) => block.reg(r.0, w as u32 * 32 + l) as u32,
            });
        }
        let warp = &mut block.warps[w];
        if !warp.model.warp_sync_arrive(&self.kernel, warp.live, pc, mask, &named) {
            return false;
        }
        self.progress();
        true
    }

    fn apply(&mut self, b: usize, w: usize, pc: Pc, mask: LaneMask, effect: Effect) {
        let line = self.kernel.line(pc);
        if let Effect::Branch { taken, site, .. } = effect {
            if !taken.is_empty() && taken != mask {
                self.blocks[b].warps[w].diverge(&mut self.metrics, pc, mask, effect, self.steps);
                return;
            }
            if site.counted {
                self.metrics.count_branch(site.line, false);
            }
        }
        if effect == Effect::SyncThreads
            && let Instr::SyncThreads { pred: Some(p) } = self.kernel.instrs[pc.0 as usize]
        {
            self.barrier_vote(b, w, mask, p);
        }
        let idx = self.blocks[b].idx;
        let warp = &mut self.blocks[b].warps[w];
        if effect == Effect::Exit {
            warp.exited_at.record(mask, pc);
        }
        let applied = warp.model.apply(effect, pc, mask, warp.live);
        if matches!(effect, Effect::Branch { .. }) {
            self.metrics.note_stack_depth(warp.model.depth());
        }
        let mut barrier = applied.at_barrier;
        let hazard = applied.hazard.map(|h| match h {
            ModelHazard::DivergentBarrier { pending } => {
                let msg = explain::divergent_barrier(&self.kernel, idx, w as u32, line, mask, &pending);
                (HazardKind::DivergentBarrier, msg)
            }
            ModelHazard::DivergentSyncwarp { named } => {
                let msg = format!(
                    "__syncwarp({named}) on line {line} in warp {w} of block {idx} was executed by lanes {} \
                     only; on pre-Volta GPUs the named lanes must execute it together",
                    format_ranges(&mask.iter().collect::<Vec<_>>())
                );
                (HazardKind::DivergentSyncwarp, msg)
            }
        });
        if matches!(effect, Effect::SyncWarp(_)) {
            self.blocks[b].warp_epochs[w] += 1;
        }
        if applied.exited {
            let warp = &mut self.blocks[b].warps[w];
            warp.live = warp.live.minus(mask);
            self.progress();
            let warp = &mut self.blocks[b].warps[w];
            warp.model.release_warp_syncs(&self.kernel, warp.live);
            barrier = true;
        }
        if let Some((kind, msg)) = hazard {
            let who = (self.blocks[b].linear, w as u32 * 32);
            self.hazard(kind, line, who, || msg);
        }
        if barrier {
            self.check_barrier(b);
        }
        if let Some(t) = applied.spin_at {
            self.spin_check(b, w, t, mask);
        }
    }

    /// Releases `__syncthreads()` when every live thread of the block waits there. Pre-Volta: per warp (a
    /// warp that arrived counts whole). ITS: per thread, and each warp's waiting threads must stand at one
    /// barrier instruction (`__syncthreads` compiles to `WARPSYNC.ALL; BAR.SYNC`).
    fn check_barrier(&mut self, b: usize) {
        let block = &mut self.blocks[b];
        // Every warp has arrived (one mask test each: this runs at every arrival).
        let arrived = |w: &Warp| w.done() || w.model.barrier_arrived(w.live);
        if !block.warps.iter().all(arrived) || block.warps.iter().all(Warp::done) {
            return;
        }
        block.barrier_epoch += 1;
        block.barrier_result = std::mem::take(&mut block.barrier_votes);
        for w in &mut block.warps {
            w.model.release_barrier();
        }
        self.progress();
    }

    /// The lanes `mask` of warp `w` arrive at a reducing barrier with predicate `p`: they count towards the
    /// block's result (a pre-Volta warp arrives whole, but only the lanes that executed it have a predicate).
    fn barrier_vote(&mut self, b: usize, w: usize, mask: LaneMask, p: crate::ir::Operand) {
        let block = &mut self.blocks[b];
        for l in mask.iter() {
            let v = match p {
                crate::ir::Operand::Imm(v) => v,
                crate::ir::Operand::Reg(r) => block.reg(r.0, w as u32 * 32 + l),
            };
            block.barrier_votes.0 += (v != 0) as u32;
            block.barrier_votes.1 += 1;
        }
    }

    /// ITS forward progress: at a loop back edge taken while other threads of the warp wait to reconverge,
    /// a state this group has been in before (same PC, registers and memory) means it spins waiting for them:
    /// release the waiters.
    fn spin_check(&mut self, b: usize, w: usize, pc: Pc, mask: LaneMask) {
        let block = &mut self.blocks[b];
        let converging = block.warps[w].model.waiting_to_reconverge();
        if converging.is_empty() {
            block.spin_seen[w].clear();
            return;
        }
        // The state hashed includes a machine-wide memory counter: a result that depends on other blocks.
        if let Some(p) = &mut self.par {
            p.order_sensitive = true;
        }
        let mut h = state_hasher();
        (pc, mask, converging, self.mem_epoch).hash(&mut h);
        for r in 0..self.kernel.regs.len() {
            for l in mask.iter() {
                block.regs[r * block.stride + w * 32 + l as usize].hash(&mut h);
            }
        }
        let key = h.finish();
        let seen = &mut block.spin_seen[w];
        if seen.contains(&key) {
            seen.clear();
            if !block.warps[w].model.release_waiters(mask).is_empty() {
                self.progress();
            }
        } else {
            if seen.len() >= 4096 {
                seen.clear();
            }
            seen.push(key);
        }
    }

    /// Whole-machine livelock: after a long quiet stretch, a repeated state means the machine loops forever.
    fn watch_livelock(&mut self) -> Option<Outcome> {
        self.quiet += 1;
        if self.quiet < QUIET_BEFORE_HASHING || !self.quiet.is_multiple_of(HASH_EVERY) {
            return None;
        }
        // A large machine's registers (32 blocks of 1024 threads: 10 MB) are hashed less often, so that hashing
        // stays a small share of a long quiet stretch (a tiled matrix product's inner loop): every 1024 steps
        // up to 16K registers, then every step per 16 registers. A repeated state is still found, later.
        let regs: usize = self.blocks.iter().map(|b| b.regs.len()).sum();
        if !self.quiet.is_multiple_of((regs as u64 / 16).next_power_of_two().max(HASH_EVERY)) {
            return None;
        }
        let mut h = state_hasher();
        // Memory did not change during the quiet stretch, so warps, registers and the scheduler position
        // are the whole state.
        (self.cursor % self.order.len().max(1)).hash(&mut h);
        for block in &self.blocks {
            for w in &block.warps {
                // Not the statistics: they grow every step.
                (w.live, &w.model).hash(&mut h);
            }
            block.regs.hash(&mut h);
        }
        let key = h.finish();
        if !self.seen.insert(key) {
            return Some(explain::livelock(self));
        }
        if self.seen.len() > 1 << 16 {
            self.seen.clear();
        }
        None
    }

    /// Issues recorded most recently (for explanations): (block slot, warp, pc, mask).
    pub(super) fn recent(&self) -> impl Iterator<Item = (usize, u32, Pc, LaneMask)> + '_ {
        self.recent.iter().map(|r| (r.slot, r.warp, r.pc, r.mask))
    }
}

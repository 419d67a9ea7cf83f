//! Whole runs on several cores: `Machine::run` on a fresh launch runs the blocks independently, in contiguous
//! ranges on rayon's threads, and keeps the result only when it is provably the one the sequential scheduler
//! gives. Otherwise global memory is put back (a kernel file's launch makes it again: a fresh machine's memory
//! is exactly what `GlobalMemory::from_launch` makes, and only issued instructions change it; a program's
//! launch, whose memory the host made, puts back the pages the run changed, saved as they were before:
//! `shared_global.rs`) and the launch runs sequentially
//! from the start. Single-stepping (`step`, `step_traced`: the TUI, `trace`) never comes here.
//!
//! The rule (conservative; every check that fails means "run sequentially"):
//! - before: a fresh machine (no step taken), round-robin schedule (no `--schedule-seed`), at least one
//!   block (one block alone runs here too: its warps go together or one at a time, far faster than one
//!   instruction per scheduler step, as a course's `vadd<<<1, 1>>>` over 2^25 elements needs), and a kernel
//!   without `printf` (its lines carry the global step), `clock()` (the global step too), reducing barriers,
//!   and atomics other than those whose order cannot show (`sim::commute`: the result unused, an operation
//!   whose final value is the same in any order);
//! - the bytes such commuting atomics update are touched by nothing else meanwhile: by no other warp of the
//!   block in the same barrier interval, and, in global memory, by no plain access of any block, nor by
//!   commuting atomics of another kind; their floating-point sums are exact in any order (`ExactSums`);
//!   global ones are one read-modify-write on the host too (`SharedGlobal::update`), since blocks on other
//!   cores update the same bytes;
//! - every block completes on its own: no fault, deadlock, livelock or step limit in any block, no hazard
//!   other than uninitialised reads and, in kernels without warp-level synchronisation, races between an ITS
//!   warp's own threads (both counted and described by their lowest-numbered thread or warp, below), and no
//!   ITS spin detection with waiting threads (it hashes a machine-wide memory counter);
//! - in a program, a read of a byte that neither the host nor a store of the run wrote is an uninitialised read
//!   in the sequential run too (see `RawAlloc::init`: a byte written by another block is a conflict, and one
//!   written by another warp of the block a conflict within an interval), so it is reported as that run
//!   reports it: counted, and described by its lowest-numbered thread (`Hazard::who`), which does not depend
//!   on order;
//! - no two blocks touch the same global bytes unless both only read them (each block's accessed ranges, per
//!   warp instruction, are compared after the run): blocks then cannot see each other;
//! - inside a block, between two releases of `__syncthreads()`, no two warps touch the same global or shared
//!   bytes unless both only read them: the order in which a block's warps interleave (which the sequential
//!   scheduler decides from all resident blocks) then cannot change what any thread reads, nor can any race
//!   between warps exist, so a block's warps at the same instruction issue it together (`gang.rs`) and the
//!   others run one at a time (`warp_run.rs`). The race shadow still runs, for races between an ITS warp's
//!   own threads (warp-synchronous code without `__syncwarp`), which depend on that warp alone: no other warp
//!   touches bytes it writes within the interval, so the sequential run finds the same races in each warp,
//!   and the record (count, and the lowest-numbered warp's first race at the line) is the same; bank-conflict counts are sums, and their samples are
//!   defined by warp numbers, not time (`BankLine::sample`);
//! - the steps of all blocks add up to no more than the step limit;
//! - no warp goes more than a million steps of one barrier interval without progress (almost surely a
//!   livelock: the sequential run finds and explains it).
//!
//! The livelock detector of the sequential run needs no rule: it reports a livelock only when a state (the
//! scheduler's position, every warp, every register; memory cannot change in a quiet stretch) comes back, and
//! from a state that comes back the deterministic scheduler loops forever, issuing instructions no thread
//! of a completed whole run issued. (The issues it records from the middle of a quiet stretch on only explain
//! a livelock; a completed run never shows them.)
//!
//! The blocks run a copy of the kernel whose registers share rows where their values are never needed at
//! once (`ir::pack`): per thread the same values, in a register file that stays in cache.
//!
//! Under these conditions each thread executes the same instructions on the same values as in the sequential
//! run, so final memory, every counter and the outcome (completed) are the same; counters are sums (or
//! maxima) over blocks. Steps are issued instructions, so their total is the same too.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use super::conflicts::{blocks_conflict, commutes_conflict};
use super::par_state::{ParState, WarpStop};
use super::template::{Template, threads};
use super::{HazardKind, Machine, Outcome};
use crate::ir::Instr;
use crate::sim::commute;
use crate::sim::decoded::Program;
use crate::sim::lane_bits::DataPath;
use crate::sim::memory::GlobalMemory;
use crate::sim::metrics::Metrics;
use crate::sim::shared_global::{SharedGlobal, Undo};
use crate::sim::traffic::Traffic;

impl Machine {
    /// What puts global memory back as it was before a whole run, should a rule fail ([`Undo::point`]).
    pub(super) fn undo_point(&self) -> Undo {
        Undo::point(&self.global, self.launch_memory)
    }

    /// Puts global memory back (no view of it may be left).
    pub(super) fn undo(&mut self, undo: Undo) {
        undo.restore(&mut self.global, &self.launch);
    }
}

impl Machine {
    /// Can this run use several cores at all (see the module's rule)?
    pub(super) fn parallel_eligible(&self) -> bool {
        // Without threads (the web build) the block ranges run one after another on the one core: the rule
        // and the result are the same, and running a block alone is several times faster than stepping.
        self.outcome.is_none()
            && self.steps == 0
            && self.schedule_seed.is_none()
            && self.total_blocks > 0
            && !self.kernel.instrs.iter().any(|i| {
                // (A counter's value depends on the whole machine: its steps, the block's barrier votes.)
                matches!(
                    i,
                    Instr::Printf { .. }
                        | Instr::Launch { .. }
                        | Instr::ReadCounter { .. }
                        | Instr::SyncThreads { pred: Some(_), .. }
                        | Instr::SyncThreads { grid: true, .. }
                )
            })
    }

    /// What every block range's machine starts from; None when an atomic's order could show (the rest of the
    /// module's rule is [`Machine::parallel_eligible`]'s).
    pub(super) fn template(&self) -> Option<Template> {
        let kinds = commute::access_kinds(&self.kernel);
        if !commute::all_atomics_commute(&kinds, &self.kernel) {
            return None;
        }
        let kernel = crate::ir::pack::pack_registers(&self.kernel);
        let program = Arc::new(Program::decode(&kernel));
        Some(Template {
            kinds: Arc::new(kinds),
            read_before_written: Arc::new(crate::ir::defined::read_before_written(&kernel)),
            jit: crate::sim::jit::Cache::new(program.clone(), self.tuning.device_jit).map(Arc::new),
            program,
            kernel: Arc::new(kernel),
            launch: self.launch.clone(),
            layout: self.layout.clone(),
            params: self.params.clone(),
            max_steps: self.max_steps,
            tuning: self.tuning,
        })
    }

    /// A machine that runs blocks `first..end` one at a time on `view`.
    pub(super) fn sub_machine(t: &Template, first: u64, end: u64, view: Arc<SharedGlobal>) -> Machine {
        let mut m = Machine {
            kernel: t.kernel.clone(),
            launch: t.launch.clone(),
            file: String::new(),
            global: GlobalMemory::default(),
            layout: t.layout.clone(),
            params: t.params.clone(),
            blocks: vec![],
            next_block: first,
            total_blocks: end,
            max_resident: 1,
            order: vec![],
            cursor: 0,
            steps: 0,
            max_steps: t.max_steps,
            // Each range's reads of `__constant__` variables are counted apart, as the whole launch's are.
            metrics: Metrics {
                traffic: Traffic::for_launch(&t.kernel, &t.params, t.launch.grid.count() * t.launch.block.count()),
                ..Default::default()
            },
            hazards: vec![],
            output: vec![],
            children: vec![],
            outcome: None,
            quiet: 0,
            seen: Default::default(),
            unseen: 0,
            recent: VecDeque::new(),
            last_atomic: Default::default(),
            mem_epoch: 0,
            schedule_seed: None,
            tuning: t.tuning,
            path: DataPath::new(t.tuning.portable),
            shared_scratch: Vec::with_capacity(32),
            par: Some(Box::new(ParState::new(view, t))),
            ran_parallel: false,
            launch_memory: true,
            whole: Default::default(),
            group: Default::default(),
            grid_capacity: None,
            // (Kernels that read the clock never run here.)
            spins: Default::default(),
        };
        m.dispatch();
        m
    }

    /// Runs this sub-machine's blocks one after another, each warp of a block as far as it can go before the
    /// next (the order inside a barrier interval does not matter: see the module's rule). False as soon as
    /// the result could differ from the sequential run's or another range failed (`abort`).
    pub(super) fn run_blocks_alone(&mut self, abort: &AtomicBool) -> bool {
        let kernel = self.kernel.clone();
        // Cloned once here: a clone per warp run is two atomic operations on a count every core shares.
        let Some((view, program)) = self.par.as_ref().map(|p| (p.view.clone(), p.program.clone())) else {
            return false;
        };
        while !self.blocks.is_empty() {
            if abort.load(Ordering::Relaxed) {
                return false;
            }
            let warps = self.blocks[0].warps.len();
            let mut fresh = true;
            'block: loop {
                // Warps at the same instruction issue together (`gang.rs`); warps that cannot (ITS warps whose
                // threads went different ways, `_sync` intrinsics) run alone until they could again.
                let before = self.steps;
                let stop = self.run_groups(&kernel, &program, &view, fresh);
                fresh = false;
                match stop {
                    WarpStop::Refused => return false,
                    WarpStop::BlockDone => break 'block,
                    WarpStop::Waits => {}
                }
                let mut issued = self.steps > before;
                for w in 0..warps {
                    let warp = &mut self.blocks[0].warps[w];
                    if warp.candidate().is_none_or(|(pc, _)| warp.model.may_join_group(&kernel, pc)) {
                        continue;
                    }
                    let before = self.steps;
                    match self.run_warp(&kernel, &program, &view, w) {
                        WarpStop::Refused => return false,
                        WarpStop::BlockDone => break 'block,
                        // A `_sync` wait issues nothing but changes state (a release may follow).
                        WarpStop::Waits => issued |= self.steps > before,
                    }
                }
                // Nothing could issue: a deadlock, which the sequential run reports.
                if !issued {
                    return false;
                }
            }
        }
        if let Some(p) = self.par.as_mut() {
            p.fold_stretches(&kernel, &mut self.metrics);
        }
        // The last barrier interval is checked when its block ends.
        self.par.as_ref().is_some_and(|p| !p.order_sensitive) && self.hazards.is_empty()
    }

    /// Runs the whole launch on several cores when that gives the sequential result (module docs); returns
    /// None, with the machine untouched, when it must run sequentially.
    pub(super) fn run_parallel(&mut self) -> Option<Outcome> {
        if !self.parallel_eligible() {
            return None;
        }
        let template = self.template()?;
        let undo = self.undo_point();
        let view = Arc::new(SharedGlobal::new(&mut self.global, &undo)?);
        let total = self.total_blocks;
        let chunks = (threads() as u64 * 8).min(total).max(1);
        let per = total.div_ceil(chunks);
        let abort = AtomicBool::new(false);
        // Each range's traffic joins this one as the range ends (merging is order-free), so that at most one
        // line map per core is alive besides it: a strided kernel touches every chunk of the map in every
        // range, and sixteen full maps of a 3 GiB launch were 6 GB.
        let traffic = std::sync::Mutex::new(Traffic::default());
        let results: Vec<Option<Machine>> = map_on_threads(total.div_ceil(per), |c| {
            let (first, end) = (c * per, ((c + 1) * per).min(total));
            if abort.load(Ordering::Relaxed) {
                return None;
            }
            let mut m = Machine::sub_machine(&template, first, end, view.clone());
            if !m.run_blocks_alone(&abort) {
                abort.store(true, Ordering::Relaxed);
                return None;
            }
            let mine = std::mem::take(&mut m.metrics.traffic);
            traffic.lock().unwrap_or_else(|e| e.into_inner()).merge(&mine);
            Some(m)
        });
        let traffic = traffic.into_inner().unwrap_or_else(|e| e.into_inner());
        let merged = self.merge(results, traffic);
        if merged.is_none() {
            // Every block range has finished with the view; the memory they changed is put back.
            drop(view);
            self.undo(undo);
        }
        merged
    }

    /// Takes over the blocks' results (`traffic`: all of theirs, merged as they ended), or None when any rule
    /// fails.
    pub(super) fn merge(&mut self, results: Vec<Option<Machine>>, traffic: Traffic) -> Option<Outcome> {
        let mut steps = 0u64;
        let (mut writes, mut reads, mut commutes) = (vec![], vec![], vec![]);
        let mut metrics = Metrics { warps: self.metrics.warps, ..Default::default() };
        let mut mem_epoch = 0;
        for r in &results {
            let Some(m) = r.as_ref() else {
                if self.tuning.explain_refusals {
                    eprintln!("parallel: a block range failed");
                }
                return None;
            };
            let p = m.par.as_ref()?;
            steps += m.steps;
            mem_epoch += m.mem_epoch;
            writes.extend_from_slice(&p.done_writes);
            reads.extend_from_slice(&p.done_reads);
            commutes.extend_from_slice(&p.commutes);
            add_metrics(&mut metrics, &m.metrics);
        }
        if steps > self.max_steps || blocks_conflict(&mut writes, &reads) {
            return None;
        }
        // (Writes are sorted now; commuting atomics' sums must be exact.)
        let exact = results.iter().flatten().next().and_then(|m| m.par.as_ref()).is_none_or(|p| p.view.sums_exact());
        if !exact || commutes_conflict(&mut commutes, &writes, &reads) {
            return None;
        }
        if self.warp_races_unsure(&results) {
            return None;
        }
        // (What the blocks wrote is marked initialised: their stores marked it, as when run sequentially.)
        for m in results.iter().flatten() {
            for u in m.par.as_ref().map_or(&[][..], |p| &p.uninit[..]) {
                match u.race {
                    Some(r) => {
                        self.hazards_seen(HazardKind::SharedRace, u.line, u.count, u.who, |m| m.shared_race_text(&r))
                    }
                    None => self.uninit_read(u.line, u.who.0, u.who.1, u.addr, u.count),
                }
            }
        }
        self.steps = steps;
        self.mem_epoch = mem_epoch;
        metrics.traffic = traffic;
        self.metrics = metrics;
        self.blocks.clear();
        self.order.clear();
        self.cursor = 0;
        self.next_block = self.total_blocks;
        self.progress();
        self.outcome = Some(Outcome::Completed);
        self.ran_parallel = true;
        Some(Outcome::Completed)
    }
}

impl Machine {
    /// Whether the blocks found races between a warp's own threads in a kernel with warp-level
    /// synchronisation (`__syncwarp`, `_sync` intrinsics, `__activemask`): where lanes wait at one, the whole
    /// run may let the warp's thread groups go on in another order than the scheduler does, which only a race
    /// can show (`tests/conformance/syncwarp_sides.cu` reads the other side's value after its own
    /// `__syncwarp`), so such a run is not kept. Warp-synchronous reductions without `__syncwarp` are kept.
    fn warp_races_unsure(&self, results: &[Option<Machine>]) -> bool {
        let races =
            results.iter().flatten().any(|m| m.par.as_ref().is_some_and(|p| p.uninit.iter().any(|u| u.race.is_some())));
        let unsure = races
            && self.kernel.instrs.iter().any(|i| {
                matches!(i, Instr::SyncWarp { .. } | Instr::Shfl { .. } | Instr::Vote { .. } | Instr::ActiveMask { .. })
            });
        if unsure && self.tuning.explain_refusals {
            eprintln!("parallel: races between a warp's threads in a kernel with warp-level synchronisation");
        }
        unsure
    }
}

/// `f` of `0..n`, in order, computed on rayon's threads (one after another without the `parallel` feature).
fn map_on_threads<T: Send>(n: u64, f: impl Fn(u64) -> T + Sync + Send) -> Vec<T> {
    #[cfg(feature = "parallel")]
    return (0..n).into_par_iter().map(f).collect();
    #[cfg(not(feature = "parallel"))]
    (0..n).map(f).collect()
}

/// `into += from`: counts add up, maxima take the larger.
fn add_metrics(into: &mut Metrics, from: &Metrics) {
    into.warp_instructions += from.warp_instructions;
    into.thread_instructions += from.thread_instructions;
    into.branches += from.branches;
    into.divergent_branches += from.divergent_branches;
    into.divergent_warps += from.divergent_warps;
    into.max_stack_depth = into.max_stack_depth.max(from.max_stack_depth);
    for (line, l) in &from.per_line {
        let e = into.line(*line);
        e.branches += l.branches;
        e.divergent_branches += l.divergent_branches;
        e.divergent_warps += l.divergent_warps;
        e.warp_instructions += l.warp_instructions;
        e.thread_instructions += l.thread_instructions;
    }
    if into.line_instructions.len() < from.line_instructions.len() {
        into.line_instructions.resize(from.line_instructions.len(), [0, 0]);
    }
    for (a, b) in into.line_instructions.iter_mut().zip(&from.line_instructions) {
        a[0] += b[0];
        a[1] += b[1];
    }
    into.banks.merge(&from.banks);
    into.traffic.merge(&from.traffic);
}

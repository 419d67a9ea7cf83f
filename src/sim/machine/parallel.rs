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
//! - every block completes on its own: no fault, deadlock, livelock or step limit in any block, no hazard of
//!   any kind, and no ITS spin detection with waiting threads (it hashes a machine-wide memory counter);
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
//!   own threads, which don't depend on other warps; bank-conflict counts are sums, and their samples are
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

use super::BlockState;
use super::conflicts::{
    Access, Hulls, blocks_conflict, commutes_conflict, merge_commutes, merge_per_warp, warps_apart, writes_apart,
};
use super::template::{Template, threads};
use super::{Machine, Outcome};
use crate::ir::{Instr, Kernel, Pc, Reg};
use crate::sim::commute::{self, AccessKind, WRITE};
use crate::sim::decoded::Program;
use crate::sim::exec::{Note, SHARED_TOUCH};
use crate::sim::lane_bits::DataPath;
use crate::sim::memory::GlobalMemory;
use crate::sim::metrics::Metrics;
use crate::sim::shared_global::{SharedGlobal, Undo};
use crate::sim::traffic::Traffic;

/// Why a warp's run stopped (`warp_run.rs`, `gang.rs`).
pub(super) enum WarpStop {
    /// The warp cannot issue (waiting at a barrier, or finished while others go on).
    Waits,
    /// Its block finished and was retired.
    BlockDone,
    /// The result could differ from the sequential run's (a fault, a hazard, the step limit, a long run
    /// without progress, or an order-sensitive access): run the launch sequentially.
    Refused,
}

/// One warp's steps without progress in a barrier interval: since its last progress, and the longest run.
#[derive(Clone, Copy, Default)]
pub(super) struct Quiet {
    pub(super) run: u64,
}

impl Quiet {
    #[inline(always)]
    pub(super) fn step(&mut self, progressed: bool) {
        if progressed {
            self.run = 0;
        } else {
            self.run += 1;
        }
    }

    /// `n` steps without progress; returns the run since the last progress.
    #[inline(always)]
    pub(super) fn idle(&mut self, n: u64) -> u64 {
        self.run += n;
        self.run
    }
}

/// What one block range's run found; lives in its machine.
#[derive(Clone)]
pub(crate) struct ParState {
    pub(super) view: Arc<SharedGlobal>,
    /// Accesses of the running block's current barrier interval.
    interval: Vec<Access>,
    /// (block, barrier epoch) of that interval.
    key: (u64, u32),
    /// Per warp of the running block in this interval: steps since its last step that made progress.
    run: Vec<u64>,
    /// The current step made progress (`Machine::progress`).
    pub(super) progressed: bool,
    /// The running block's global reads and writes.
    reads: Vec<(u64, u64)>,
    writes: Vec<(u64, u64)>,
    /// Finished blocks' reads and writes: (lo, hi, block).
    done_reads: Vec<(u64, u64, u64)>,
    done_writes: Vec<(u64, u64, u64)>,
    /// Global bytes commuting atomics updated, of any block: (lo, hi, kind).
    commutes: Vec<(u64, u64, AccessKind)>,
    /// Per instruction, the kind of its accesses (`sim::commute::access_kinds`).
    pub(super) kinds: Arc<Vec<AccessKind>>,
    /// Something makes the result depend on the order of execution.
    pub(super) order_sensitive: bool,
    /// The retired block, whose buffers the next block starts over in (`Machine::reused_block`).
    pub(super) spare: Option<BlockState>,
    /// Scratch space of `end_interval`.
    hulls: Hulls,
    /// The registers a thread may read before writing them (`ir::defined`): the only rows of a reused
    /// register file that must be cleared.
    pub(super) read_before_written: Arc<Vec<Reg>>,
    /// The kernel, pre-decoded: register files have its constants' rows after the registers.
    pub(super) program: Arc<Program>,
    /// Issues and threads of straight stretches (`Program::straight`) as differences: a stretch over
    /// instructions `a..b` adds at `a` and takes off at `b`, so it costs two updates whatever its length;
    /// the running sums are the per-instruction counts (`fold_stretches`).
    stretches: Vec<[i64; 2]>,
    /// Per warp, the indices in `interval` of its last accesses of distinct ranges, latest first
    /// (`usize::MAX`: none yet).
    last_of_warp: Vec<[usize; RECENT]>,
    /// Per warp, the index in `reads` and in `writes` of the range its last access in this block joined.
    block_last_of_warp: Vec<[usize; 2]>,
    /// Reads of bytes nothing wrote, per line (the sequential run's hazards, merged after the run).
    pub(super) uninit: Vec<UninitSeen>,
}

/// The uninitialised reads of one line in a block range: how many, and the lowest-numbered thread's.
#[derive(Clone, Copy, Debug)]
pub(super) struct UninitSeen {
    pub line: u32,
    pub count: u64,
    /// (block's linear index, thread's index in its block)
    pub who: (u64, u32),
    pub addr: u64,
}

/// Notes an issue on the general path made in a whole run: uninitialised reads join `uninit` (the warp is
/// `warp` numbered across the launch, `per_block` warps to a block); any other note is a hazard that makes
/// the run refuse (false).
pub(super) fn keep_uninit_reads(
    notes: &mut Vec<Note>,
    uninit: &mut Vec<UninitSeen>,
    line: u32,
    warp: u64,
    per_block: u64,
) -> bool {
    for n in notes.drain(..) {
        let Note::UninitRead { lane, addr } = n else { return false };
        let who = (warp / per_block, (warp % per_block) as u32 * 32 + lane);
        match uninit.iter_mut().find(|u| u.line == line) {
            Some(u) => {
                if super::hazards::count_lowest(&mut u.count, &mut u.who, 1, who) {
                    u.addr = addr;
                }
            }
            None => uninit.push(UninitSeen { line, count: 1, who, addr }),
        }
    }
    true
}

/// Accesses of one barrier interval of one block kept before they are compacted (each warp's reads and its
/// writes merged: all the check needs); still more than half as many after that: run sequentially.
const MAX_INTERVAL_ACCESSES: usize = 1 << 18;

/// How many of a warp's latest ranges its next access may continue: a loop streams through a few arrays at
/// once (`c[i] = a[i] + b[i]` is three), so its accesses alternate between that many growing ranges.
const RECENT: usize = 4;

impl ParState {
    fn new(view: Arc<SharedGlobal>, t: &Template) -> Self {
        ParState {
            view,
            interval: vec![],
            key: (u64::MAX, 0),
            run: vec![],
            progressed: false,
            reads: vec![],
            writes: vec![],
            done_reads: vec![],
            done_writes: vec![],
            commutes: vec![],
            kinds: t.kinds.clone(),
            order_sensitive: false,
            spare: None,
            hulls: Hulls::default(),
            read_before_written: t.read_before_written.clone(),
            program: t.program.clone(),
            stretches: vec![[0, 0]; t.kernel.instrs.len() + 1],
            last_of_warp: vec![],
            block_last_of_warp: vec![],
            uninit: vec![],
        }
    }

    /// Instructions `from..to` each issued `issues` times with `threads` threads in all (one straight stretch
    /// of one warp or of a group of warps).
    #[inline(always)]
    pub(super) fn count_stretch(&mut self, from: Pc, to: Pc, issues: u64, threads: u64) {
        let (i, t) = (issues as i64, threads as i64);
        let a = &mut self.stretches[from.0 as usize];
        a[0] += i;
        a[1] += t;
        let z = &mut self.stretches[to.0 as usize];
        z[0] -= i;
        z[1] -= t;
    }

    /// Adds the stretches' counts to `metrics`' per-line counts, and forgets them.
    pub(super) fn fold_stretches(&mut self, kernel: &Kernel, metrics: &mut Metrics) {
        let mut sum = [0i64; 2];
        for (pc, d) in self.stretches.iter_mut().enumerate() {
            sum = [sum[0] + d[0], sum[1] + d[1]];
            *d = [0, 0];
            if sum[0] != 0 {
                metrics.add_line(kernel.line(Pc(pc as u32)), sum[0] as u64, sum[1] as u64);
            }
        }
    }

    /// One issued instruction of warp `warp` of block `block` in barrier interval `epoch`, which accessed the
    /// global byte ranges `touched`.
    #[inline]
    pub(super) fn step(&mut self, block: u64, epoch: u32, warp: u32, touched: &[(u64, u64)], kind: AccessKind) {
        self.enter(block, epoch);
        self.progressed = false;
        self.record(warp, touched, kind);
    }

    /// The next steps are of block `block` in barrier interval `epoch`.
    #[inline]
    pub(super) fn enter(&mut self, block: u64, epoch: u32) {
        if self.key != (block, epoch) {
            self.end_interval();
            self.key = (block, epoch);
        }
    }

    /// Warp `warp`'s step in the current interval accessed the global byte ranges `touched`.
    #[inline(always)]
    pub(super) fn record(&mut self, warp: u32, touched: &[(u64, u64)], kind: AccessKind) {
        for &(lo, hi) in touched {
            self.record_one(Access { warp, kind, lo, hi });
        }
    }

    #[inline(always)]
    fn record_one(&mut self, a: Access) {
        if self.interval.len() >= MAX_INTERVAL_ACCESSES {
            merge_per_warp(&mut self.interval);
            self.last_of_warp.iter_mut().for_each(|l| *l = [usize::MAX; RECENT]);
            if self.interval.len() >= MAX_INTERVAL_ACCESSES / 2 {
                self.order_sensitive = true;
                return;
            }
        }
        // A warp's consecutive accesses often continue one of its latest ranges in this interval (warps
        // issuing together interleave theirs).
        let w = a.warp as usize;
        if w >= self.last_of_warp.len() {
            self.last_of_warp.resize(w + 1, [usize::MAX; RECENT]);
        }
        let recent = &mut self.last_of_warp[w];
        for k in 0..RECENT {
            // A warp's commuting atomics join into one hull however far apart (a histogram's bins): they
            // conflict with nothing of their kind, and the bytes between are rarely another warp's in the
            // same interval.
            if let Some(last) = self.interval.get_mut(recent[k])
                && last.kind == a.kind
                && (a.kind > WRITE || (a.lo <= last.hi && a.hi >= last.lo))
            {
                last.lo = last.lo.min(a.lo);
                last.hi = last.hi.max(a.hi);
                // The range joined is the latest again.
                recent[..=k].rotate_right(1);
                return;
            }
        }
        recent.rotate_right(1);
        recent[0] = self.interval.len();
        self.interval.push(a);
    }

    /// After warp `warp`'s step: did it make progress? Returns its steps since it last did.
    #[inline]
    pub(super) fn end_step(&mut self, warp: u32) -> u64 {
        let mut q = self.quiet(warp);
        q.step(self.progressed);
        self.set_quiet(warp, q);
        q.run
    }

    /// Warp `warp`'s progress record in this interval, for a caller that counts steps itself.
    #[inline]
    pub(super) fn quiet(&mut self, warp: u32) -> Quiet {
        let w = warp as usize;
        if w >= self.run.len() {
            self.run.resize(w + 1, 0);
        }
        Quiet { run: self.run[w] }
    }

    #[inline]
    pub(super) fn set_quiet(&mut self, warp: u32, q: Quiet) {
        self.run[warp as usize] = q.run;
    }

    /// The barrier interval ends: two warps touching the same bytes, one writing, make it order-sensitive.
    fn end_interval(&mut self) {
        self.last_of_warp.iter_mut().for_each(|l| *l = [usize::MAX; RECENT]);
        self.run.iter_mut().for_each(|r| *r = 0);
        if self.interval.is_empty() {
            return;
        }
        if warps_apart(&self.interval, &mut self.hulls) || writes_apart(&self.interval, &mut self.hulls) {
            // An access joins the block's last range when it continues it (the next warp's part of an
            // array), else the range its warp's last access joined when they overlap (the same warp's part
            // in an earlier interval): the same bytes in fewer ranges for `end_block` to sort.
            for a in self.interval.drain(..) {
                // (Each block has its own shared memory.)
                if a.lo >= SHARED_TOUCH {
                    continue;
                }
                if a.kind > WRITE {
                    self.commutes.push((a.lo, a.hi, a.kind));
                    continue;
                }
                let w = a.warp as usize;
                if w >= self.block_last_of_warp.len() {
                    self.block_last_of_warp.resize(w + 1, [usize::MAX; 2]);
                }
                let (list, slot) = if a.writes() { (&mut self.writes, 1) } else { (&mut self.reads, 0) };
                let slot = &mut self.block_last_of_warp[w][slot];
                let last = list.len().wrapping_sub(1);
                if let Some(l) = list.last_mut()
                    && a.lo >= l.0
                    && a.lo <= l.1
                {
                    l.1 = l.1.max(a.hi);
                    *slot = last;
                    continue;
                }
                match list.get_mut(*slot) {
                    Some(l) if a.lo <= l.1 && a.hi >= l.0 => *l = (l.0.min(a.lo), l.1.max(a.hi)),
                    _ => {
                        *slot = list.len();
                        list.push((a.lo, a.hi));
                    }
                }
            }
            return;
        }
        let merged = &mut self.interval;
        merge_per_warp(merged);
        merged.sort_unstable_by_key(|a| a.lo);
        let mut active: Vec<Access> = vec![];
        for &a in merged.iter() {
            active.retain(|b| b.hi > a.lo);
            if active.iter().any(|b| b.warp != a.warp && b.conflicts(&a)) {
                self.order_sensitive = true;
            }
            active.push(a);
            if a.lo >= SHARED_TOUCH {
                continue;
            }
            if a.kind > WRITE {
                self.commutes.push((a.lo, a.hi, a.kind));
            } else if a.writes() {
                self.writes.push((a.lo, a.hi));
            } else {
                self.reads.push((a.lo, a.hi));
            }
        }
        merged.clear();
    }

    /// Block `block` finished: its reads and writes, merged, join the finished ones.
    pub(super) fn end_block(&mut self, block: u64) {
        self.end_interval();
        self.key = (u64::MAX, 0);
        self.block_last_of_warp.iter_mut().for_each(|l| *l = [usize::MAX; 2]);
        for (ranges, done) in [(&mut self.reads, &mut self.done_reads), (&mut self.writes, &mut self.done_writes)] {
            ranges.sort_unstable();
            let mut cur: Option<(u64, u64)> = None;
            for &(lo, hi) in ranges.iter() {
                match &mut cur {
                    Some(c) if lo <= c.1 => c.1 = c.1.max(hi),
                    _ => {
                        if let Some((l, h)) = cur {
                            done.push((l, h, block));
                        }
                        cur = Some((lo, hi));
                    }
                }
            }
            if let Some((l, h)) = cur {
                done.push((l, h, block));
            }
            ranges.clear();
        }
        merge_commutes(&mut self.commutes);
    }
}

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
        // Without threads (the web build) every run takes the sequential path.
        cfg!(feature = "parallel")
            && self.outcome.is_none()
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
                        | Instr::SyncThreads { pred: Some(_) }
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
        Some(Template {
            kinds: Arc::new(kinds),
            read_before_written: Arc::new(crate::ir::defined::read_before_written(&kernel)),
            program: Arc::new(Program::decode(&kernel)),
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
            metrics: Metrics { traffic: Traffic::for_launch(&t.kernel, &t.params), ..Default::default() },
            hazards: vec![],
            output: vec![],
            children: vec![],
            outcome: None,
            quiet: 0,
            seen: Default::default(),
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
        // (What the blocks wrote is marked initialised: their stores marked it, as when run sequentially.)
        for m in results.iter().flatten() {
            for u in m.par.as_ref().map_or(&[][..], |p| &p.uninit[..]) {
                self.uninit_read(u.line, u.who.0, u.who.1, u.addr, u.count);
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

/// `f` of `0..n`, in order, computed on rayon's threads (one after another without the `parallel` feature,
/// which never gets here: [`Machine::parallel_eligible`]).
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

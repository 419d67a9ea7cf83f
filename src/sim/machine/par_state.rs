//! A whole run's record, per block-range machine (`parallel.rs`): the global bytes each warp touched in the
//! current barrier interval and block, the finished blocks' ranges, the warps' progress, and the uninitialised
//! reads seen; the checks on them are `conflicts.rs`'s.

use std::sync::Arc;

use super::BlockState;
use super::conflicts::{Access, Hulls, merge_commutes, merge_per_warp, warps_apart, writes_apart};
use super::template::Template;
use crate::ir::{Kernel, Pc, Reg};
use crate::sim::commute::{AccessKind, WRITE};
use crate::sim::decoded::Program;
use crate::sim::exec::{Note, SHARED_TOUCH};
use crate::sim::metrics::Metrics;
use crate::sim::race::Race;
use crate::sim::shared_global::SharedGlobal;
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
    pub(super) done_reads: Vec<(u64, u64, u64)>,
    pub(super) done_writes: Vec<(u64, u64, u64)>,
    /// Global bytes commuting atomics updated, of any block: (lo, hi, kind).
    pub(super) commutes: Vec<(u64, u64, AccessKind)>,
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
    /// The launch's compiled segments (`sim::jit`), shared by its block ranges.
    pub(super) jit: Option<Arc<crate::sim::jit::Cache>>,
    /// Issues and threads of straight stretches (`Program::straight`) as differences: a stretch over
    /// instructions `a..b` adds at `a` and takes off at `b`, so it costs two updates whatever its length;
    /// the running sums are the per-instruction counts (`fold_stretches`).
    stretches: Vec<[i64; 2]>,
    /// Per warp, the indices in `interval` of its last accesses of distinct ranges, latest first
    /// (`usize::MAX`: none yet).
    last_of_warp: Vec<[usize; RECENT]>,
    /// Per warp, the index in `interval` of each range of its last step with more than [`RECENT`] ranges,
    /// by position (`u32::MAX`: none).
    wide_of_warp: Vec<[u32; 32]>,
    /// Per warp, the index in `reads` and in `writes` of the range its last access in this block joined.
    block_last_of_warp: Vec<[usize; 2]>,
    /// Reads of bytes nothing wrote, and races between an ITS warp's own threads, per line (the sequential
    /// run's hazards, merged after the run).
    pub(super) uninit: Vec<UninitSeen>,
}

/// The uninitialised reads of one line in a block range, or its races between threads of one warp: how many,
/// and the lowest-numbered thread's (for a race, the warp's first thread's, as the sequential run numbers it).
#[derive(Clone, Copy, Debug)]
pub(super) struct UninitSeen {
    pub line: u32,
    pub count: u64,
    /// (block's linear index, thread's index in its block)
    pub who: (u64, u32),
    pub addr: u64,
    /// The race the record describes (None: an uninitialised read of `addr`).
    pub race: Option<Race>,
}

/// Notes an issue on the general path made in a whole run: uninitialised reads join `uninit` (the warp is
/// `warp` numbered across the launch, `per_block` warps to a block), and so do races between threads of one
/// warp (an ITS warp's warp-synchronous code without `__syncwarp`): what that warp's threads read and the
/// race record depend on the warp alone, since no other warp touches bytes it writes within a barrier
/// interval (the rule), so the sequential run finds the same races, counts them the same, and describes the
/// lowest-numbered warp's first. Any other note is a hazard that makes the run refuse (false).
pub(super) fn keep_uninit_reads(
    notes: &mut Vec<Note>,
    uninit: &mut Vec<UninitSeen>,
    line: u32,
    warp: u64,
    per_block: u64,
) -> bool {
    let (block, first) = (warp / per_block, (warp % per_block) as u32 * 32);
    for n in notes.drain(..) {
        let (who, count, addr, race) = match n {
            Note::UninitRead { lane, addr } => ((block, first + lane), 1, addr, None),
            // (Its lanes one by one would count each, the lowest first.)
            Note::UninitReads { lanes, addr } => {
                ((block, first + lanes.trailing_zeros()), lanes.count_ones() as u64, addr, None)
            }
            Note::SharedRace(r) if r.first.tid / 32 == r.second.tid / 32 => ((block, first), 1, 0, Some(r)),
            _ => return false,
        };
        match uninit.iter_mut().find(|u| u.line == line && u.race.is_some() == race.is_some()) {
            Some(u) => {
                if super::hazards::count_lowest(&mut u.count, &mut u.who, count, who) {
                    (u.addr, u.race) = (addr, race);
                }
            }
            None => uninit.push(UninitSeen { line, count, who, addr, race }),
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
    pub(super) fn new(view: Arc<SharedGlobal>, t: &Template) -> Self {
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
            jit: t.jit.clone(),
            stretches: vec![[0, 0]; t.kernel.instrs.len() + 1],
            last_of_warp: vec![],
            wide_of_warp: vec![],
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
        if touched.len() > RECENT {
            return self.record_wide(warp, touched, kind);
        }
        for &(lo, hi) in touched {
            self.record_one(Access { warp, kind, lo, hi });
        }
    }

    /// A step with more ranges than [`RECENT`] (each lane on a row of its own: `A[idx * n + i]`, the
    /// uncoalesced half of a coalescing lesson): its range `j` most often continues range `j` of the warp's
    /// last such step, which the latest few ranges cannot hold.
    #[inline(never)]
    fn record_wide(&mut self, warp: u32, touched: &[(u64, u64)], kind: AccessKind) {
        let w = warp as usize;
        if w >= self.wide_of_warp.len() {
            self.wide_of_warp.resize(w + 1, [u32::MAX; 32]);
        }
        for (j, &(lo, hi)) in touched.iter().enumerate() {
            let at = self.wide_of_warp[w][j] as usize;
            if let Some(last) = self.interval.get_mut(at)
                && last.warp == warp
                && last.kind == kind
                && (kind > WRITE || (lo <= last.hi && hi >= last.lo))
            {
                last.lo = last.lo.min(lo);
                last.hi = last.hi.max(hi);
                continue;
            }
            let at = self.record_one(Access { warp, kind, lo, hi });
            // (An index made stale by a compaction inside `record_one` was forgotten there.)
            self.wide_of_warp[w][j] = at.map_or(u32::MAX, |i| i as u32);
        }
    }

    /// Records access `a`, joining one of its warp's latest ranges where it can; the index in `interval` of
    /// the range that holds it (None when the interval became too large and the run order-sensitive).
    #[inline(always)]
    fn record_one(&mut self, a: Access) -> Option<usize> {
        if self.interval.len() >= MAX_INTERVAL_ACCESSES {
            merge_per_warp(&mut self.interval);
            self.last_of_warp.iter_mut().for_each(|l| *l = [usize::MAX; RECENT]);
            self.wide_of_warp.iter_mut().for_each(|l| *l = [u32::MAX; 32]);
            if self.interval.len() >= MAX_INTERVAL_ACCESSES / 2 {
                self.order_sensitive = true;
                return None;
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
                return Some(recent[0]);
            }
        }
        recent.rotate_right(1);
        recent[0] = self.interval.len();
        self.interval.push(a);
        Some(recent[0])
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
        self.wide_of_warp.iter_mut().for_each(|l| *l = [u32::MAX; 32]);
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

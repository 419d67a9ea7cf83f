//! The whole run of `parallel.rs` in pieces, a range of blocks at a time, so a front end can draw progress
//! and read keys between pieces (the debugger's continue at textbook sizes).
//!
//! The rule is `parallel.rs`'s, unchanged: one block-range machine per core runs the next blocks of each
//! piece and keeps what the rule checks (accessed ranges, quiet stretches, counters) across pieces; after the
//! last piece they are merged and checked exactly as [`Machine::run`] does. Until then the machine itself is
//! untouched except for global memory, which the blocks change as they run; abandoning the run (or a rule
//! failing) puts memory back as `parallel.rs` does, so the machine is exactly as before the run started (a
//! fresh machine at step 0: the rule requires one).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use super::template::{Template, threads};
use super::{Machine, Outcome};
use crate::sim::shared_global::{SharedGlobal, Undo};

/// A whole run in progress.
pub(super) struct WholeRun {
    /// Keeps the launch's copy for the block ranges (and documents what they share).
    _template: Template,
    /// The view of the machine's memory the block ranges write through.
    _view: Arc<SharedGlobal>,
    /// What puts global memory back if the rule fails or the run is abandoned.
    undo: Undo,
    /// One block-range machine per core; each runs a contiguous range of every piece's blocks.
    workers: Vec<Machine>,
    /// The first block no piece has run yet.
    next: u64,
    /// Instructions per block so far (0 before the first piece), to size the pieces.
    steps_per_block: u64,
}

/// Where the machine keeps a whole run in progress. A clone of the machine holds none (the session never
/// clones a machine during one).
#[derive(Default)]
pub(super) struct Slot(Option<Box<WholeRun>>);

impl Clone for Slot {
    fn clone(&self) -> Self {
        Slot(None)
    }
}

/// What one piece of a whole run left.
#[derive(Clone, Debug, PartialEq)]
pub enum WholeProgress {
    /// Blocks `blocks` of `of` have run, issuing `steps` instructions; call again for the next piece.
    Running { blocks: u64, of: u64, steps: u64 },
    /// The run ended in this outcome, provably the state single-stepping reaches.
    Done(Outcome),
    /// The rule does not hold (or no whole run is in progress): the machine is as before the run started.
    Refused,
}

impl Machine {
    /// Starts a whole run in pieces ([`Machine::whole_run_piece`]) when the parallel rule can hold (a fresh
    /// machine, a kernel without what the rule excludes, a build with threads); false (the machine
    /// untouched) otherwise. True when one is already in progress.
    pub fn start_whole_run(&mut self) -> bool {
        if self.whole.0.is_some() {
            return true;
        }
        if !self.parallel_eligible() {
            return false;
        }
        let Some(template) = self.template() else { return false };
        let undo = self.undo_point();
        let Some(view) = SharedGlobal::new(&mut self.global, &undo) else { return false };
        let view = Arc::new(view);
        let n = (threads() as u64).clamp(1, self.total_blocks.max(1));
        let workers = (0..n).map(|_| Machine::sub_machine(&template, 0, 0, view.clone())).collect();
        self.whole.0 =
            Some(Box::new(WholeRun { _template: template, _view: view, undo, workers, next: 0, steps_per_block: 0 }));
        true
    }

    /// A whole run is in progress.
    pub fn whole_run_active(&self) -> bool {
        self.whole.0.is_some()
    }

    /// Blocks run so far, of all, while a whole run is in progress.
    pub fn whole_run_progress(&self) -> Option<(u64, u64)> {
        self.whole.0.as_ref().map(|r| (r.next, self.total_blocks))
    }

    /// Runs the next piece of the whole run in progress: about `budget` instructions, at least one block per
    /// core.
    pub fn whole_run_piece(&mut self, budget: u64) -> WholeProgress {
        let Some(mut run) = self.whole.0.take() else { return WholeProgress::Refused };
        let total = self.total_blocks;
        let n = run.workers.len() as u64;
        let want = match run.steps_per_block {
            0 => n,
            per => budget.div_ceil(per).max(n),
        };
        let (start, blocks) = (run.next, want.min(total - run.next));
        let per = blocks.div_ceil(n);
        let abort = AtomicBool::new(false);
        let ok = on_each(&mut run.workers, |i, w| {
            let first = (start + i * per).min(start + blocks);
            w.next_block = first;
            w.total_blocks = (first + per).min(start + blocks);
            w.dispatch();
            let ok = !abort.load(Ordering::Relaxed) && w.run_blocks_alone(&abort);
            if !ok {
                abort.store(true, Ordering::Relaxed);
            }
            ok
        });
        if ok.contains(&false) {
            self.undo(run.undo_after());
            return WholeProgress::Refused;
        }
        run.next += blocks;
        let steps: u64 = run.workers.iter().map(|w| w.steps).sum();
        run.steps_per_block = (steps / run.next.max(1)).max(1);
        if run.next < total {
            let progress = WholeProgress::Running { blocks: run.next, of: total, steps };
            self.whole.0 = Some(run);
            return progress;
        }
        let mut workers = std::mem::take(&mut run.workers);
        let mut traffic = crate::sim::traffic::Traffic::default();
        for w in &mut workers {
            traffic.merge(&std::mem::take(&mut w.metrics.traffic));
        }
        let merged = self.merge(workers.into_iter().map(Some).collect(), traffic);
        let undo = run.undo_after();
        match merged {
            Some(o) => WholeProgress::Done(o),
            None => {
                self.undo(undo);
                WholeProgress::Refused
            }
        }
    }

    /// Abandons the whole run in progress, if any: the machine is as before it started.
    pub fn abandon_whole_run(&mut self) {
        if let Some(run) = self.whole.0.take() {
            self.undo(run.undo_after());
        }
    }
}

impl WholeRun {
    /// Ends the run (its view of memory and its workers dropped), keeping what puts memory back.
    fn undo_after(self) -> Undo {
        self.undo
    }
}

/// `f(i, worker i)` for every worker, on rayon's threads (one after another without the `parallel` feature).
fn on_each<T: Send>(workers: &mut [Machine], f: impl Fn(u64, &mut Machine) -> T + Sync + Send) -> Vec<T> {
    #[cfg(feature = "parallel")]
    return workers.par_iter_mut().enumerate().map(|(i, w)| f(i as u64, w)).collect();
    #[cfg(not(feature = "parallel"))]
    workers.iter_mut().enumerate().map(|(i, w)| f(i as u64, w)).collect()
}

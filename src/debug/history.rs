//! Time travel: periodic snapshots of the machine plus deterministic re-execution.
//!
//! Snapshots are taken every `interval` steps, at first about one step per 32 bytes of a snapshot (at least
//! 1,024, a power of two): copying a snapshot then costs a few percent of running to the next, and going
//! back re-executes a few milliseconds per MiB of machine. When they would exceed the byte budget, the interval doubles
//! and every other snapshot is dropped, so memory stays under the budget however long the run (the snapshot
//! of step 0 always stays), and going back to any step re-executes at most `interval` steps. Each snapshot is
//! counted at the size it has when taken, so what grows with the run (hazards, output) is counted too.

/// Default memory budget for snapshots: 256 MiB.
pub const DEFAULT_BUDGET: u64 = 256 << 20;

/// The first interval is one step per this many bytes of a snapshot.
const BYTES_PER_STEP: u64 = 32;
/// The shortest interval between snapshots.
const MIN_INTERVAL: u64 = 1024;
/// The longest first interval (the budget may double it later).
const MAX_FIRST_INTERVAL: u64 = 1 << 22;

/// Snapshots of a run and the interval between them.
#[derive(Clone)]
pub struct History<T: Clone> {
    /// (step, state, bytes it holds) in increasing step order; the first is step 0.
    snapshots: Vec<(u64, T, u64)>,
    pub interval: u64,
    budget: u64,
}

impl<T: Clone> History<T> {
    /// Starts with the state at step 0, which holds `bytes`.
    pub fn new(initial: T, bytes: u64, budget: u64) -> Self {
        let interval = (bytes / BYTES_PER_STEP).next_power_of_two().clamp(MIN_INTERVAL, MAX_FIRST_INTERVAL);
        History { snapshots: vec![(0, initial, bytes)], interval, budget }
    }

    /// Bytes held by snapshots now (each counted when it was taken: what grows with the run is included).
    pub fn bytes(&self) -> u64 {
        self.snapshots.iter().map(|(_, _, b)| b).sum()
    }

    /// Snapshots kept.
    pub fn len(&self) -> usize {
        self.snapshots.len()
    }

    /// No snapshot kept (never: step 0's stays).
    pub fn is_empty(&self) -> bool {
        self.snapshots.is_empty()
    }

    /// Would [`History::observe`] keep a snapshot at `step`? (Lets callers skip building one.)
    pub fn wants(&self, step: u64) -> bool {
        step != 0 && step.is_multiple_of(self.interval) && self.snapshots.last().is_none_or(|(s, _, _)| *s < step)
    }

    /// Offers the state at `step`, which holds `bytes`; keeps it when the step is on the current interval. Over
    /// the budget, the interval doubles and the snapshots off it are dropped (step 0 always stays).
    pub fn observe(&mut self, step: u64, state: &T, bytes: u64) {
        if !self.wants(step) {
            return;
        }
        self.snapshots.push((step, state.clone(), bytes));
        while self.bytes() > self.budget && self.snapshots.len() > 1 {
            self.interval *= 2;
            let iv = self.interval;
            self.snapshots.retain(|(s, _, _)| s.is_multiple_of(iv));
            if self.interval > (1 << 62) {
                break;
            }
        }
    }

    /// The step of the latest snapshot at or before `step` (how far going there re-executes).
    pub fn step_before(&self, step: u64) -> u64 {
        let i = self.snapshots.partition_point(|(s, _, _)| *s <= step).saturating_sub(1);
        self.snapshots.get(i).map_or(0, |(s, _, _)| *s)
    }

    /// The latest snapshot at or before `step`.
    pub fn before(&self, step: u64) -> (u64, T) {
        let i = self.snapshots.partition_point(|(s, _, _)| *s <= step).saturating_sub(1);
        let (s, t, _) = &self.snapshots[i];
        (*s, t.clone())
    }

    /// Forgets snapshots after `step` (the run goes another way from there, e.g. after a mode switch).
    pub fn truncate_after(&mut self, step: u64) {
        self.snapshots.retain(|(s, _, _)| *s <= step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_bounds_snapshots_and_interval_grows() {
        let mut h = History::new(0u64, 10, 100); // at most 10 snapshots of 10 bytes
        for step in 1..=1_000_000u64 {
            h.observe(step, &step, 10);
        }
        assert!(h.len() <= 10, "{} snapshots", h.len());
        assert!(h.bytes() <= 100);
        let (s, v) = h.before(999_999);
        assert_eq!(s, v);
        assert!(999_999 - s <= h.interval, "re-execution bounded by the interval");
        assert_eq!(h.before(0), (0, 0));
    }
}

//! Time travel: periodic snapshots of the machine plus deterministic re-execution.
//!
//! Snapshots are taken every `interval` steps. When they would exceed the byte budget, the interval doubles
//! and every other snapshot is dropped, so memory stays under the budget however long the run (at least two
//! snapshots are kept: step 0 and one more), and going back to any step re-executes at most `interval` steps.

use crate::sim::Machine;

/// Default memory budget for snapshots: 256 MiB.
pub const DEFAULT_BUDGET: u64 = 256 << 20;

#[derive(Clone)]
pub struct History<T: Clone> {
    /// (step, state) in increasing step order; the first is step 0.
    snapshots: Vec<(u64, T)>,
    pub interval: u64,
    budget: u64,
    bytes_each: u64,
}

impl<T: Clone> History<T> {
    /// Starts with the state at step 0; `bytes_each` is the size of one snapshot.
    pub fn new(initial: T, bytes_each: u64, budget: u64) -> Self {
        History { snapshots: vec![(0, initial)], interval: 1024, budget, bytes_each: bytes_each.max(1) }
    }

    pub fn max_snapshots(&self) -> usize {
        (self.budget / self.bytes_each).max(2) as usize
    }

    /// Bytes held by snapshots now.
    pub fn bytes(&self) -> u64 {
        self.snapshots.len() as u64 * self.bytes_each
    }

    pub fn len(&self) -> usize {
        self.snapshots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.snapshots.is_empty()
    }

    /// Would [`History::observe`] keep a snapshot at `step`? (Lets callers skip building one.)
    pub fn wants(&self, step: u64) -> bool {
        step != 0 && step.is_multiple_of(self.interval) && self.snapshots.last().is_none_or(|(s, _)| *s < step)
    }

    /// Offers the state at `step`; keeps it when the step is on the current interval.
    pub fn observe(&mut self, step: u64, state: &T) {
        if !self.wants(step) {
            return;
        }
        self.snapshots.push((step, state.clone()));
        while self.snapshots.len() > self.max_snapshots() {
            self.interval *= 2;
            let iv = self.interval;
            self.snapshots.retain(|(s, _)| s.is_multiple_of(iv));
            if self.interval > (1 << 62) {
                break;
            }
        }
    }

    /// The latest snapshot at or before `step`.
    pub fn before(&self, step: u64) -> (u64, T) {
        let i = self.snapshots.partition_point(|(s, _)| *s <= step).saturating_sub(1);
        self.snapshots[i].clone()
    }

    /// Forgets snapshots after `step` (the run goes another way from there, e.g. after a mode switch).
    pub fn truncate_after(&mut self, step: u64) {
        self.snapshots.retain(|(s, _)| *s <= step);
    }
}

/// Snapshot size for a machine.
pub fn machine_bytes(m: &Machine) -> u64 {
    m.approx_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_bounds_snapshots_and_interval_grows() {
        let mut h = History::new(0u64, 10, 100); // at most 10 snapshots
        for step in 1..=1_000_000u64 {
            h.observe(step, &step);
        }
        assert!(h.len() <= 10, "{} snapshots", h.len());
        assert!(h.bytes() <= 100);
        let (s, v) = h.before(999_999);
        assert_eq!(s, v);
        assert!(999_999 - s <= h.interval, "re-execution bounded by the interval");
        assert_eq!(h.before(0), (0, 0));
    }
}

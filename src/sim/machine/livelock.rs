//! Whole-machine livelock detection: after a long quiet stretch (no thread finished, no barrier released,
//! no memory changed), a machine state seen before means the deterministic scheduler loops forever; the
//! issues recorded meanwhile explain who spins.

use std::hash::{Hash, Hasher};

use super::{HASH_EVERY, Machine, Outcome, QUIET_BEFORE_HASHING, state_hasher};
use crate::ir::Pc;
use crate::sim::lane_mask::LaneMask;

/// States the detector holds before it starts over.
const SEEN_CAP: u64 = 1 << 16;

impl Machine {
    /// Whole-machine livelock: after a long quiet stretch, a repeated state means the machine loops forever.
    pub(super) fn watch_livelock(&mut self) -> Option<Outcome> {
        self.quiet += 1;
        if self.quiet < QUIET_BEFORE_HASHING || !self.quiet.is_multiple_of(HASH_EVERY) {
            return None;
        }
        // A large machine's registers (32 blocks of 1024 threads: 10 MB) are hashed less often, so that hashing
        // stays a small share of a long quiet stretch (a tiled matrix product's inner loop): every 1024 steps
        // up to 16K registers, then every step per 16 registers. A repeated state is still found, later.
        if !self.quiet.is_multiple_of(self.hash_period()) {
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
            return Some(self.explain_livelock());
        }
        if self.seen.len() as u64 + self.unseen > SEEN_CAP {
            self.seen.clear();
            self.unseen = 0;
        }
        None
    }

    /// Quiet steps between two hashed states (a power of two, at least `HASH_EVERY`).
    fn hash_period(&self) -> u64 {
        let regs: usize = self.blocks.iter().map(|b| b.regs.len()).sum();
        (regs as u64 / 16).next_power_of_two().max(HASH_EVERY)
    }

    /// The detector's record of `n` quiet steps the machine skips (`clock_spin.rs`): each issues the next
    /// instruction of the cyclic `path` of warp `w` in slot `b`, from its start, and none of their states can
    /// come back (a clock value in the registers only grows), so they are counted towards the record's cap
    /// as if stored, and the last of them are the recent issues.
    pub(super) fn quiet_steps(&mut self, n: u64, b: usize, w: u32, path: &[(Pc, LaneMask)]) {
        let q0 = self.quiet;
        // Recent issues: those of steps whose quiet count before them was at least half the threshold.
        let first = (QUIET_BEFORE_HASHING / 2).saturating_sub(q0) + 1;
        if first <= n {
            let keep = (n + 1 - first).min(512);
            for s in n + 1 - keep..=n {
                if self.recent.len() == 512 {
                    self.recent.pop_front();
                }
                let (pc, mask) = path[((s - 1) % path.len() as u64) as usize];
                self.recent.push_back(super::Recent { slot: b, warp: w, pc, mask });
            }
        }
        // Hashed states: quiet counts (after each step) from the threshold on, at multiples of the period.
        let period = self.hash_period();
        let from = (q0 + 1).max(QUIET_BEFORE_HASHING);
        let hashed = if q0 + n >= from { (q0 + n) / period - (from - 1) / period } else { 0 };
        let held = self.seen.len() as u64 + self.unseen;
        if held + hashed <= SEEN_CAP {
            self.unseen += hashed;
        } else {
            // The record clears when a state would make it hold more than the cap.
            self.seen.clear();
            self.unseen = (hashed - (SEEN_CAP + 1 - held)) % (SEEN_CAP + 1);
        }
        self.quiet = q0 + n;
    }

    /// Issues recorded most recently (for explanations): (block slot, warp, pc, mask).
    pub(super) fn recent(&self) -> impl Iterator<Item = (usize, u32, Pc, LaneMask)> + '_ {
        self.recent.iter().map(|r| (r.slot, r.warp, r.pc, r.mask))
    }
}

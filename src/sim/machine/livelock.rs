//! Whole-machine livelock detection: after a long quiet stretch (no thread finished, no barrier released,
//! no memory changed), a machine state seen before means the deterministic scheduler loops forever; the
//! issues recorded meanwhile explain who spins.

use std::hash::{Hash, Hasher};

use super::{HASH_EVERY, Machine, Outcome, QUIET_BEFORE_HASHING, state_hasher};
use crate::ir::Pc;
use crate::sim::lane_mask::LaneMask;

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
            return Some(self.explain_livelock());
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

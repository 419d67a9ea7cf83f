//! `_sync` intrinsics of an ITS warp.

use super::{ItsWarp, ThreadState};
use crate::ir::{Instr, Kernel, Pc};
use crate::sim::lane_mask::LaneMask;

impl ItsWarp {
    /// The lanes waiting at the `_sync` intrinsic at `pc` that may complete it together: the lanes at the
    /// same PC and, for `__syncwarp` (`bar.warp.sync` on sm_70+ only needs the same mask, not the same
    /// instruction), lanes waiting at any `__syncwarp` with the mask of a lane at `pc`.
    fn sync_partners(&self, kernel: &Kernel, pc: Pc) -> LaneMask {
        let waiting = self.lanes_in(ThreadState::WarpSync);
        let any_site = matches!(kernel.instrs[pc.0 as usize], Instr::SyncWarp { .. });
        let at_pc = waiting.iter().filter(|&l| self.pc[l as usize] == pc);
        let masks: Vec<LaneMask> = at_pc.map(|l| self.sync_mask[l as usize]).collect();
        let mut here = LaneMask::EMPTY;
        for l in waiting.iter() {
            let at = self.pc[l as usize];
            let partner = at == pc
                || (any_site
                    && matches!(kernel.instrs[at.0 as usize], Instr::SyncWarp { .. })
                    && masks.contains(&self.sync_mask[l as usize]));
            if partner {
                here = here.or(LaneMask::lane(l));
            }
        }
        here
    }

    /// Releases the lanes waiting at (or, for `__syncwarp`, with) the `_sync` intrinsic at `pc` whose named
    /// live lanes are all waiting there: each lane by its own mask, as each tile of a warp syncs alone.
    pub(super) fn release_ready(&mut self, kernel: &Kernel, live: LaneMask, pc: Pc) {
        let here = self.sync_partners(kernel, pc);
        let ready = here.iter().filter(|&l| self.sync_mask[l as usize].and(live).is_subset_of(here));
        let ready = ready.fold(LaneMask::EMPTY, |m, l| m.or(LaneMask::lane(l)));
        if !ready.is_empty() {
            self.release_sync(ready, pc);
        }
    }

    /// `lanes` completed a `_sync` intrinsic; those at `pc` issue it next, any others (at other `__syncwarp`
    /// sites) when the scheduler reaches them, each without waiting again.
    fn release_sync(&mut self, lanes: LaneMask, pc: Pc) {
        self.set_state(lanes, ThreadState::Ready);
        self.sync_passed = self.sync_passed.or(lanes);
        self.current = Some(pc);
    }
}

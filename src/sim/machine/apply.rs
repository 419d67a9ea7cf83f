//! An issue's effect on its warp's execution model (`sim::model`) and what follows from it: divergence,
//! `__syncthreads()` arrival and release (with reducing barriers' votes), `_sync` intrinsics that wait for
//! their lanes, and ITS forward progress (spin detection).

use std::hash::{Hash, Hasher};

use super::{HazardKind, Machine, state_hasher};
use super::{explain, spin};
use crate::ir::{Instr, Pc};
use crate::sim::exec::Effect;
use crate::sim::lane_mask::{LaneMask, format_ranges};
use crate::sim::model::ModelHazard;
use crate::sim::warp::Warp;

impl Machine {
    /// A group at a `_sync` intrinsic whose mask names live lanes not in the group waits for them (ITS).
    /// Returns true when the group waited (nothing issued).
    pub(super) fn warp_sync_wait(&mut self, b: usize, w: usize, pc: Pc, mask: LaneMask, instr: &Instr) -> bool {
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

    pub(super) fn apply(&mut self, b: usize, w: usize, pc: Pc, mask: LaneMask, effect: Effect) {
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
        if effect == Effect::SyncThreads {
            match self.kernel.instrs[pc.0 as usize] {
                Instr::SyncThreads { pred: Some(p), .. } => self.barrier_vote(b, w, mask, p),
                Instr::SyncThreads { grid: true, .. } => self.blocks[b].at_grid = true,
                _ => {}
            }
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
    pub(super) fn check_barrier(&mut self, b: usize) {
        let block = &mut self.blocks[b];
        // Every warp has arrived (one mask test each: this runs at every arrival), and then each warp's
        // waiting threads stand at one barrier instruction.
        let arrived = |w: &Warp| w.done() || w.model.barrier_arrived(w.live);
        let one_barrier = |w: &Warp| w.done() || w.model.at_one_barrier();
        let all_in = block.warps.iter().all(arrived) && block.warps.iter().all(one_barrier);
        if !all_in || block.warps.iter().all(Warp::done) || block.grid_waiting {
            return;
        }
        if block.at_grid {
            block.grid_waiting = true;
            self.check_grid_barrier();
            return;
        }
        release(block);
        self.progress();
    }

    /// The lanes `mask` of warp `w` arrive at a reducing barrier with predicate `p`: they count towards the
    /// block's result (a pre-Volta warp arrives whole, but only the lanes that executed it have a predicate).
    pub(super) fn barrier_vote(&mut self, b: usize, w: usize, mask: LaneMask, p: crate::ir::Operand) {
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
    pub(super) fn spin_check(&mut self, b: usize, w: usize, pc: Pc, mask: LaneMask) {
        let block = &mut self.blocks[b];
        let converging = block.warps[w].model.waiting_to_reconverge();
        // The state hashed below includes a machine-wide memory counter, which depends on other blocks: a
        // whole run keeps a record of a coarser state instead, and refuses the run at a repeat (`spin.rs`).
        if let Some(p) = &mut self.par {
            let state = (pc, mask, converging);
            p.order_sensitive |=
                spin::whole_run_repeats(&p.program, &mut block.spin_seen[w], state, &block.regs, block.stride, w);
            return;
        }
        if converging.is_empty() {
            block.spin_seen[w].clear();
            return;
        }
        let mut h = state_hasher();
        (pc, mask, converging, self.mem_epoch).hash(&mut h);
        for r in 0..self.kernel.regs.len() {
            for l in mask.iter() {
                block.regs[r * block.stride + w * 32 + l as usize].hash(&mut h);
            }
        }
        let seen = &mut block.spin_seen[w];
        if spin::seen_again(seen, h.finish()) {
            seen.clear();
            if !block.warps[w].model.release_waiters(mask).is_empty() {
                self.progress();
            }
        }
    }
}

/// Releases the barrier every thread of `block` waits at.
pub(super) fn release(block: &mut super::BlockState) {
    block.barrier_epoch += 1;
    block.barrier_result = std::mem::take(&mut block.barrier_votes);
    (block.at_grid, block.grid_waiting) = (false, false);
    for w in &mut block.warps {
        w.model.release_barrier();
    }
}

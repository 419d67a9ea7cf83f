//! Whole runs (`parallel`), a warp that cannot issue with a group of warps (`gang.rs`: an ITS warp at a
//! `_sync` intrinsic, which waits for lanes) runs alone, as far as it can or until it could
//! join a group again. The data path keeps one context for the warp while its instructions only move it along
//! (straight-line code, jumps, branches all its threads agree on, the back edge of an ITS warp that is one
//! group); anything else (a divergent branch, a barrier, an exit, another ITS back edge or a `_sync`
//! intrinsic) goes through the machine's general [`Machine::apply`]. Every count an issue makes is the same as
//! in [`Machine::execute_issue`] and `apply`: `tests/trace_identity.rs` pins the reports.
use super::par_state::{UninitSeen, WarpStop, keep_uninit_reads};
use super::{BlockState, Machine, QUIET_REFUSED};
use crate::sim::shared_global::SharedGlobal;

use crate::front::launch::{Launch, Mode};
use crate::ir::{Instr, Kernel, Pc};
use crate::sim::decoded::Program;
use crate::sim::exec::{self, Ctx, Effect, Flow};
use crate::sim::lane_bits::DataPath;
use crate::sim::lane_mask::{ActiveLanes, LaneMask};
use crate::sim::memory::{GlobalMemory, SharedLayout};
use crate::sim::metrics::Metrics;
use crate::sim::model::BackEdge;
use crate::sim::warp::Warp;

/// The data-path context of a whole run's issues in `block`, beside the block's warps and spin records
/// (borrowed apart, so that both can be used at once). Global memory is `view`, and the bytes an instruction
/// touches, global and shared, are kept in `touched`. Lanes start at thread 0: callers set `base`.
pub(super) fn run_parts<'a>(
    kernel: &'a Kernel,
    (layout, global, launch, path): (&'a SharedLayout, &'a mut GlobalMemory, &'a Launch, DataPath),
    block: &'a mut BlockState,
    view: &'a SharedGlobal,
    touched: &'a mut exec::Touched,
    pc: Pc,
) -> (Ctx<'a>, &'a mut [Warp], &'a mut [Vec<u64>]) {
    let ctx = Ctx {
        kernel,
        regs: &mut block.regs,
        stride: block.stride,
        base: 0,
        shared: &mut block.shared,
        layout,
        global,
        block_idx: block.idx,
        block_dim: launch.block,
        grid_dim: launch.grid,
        wrote: false,
        notes: vec![],
        // (Races between warps cannot happen in a whole run that is kept: a block's warps share no bytes
        // within a barrier interval. The shadow finds those between an ITS warp's own threads; pre-Volta
        // warps run in lockstep and have none.)
        race: (launch.mode == Mode::Its).then(|| exec::RaceCtx {
            shadow: &mut block.race,
            block_epoch: block.barrier_epoch,
            warp_epochs: &block.warp_epochs,
            lockstep_warps: false,
        }),
        pc,
        shared_accesses: vec![],
        global_access: Default::default(),
        par: Some(view),
        touched: Some(touched),
        // (Kernels that read counters never run here: `Machine::parallel_eligible`.)
        counters: exec::Counters::default(),
        path,
    };
    (ctx, &mut block.warps, &mut block.spin_seen)
}

/// After warp `warp` (numbered across the launch, as `BankLine::sample_warp`) issued the instruction at `pc`
/// through the general path: its shared accesses join the bank statistics, its global ones the traffic
/// counts, its uninitialised reads `uninit`.
/// False when it made another note (which would become a hazard, and a hazard refuses the run).
pub(super) fn after_general(
    ctx: &mut Ctx,
    (metrics, uninit): (&mut Metrics, &mut Vec<UninitSeen>),
    pc: Pc,
    warp: u64,
) -> bool {
    let line = ctx.kernel.line(pc);
    if !ctx.shared_accesses.is_empty() {
        let store = matches!(ctx.kernel.instrs[pc.0 as usize], Instr::Store { .. } | Instr::Atomic { .. });
        metrics.banks.record(line, warp, &ctx.shared_accesses, store);
        ctx.shared_accesses.clear();
    }
    if !ctx.global_access.is_empty() {
        if ctx.global_access.as_vector(ctx.kernel.vec_part(pc)) {
            metrics.traffic.record(line, ctx.block_idx.linear_in(ctx.grid_dim), warp, &ctx.global_access);
        }
        ctx.global_access.clear();
    }
    ctx.notes.is_empty() || keep_uninit_reads(&mut ctx.notes, uninit, line, warp, ctx.block_dim.count().div_ceil(32))
}

/// After warp `warp` issued the instruction at `pc` through `exec::execute_decoded`: as [`after_general`] for
/// a load or store (the only decoded instructions that leave accesses or notes), nothing otherwise.
#[inline(always)]
pub(super) fn after_decoded(ctx: &mut Ctx, books: (&mut Metrics, &mut Vec<UninitSeen>), pc: Pc, warp: u64) -> bool {
    (ctx.shared_accesses.is_empty() && ctx.global_access.is_empty() && ctx.notes.is_empty())
        || after_general(ctx, books, pc, warp)
}

impl Machine {
    /// Runs warp `w` of the resident block (slot 0), which cannot issue with a group of warps (`gang.rs`),
    /// until it cannot issue or, having issued, could issue with a group again; `view` is the shared global
    /// memory.
    pub(super) fn run_warp(&mut self, kernel: &Kernel, program: &Program, view: &SharedGlobal, w: usize) -> WarpStop {
        #[cfg(target_arch = "x86_64")]
        if self.path.avx2() {
            // SAFETY: the CPU has AVX2 (the machine's `DataPath` says so only then).
            return unsafe { self.run_warp_avx2(kernel, program, view, w) };
        }
        self.run_warp_here(kernel, program, view, w)
    }

    /// [`Machine::run_warp`] compiled for AVX2 (see `exec::execute_avx2`: the lane loops are 64-bit lanes).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn run_warp_avx2(&mut self, kernel: &Kernel, program: &Program, view: &SharedGlobal, w: usize) -> WarpStop {
        self.run_warp_here(kernel, program, view, w)
    }

    #[inline(always)]
    fn run_warp_here(&mut self, kernel: &Kernel, program: &Program, view: &SharedGlobal, w: usize) -> WarpStop {
        let start = self.steps;
        while let Some((pc, mask)) = self.blocks[0].warps[w].candidate() {
            let model = &self.blocks[0].warps[w].model;
            if self.steps > start && model.may_join_group(kernel, pc) {
                return WarpStop::Waits;
            }
            let instr = &kernel.instrs[pc.0 as usize];
            if model.waits_for_lanes(instr) {
                if self.warp_sync_wait(0, w, pc, mask, instr) {
                    continue;
                }
                if let Some(stop) = self.issue_alone(kernel, w, pc, mask) {
                    return stop;
                }
                continue;
            }
            let Some((pc, mask, effect)) = self.run_straight(kernel, program, view, w, pc, mask) else {
                return WarpStop::Refused;
            };
            let Some(effect) = effect else { continue };
            if let Some(stop) = self.finish_issue(w, pc, mask, effect) {
                return stop;
            }
        }
        WarpStop::Waits
    }

    /// Issues warp `w`'s instruction at `pc` alone, through the general path (a barrier, an exit, an
    /// instruction without a decoded form). None: it may go on.
    pub(super) fn issue_alone(&mut self, kernel: &Kernel, w: usize, pc: Pc, mask: LaneMask) -> Option<WarpStop> {
        if self.steps >= self.max_steps {
            return Some(WarpStop::Refused);
        }
        let Ok(effect) = self.execute_issue(kernel, 0, w, pc, mask) else { return Some(WarpStop::Refused) };
        self.finish_issue(w, pc, mask, effect)
    }

    /// After an issue whose effect the general path applies: the model update, progress and the checks.
    pub(super) fn finish_issue(&mut self, w: usize, pc: Pc, mask: LaneMask, effect: Effect) -> Option<WarpStop> {
        self.apply(0, w, pc, mask, effect);
        let Some(p) = self.par.as_mut() else { return Some(WarpStop::Refused) };
        if p.end_step(w as u32) >= QUIET_REFUSED || p.order_sensitive || !self.hazards.is_empty() {
            return Some(WarpStop::Refused);
        }
        if effect == Effect::Exit && self.blocks[0].warps.iter().all(Warp::done) {
            self.retire(0);
            self.progress();
            return Some(WarpStop::BlockDone);
        }
        None
    }

    /// Issues warp `w`'s instructions from `(pc, mask)` while their effects only move the warp along, with
    /// one data-path context. Returns the last issue's `(pc, mask)` and, when the general path must apply
    /// it, its effect; None to refuse the parallel run.
    #[inline(always)]
    fn run_straight(
        &mut self,
        kernel: &Kernel,
        program: &Program,
        view: &SharedGlobal,
        w: usize,
        mut pc: Pc,
        mut mask: LaneMask,
    ) -> Option<(Pc, LaneMask, Option<Effect>)> {
        let Machine { blocks, layout, global, metrics, steps, max_steps, mem_epoch, par, launch, path, .. } = self;
        let p = par.as_mut()?;
        let block = &mut blocks[0];
        p.enter(block.linear, block.barrier_epoch);
        let warp_key = block.linear * launch.warps_per_block() + w as u64;
        let mut touched = exec::Touched::default();
        let (mut ctx, warps, spin_seen) =
            run_parts(kernel, (layout, global, launch, *path), block, view, &mut touched, pc);
        ctx.base = w * 32;
        let warp = &mut warps[w];
        // Totals kept here and added once: one increment per issue of a few counters in memory is a
        // measurable part of the loop.
        let (mut issued, mut threads) = (0u64, 0u64);
        let mut quiet = p.quiet(w as u32);
        // Inside a basic block the warp only moves to the next instruction with the same lanes, so the model
        // is told once, at the block's end or where the general path takes over (`model_pc` is where it
        // thinks the warp is). In ITS, only while the scheduler would keep running this group: other ready
        // threads at the next instruction would join it there.
        let mut model_pc = pc;
        // Two loops: the inner one issues the instructions of one group of lanes (`mask` is fixed there, so
        // what the data path derives from it is worked out once per group, not per issue); the outer one
        // applies what ends a run and picks the next group.
        let out = 'group: loop {
            let act = ActiveLanes::new(mask);
            let (effect, progressed) = loop {
                // A straight stretch issues with its counts added once; only loads and stores need a look
                // after their issue. What is left of it (an access off the fast path, the last ITS step
                // before another group may join) issues one instruction at a time below.
                let n = program.straight[pc.0 as usize];
                if n > 1 && *steps + issued + (n as u64) < *max_steps {
                    let (start, len) = (pc, warp.model.stretch_len(kernel, mask, pc, n));
                    while pc.0 < start.0 + len {
                        let op = program.ops[pc.0 as usize];
                        match exec::execute_decoded(&mut ctx, pc, op, &act) {
                            Flow::Next if after_decoded(&mut ctx, (metrics, &mut p.uninit), pc, warp_key) => {}
                            Flow::Next | Flow::Fault => break 'group None,
                            _ => break,
                        }
                        let mut progressed = false;
                        if op.is_memory() {
                            if let Some(t) = ctx.touched.as_deref_mut()
                                && !t.as_slice().is_empty()
                            {
                                let kind = p.kinds[pc.0 as usize];
                                p.record(w as u32, t.as_slice(), kind);
                                t.clear();
                            }
                            progressed = std::mem::take(&mut ctx.wrote);
                            *mem_epoch += progressed as u64;
                        }
                        quiet.step(progressed);
                        if quiet.run >= QUIET_REFUSED || p.order_sensitive {
                            break 'group None;
                        }
                        pc = Pc(pc.0 + 1);
                    }
                    let done = (pc.0 - start.0) as u64;
                    if done > 0 {
                        issued += done;
                        threads += done * mask.count() as u64;
                        p.count_stretch(start, pc, 1, mask.count() as u64);
                    }
                }
                if *steps + issued >= *max_steps {
                    break 'group None;
                }
                let instr = &kernel.instrs[pc.0 as usize];
                let effect = match exec::execute_decoded(&mut ctx, pc, program.ops[pc.0 as usize], &act) {
                    Flow::Next if after_decoded(&mut ctx, (metrics, &mut p.uninit), pc, warp_key) => Effect::Next,
                    Flow::Next => break 'group None,
                    Flow::Jump(t) => Effect::Jump(t),
                    Flow::Branch(taken) => match *instr {
                        Instr::Branch { then_pc, else_pc, reconv, site, .. } => {
                            Effect::Branch { taken, then_pc, else_pc, reconv, site }
                        }
                        _ => unreachable!("a decoded branch is a branch"),
                    },
                    Flow::Fault => break 'group None,
                    Flow::General => match exec::execute(&mut ctx, pc, mask) {
                        // (Only the general path makes notes or touches shared memory.)
                        Ok(e) if after_general(&mut ctx, (metrics, &mut p.uninit), pc, warp_key) => e,
                        _ => break 'group None,
                    },
                };
                issued += 1;
                if let Some(t) = ctx.touched.as_deref_mut()
                    && !t.as_slice().is_empty()
                {
                    let kind = p.kinds[pc.0 as usize];
                    p.record(w as u32, t.as_slice(), kind);
                    t.clear();
                }
                let progressed = std::mem::take(&mut ctx.wrote);
                if progressed {
                    *mem_epoch += 1;
                }
                threads += mask.count() as u64;
                metrics.count_line(kernel.line(pc), mask.count());
                // (Terminators never go on to the next instruction: jumps, branches and exits.)
                if matches!(effect, Effect::Next) {
                    let next = Pc(pc.0 + 1);
                    if warp.model.keeps_running_to(kernel, mask, next) {
                        quiet.step(progressed);
                        if quiet.run >= QUIET_REFUSED || p.order_sensitive {
                            break 'group None;
                        }
                        pc = next;
                        continue;
                    }
                }
                break (effect, progressed);
            };
            let next = match effect {
                Effect::Next => Some(Pc(pc.0 + 1)),
                Effect::Jump(t) => Some(t),
                Effect::Branch { taken, then_pc, else_pc, .. } if taken.is_empty() || taken == mask => {
                    Some(if taken.is_empty() { else_pc } else { then_pc })
                }
                // Divergent: split below.
                Effect::Branch { .. } => None,
                _ => {
                    warp.model.catch_up(mask, model_pc, pc);
                    p.progressed = progressed;
                    break Some((pc, mask, Some(effect)));
                }
            };
            if let Some(next) = next {
                // A backward jump may yield and be a spin loop (ITS): the general path decides, unless the
                // warp is one group (nothing to yield to, and no thread waits for a spinner: the spin record
                // just clears).
                if next <= pc {
                    match warp.model.back_edge() {
                        BackEdge::Free => {}
                        BackEdge::ClearsSpin => spin_seen[w].clear(),
                        BackEdge::General => {
                            warp.model.catch_up(mask, model_pc, pc);
                            p.progressed = progressed;
                            break Some((pc, mask, Some(effect)));
                        }
                    }
                }
                if let Effect::Branch { site, .. } = effect
                    && site.counted
                {
                    metrics.count_branch(site.line, false);
                }
                warp.model.advance(mask, pc, next);
                if matches!(effect, Effect::Branch { .. }) {
                    metrics.note_stack_depth(warp.model.depth());
                }
            } else {
                // The warp splits as `Machine::apply` would split it, and goes on with the side its model picks.
                warp.model.catch_up(mask, model_pc, pc);
                warp.diverge(metrics, pc, mask, effect, *steps + issued);
            }
            quiet.step(progressed);
            if quiet.run >= QUIET_REFUSED || p.order_sensitive {
                break None;
            }
            match warp.candidate() {
                // A warp that could issue with a group again goes back to its caller.
                Some((npc, _)) if warp.model.may_join_group(kernel, npc) => break Some((pc, mask, None)),
                Some((npc, nmask)) if !warp.model.waits_for_lanes(&kernel.instrs[npc.0 as usize]) => {
                    (pc, mask) = (npc, nmask);
                    model_pc = pc;
                }
                _ => break Some((pc, mask, None)),
            }
        };
        p.set_quiet(w as u32, quiet);
        *steps += issued;
        metrics.warp_instructions += issued;
        metrics.thread_instructions += threads;
        out
    }
}

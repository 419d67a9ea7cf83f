//! Whole runs: the warps of a block that stand at the same instruction issue it together, one decoded
//! instruction for all of them, so what an issue costs besides its lanes (dispatch, counts, the loop) is paid
//! once per group of warps rather than once per warp; consecutive warps run ALU operations as one loop over
//! all their lanes (`exec::execute_wide`). The parallel rule already makes the order of a block's warps
//! inside a barrier interval irrelevant (`parallel.rs`), so issuing instruction `i` for every warp of the
//! group before `i + 1` gives what one warp after another gives, and every count is the same sum.
//!
//! Straight stretches, jumps and branches run here; what else a warp meets (barriers, exits, the rest of the
//! general path) the group executes too, and the machine applies each warp's effect in turn
//! (`Machine::finish_issue`). Any warp qualifies but at a `_sync` intrinsic, which waits for lanes
//! (`warp_run.rs` runs it). A warp issues with the lanes its model picks (`Warp::candidate`); an ITS warp
//! whose threads went different ways is asked again wherever its own scheduler would be (`stretch_len`: other
//! threads of the warp may join its running group there), so each warp's threads run in the order its model
//! gives, and only the interleaving of warps, which the parallel rule makes irrelevant, changes.
//!
//! A pre-Volta group, or an ITS group whose every warp's threads are one group, issues a jump, or a branch its
//! warps' threads all agree on, whose target is no reconvergence point like a straight instruction: only the
//! top stack entry would move (nothing can pop), and stacks are brought up to date where they are read, as
//! inside a stretch. Values that every lane of the
//! block shares are computed once (`exec::Uniform`).

use super::par_state::{ParState, Quiet, WarpStop};
use super::warp_run::{after_decoded, after_general, run_parts};
use super::{Machine, QUIET_REFUSED, spin};
use crate::ir::{Instr, Kernel, Pc};
use crate::sim::decoded::{Op, Program};
use crate::sim::exec::{self, Effect, Flow, Uniform, WideLanes};
use crate::sim::lane_mask::{ActiveLanes, LaneMask};
use crate::sim::metrics::Metrics;
use crate::sim::model::BackEdge;
use crate::sim::shared_global::SharedGlobal;

/// A warp issuing with the group (its lanes are kept per warp, beside the group: warps leave the group
/// often, and a member this small moves cheaply): its progress record for the parallel rule, and what its
/// last instruction of the general path did (for `Machine::finish_issue`).
struct Member {
    w: usize,
    quiet: Quiet,
    effect: Effect,
    progressed: bool,
    /// Its lanes that take the branch being issued.
    taken: LaneMask,
}

/// The group being issued, and the per-warp lanes and wide selects it uses (kept for a block's whole run).
#[derive(Default)]
pub(super) struct Group {
    members: Vec<Member>,
    /// Per warp of the block: its lanes while it is a member.
    acts: Vec<ActiveLanes>,
    wide: WideLanes,
    /// The block's registers known to hold one value in all its lanes.
    uniform: Uniform,
}

/// Where a machine keeps the group's buffers between calls of [`Machine::run_groups`]; a clone of the machine
/// starts with none.
#[derive(Default)]
pub(super) struct GroupSlot(Group);

impl Clone for GroupSlot {
    fn clone(&self) -> Self {
        GroupSlot::default()
    }
}

/// Why a group stopped issuing.
enum GroupStop {
    /// Its warps went different ways: the next group is formed.
    Split,
    /// Every warp of the group issued an instruction of the general path (a barrier, an exit, ...), whose
    /// effect the machine now applies.
    General(Pc),
    /// The run must be refused (see `WarpStop::Refused`).
    Refused,
}

impl Machine {
    /// Issues the resident block's warps in groups (warps at the same instruction) until the block is done
    /// ([`WarpStop::BlockDone`]) or no group can form ([`WarpStop::Waits`]: the caller runs the warps that
    /// cannot join one, or finds a deadlock). `fresh`: no instruction of the block has issued yet.
    pub(super) fn run_groups(
        &mut self,
        kernel: &Kernel,
        program: &Program,
        view: &SharedGlobal,
        fresh: bool,
    ) -> WarpStop {
        #[cfg(target_arch = "x86_64")]
        if self.path.avx2() {
            // SAFETY: the CPU has AVX2 (the machine's `DataPath` says so only then).
            return unsafe { self.run_groups_avx2(kernel, program, view, fresh) };
        }
        self.run_groups_here(kernel, program, view, fresh)
    }

    /// [`Machine::run_groups`] compiled for AVX2 (as `run_warp_avx2`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn run_groups_avx2(&mut self, kernel: &Kernel, program: &Program, view: &SharedGlobal, fresh: bool) -> WarpStop {
        self.run_groups_here(kernel, program, view, fresh)
    }

    #[inline(always)]
    fn run_groups_here(&mut self, kernel: &Kernel, program: &Program, view: &SharedGlobal, fresh: bool) -> WarpStop {
        let warps = self.blocks[0].warps.len();
        // (The machine keeps the group's buffers: a streaming kernel's blocks issue a few dozen instructions
        // each, and allocating them per call was a tenth of its time.)
        let mut g = std::mem::take(&mut self.group.0);
        g.members.clear();
        g.acts.clear();
        g.acts.resize(warps, ActiveLanes::new(LaneMask::EMPTY));
        // (Other paths write registers between calls: nothing is known at the start of one, but the parameters
        // at the block's start.)
        g.uniform.reset(program.regs, &program.consts);
        if fresh {
            for (p, &v) in kernel.params.iter().zip(&self.params) {
                g.uniform.rows[p.reg.0 as usize] = Some(v);
            }
        }
        let stop = self.issue_groups(kernel, program, view, &mut g);
        // Other paths read the rows next (a finished block's are dead).
        if !matches!(stop, WarpStop::BlockDone) {
            let block = &mut self.blocks[0];
            g.uniform.settle_all(&mut block.regs, block.stride);
        }
        self.group.0 = g;
        stop
    }

    /// [`Machine::run_groups`]' loop: forms groups and issues them until the block is done or none forms.
    #[inline(always)]
    fn issue_groups(&mut self, kernel: &Kernel, program: &Program, view: &SharedGlobal, g: &mut Group) -> WarpStop {
        loop {
            // The group: the first warp that can issue, and every warp at the same instruction.
            g.members.clear();
            let mut at = None;
            for (w, warp) in self.blocks[0].warps.iter_mut().enumerate() {
                let Some((pc, mask)) = warp.candidate() else { continue };
                if at.is_some_and(|a| a != pc) || !warp.model.may_join_group(kernel, pc) {
                    continue;
                }
                at = Some(pc);
                g.acts[w].set(mask);
                g.members.push(Member {
                    w,
                    quiet: Quiet::default(),
                    effect: Effect::Next,
                    progressed: false,
                    taken: LaneMask::EMPTY,
                });
            }
            // No group can form: the caller runs the warps that cannot join one, or finds a deadlock.
            let Some(pc) = at else { return WarpStop::Waits };
            match self.run_group(kernel, program, view, g, pc) {
                GroupStop::Split => {}
                GroupStop::Refused => return WarpStop::Refused,
                GroupStop::General(pc) => match self.arrive_together(g, pc) {
                    Some(true) if self.par.as_ref().is_some_and(|p| !p.order_sensitive) && self.hazards.is_empty() => {}
                    Some(_) => return WarpStop::Refused,
                    None => {
                        for m in &g.members {
                            if let Some(p) = self.par.as_mut() {
                                p.progressed = m.progressed;
                            }
                            if let Some(stop) = self.finish_issue(m.w, pc, g.acts[m.w].mask, m.effect) {
                                return stop;
                            }
                        }
                    }
                },
            }
        }
    }

    /// The group's warps, each whole, arrived at the `__syncthreads()` at `pc`: they wait there together, and
    /// the barrier is checked once (it can only release at the last arrival), as `apply` would for each.
    /// None, with nothing done, when that is not the case (a divergent barrier, another instruction); false
    /// when a warp's steps without progress refuse the run.
    fn arrive_together(&mut self, g: &Group, pc: Pc) -> Option<bool> {
        let (members, acts) = (&g.members, &g.acts);
        let warps = &self.blocks[0].warps;
        // (Every live thread of the warp: an ITS warp's threads then all wait at this one barrier, as a
        // lockstep warp does.)
        let whole = |m: &Member| acts[m.w].mask == warps[m.w].live;
        if !members.iter().all(|m| m.effect == Effect::SyncThreads && whole(m)) {
            return None;
        }
        let p = self.par.as_mut()?;
        for m in members {
            self.blocks[0].warps[m.w].model.arrive_at_barrier(acts[m.w].mask, pc);
            p.progressed = m.progressed;
            if p.end_step(m.w as u32) >= QUIET_REFUSED {
                return Some(false);
            }
        }
        self.check_barrier(0);
        Some(true)
    }

    /// Issues the group `members`, all at `pc`, while it stays together; warps whose branch takes them
    /// elsewhere leave it (a later group picks them up).
    #[inline(always)]
    fn run_group(
        &mut self,
        kernel: &Kernel,
        program: &Program,
        view: &SharedGlobal,
        g: &mut Group,
        mut pc: Pc,
    ) -> GroupStop {
        let Group { members, acts, wide, uniform } = g;
        let Machine { blocks, layout, global, metrics, steps, max_steps, mem_epoch, par, launch, path, .. } = self;
        let Some(p) = par.as_mut() else { return GroupStop::Refused };
        let block = &mut blocks[0];
        p.enter(block.linear, block.barrier_epoch);
        // The block's first warp, numbered across the launch (bank statistics' samples).
        let first_warp = block.linear * launch.warps_per_block();
        for m in members.iter_mut() {
            m.quiet = p.quiet(m.w as u32);
        }
        let mut touched = exec::Touched::default();
        let (mut ctx, warps, spin_seen) =
            run_parts(kernel, (layout, global, launch, *path), block, view, &mut touched, pc);
        // Consecutive warps' lanes as one stretch of each row, for the operations that run on all at once.
        let (mut consecutive, mut changed, mut threads) = (false, true, 0);
        // Lockstep (pre-Volta) warps issue jumps that nothing reconverges at like straight instructions, and
        // so do ITS warps while each one's threads are one group (a jump only moves them all, and nothing
        // waits to reconverge); kept up to date as members change.
        let lockstep = warps[members[0].w].model.lockstep();
        let mut jumps_through = lockstep;
        // Steps of every member without progress not yet added to each member's record (added when the
        // group next goes member by member).
        let mut idle = 0u64;
        // Where the members' models think they are: stretches (and a lockstep group's jumps) run without
        // telling them, and they catch up where they are read (`WarpModel::catch_up`).
        let mut told = pc;
        let out = 'group: loop {
            if changed {
                consecutive = members.len() > 1 && members.windows(2).all(|p| p[1].w == p[0].w + 1);
                if consecutive {
                    wide.set(members.iter().map(|m| &acts[m.w]));
                }
                uniform.whole = consecutive && wide.full && members[0].w == 0 && members.len() == warps.len();
                threads = members.iter().map(|m| acts[m.w].mask.count() as u64).sum();
                jumps_through = lockstep || members.iter().all(|m| warps[m.w].model.runs_as_one());
                changed = false;
            }
            let group = members.len() as u64;
            // The straight stretch from `pc`, one instruction at a time for the whole group: all of it, unless
            // the scheduler of a member whose threads went different ways (ITS) would let another group of its
            // threads join it on the way (then the group stops after the last instruction its lanes issue
            // alone, and asks each member's model again: `fall`).
            let whole_stretch = program.straight[pc.0 as usize];
            let mut n = whole_stretch;
            if !jumps_through && whole_stretch > 0 {
                for m in members.iter() {
                    let model = &warps[m.w].model;
                    if !model.runs_as_one() {
                        n = n.min(model.stretch_len(kernel, acts[m.w].mask, pc, whole_stretch) + 1);
                    }
                }
            }
            let fall = n < whole_stretch;
            if n > 0 {
                if *steps + group * (n as u64 + 1) > *max_steps {
                    break GroupStop::Refused;
                }
                let start = pc;
                let end = pc.0 + n;
                while pc.0 < end {
                    let op = program.ops[pc.0 as usize];
                    if consecutive && !op.is_memory() {
                        (ctx.base, ctx.pc) = (members[0].w * 32, pc);
                        // A compiled segment of ALU instructions (`sim::jit`), issued as the wide loops would.
                        if let Some(jit) = &p.jit {
                            let compiled = jit.run(&mut ctx, pc, end - pc.0, wide, uniform);
                            if compiled > 0 {
                                idle += compiled as u64;
                                pc = Pc(pc.0 + compiled);
                                continue;
                            }
                        }
                        if exec::execute_wide(&mut ctx, op, wide, uniform) {
                            idle += 1;
                            pc = Pc(pc.0 + 1);
                            continue;
                        }
                    }
                    uniform.settle_instr(&kernel.instrs[pc.0 as usize], ctx.regs, ctx.stride);
                    for m in members.iter_mut() {
                        if idle > 0 && m.quiet.idle(idle) >= QUIET_REFUSED {
                            break 'group GroupStop::Refused;
                        }
                        ctx.base = m.w * 32;
                        let act = &acts[m.w];
                        match exec::execute_decoded(&mut ctx, pc, op, act) {
                            Flow::Next
                                if after_decoded(&mut ctx, (metrics, &mut p.uninit), pc, first_warp + m.w as u64) => {}
                            Flow::General => match exec::execute(&mut ctx, pc, act.mask) {
                                Ok(Effect::Next)
                                    if after_general(
                                        &mut ctx,
                                        (metrics, &mut p.uninit),
                                        pc,
                                        first_warp + m.w as u64,
                                    ) => {}
                                _ => break 'group GroupStop::Refused,
                            },
                            _ => break 'group GroupStop::Refused,
                        }
                        let mut progressed = false;
                        if op.is_memory() {
                            if let Some(t) = ctx.touched.as_deref_mut()
                                && !t.as_slice().is_empty()
                            {
                                let kind = p.kinds[pc.0 as usize];
                                p.record(m.w as u32, t.as_slice(), kind);
                                t.clear();
                            }
                            progressed = std::mem::take(&mut ctx.wrote);
                            *mem_epoch += progressed as u64;
                        }
                        m.quiet.step(progressed);
                        if m.quiet.run >= QUIET_REFUSED {
                            break 'group GroupStop::Refused;
                        }
                    }
                    idle = 0;
                    uniform.forget_written(&kernel.instrs[pc.0 as usize]);
                    if p.order_sensitive {
                        break 'group GroupStop::Refused;
                    }
                    pc = Pc(pc.0 + 1);
                }
                count_issues((steps, metrics, p), (start, pc), group, threads);
            }
            // The stretch's end: a jump or a branch moves each warp on; anything else is the general path's. A
            // stretch cut short moves each warp on to `pc`, where its model picks its next group.
            let (then_pc, else_pc, reconv, site) = match kernel.instrs[pc.0 as usize] {
                _ if fall => (pc, pc, pc, None),
                Instr::Jump { target } if jumps_through && !program.reconverges[target.0 as usize] => {
                    if *steps + group > *max_steps {
                        break GroupStop::Refused;
                    }
                    count_issues((steps, metrics, p), (pc, Pc(pc.0 + 1)), group, threads);
                    idle += 1;
                    // (A loop of such jumps goes member by member nowhere: its steps are checked here.)
                    if idle >= QUIET_REFUSED {
                        break GroupStop::Refused;
                    }
                    back_edge_of_one_groups(lockstep, (pc, target), members, spin_seen);
                    pc = target;
                    continue;
                }
                Instr::Jump { target } => (target, target, target, None),
                Instr::Branch { then_pc, else_pc, reconv, site, .. } => (then_pc, else_pc, reconv, Some(site)),
                _ => {
                    // Executed here for the whole group; the machine applies each warp's effect.
                    if *steps + group > *max_steps {
                        break GroupStop::Refused;
                    }
                    uniform.settle_instr(&kernel.instrs[pc.0 as usize], ctx.regs, ctx.stride);
                    for m in members.iter_mut() {
                        let warp = &mut warps[m.w];
                        if idle > 0 && m.quiet.idle(idle) >= QUIET_REFUSED {
                            break 'group GroupStop::Refused;
                        }
                        warp.model.catch_up(acts[m.w].mask, told, pc);
                        ctx.base = m.w * 32;
                        m.effect = match kernel.instrs[pc.0 as usize] {
                            // (What `exec::execute` returns for it, without its context.)
                            Instr::SyncThreads { .. } => Effect::SyncThreads,
                            _ => match exec::execute(&mut ctx, pc, acts[m.w].mask) {
                                Ok(e)
                                    if after_general(
                                        &mut ctx,
                                        (metrics, &mut p.uninit),
                                        pc,
                                        first_warp + m.w as u64,
                                    ) =>
                                {
                                    e
                                }
                                _ => break 'group GroupStop::Refused,
                            },
                        };
                        if let Some(t) = ctx.touched.as_deref_mut()
                            && !t.as_slice().is_empty()
                        {
                            let kind = p.kinds[pc.0 as usize];
                            p.record(m.w as u32, t.as_slice(), kind);
                            t.clear();
                        }
                        m.progressed = std::mem::take(&mut ctx.wrote);
                        *mem_epoch += m.progressed as u64;
                    }
                    uniform.forget_written(&kernel.instrs[pc.0 as usize]);
                    count_issues((steps, metrics, p), (pc, Pc(pc.0 + 1)), group, threads);
                    break GroupStop::General(pc);
                }
            };
            let op = program.ops[pc.0 as usize];
            // (Where the last issued instruction was, for the models: the branch or jump here, or the stretch's
            // last instruction.)
            let from = if fall { Pc(pc.0 - 1) } else { pc };
            if !fall {
                if *steps + group > *max_steps {
                    break GroupStop::Refused;
                }
                count_issues((steps, metrics, p), (pc, Pc(pc.0 + 1)), group, threads);
            }
            if let (Op::Branch { cond }, Some(site)) = (op, site) {
                // Each member's lanes that take it; when every member's threads go the same way, to where
                // nothing reconverges, pre-Volta warps just move on together (as at a jump).
                let mut way = None;
                let mut agree = true;
                let known = uniform.rows[cond as usize];
                for m in members.iter_mut() {
                    ctx.base = m.w * 32;
                    let taken = match known {
                        Some(v) => [LaneMask::EMPTY, acts[m.w].mask][(v != 0) as usize],
                        None => match exec::execute_decoded(&mut ctx, pc, op, &acts[m.w]) {
                            Flow::Branch(taken) => taken,
                            _ => break 'group GroupStop::Refused,
                        },
                    };
                    m.taken = taken;
                    let all = taken == acts[m.w].mask;
                    agree &= (all || taken.is_empty()) && way.is_none_or(|w| w == all);
                    way = Some(all);
                }
                let next = if way == Some(true) { then_pc } else { else_pc };
                if jumps_through && agree && !program.reconverges[next.0 as usize] {
                    if site.counted {
                        metrics.count_branches(site.line, group, 0);
                    }
                    // (Stacks only deepen at divergent branches, which record it.)
                    if lockstep {
                        metrics.max_stack_depth = metrics.max_stack_depth.max(1);
                    }
                    idle += 1;
                    if idle >= QUIET_REFUSED {
                        break GroupStop::Refused;
                    }
                    back_edge_of_one_groups(lockstep, (pc, next), members, spin_seen);
                    pc = next;
                    continue;
                }
            }
            let mut next_pc = None;
            // Warps whose threads agreed at the branch, and those whose threads did not, counted once for the
            // group.
            let (mut agreed, mut divergent) = (0, 0);
            let mut i = 0;
            while i < members.len() {
                let m = &mut members[i];
                let warp = &mut warps[m.w];
                if idle > 0 && m.quiet.idle(idle) >= QUIET_REFUSED {
                    break 'group GroupStop::Refused;
                }
                let mask = acts[m.w].mask;
                let next = match (op, site) {
                    (Op::Branch { .. }, Some(site)) => {
                        let taken = m.taken;
                        if taken.is_empty() || taken == mask {
                            agreed += site.counted as u64;
                            Some(if taken.is_empty() { else_pc } else { then_pc })
                        } else {
                            warp.model.catch_up(mask, told, pc);
                            let effect = Effect::Branch { taken, then_pc, else_pc, reconv, site };
                            divergent += site.counted as u64;
                            warp.split(metrics, pc, mask, effect, *steps);
                            None
                        }
                    }
                    _ => Some(then_pc),
                };
                if let Some(next) = next {
                    // A backward move of a warp whose threads are one group yields to no other group, and no
                    // thread waits for a spinner: the spin record just clears, as in `warp_run`. Other ITS
                    // warps yield (`advance` does), and the spin check runs as `Machine::spin_check` runs it in
                    // a whole run (`spin.rs`), after the move.
                    let spin_check = next <= from
                        && match warp.model.back_edge() {
                            BackEdge::Free => false,
                            BackEdge::ClearsSpin => {
                                spin_seen[m.w].clear();
                                false
                            }
                            BackEdge::General => true,
                        };
                    warp.model.advance(mask, from, next);
                    if spin_check {
                        // (The rows the state reads hold their values.)
                        uniform.settle_all(ctx.regs, ctx.stride);
                        let state = (next, mask, warp.model.waiting_to_reconverge());
                        if spin::whole_run_repeats(program, &mut spin_seen[m.w], state, ctx.regs, ctx.stride, m.w) {
                            break 'group GroupStop::Refused;
                        }
                    }
                    if site.is_some() {
                        metrics.note_stack_depth(warp.model.depth());
                    }
                }
                if !fall {
                    m.quiet.step(false);
                    if m.quiet.run >= QUIET_REFUSED {
                        break 'group GroupStop::Refused;
                    }
                }
                // The group goes on where its first warp goes; the others leave it.
                match warp.candidate() {
                    Some((npc, nmask))
                        if next_pc.is_none_or(|p| p == npc) && warp.model.may_join_group(kernel, npc) =>
                    {
                        next_pc = Some(npc);
                        if nmask != mask {
                            acts[m.w].set(nmask);
                            changed = true;
                        }
                        i += 1;
                    }
                    _ => {
                        p.set_quiet(m.w as u32, m.quiet);
                        members.remove(i);
                        changed = true;
                    }
                }
            }
            idle = 0;
            if let Some(site) = site
                && agreed + divergent > 0
            {
                metrics.count_branches(site.line, agreed + divergent, divergent);
            }
            match next_pc {
                Some(next) => (pc, told) = (next, next),
                None => break GroupStop::Split,
            }
        };
        for m in members.iter() {
            p.set_quiet(m.w as u32, m.quiet);
        }
        out
    }
}

/// A group of ITS warps, each one's threads one group, moved from `from` to `to` together: a backward move
/// clears each warp's spin record, as `BackEdge::ClearsSpin` does member by member (lockstep warps keep none).
#[inline(always)]
fn back_edge_of_one_groups(lockstep: bool, (from, to): (Pc, Pc), members: &[Member], spin_seen: &mut [Vec<u64>]) {
    if !lockstep && to <= from {
        for m in members {
            spin_seen[m.w].clear();
        }
    }
}

/// The group's `group` warps, with `threads` threads in all, issued instructions `from..to`: the steps, the
/// machine's counts and the per-line counts (`ParState::count_stretch`).
fn count_issues(
    (steps, metrics, p): (&mut u64, &mut Metrics, &mut ParState),
    (from, to): (Pc, Pc),
    group: u64,
    threads: u64,
) {
    let n = (to.0 - from.0) as u64;
    *steps += group * n;
    metrics.warp_instructions += group * n;
    metrics.thread_instructions += threads * n;
    p.count_stretch(from, to, group, threads);
}

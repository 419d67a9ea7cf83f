//! Clock spins fast-forwarded in whole runs ([`Machine::run`]; single-stepping, traces and the debugger's
//! continues never come here). A course's "sleep" kernel spins on the clock (`while (clock64() - start <
//! cycles);`, a streams lesson's `WasteTime(1'000'000'000)`), and warpdbg's clock is the machine's step
//! count: issued one instruction at a time, a billion cycles took minutes.
//!
//! When the spinning warp is the only one that can issue, every step is one of its instructions, so an
//! iteration that starts at step `T` reads the clock at `T + j`. If the loop only computes (no memory, no
//! barrier, no call), each of its values is either the same in every iteration or `T` plus a constant
//! (`clock64() - start` is `T + j - start`), as long as no operation wraps and no comparison changes its
//! answer; [`iterate`] evaluates one iteration in those terms and finds the last start `T` for which that
//! holds. When iterations 1 and 2 leave the registers in the same form (a fixed point; iteration 0 starts
//! from the registers' values) and the last real iteration left the warp's scheduling state as it found it,
//! the iterations up to that bound all issue the same instructions: the machine moves its step count, the
//! warp's registers and the counters those iterations would have changed (instructions per line, branches,
//! the livelock detector's quiet steps) straight to the start of the last of them, and steps on from there as
//! before. The result (memory, output,
//! registers, metrics, the step of every later event) is the one-step-at-a-time run's:
//! `tests/clock_spin.rs` compares the two. `WARPDBG_NO_SPIN_SKIP` turns it off.

use std::collections::HashMap;
use std::sync::Arc;

use super::Machine;
use crate::ir::{ArithOp, Counter, Instr, Kernel, Operand, Pc, Ty};
use crate::sim::alu;
use crate::sim::exec::Effect;
use crate::sim::lane_mask::LaneMask;
use crate::sim::metrics::Metrics;
use crate::sim::warp::Warp;

/// Longest iteration (instructions) evaluated.
const MAX_ITERATION: usize = 256;
/// Fewest iterations worth a skip; after a refusal the warp spins this many before the next try.
const MIN_SKIP: u64 = 16;

/// A register's value during a symbolic iteration: known bits, or the iteration's start step plus an
/// offset (wrapping, 64 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Known(u64),
    Step(u64),
}

impl Val {
    fn at(self, t: u64) -> u64 {
        match self {
            Val::Known(v) => v,
            Val::Step(off) => t.wrapping_add(off),
        }
    }
}

/// One lane's iteration from the loop head back to it.
#[derive(Debug, PartialEq)]
struct Iteration {
    /// The PCs issued, in order.
    pcs: Vec<Pc>,
    /// Registers written, with their values at the next iteration's start, in terms of that start.
    out: Vec<(u32, Val)>,
    /// The latest start step for which this evaluation holds (it holds from the start it was made for).
    bound: u64,
}

/// The loop heads of a kernel whose loops may be skipped, and the probe of the last arrival at one.
#[derive(Clone, Debug, Default)]
pub(super) struct Spins {
    /// Per PC: whether it heads a loop that reads the clock and only computes (empty: the kernel has none).
    heads: Arc<[bool]>,
    /// Set while [`Machine::run`] steps.
    pub(super) enabled: bool,
    /// No try before this step (after a refusal).
    retry_at: u64,
    probe: Option<Box<Probe>>,
    /// Steps skipped so far.
    skipped: u64,
}

/// The spinning warp's state at its previous arrival at a head.
#[derive(Clone, Debug)]
struct Probe {
    at: (usize, usize, Pc),
    steps: u64,
    warp: Warp,
    /// [`counts`] at that arrival.
    counts: [u64; 4],
}

impl Spins {
    /// The loop heads of `kernel`: targets of a backward move whose loop body (the PCs from the head to the
    /// move) only computes and reads `clock()` or `clock64()`.
    pub(super) fn new(kernel: &Kernel, off: bool) -> Spins {
        let mut heads = vec![false; kernel.instrs.len()];
        for (p, instr) in kernel.instrs.iter().enumerate() {
            let targets = match instr {
                Instr::Jump { target } => [Some(*target), None],
                Instr::Branch { then_pc, else_pc, .. } => [Some(*then_pc), Some(*else_pc)],
                _ => continue,
            };
            for t in targets.into_iter().flatten().filter(|t| (t.0 as usize) <= p) {
                let body = &kernel.instrs[t.0 as usize..=p];
                let clock = body
                    .iter()
                    .any(|i| matches!(i, Instr::ReadCounter { which: Counter::Clock | Counter::Clock64, .. }));
                if clock && body.len() <= MAX_ITERATION && body.iter().all(computes) {
                    heads[t.0 as usize] = true;
                }
            }
        }
        if off || !heads.contains(&true) {
            heads.clear();
        }
        Spins { heads: heads.into(), ..Spins::default() }
    }

    /// The loop head the lanes `mask` moved back to with `effect`, issued at `pc`, when it is one.
    pub(super) fn head_after(&self, pc: Pc, mask: LaneMask, effect: &Effect) -> Option<Pc> {
        if !self.enabled || self.heads.is_empty() {
            return None;
        }
        let to = match *effect {
            Effect::Jump(t) => t,
            Effect::Branch { taken, then_pc, .. } if taken == mask => then_pc,
            Effect::Branch { taken, else_pc, .. } if taken.is_empty() => else_pc,
            _ => return None,
        };
        (to <= pc && self.heads.get(to.0 as usize) == Some(&true)).then_some(to)
    }
}

/// The counts an iteration adds to: warp- and thread-instructions, branches, divergent branches.
fn counts(m: &Metrics) -> [u64; 4] {
    [m.warp_instructions, m.thread_instructions, m.branches, m.divergent_branches]
}

/// Whether an instruction may be part of a skipped loop: it only computes, reads the clock or moves.
fn computes(i: &Instr) -> bool {
    match i {
        Instr::ReadCounter { which, .. } => matches!(which, Counter::Clock | Counter::Clock64),
        Instr::Mov { .. }
        | Instr::Unary { .. }
        | Instr::Binary { .. }
        | Instr::Cmp { .. }
        | Instr::Convert { .. }
        | Instr::Math { .. }
        | Instr::Fma { .. }
        | Instr::Fence
        | Instr::Jump { .. }
        | Instr::Branch { .. } => true,
        _ => false,
    }
}

impl Machine {
    /// Steps this machine's whole runs skipped in clock spins (`clock_spin.rs`): issued all the same, and
    /// counted in [`Machine::steps`].
    pub fn spin_steps_skipped(&self) -> u64 {
        self.spins.skipped
    }

    /// Warp `w` of slot `b` just moved back to the clock loop head `head`: skip the iterations that provably
    /// repeat (see the module).
    pub(super) fn skip_clock_spin(&mut self, b: usize, w: usize, head: Pc) {
        if self.par.is_some() || self.schedule_seed.is_some() || self.steps < self.spins.retry_at {
            return;
        }
        let Some(mask) = self.only_issuer(b, w, head) else {
            // (Asking every warp at every back edge of many spinning warps would cost more than their
            // spinning.)
            self.spins.retry_at = self.steps + MIN_SKIP * self.order.len() as u64;
            self.spins.probe = None;
            return;
        };
        let probe = Probe {
            at: (b, w, head),
            steps: self.steps,
            warp: self.blocks[b].warps[w].clone(),
            counts: counts(&self.metrics),
        };
        let last = self.spins.probe.replace(Box::new(probe));
        let Some(last) = last.filter(|p| p.at == (b, w, head) && p.warp == self.blocks[b].warps[w]) else {
            return;
        };
        if !self.skip_from(b, w, head, mask, &last) {
            self.spins.retry_at = self.steps + MIN_SKIP * (self.steps - last.steps).max(1);
            self.spins.probe = None;
        }
    }

    /// The lanes of warp `w` at `head` when it is the machine's only warp that can issue and, under ITS, no
    /// thread of it waits to reconverge (the forward-progress record would then keep the spinner's states).
    fn only_issuer(&mut self, b: usize, w: usize, head: Pc) -> Option<LaneMask> {
        let warp = &mut self.blocks[b].warps[w];
        let (pc, mask) = warp.candidate()?;
        if pc != head || !warp.model.waiting_to_reconverge().is_empty() {
            return None;
        }
        for i in 0..self.order.len() {
            let (b2, w2) = self.order[i];
            if (b2, w2) != (b, w) && self.blocks[b2].warps[w2].candidate().is_some() {
                return None;
            }
        }
        Some(mask)
    }

    /// Skips the repeating iterations of the lanes `mask` from `head`, whose previous iteration `last`
    /// measured; false when none can be.
    fn skip_from(&mut self, b: usize, w: usize, head: Pc, mask: LaneMask, last: &Probe) -> bool {
        let kernel = self.kernel.clone();
        let t0 = self.steps;
        let block = &self.blocks[b];
        let mut plan: Option<(Vec<Pc>, u64)> = None;
        let mut outs = Vec::with_capacity(mask.count() as usize);
        for l in mask.iter() {
            let tid = w as u32 * 32 + l;
            let reg = |r: u32| block.reg(r, tid);
            let Some(Iteration { pcs, out, bound }) = repeating(&kernel, head, &reg, t0) else {
                return false;
            };
            match &mut plan {
                None => plan = Some((pcs, bound)),
                Some((p, b)) if *p == pcs => *b = (*b).min(bound),
                Some(_) => return false,
            }
            outs.push((tid, out));
        }
        let Some((pcs, bound)) = plan else { return false };
        let len = pcs.len() as u64;
        let lanes = mask.count() as u64;
        let branches = pcs
            .iter()
            .filter(|pc| matches!(&kernel.instrs[pc.0 as usize], Instr::Branch { site, .. } if site.counted))
            .count() as u64;
        // The previous iteration, measured, issued these same instructions and nothing else did.
        let measured: Vec<u64> = counts(&self.metrics).iter().zip(last.counts).map(|(n, l)| n - l).collect();
        if t0 - last.steps != len || measured != [len, len * lanes, branches, 0] {
            return false;
        }
        // Iteration i starts at t0 + i * len; iterations 0 and 1 hold at their starts, 2.. up to `bound`
        // (`valid` is the last that holds); the run resumes at the start of iteration `skip`, of which the step
        // limit must still be ahead.
        let valid = if bound >= t0 + 2 * len { (bound - t0) / len } else { 1 };
        let room = self.max_steps.saturating_sub(t0 + 2 * len) / len;
        let skip = (valid + 1).min(room);
        if skip < MIN_SKIP {
            return false;
        }
        let t = t0 + skip * len;
        let block = &mut self.blocks[b];
        // What iteration `skip - 1` left, its offsets taken from its own start.
        for (tid, out) in outs {
            for (r, v) in out {
                block.regs[r as usize * block.stride + tid as usize] = v.at(t - len);
            }
        }
        self.metrics.warp_instructions += skip * len;
        self.metrics.thread_instructions += skip * len * lanes;
        for pc in &pcs {
            self.metrics.add_line(kernel.line(*pc), skip, skip * lanes);
            if let Instr::Branch { site, .. } = &kernel.instrs[pc.0 as usize]
                && site.counted
            {
                self.metrics.count_branches(site.line, skip, 0);
            }
        }
        let path: Vec<_> = pcs.iter().map(|&pc| (pc, mask)).collect();
        self.quiet_steps(skip * len, b, w as u32, &path);
        self.steps = t;
        self.spins.skipped += skip * len;
        self.spins.probe = None;
        true
    }
}

/// One lane's loop from `head` evaluated at start `t0`, then twice more from the form each leaves: iteration
/// 2, whose bound is the latest start for which iterations 2.. repeat. None unless the form is a fixed point
/// from iteration 1 on (iteration 2 leaves what iteration 1 left, so every later one does too; iteration 0
/// starts from the registers' values, so what it leaves may be known where later ones leave the clock).
fn repeating(kernel: &Kernel, head: Pc, reg: &dyn Fn(u32) -> u64, t0: u64) -> Option<Iteration> {
    let first = iterate(kernel, head, reg, &HashMap::new(), t0)?;
    let len = first.pcs.len() as u64;
    let second = iterate(kernel, head, reg, &shifted(&first.out, len), t0 + len)?;
    let third = iterate(kernel, head, reg, &shifted(&second.out, len), t0 + 2 * len)?;
    let same_path = first.pcs == second.pcs && second.pcs == third.pcs;
    (same_path && second.out == third.out).then_some(third)
}

/// Values at an iteration's end as the next one's inputs: offsets are relative to the next start.
fn shifted(out: &[(u32, Val)], len: u64) -> HashMap<u32, Val> {
    out.iter()
        .map(|&(r, v)| {
            let v = match v {
                Val::Step(off) => Val::Step(off.wrapping_sub(len)),
                k => k,
            };
            (r, v)
        })
        .collect()
}

/// Evaluates one iteration of the loop at `head` for one lane whose registers are `inputs` over `reg`, the
/// iteration starting at step `t`. None when an instruction is not one whose result is known or `T` plus a
/// constant, or the iteration does not come back to `head`.
fn iterate(
    kernel: &Kernel,
    head: Pc,
    reg: &dyn Fn(u32) -> u64,
    inputs: &HashMap<u32, Val>,
    t: u64,
) -> Option<Iteration> {
    let mut vals = inputs.clone();
    let mut written: Vec<u32> = vec![];
    let mut ev = Eval { t, bound: u64::MAX };
    let mut pcs = vec![];
    let mut pc = head;
    loop {
        if pcs.len() >= MAX_ITERATION {
            return None;
        }
        pcs.push(pc);
        let get = |vals: &HashMap<u32, Val>, o: Operand| match o {
            Operand::Imm(v) => Val::Known(v),
            Operand::Reg(r) => vals.get(&r.0).copied().unwrap_or(Val::Known(reg(r.0))),
        };
        let j = pcs.len() as u64 - 1;
        let mut next = Pc(pc.0 + 1);
        let result = match kernel.instrs.get(pc.0 as usize)? {
            Instr::Mov { dst, src } => Some((dst.0, get(&vals, *src))),
            Instr::ReadCounter { dst, which } => Some((dst.0, ev.clock(*which, j)?)),
            Instr::Unary { op, ty, dst, src } => match get(&vals, *src) {
                Val::Known(a) => Some((dst.0, Val::Known(alu::unary(*op, *ty, a)))),
                Val::Step(_) => return None,
            },
            Instr::Convert { from, to, dst, src } => Some((dst.0, ev.convert(*from, *to, get(&vals, *src))?)),
            Instr::Binary { op, ty, dst, a, b } => Some((dst.0, ev.binary(*op, *ty, get(&vals, *a), get(&vals, *b))?)),
            Instr::Cmp { op, ty, dst, a, b } => {
                let (a, b) = (get(&vals, *a), get(&vals, *b));
                Some((dst.0, ev.compare(*ty, a, b, |x, y| alu::compare(*op, *ty, x, y))?))
            }
            Instr::Math { func, ty, dst, a, b } => match (get(&vals, *a), get(&vals, *b)) {
                (Val::Known(a), Val::Known(b)) => Some((dst.0, Val::Known(alu::math(*func, *ty, a, b)))),
                _ => return None,
            },
            Instr::Fma { ty, dst, a, b, c } => match (get(&vals, *a), get(&vals, *b), get(&vals, *c)) {
                (Val::Known(a), Val::Known(b), Val::Known(c)) => Some((dst.0, Val::Known(alu::fma(*ty, a, b, c)))),
                _ => return None,
            },
            Instr::Fence => None,
            Instr::Jump { target } => {
                next = *target;
                None
            }
            Instr::Branch { cond, then_pc, else_pc, .. } => {
                let Val::Known(c) = get(&vals, *cond) else { return None };
                next = if c != 0 { *then_pc } else { *else_pc };
                None
            }
            _ => return None,
        };
        if let Some((r, v)) = result {
            vals.insert(r, v);
            if !written.contains(&r) {
                written.push(r);
            }
        }
        if next == head {
            break;
        }
        pc = next;
    }
    let out = written.into_iter().map(|r| (r, vals[&r])).collect();
    Some(Iteration { pcs, out, bound: ev.bound })
}

/// The arithmetic of an iteration starting at step `t`, narrowing `bound` to the starts for which each
/// result keeps its form.
struct Eval {
    t: u64,
    bound: u64,
}

impl Eval {
    /// The results hold for starts up to `t + d`.
    fn limit(&mut self, d: u64) {
        self.bound = self.bound.min(self.t.saturating_add(d));
    }

    /// `clock64()` or `clock()` read `j` instructions into the iteration.
    fn clock(&mut self, which: Counter, j: u64) -> Option<Val> {
        let x = Val::Step(j);
        match which {
            Counter::Clock64 => Some(x),
            Counter::Clock => self.linear(x, sext32_room(x.at(self.t)), |v| v as u32 as i32 as i64 as u64),
            Counter::Barrier(_) => None,
        }
    }

    /// `f(x)` for a value `x` in `T` plus a constant, where `f` adds a constant to its argument over the next
    /// `room` steps (the caller's knowledge of `f`, checked at both ends).
    fn linear(&mut self, x: Val, room: u64, f: impl Fn(u64) -> u64) -> Option<Val> {
        let (t, x0) = (self.t, x.at(self.t));
        let r0 = f(x0);
        if f(x0.wrapping_add(room)) != r0.wrapping_add(room) {
            return None;
        }
        self.limit(room);
        Some(Val::Step(r0.wrapping_sub(t)))
    }

    fn convert(&mut self, from: Ty, to: Ty, x: Val) -> Option<Val> {
        let f = |v| alu::convert(from, to, v);
        let Val::Step(_) = x else { return Some(Val::Known(f(x.at(0)))) };
        let wide = |ty| matches!(ty, Ty::I64 | Ty::U64 | Ty::Ptr);
        let lo = x.at(self.t) as u32;
        let room = match (from, to) {
            (f, t) if wide(f) && wide(t) => u64::MAX,
            (f, Ty::I32 | Ty::U32) if wide(f) => (u32::MAX - lo) as u64,
            (Ty::I32, t) if wide(t) => sext32_room(lo as u64),
            (Ty::U32, t) if wide(t) => (u32::MAX - lo) as u64,
            (Ty::I32 | Ty::U32, Ty::I32 | Ty::U32) => (u32::MAX - lo) as u64,
            _ => return None,
        };
        self.linear(x, room, f)
    }

    fn binary(&mut self, op: ArithOp, ty: Ty, a: Val, b: Val) -> Option<Val> {
        let (x0, y0) = (a.at(self.t), b.at(self.t));
        let exact = alu::binary(op, ty, x0, y0).ok()?;
        let narrow = match ty {
            _ if matches!((a, b), (Val::Known(_), Val::Known(_))) => return Some(Val::Known(exact)),
            Ty::I32 | Ty::U32 => true,
            Ty::I64 | Ty::U64 | Ty::Ptr => false,
            _ => return None,
        };
        // The sum at full width.
        let sum = match (op, a, b) {
            (ArithOp::Add, Val::Step(o), Val::Known(c)) | (ArithOp::Add, Val::Known(c), Val::Step(o)) => {
                Val::Step(o.wrapping_add(c))
            }
            (ArithOp::Sub, Val::Step(o), Val::Known(c)) => Val::Step(o.wrapping_sub(c)),
            // The steps cancel, at any width.
            (ArithOp::Sub, Val::Step(_), Val::Step(_)) => return Some(Val::Known(exact)),
            _ => return None,
        };
        let r = if narrow {
            let room = (u32::MAX - sum.at(self.t) as u32) as u64;
            self.linear(sum, room, |v| v as u32 as u64)?
        } else {
            sum
        };
        (r.at(self.t) == exact).then_some(r)
    }

    /// A comparison `cmp(a, b)` of type `ty`: known while the steps neither wrap in the compared width nor
    /// cross the other side.
    fn compare(&mut self, ty: Ty, a: Val, b: Val, cmp: impl Fn(u64, u64) -> bool) -> Option<Val> {
        let t = self.t;
        let now = cmp(a.at(t), b.at(t));
        if let (Val::Known(_), Val::Known(_)) = (a, b) {
            return Some(Val::Known(now as u64));
        }
        let (bits, signed) = match ty {
            Ty::I64 => (64, true),
            Ty::U64 | Ty::Ptr => (64, false),
            Ty::I32 => (32, true),
            Ty::U32 => (32, false),
            _ => return None,
        };
        let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        let flip = if signed { 1u64 << (bits - 1) } else { 0 };
        // A value's place in the compared order (unsigned, of `bits` bits).
        let key = |v: u64| (v & mask) ^ flip;
        let room = |v: Val| match v {
            Val::Step(_) => mask - key(v.at(t)),
            Val::Known(_) => u64::MAX,
        };
        let mut d = room(a).min(room(b));
        // One side moves with the steps: the answer can change only where it meets the other side or
        // passes it.
        if let (Val::Step(_), Val::Known(c)) | (Val::Known(c), Val::Step(_)) = (a, b) {
            let moving = if let Val::Step(_) = a { a } else { b };
            let (k, kc) = (key(moving.at(t)), key(c));
            let meets = kc.checked_sub(k);
            for s in [meets, meets.and_then(|s| s.checked_add(1))].into_iter().flatten() {
                if s == 0 || s > d {
                    continue;
                }
                let Some(ts) = t.checked_add(s) else { continue };
                if cmp(a.at(ts), b.at(ts)) != now {
                    d = d.min(s - 1);
                }
            }
        }
        self.limit(d);
        Some(Val::Known(now as u64))
    }
}

/// Steps before the low 32 bits of `v`, read as a signed number, stop growing by one a step: until they pass
/// from `0x7fffffff` to `0x80000000` (from -1 to 0 is one more).
fn sext32_room(v: u64) -> u64 {
    0x7fff_ffffu32.wrapping_sub(v as u32) as u64
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;

//! Whole runs: a warp's load or store in one go, where its lanes access consecutive elements (or, for loads,
//! any elements of one allocation), through the shared view of global memory (`Ctx::par`).

use super::context::{Ctx, Note};
use super::lanes::Src;
use crate::ir::{Operand, Reg};
use crate::sim::lane_mask::ActiveLanes;
use crate::sim::lane_runs::LaneRuns;
use crate::sim::memory;
use crate::sim::traffic::GlobalOp;

/// The address of the lowest active lane when every active lane `l` addresses element `l` of one array of
/// `size`-byte elements (`a[tid]`, `a[tid + 1]`): the warp's access is then one stretch of memory.
#[inline(always)]
fn consecutive(ctx: &Ctx, act: &ActiveLanes, size: u32, addr: Operand) -> Option<u64> {
    let first = act.mask.lowest()?;
    let Operand::Reg(r) = addr else { return None };
    let at = r.0 as usize * ctx.stride + ctx.base;
    let av: &[u64; 32] = ctx.regs[at..at + 32].try_into().expect("a warp's row holds 32 lanes");
    let start = av[first as usize];
    // Lane `l` must address `base + l * size`: each lane's test stands alone (no running sum), so it
    // vectorises; element sizes are powers of two.
    if !size.is_power_of_two() {
        return None;
    }
    let k = size.trailing_zeros();
    let base = start.wrapping_sub((first as u64) << k);
    let mut off = 0u64;
    for (l, a) in av.iter().enumerate() {
        off |= (a.wrapping_sub((l as u64) << k) ^ base) & act.select[l];
    }
    (off == 0 && !memory::is_shared(start)).then_some(start)
}

/// Whole runs: a warp's load of consecutive elements in one go (false: not that case, nothing done).
#[inline(always)]
pub(super) fn load_elems(ctx: &mut Ctx, act: &ActiveLanes, size: u32, dst: Reg, addr: Operand) -> bool {
    let mask = act.mask;
    let (Some(g), Some(start)) = (ctx.par, consecutive(ctx, act, size, addr)) else { return false };
    let first = mask.0.trailing_zeros() as usize;
    let d = dst.0 as usize * ctx.stride + ctx.base;
    let Some(unwritten) = g.load_elems(start, size, mask.0 >> first, &mut ctx.regs[d + first..d + 32]) else {
        return false;
    };
    if unwritten != 0 {
        let lowest = unwritten.trailing_zeros();
        ctx.notes.push(Note::UninitReads { lanes: unwritten << first, addr: start + (lowest * size) as u64 });
    }
    ctx.global_access.elems(GlobalOp::Load, start, size, mask.0);
    ctx.touch_elems(start, size, mask);
    true
}

/// Whole runs: a warp's load from any addresses in one global allocation (a row's element for the whole
/// warp, two half-warps on two rows of a 16 x 16 tile), with the allocation found once rather than per lane.
/// False, with nothing done, unless every active lane's read lies in that allocation, aligned: the
/// lane-by-lane path then reports what is wrong. Lanes that read bytes nothing wrote make one note.
#[inline(always)]
pub(super) fn load_gather(ctx: &mut Ctx, act: &ActiveLanes, size: u32, dst: Reg, addr: Operand) -> bool {
    let (Some(g), Operand::Reg(r)) = (ctx.par, addr) else { return false };
    if act.mask.is_empty() {
        return false;
    }
    let at = r.0 as usize * ctx.stride + ctx.base;
    let av: [u64; 32] = ctx.regs[at..at + 32].try_into().expect("a warp's row holds 32 lanes");
    let (mut lo, mut hi, mut bits) = (u64::MAX, 0u64, 0u64);
    for (a, s) in av.iter().zip(&act.select) {
        lo = lo.min(a | !s);
        hi = hi.max(a & s);
        bits |= a & s;
    }
    if memory::is_shared(lo) || memory::is_shared(hi) || bits & (size as u64 - 1) != 0 {
        return false;
    }
    let d = dst.0 as usize * ctx.stride + ctx.base;
    let Some(unwritten) = g.load_gather(&av, act.mask.0, size, (lo, hi), &mut ctx.regs[d..d + 32]) else {
        return false;
    };
    if unwritten != 0 {
        ctx.notes.push(Note::UninitReads { lanes: unwritten, addr: av[unwritten.trailing_zeros() as usize] });
    }
    ctx.global_access.gather(GlobalOp::Load, &av, size, act.mask.0);
    match LaneRuns::of(&av, act.mask.0, size as u64) {
        Some(runs) => ctx.touch_spans(runs.spans()),
        None => {
            for l in act.mask.iter() {
                ctx.touch(av[l as usize], size);
            }
        }
    }
    true
}

/// Whole runs: a warp's store of consecutive elements in one go (as [`load_elems`]).
#[inline(always)]
pub(super) fn store_elems(ctx: &mut Ctx, act: &ActiveLanes, size: u32, addr: Operand, src: Operand) -> bool {
    let mask = act.mask;
    let (Some(g), Some(start)) = (ctx.par, consecutive(ctx, act, size, addr)) else { return false };
    let first = mask.0.trailing_zeros() as usize;
    let Some(wrote) = (match Src::of(src, ctx.stride, ctx.base) {
        Src::Row(o) => g.store_elems(start, size, mask.0 >> first, &ctx.regs[o + first..o + 32]),
        Src::Imm(v) => g.store_elems(start, size, mask.0 >> first, &[v; 32][first..]),
    }) else {
        return false;
    };
    ctx.wrote |= wrote;
    ctx.global_access.elems(GlobalOp::Store, start, size, mask.0);
    ctx.touch_elems(start, size, mask);
    true
}

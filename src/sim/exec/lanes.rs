//! Whole-warp lane loops both paths share: every lane of a warp's register row computed, the active ones
//! written (a loop the compiler vectorises), and the specials.

use super::context::{Ctx, ExecError};
use crate::front::tast::Special;
use crate::ir::{Operand, Reg};
use crate::sim::lane_mask::{ActiveLanes, LaneMask};

/// Where an operand's value comes from, resolved once per instruction.
#[derive(Clone, Copy)]
pub(super) enum Src {
    Row(usize),
    Imm(u64),
}

impl Src {
    #[inline(always)]
    pub(super) fn of(o: Operand, stride: usize, base: usize) -> Src {
        match o {
            Operand::Reg(r) => Src::Row(r.0 as usize * stride + base),
            Operand::Imm(v) => Src::Imm(v),
        }
    }

    /// The operand's value in each of the warp's 32 lanes.
    #[inline(always)]
    pub(super) fn lanes(self, regs: &[u64]) -> [u64; 32] {
        match self {
            Src::Row(o) => regs[o..o + 32].try_into().expect("a warp's row holds 32 lanes"),
            Src::Imm(v) => [v; 32],
        }
    }
}

/// `dst = threadIdx.x` and the other specials for the lanes in `mask`.
#[inline(always)]
pub(super) fn special(ctx: &mut Ctx, act: &ActiveLanes, dst: Reg, which: Special) {
    let (b, base) = (ctx.block_dim, ctx.base as u64);
    match which {
        // A one-dimensional block (the common case): threadIdx.x is the thread's index.
        Special::ThreadIdx(0) if b.y == 1 && b.z == 1 => {
            let out = warp_row(ctx.regs, dst.0 as usize * ctx.stride + ctx.base);
            for (l, o) in out.iter_mut().enumerate() {
                *o = act.pick(l, base + l as u64, *o);
            }
        }
        Special::BlockIdx(_) | Special::BlockDim(_) | Special::GridDim(_) => {
            let v = ctx.special(which, 0);
            map1(ctx, act, dst, Operand::Imm(v), |x| x);
        }
        _ => {
            for l in act.mask.iter() {
                let v = ctx.special(which, l);
                ctx.set(dst, l, v);
            }
        }
    }
}

/// `dst = f(a)` for the lanes in `mask`. Every lane is computed and only the active ones are written: the
/// functions given here are total (no fault, no panic), so this is the same and vectorises.
#[cfg_attr(target_arch = "wasm32", inline(never))] // (as `wide::Uniform::op2`)
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn map1(ctx: &mut Ctx, act: &ActiveLanes, dst: Reg, a: Operand, f: impl Fn(u64) -> u64) {
    let av = Src::of(a, ctx.stride, ctx.base).lanes(ctx.regs);
    let d = dst.0 as usize * ctx.stride + ctx.base;
    let out = warp_row(ctx.regs, d);
    if act.mask == LaneMask::FULL {
        for l in 0..32 {
            out[l] = f(av[l]);
        }
    } else {
        for l in 0..32 {
            out[l] = act.pick(l, f(av[l]), out[l]);
        }
    }
}

/// `dst = f(a, b)` for the lanes in `mask` (as [`map1`]). Source rows other than the destination are read in
/// place, beside it (a copy of a warp's row is a call to `memcpy`); a source that is the destination row is
/// copied first.
#[cfg_attr(target_arch = "wasm32", inline(never))] // (as `wide::Uniform::op2`)
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn map2(ctx: &mut Ctx, act: &ActiveLanes, dst: Reg, a: Operand, b: Operand, f: impl Fn(u64, u64) -> u64) {
    let (stride, base) = (ctx.stride, ctx.base);
    let d = dst.0 as usize * stride + base;
    let (sa, sb) = (Src::of(a, stride, base), Src::of(b, stride, base));
    let (splat_a, splat_b, copy_a, copy_b);
    let (lo, rest) = ctx.regs.split_at_mut(d);
    let (out, hi) = rest.split_at_mut(32);
    let out: &mut [u64; 32] = out.try_into().expect("a warp's row holds 32 lanes");
    let row = |o: usize| -> &[u64; 32] {
        let r = if o < d { &lo[o..o + 32] } else { &hi[o - d - 32..o - d] };
        r.try_into().expect("a warp's row holds 32 lanes")
    };
    let av: &[u64; 32] = match sa {
        Src::Imm(v) => {
            splat_a = [v; 32];
            &splat_a
        }
        Src::Row(o) if o == d => {
            copy_a = *out;
            &copy_a
        }
        Src::Row(o) => row(o),
    };
    let bv: &[u64; 32] = match sb {
        Src::Imm(v) => {
            splat_b = [v; 32];
            &splat_b
        }
        Src::Row(o) if o == d => {
            copy_b = *out;
            &copy_b
        }
        Src::Row(o) => row(o),
    };
    if act.mask == LaneMask::FULL {
        for l in 0..32 {
            out[l] = f(av[l], bv[l]);
        }
    } else {
        for l in 0..32 {
            out[l] = act.pick(l, f(av[l], bv[l]), out[l]);
        }
    }
}

/// Unsigned 32-bit division or remainder for the lanes in `mask`, in ascending lane order: the first lane
/// dividing by zero stops the instruction (the lanes before it have their results, as in the general path).
/// A divisor that is the same power of two in every active lane (`tid % (2 * stride)`) is a mask or a shift.
#[inline(always)]
pub(super) fn divide_u32(
    ctx: &mut Ctx,
    act: &ActiveLanes,
    dst: Reg,
    a: Operand,
    b: Operand,
    rem: bool,
) -> Result<(), ExecError> {
    let mask = act.mask;
    if mask.is_empty() {
        return Ok(());
    }
    let bs = Src::of(b, ctx.stride, ctx.base);
    let divisor = match bs {
        Src::Imm(v) => Some(v as u32).filter(|d| d.is_power_of_two()),
        Src::Row(o) => uniform_power_of_two(&ctx.regs[o..o + 32], &act.select),
    };
    if let Some(d) = divisor {
        let shift = d.trailing_zeros();
        if rem {
            map2(ctx, act, dst, a, b, |x, _| (x as u32 & (d - 1)) as u64);
        } else {
            map2(ctx, act, dst, a, b, |x, _| (x as u32 >> shift) as u64);
        }
        return Ok(());
    }
    let av = Src::of(a, ctx.stride, ctx.base).lanes(ctx.regs);
    let bv = bs.lanes(ctx.regs);
    let out = warp_row(ctx.regs, dst.0 as usize * ctx.stride + ctx.base);
    for l in mask.iter() {
        let (x, y) = (av[l as usize] as u32, bv[l as usize] as u32);
        if y == 0 {
            return Err(ExecError::DivideByZero { lane: l });
        }
        out[l as usize] = if rem { x % y } else { x / y } as u64;
    }
    Ok(())
}

/// The divisor in `row` (a register's lanes) when it is the same power of two in every lane `select` keeps;
/// None otherwise, or when it keeps none. Checked over all lanes with a select: it vectorises.
#[inline(always)]
pub(super) fn uniform_power_of_two(row: &[u64], select: &[u64]) -> Option<u32> {
    let first = select.iter().position(|&s| s != 0)?;
    let d = row[first] as u32;
    let mut other = 0u64;
    for (v, s) in row.iter().zip(select) {
        other |= (*v as u32 ^ d) as u64 & s;
    }
    (other == 0 && d.is_power_of_two()).then_some(d)
}

/// The 32 lanes of one warp's register starting at `at`.
#[inline(always)]
pub(super) fn warp_row(regs: &mut [u64], at: usize) -> &mut [u64; 32] {
    (&mut regs[at..at + 32]).try_into().expect("a warp's row holds 32 lanes")
}

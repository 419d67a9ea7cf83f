//! The data path of a group of consecutive warps issuing one instruction together (`machine/gang.rs`): their
//! lanes are one stretch of each register row (register `r` of thread `t` is at `r * stride + t`), so an
//! ALU operation is one loop over all of them instead of one per warp.

use super::context::Ctx;
use super::lanes::uniform_power_of_two;
use crate::front::tast::Special;
use crate::ir::{Instr, Operand};
use crate::sim::decoded::{Alu, Op, Row};
use crate::sim::lane_mask::ActiveLanes;

/// The lanes of consecutive warps: every warp's selects, one after another.
#[derive(Clone, Debug, Default)]
pub struct WideLanes {
    /// Word `i` is all ones when lane `i % 32` of the `i / 32`-th warp is active.
    pub select: Vec<u64>,
    /// Every lane of every warp is active.
    pub full: bool,
}

impl WideLanes {
    /// The lanes of `warps`, in order.
    #[inline(always)]
    pub fn set<'a>(&mut self, warps: impl ExactSizeIterator<Item = &'a ActiveLanes>) {
        self.select.resize(32 * warps.len(), 0);
        self.full = true;
        for (slot, a) in self.select.chunks_exact_mut(32).zip(warps) {
            slot.copy_from_slice(&a.select);
            self.full &= a.mask.0 == u32::MAX;
        }
    }

    /// How many lanes.
    pub fn len(&self) -> usize {
        self.select.len()
    }
}

/// The rows of a block's register file known to hold one value in every lane of every warp (a block's
/// loop counter, `blockDim.x`, a pointer plus a block offset): an operation on such rows computes its value
/// once, and the wide loops take it as a value rather than reading the row. The constants' rows always are;
/// a register's row becomes one when a group of all the block's warps, every lane active, writes one value
/// to it, and stops being one at any other write (`Uniform::forget`). Such a write only records the value:
/// the row itself is written (`Uniform::settle`) before anything but this group's wide loops reads it or
/// writes part of it, so a value that changes every loop iteration and is only read here never costs a
/// row's worth of stores.
#[derive(Clone, Debug, Default)]
pub struct Uniform {
    /// Per row: the value of every lane, if known.
    pub rows: Vec<Option<u64>>,
    /// Per row: its known value is not written to the row yet; and how many rows are.
    stale: Vec<bool>,
    stale_rows: usize,
    /// The group issuing is the whole block with every lane active: a value it writes is the row's.
    pub whole: bool,
}

impl Uniform {
    /// Knows nothing of the `regs` registers' rows; the constants' rows after them hold `consts`.
    pub fn reset(&mut self, regs: usize, consts: &[u64]) {
        self.rows.clear();
        self.rows.resize(regs, None);
        self.rows.extend(consts.iter().map(|&c| Some(c)));
        self.stale.clear();
        self.stale.resize(self.rows.len(), false);
        self.stale_rows = 0;
    }

    /// Row `d` was written some other way (after [`Uniform::settle`]).
    #[inline(always)]
    pub fn forget(&mut self, d: Row) {
        debug_assert!(!self.stale[d as usize], "row {d} forgotten before it was settled");
        self.rows[d as usize] = None;
    }

    /// [`Uniform::forget`] the row `instr` wrote (the member-by-member path wrote it).
    #[inline(always)]
    pub fn forget_written(&mut self, instr: &Instr) {
        if let Some(d) = instr.dst() {
            self.forget(d.0);
        }
    }

    /// Writes row `d`'s known value to all its lanes if it is not there yet (the block's register file is
    /// `regs`, `stride` lanes per row).
    #[inline(always)]
    pub fn settle(&mut self, regs: &mut [u64], stride: usize, d: usize) {
        if self.stale[d] {
            self.stale[d] = false;
            self.stale_rows -= 1;
            let v = self.rows[d].expect("a stale row has a known value");
            regs[d * stride..(d + 1) * stride].fill(v);
        }
    }

    /// [`Uniform::settle`] for every row `instr` reads or writes, before something else executes it.
    #[inline(always)]
    pub fn settle_instr(&mut self, instr: &Instr, regs: &mut [u64], stride: usize) {
        if self.stale_rows == 0 {
            return;
        }
        instr.each_source(|o| {
            if let Operand::Reg(r) = o {
                self.settle(regs, stride, r.0 as usize);
            }
        });
        if let Some(d) = instr.dst() {
            self.settle(regs, stride, d.0 as usize);
        }
    }

    /// [`Uniform::settle`] for every row, before other paths run the block.
    pub fn settle_all(&mut self, regs: &mut [u64], stride: usize) {
        for d in 0..self.rows.len() {
            if self.stale_rows == 0 {
                return;
            }
            self.settle(regs, stride, d);
        }
    }

    /// Before the group writes row `d` lane by lane: a whole group writes every lane; another keeps some,
    /// which must then hold the row's value.
    #[inline(always)]
    fn before_write(&mut self, ctx: &mut Ctx, d: Row) {
        self.before_lanes_write(ctx.regs, ctx.stride, d);
    }

    /// [`Uniform::before_write`] for code that writes the group's lanes of row `d` itself (`sim::jit`).
    #[inline(always)]
    pub fn before_lanes_write(&mut self, regs: &mut [u64], stride: usize, d: Row) {
        if self.whole {
            // (Every lane is written: the known value need not be.)
            self.stale_rows -= self.stale[d as usize] as usize;
            self.stale[d as usize] = false;
        } else {
            self.settle(regs, stride, d as usize);
        }
    }

    /// After such code wrote the group's lanes of row `d`: `v` is the value it wrote in every lane, if that is
    /// known, which the row then holds when the group is the whole block.
    #[cfg(feature = "native")]
    #[inline(always)]
    pub fn lanes_written(&mut self, d: Row, v: Option<u64>) {
        self.rows[d as usize] = if self.whole { v } else { None };
    }

    /// `d = v` for the active lanes.
    #[inline(always)]
    fn write(&mut self, ctx: &mut Ctx, lanes: &WideLanes, d: Row, v: u64) {
        if self.rows[d as usize] == Some(v) {
            return;
        }
        if self.whole {
            self.stale_rows += !self.stale[d as usize] as usize;
            (self.rows[d as usize], self.stale[d as usize]) = (Some(v), true);
            return;
        }
        self.before_write(ctx, d);
        fill(ctx, lanes, d, |_| v);
        self.forget(d);
    }

    /// `d = f(a, b)` for the active lanes: once when both rows are known, else lane by lane, with a known
    /// operand as a value.
    ///
    /// (One function per operation in WebAssembly, not inlined into the block runner: inlined, every
    /// operation's loops made `run_groups` a 150 KB function, which V8 runs in its baseline tier until its
    /// optimising compiler has spent most of a second on it, so most of a page's first `c` ran unoptimised
    /// (benches/playground.md). Natively it is inlined into the AVX2 build, which it must be to use AVX2.)
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn op2(&mut self, ctx: &mut Ctx, lanes: &WideLanes, d: Row, a: Row, b: Row, f: impl Fn(u64, u64) -> u64) {
        let known = (self.rows[a as usize], self.rows[b as usize]);
        match known {
            (Some(x), Some(y)) => self.write(ctx, lanes, d, f(x, y)),
            _ => {
                self.before_write(ctx, d);
                map2(ctx, lanes, d, (a, known.0), (b, known.1), f);
                self.forget(d);
            }
        }
    }
}

/// Executes `op` for the lanes `lanes` starting at thread `ctx.base`, when it is an operation that computes
/// each lane from the same lane's registers and cannot fault (ALU operations, moves, pointer arithmetic,
/// specials, unsigned division by a power of two the same in every active lane). False: nothing done.
#[cfg_attr(target_arch = "wasm32", inline(never))] // (as `wide::Uniform::op2`)
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn execute_wide(ctx: &mut Ctx, op: Op, lanes: &WideLanes, u: &mut Uniform) -> bool {
    match op {
        Op::Alu { f, d, a, b } => {
            macro_rules! each {
                ($($v:ident),*) => {
                    match f {
                        $(Alu::$v => u.op2(ctx, lanes, d, a, b, |x, y| Alu::$v.apply(x, y)),)*
                    }
                };
            }
            each!(
                AddI, SubI, MulI, And, Or, Xor, Shl, ShrU, ShrS, LtS, LtU, LeS, LeU, GtS, GtU, GeS, GeU, Eq, Ne, AddF,
                SubF, MulF, DivF, Sext, I2F, U2F, F2I, F2U, F2D
            );
        }
        Op::Mov { d, a } => u.op2(ctx, lanes, d, a, a, |x, _| x),
        Op::PtrAdd { d, base, index, scale, signed } => {
            let scale = scale as i64;
            if scale > 0 && (scale as u64).is_power_of_two() {
                let k = scale.trailing_zeros();
                if signed {
                    u.op2(ctx, lanes, d, base, index, |p, i| p.wrapping_add(((i as u32 as i32 as i64) << k) as u64))
                } else {
                    u.op2(ctx, lanes, d, base, index, |p, i| p.wrapping_add((i as u32 as u64) << k))
                }
            } else if signed {
                u.op2(ctx, lanes, d, base, index, |p, i| {
                    p.wrapping_add((i as u32 as i32 as i64).wrapping_mul(scale) as u64)
                })
            } else {
                u.op2(ctx, lanes, d, base, index, |p, i| p.wrapping_add((i as u32 as i64).wrapping_mul(scale) as u64))
            }
        }
        Op::DivU { d, a, b, rem } => {
            // A divisor known in every lane needs no test of each.
            let div = match u.rows[b as usize] {
                Some(v) => Some(v as u32).filter(|v| v.is_power_of_two()),
                None => {
                    let at = b as usize * ctx.stride + ctx.base;
                    uniform_power_of_two(&ctx.regs[at..at + lanes.len()], &lanes.select)
                }
            };
            let Some(div) = div else { return false };
            let shift = div.trailing_zeros();
            if rem {
                u.op2(ctx, lanes, d, a, a, |x, _| (x as u32 & (div - 1)) as u64);
            } else {
                u.op2(ctx, lanes, d, a, a, |x, _| (x as u32 >> shift) as u64);
            }
        }
        Op::Special { d, which } => {
            let b = ctx.block_dim;
            let base = ctx.base as u64;
            match which {
                Special::ThreadIdx(0) if b.y == 1 && b.z == 1 => {
                    u.before_write(ctx, d);
                    fill(ctx, lanes, d, |i| base + i as u64);
                    u.forget(d);
                }
                Special::BlockIdx(_) | Special::BlockDim(_) | Special::GridDim(_) => {
                    let v = ctx.special(which, 0);
                    u.write(ctx, lanes, d, v);
                }
                _ => return false,
            }
        }
        _ => return false,
    }
    true
}

/// `d = g(lane)` for the active lanes.
#[inline(always)]
fn fill(ctx: &mut Ctx, lanes: &WideLanes, d: Row, g: impl Fn(usize) -> u64) {
    let n = lanes.len();
    let at = d as usize * ctx.stride + ctx.base;
    let (out, sel) = (&mut ctx.regs[at..at + n], &lanes.select[..n]);
    if lanes.full {
        for (i, o) in out.iter_mut().enumerate() {
            *o = g(i);
        }
    } else {
        for (i, (o, s)) in out.iter_mut().zip(sel).enumerate() {
            *o = (g(i) & s) | (*o & !s);
        }
    }
}

/// `d = f(a, b)` for the active lanes, an operand with a known value (`Some`) taken as that value, not read.
/// Rows are disjoint or the same row, so each case gets its own loop over slices the compiler knows do not
/// overlap (a source that is the destination is read in place).
#[inline(always)]
fn map2(
    ctx: &mut Ctx,
    lanes: &WideLanes,
    d: Row,
    (a, ka): (Row, Option<u64>),
    (b, kb): (Row, Option<u64>),
    f: impl Fn(u64, u64) -> u64,
) {
    let n = lanes.len();
    let (stride, base) = (ctx.stride, ctx.base);
    let (d, a, b) = (d as usize * stride + base, a as usize * stride + base, b as usize * stride + base);
    let (lo, rest) = ctx.regs.split_at_mut(d);
    let (out, hi) = rest.split_at_mut(n);
    let out = &mut out[..n];
    let src = |o: usize| -> Option<&[u64]> {
        match o {
            _ if o == d => None,
            _ if o < d => Some(&lo[o..o + n]),
            _ => Some(&hi[o - d - n..o - d]),
        }
    };
    let sel = &lanes.select[..n];
    // Iterators over zipped slices: the compiler drops the bounds checks and vectorises.
    macro_rules! lanes {
        ($src:expr, |$o:ident, $x:ident| $v:expr) => {
            if lanes.full {
                for ($o, $x) in out.iter_mut().zip($src) {
                    *$o = $v;
                }
            } else {
                for (($o, $x), s) in out.iter_mut().zip($src).zip(sel) {
                    let v = $v;
                    *$o = (v & s) | (*$o & !s);
                }
            }
        };
    }
    match (ka, kb, src(a), src(b)) {
        (Some(x), Some(y), ..) => lanes!(0..n, |o, _i| f(x, y)),
        (Some(x), None, _, Some(ys)) => lanes!(ys, |o, y| f(x, *y)),
        (Some(x), None, _, None) => lanes!(0..n, |o, _i| f(x, *o)),
        (None, Some(y), Some(xs), _) => lanes!(xs, |o, x| f(*x, y)),
        (None, Some(y), None, _) => lanes!(0..n, |o, _i| f(*o, y)),
        (None, None, Some(xs), Some(ys)) => lanes!(xs.iter().zip(ys), |o, p| f(*p.0, *p.1)),
        (None, None, None, Some(ys)) => lanes!(ys, |o, y| f(*o, *y)),
        (None, None, Some(xs), None) => lanes!(xs, |o, x| f(*x, *o)),
        (None, None, None, None) => lanes!(0..n, |o, _i| f(*o, *o)),
    }
}

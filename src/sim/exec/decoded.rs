//! [`execute_decoded`]: a pre-decoded instruction (`sim::decoded`) for a set of lanes of one warp, the
//! fast forms a whole run issues.

use super::bulk::{load_elems, store_elems};
use super::context::Ctx;
use super::lanes::{divide_u32, map1, map2, special};
use super::shared_bulk::{addresses_shared, shared_load, shared_store};
use crate::ir::{Operand, Pc, Reg};
use crate::sim::decoded::{Alu, Op, Row};
use crate::sim::lane_mask::{ActiveLanes, LaneMask};

/// What a pre-decoded instruction did (small, unlike [`Effect`](super::context::Effect) and [`ExecError`](super::context::ExecError): it is returned at every
/// issue of a whole run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Next,
    Jump(Pc),
    /// A conditional branch; these lanes take it.
    Branch(LaneMask),
    /// A lane faulted: the whole run is refused (single-stepping reports it).
    Fault,
    /// Nothing done: [`execute`](super::general::execute) runs this instruction.
    General,
}

/// Executes a pre-decoded instruction (`pc` is its index) for the lanes in `mask`, as [`execute`](super::general::execute) executes
/// the IR's; [`Flow::General`], with nothing done, when the instruction has no fast form or this issue is not
/// its fast case. A shared load or store leaves what the general path leaves for the caller: its accesses in
/// `ctx.shared_accesses` (bank statistics) and any race in `ctx.notes`.
#[cfg_attr(target_arch = "wasm32", inline(never))] // (as `wide::Uniform::op2`)
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn execute_decoded(ctx: &mut Ctx, pc: Pc, op: Op, act: &ActiveLanes) -> Flow {
    let row = |r: Row| Operand::Reg(Reg(r));
    ctx.pc = pc;
    match op {
        Op::Alu { f, d, a, b } => {
            let (d, a, b) = (Reg(d), row(a), row(b));
            macro_rules! each {
                ($($v:ident),*) => {
                    match f {
                        $(Alu::$v => map2(ctx, act, d, a, b, |x, y| Alu::$v.apply(x, y)),)*
                    }
                };
            }
            each!(
                AddI, SubI, MulI, And, Or, Xor, Shl, ShrU, ShrS, LtS, LtU, LeS, LeU, GtS, GtU, GeS, GeU, Eq, Ne, AddF,
                SubF, MulF, DivF, Sext, I2F, U2F, F2I, F2U, F2D
            );
        }
        Op::Mov { d, a } => map1(ctx, act, Reg(d), row(a), |x| x),
        Op::PtrAdd { d, base, index, scale, signed } => {
            let scale = scale as i64;
            // An element size that is a power of two (every scalar) scales by a shift: AVX2 has no 64-bit
            // lane multiply, so the multiply runs lane by lane.
            if scale > 0 && (scale as u64).is_power_of_two() {
                let k = scale.trailing_zeros();
                if signed {
                    map2(ctx, act, Reg(d), row(base), row(index), |p, i| {
                        p.wrapping_add(((i as u32 as i32 as i64) << k) as u64)
                    })
                } else {
                    map2(ctx, act, Reg(d), row(base), row(index), |p, i| p.wrapping_add((i as u32 as u64) << k))
                }
            } else if signed {
                map2(ctx, act, Reg(d), row(base), row(index), |p, i| {
                    p.wrapping_add((i as u32 as i32 as i64).wrapping_mul(scale) as u64)
                })
            } else {
                map2(ctx, act, Reg(d), row(base), row(index), |p, i| {
                    p.wrapping_add((i as u32 as i64).wrapping_mul(scale) as u64)
                })
            }
        }
        Op::DivU { d, a, b, rem } => {
            if divide_u32(ctx, act, Reg(d), row(a), row(b), rem).is_err() {
                return Flow::Fault;
            }
        }
        Op::Special { d, which } => special(ctx, act, Reg(d), which),
        Op::Load { size, d, addr } => {
            let (d, addr) = (Reg(d), row(addr));
            let done = if addresses_shared(ctx, act, addr) {
                shared_load(ctx, act, size as u32, d, addr)
            } else {
                load_elems(ctx, act, size as u32, d, addr)
            };
            if !done {
                return Flow::General;
            }
        }
        Op::Store { size, addr, src } => {
            let (addr, src) = (row(addr), row(src));
            let done = if addresses_shared(ctx, act, addr) {
                shared_store(ctx, act, size as u32, addr, src)
            } else {
                store_elems(ctx, act, size as u32, addr, src)
            };
            if !done {
                return Flow::General;
            }
        }
        Op::Jump(target) => return Flow::Jump(target),
        Op::Branch { cond } => {
            let at = cond as usize * ctx.stride + ctx.base;
            let c: &[u64; 32] = ctx.regs[at..at + 32].try_into().expect("a warp's row holds 32 lanes");
            return Flow::Branch(LaneMask(crate::sim::lane_bits::nonzero_mask(c, ctx.path) & act.mask.0));
        }
        Op::General => return Flow::General,
    }
    Flow::Next
}

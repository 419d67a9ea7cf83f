//! [`execute`]: any instruction of the IR for a set of lanes of one warp.

use super::bulk::{load_elems, load_gather, store_elems};
use super::context::{Ctx, Effect, ExecError, Note};
use super::lanes::{Src, map1, map2, special};
use crate::front::tast::{AtomicOp, BarrierReduce, ShflKind, VoteKind};
use crate::ir::{Counter, Instr, Operand, Pc, Ty};
use crate::sim::alu;
use crate::sim::lane_mask::{ActiveLanes, LaneMask};
use crate::sim::memory::{self, AccessKind};

/// Executes the instruction at `pc` for the lanes in `mask` (ascending lane order where order matters:
/// atomics and printf).
#[inline]
pub fn execute(ctx: &mut Ctx, pc: Pc, mask: LaneMask) -> Result<Effect, ExecError> {
    #[cfg(target_arch = "x86_64")]
    if ctx.path.avx2() {
        // SAFETY: the CPU has AVX2 (the context's `DataPath` says so only then).
        return unsafe { execute_avx2(ctx, pc, mask) };
    }
    execute_here(ctx, pc, mask)
}

/// [`execute`] compiled for AVX2: the lane loops are 32 lanes of 64 bits, and x86-64's baseline (SSE2) has no
/// 64-bit lane compares, selects or variable shifts, so its loops run a lane or two at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn execute_avx2(ctx: &mut Ctx, pc: Pc, mask: LaneMask) -> Result<Effect, ExecError> {
    execute_here(ctx, pc, mask)
}

#[inline(always)]
fn execute_here(ctx: &mut Ctx, pc: Pc, mask: LaneMask) -> Result<Effect, ExecError> {
    // The selects, built only for the instructions that read them (a single step issues every kind).
    macro_rules! act {
        () => {
            &ActiveLanes::new(mask)
        };
    }
    let kernel = ctx.kernel;
    ctx.pc = pc;
    let instr = &kernel.instrs[pc.0 as usize];
    match instr {
        Instr::Mov { dst, src } => map1(ctx, act!(), *dst, *src, |x| x),
        Instr::Unary { op, ty, dst, src } => {
            let (op, ty) = (*op, *ty);
            map1(ctx, act!(), *dst, *src, |x| alu::unary(op, ty, x))
        }
        Instr::Binary { op, ty, dst, a, b } => {
            use crate::ir::ArithOp as O;
            let (d, a, b) = (*dst, *a, *b);
            // The common integer and float operations get their own loops; the rest (and everything that can
            // divide by zero) goes through the general ALU.
            match (op, ty) {
                (O::Add, Ty::I32 | Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).wrapping_add(y as u32) as u64)
                }
                (O::Sub, Ty::I32 | Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).wrapping_sub(y as u32) as u64)
                }
                (O::Mul, Ty::I32 | Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).wrapping_mul(y as u32) as u64)
                }
                (O::And, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 & y as u32) as u64),
                (O::Or, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 | y as u32) as u64),
                (O::Xor, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 ^ y as u32) as u64),
                (O::Shl, Ty::I32 | Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).checked_shl(y as u32).unwrap_or(0) as u64)
                }
                (O::Shr, Ty::U32) => {
                    map2(ctx, act!(), d, a, b, |x, y| (x as u32).checked_shr(y as u32).unwrap_or(0) as u64)
                }
                (O::Shr, Ty::I32) => {
                    map2(ctx, act!(), d, a, b, |x, y| ((x as u32 as i32) >> (y as u32).min(31)) as u32 as u64)
                }
                (O::Div | O::Rem, Ty::U32) => super::lanes::divide_u32(ctx, act!(), d, a, b, *op == O::Rem)?,
                (O::Add, Ty::F32) => map2(ctx, act!(), d, a, b, |x, y| f32op(x, y, |p, q| p + q)),
                (O::Sub, Ty::F32) => map2(ctx, act!(), d, a, b, |x, y| f32op(x, y, |p, q| p - q)),
                (O::Mul, Ty::F32) => map2(ctx, act!(), d, a, b, |x, y| f32op(x, y, |p, q| p * q)),
                (O::Div, Ty::F32) => map2(ctx, act!(), d, a, b, |x, y| f32op(x, y, |p, q| p / q)),
                _ => {
                    for l in mask.iter() {
                        let v = alu::binary(*op, *ty, ctx.get(a, l), ctx.get(b, l))
                            .map_err(|_| ExecError::DivideByZero { lane: l })?;
                        ctx.set(d, l, v);
                    }
                }
            }
        }
        Instr::Cmp { op, ty, dst, a, b } => {
            use crate::ir::CmpOp as C;
            let (d, a, b) = (*dst, *a, *b);
            match (op, ty) {
                (C::Lt, Ty::I32) => map2(ctx, act!(), d, a, b, |x, y| ((x as u32 as i32) < (y as u32 as i32)) as u64),
                (C::Lt, Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| ((x as u32) < (y as u32)) as u64),
                (C::Ge, Ty::I32) => map2(ctx, act!(), d, a, b, |x, y| ((x as u32 as i32) >= (y as u32 as i32)) as u64),
                (C::Ge, Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| ((x as u32) >= (y as u32)) as u64),
                (C::Eq, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 == y as u32) as u64),
                (C::Ne, Ty::I32 | Ty::U32) => map2(ctx, act!(), d, a, b, |x, y| (x as u32 != y as u32) as u64),
                _ => {
                    let (op, ty) = (*op, *ty);
                    map2(ctx, act!(), d, a, b, |x, y| alu::compare(op, ty, x, y) as u64)
                }
            }
        }
        Instr::Convert { from, to, dst, src } => {
            let (from, to) = (*from, *to);
            map1(ctx, act!(), *dst, *src, |x| alu::convert(from, to, x))
        }
        Instr::PtrAdd { dst, base, index, index_signed, scale } => {
            let scale = *scale;
            if *index_signed {
                map2(ctx, act!(), *dst, *base, *index, |p, i| {
                    p.wrapping_add((i as u32 as i32 as i64).wrapping_mul(scale) as u64)
                })
            } else {
                map2(ctx, act!(), *dst, *base, *index, |p, i| {
                    p.wrapping_add((i as u32 as i64).wrapping_mul(scale) as u64)
                })
            }
        }
        Instr::PtrDiff { dst, a, b, elem_size } => {
            let es = *elem_size as i64;
            map2(ctx, act!(), *dst, *a, *b, |x, y| (x.wrapping_sub(y) as i64 / es) as i32 as u32 as u64)
        }
        Instr::Special { dst, which } => special(ctx, act!(), *dst, *which),
        Instr::SharedAddr { dst, array } => {
            let addr = ctx.layout.address(*array);
            for l in mask.iter() {
                ctx.set(*dst, l, addr);
            }
        }
        Instr::Load { ty, dst, addr, .. }
            if ctx.par.is_some()
                && (load_elems(ctx, act!(), ty.size(), *dst, *addr)
                    || load_gather(ctx, act!(), ty.size(), *dst, *addr)) => {}
        Instr::Store { ty, addr, src, .. } if ctx.par.is_some() && store_elems(ctx, act!(), ty.size(), *addr, *src) => {
        }
        Instr::Load { ty, dst, addr, .. } => {
            for l in mask.iter() {
                let a = ctx.get(*addr, l);
                let v = ctx.load(a, *ty, l, AccessKind::Read)?;
                ctx.set(*dst, l, v);
            }
        }
        Instr::Store { ty, addr, src, .. } => {
            for l in mask.iter() {
                let (a, v) = (ctx.get(*addr, l), ctx.get(*src, l));
                ctx.store(a, *ty, v, l, AccessKind::Write)?;
            }
        }
        Instr::Atomic { op, ty, dst, addr, a, b } => {
            for l in mask.iter() {
                let at = ctx.get(*addr, l);
                let (x, y) = (ctx.get(*a, l), ctx.get(*b, l));
                let old = match ctx.par {
                    // A whole run's: other cores may update the same bytes (`sim::commute` says which may).
                    Some(g) if !memory::is_shared(at) => {
                        ctx.atomic_global(g, at, *ty, l, x, |old| atomic(*op, *ty, old, x, y))?
                    }
                    _ => {
                        let old = ctx.load(at, *ty, l, AccessKind::Atomic)?;
                        if let Some(g) = ctx.par {
                            // A whole run's shared float sum: kept only when exact in any order.
                            g.note_atomic_sum(*ty, old, x);
                        }
                        let new = atomic(*op, *ty, old, x, y);
                        // (Who last changed a lock explains a spin; a whole run has none to explain.)
                        if new != old && ctx.par.is_none() {
                            ctx.notes.push(Note::AtomicWrite { lane: l, addr: at });
                        }
                        ctx.store(at, *ty, new, l, AccessKind::Atomic)?;
                        old
                    }
                };
                ctx.set(*dst, l, old);
            }
        }
        Instr::SyncThreads { .. } => return Ok(Effect::SyncThreads),
        Instr::ReadCounter { dst, which } => {
            let (count, arrived) = ctx.counters.barrier;
            let v = match which {
                Counter::Clock => ctx.counters.clock as u32 as i32 as i64 as u64,
                Counter::Clock64 => ctx.counters.clock,
                Counter::Barrier(BarrierReduce::Count) => count as u64,
                Counter::Barrier(BarrierReduce::And) => (count == arrived) as u64,
                Counter::Barrier(BarrierReduce::Or) => (count > 0) as u64,
            };
            for l in mask.iter() {
                ctx.set(*dst, l, v);
            }
        }
        Instr::SyncWarp { mask: m } => return Ok(Effect::SyncWarp(named_lanes(ctx, *m, mask))),
        Instr::Fence => {}
        Instr::CheckBounds { dst, index, base, len, elem_size, name } => {
            for l in mask.iter() {
                let i = ctx.get(*index, l);
                // An index is checked as unsigned: a negative one is a huge one.
                let i32_index = i as u32 as i32 as i64;
                if i as u32 >= *len {
                    let b = ctx.get(*base, l);
                    let bytes = *len as u64 * *elem_size as u64;
                    let addr = b.wrapping_add((i32_index * *elem_size as i64) as u64);
                    let distance = addr.wrapping_sub(b) as i64 - if i32_index >= 0 { bytes as i64 } else { 0 };
                    let var = ctx.kernel.strings.get(*name as usize).cloned().unwrap_or_default();
                    let nearest =
                        Some(memory::Nearest { name: var, base: b, size: bytes, elem_size: *elem_size, distance });
                    let err = memory::MemError::OutOfBounds { space: memory::Space::Local, nearest };
                    return Err(ExecError::Memory { lane: l, access: AccessKind::Read, size: *elem_size, addr, err });
                }
                ctx.set(*dst, l, i);
            }
        }
        Instr::CheckAlign { addr, align, bytes, write } => {
            for l in mask.iter() {
                let at = ctx.get(*addr, l);
                if !at.is_multiple_of(*align as u64) {
                    let space = if memory::is_shared(at) { memory::Space::Shared } else { memory::Space::Global };
                    let access = if *write { AccessKind::Write } else { AccessKind::Read };
                    let err = memory::MemError::Misaligned { space };
                    return Err(ExecError::Memory { lane: l, access, size: *bytes, addr: at, err });
                }
            }
        }
        Instr::Shfl { kind, ty: _, dst, mask: m, value, lane, width } => {
            let mut out = [0u64; 32];
            for l in mask.iter() {
                let w = (ctx.get(*width, l) as u32).clamp(1, 32).next_power_of_two().min(32);
                let seg = l & !(w - 1);
                let arg = ctx.get(*lane, l) as u32;
                let src = match kind {
                    ShflKind::Idx => seg + (arg % w),
                    ShflKind::Up => {
                        if l >= seg + arg && arg < 32 {
                            l - arg
                        } else {
                            l
                        }
                    }
                    ShflKind::Down => {
                        let s = l as u64 + arg as u64;
                        if s < (seg + w) as u64 { s as u32 } else { l }
                    }
                    ShflKind::Xor => {
                        let s = l ^ (arg & 31);
                        if s >= seg + w { l } else { s }
                    }
                };
                if !mask.contains(src) {
                    ctx.notes.push(Note::ShuffleInactive { lane: l, src });
                }
                out[l as usize] = ctx.get(*value, src);
            }
            check_sync_mask(ctx, *m, mask);
            for l in mask.iter() {
                ctx.set(*dst, l, out[l as usize]);
            }
        }
        Instr::Vote { kind, dst, mask: m, pred } => {
            check_sync_mask(ctx, *m, mask);
            let mut all = 0u32;
            for l in mask.iter() {
                if ctx.get(*pred, l) != 0 {
                    all |= 1 << l;
                }
            }
            // Each lane votes with the lanes its own mask names (a tile's lanes differ from the next tile's).
            for l in mask.iter() {
                let voters = LaneMask(ctx.get(*m, l) as u32).and(mask);
                let ballot = all & voters.0;
                let v = match kind {
                    VoteKind::Ballot => ballot as u64,
                    VoteKind::Any => (ballot != 0) as u64,
                    VoteKind::All => (ballot == voters.0) as u64,
                    VoteKind::MatchAny => {
                        let mine = ctx.get(*pred, l);
                        voters.iter().filter(|&k| ctx.get(*pred, k) == mine).fold(0u64, |m, k| m | 1 << k)
                    }
                };
                ctx.set(*dst, l, v);
            }
        }
        Instr::ActiveMask { dst } => {
            for l in mask.iter() {
                ctx.set(*dst, l, mask.0 as u64);
            }
        }
        Instr::Math { func, ty, dst, a, b } => {
            for l in mask.iter() {
                let v = alu::math(*func, *ty, ctx.get(*a, l), ctx.get(*b, l));
                ctx.set(*dst, l, v);
            }
        }
        Instr::Fma { ty, dst, a, b, c } => {
            for l in mask.iter() {
                let v = alu::fma(*ty, ctx.get(*a, l), ctx.get(*b, l), ctx.get(*c, l));
                ctx.set(*dst, l, v);
            }
        }
        Instr::Curand { f, out, dst, args, .. } => {
            for l in mask.iter() {
                let vals: Vec<u64> = args.iter().map(|o| ctx.get(*o, l)).collect();
                let v = crate::sim::curand::eval_one(*f, &vals, *out as usize);
                ctx.set(*dst, l, v);
            }
        }
        Instr::Texture { dim, out, ty, dst, args } => {
            for l in mask.iter() {
                let vals: Vec<u64> = args.iter().map(|o| ctx.get(*o, l)).collect();
                let v = ctx.texture(*dim, *out, *ty, &vals, l)?;
                ctx.set(*dst, l, v);
            }
        }
        Instr::Assert { cond, text } => {
            if let Some(l) = mask.iter().find(|&l| ctx.get(*cond, l) == 0) {
                return Err(ExecError::Assert { lane: l, text: *text });
            }
        }
        Instr::Printf { fmt, args } => {
            let fmt = &kernel.strings[*fmt as usize];
            for l in mask.iter() {
                let vals: Vec<(u64, Ty)> = args.iter().map(|(o, t)| (ctx.get(*o, l), *t)).collect();
                let text = crate::sim::printf::format_with(fmt, &vals, &mut |a| ctx.peek_string(a));
                ctx.notes.push(Note::Printf { lane: l, text });
            }
        }
        Instr::Launch { kernel, config, args } => {
            for l in mask.iter() {
                let config = (**config).map(|o| ctx.get(o, l) as u32);
                let args = args.iter().map(|o| ctx.get(*o, l)).collect();
                ctx.notes.push(Note::Launch { lane: l, kernel: *kernel, config, args });
            }
        }
        Instr::Jump { target } => return Ok(Effect::Jump(*target)),
        Instr::Branch { cond, then_pc, else_pc, reconv, site } => {
            let c = Src::of(*cond, ctx.stride, ctx.base).lanes(ctx.regs);
            let taken = crate::sim::lane_bits::nonzero_mask(&c, ctx.path);
            return Ok(Effect::Branch {
                taken: LaneMask(taken & mask.0),
                then_pc: *then_pc,
                else_pc: *else_pc,
                reconv: *reconv,
                site: *site,
            });
        }
        Instr::Exit => return Ok(Effect::Exit),
    }
    Ok(Effect::Next)
}

/// The lanes a `_sync` intrinsic's mask operand names, over every executing lane (the lanes of a warp's
/// tiles name their own tile each).
pub(crate) fn named_lanes(ctx: &Ctx, m: Operand, active: LaneMask) -> LaneMask {
    match m {
        Operand::Imm(v) => LaneMask(v as u32),
        Operand::Reg(_) => active.iter().fold(LaneMask::EMPTY, |n, l| n.or(LaneMask(ctx.get(m, l) as u32))),
    }
}

fn check_sync_mask(ctx: &mut Ctx, m: Operand, active: LaneMask) {
    if active.is_empty() {
        return;
    }
    let named = named_lanes(ctx, m, active);
    if !named.is_subset_of(active) {
        ctx.notes.push(Note::SyncMaskInactive { named, active });
    }
}

fn atomic(op: AtomicOp, ty: Ty, old: u64, x: u64, y: u64) -> u64 {
    use crate::ir::ArithOp;
    let arith = |o| alu::binary(o, ty, old, x).unwrap_or(old);
    match op {
        AtomicOp::Add => arith(ArithOp::Add),
        AtomicOp::Sub => arith(ArithOp::Sub),
        AtomicOp::And => arith(ArithOp::And),
        AtomicOp::Or => arith(ArithOp::Or),
        AtomicOp::Xor => arith(ArithOp::Xor),
        AtomicOp::Exch => x,
        AtomicOp::Cas => {
            if old == x {
                y
            } else {
                old
            }
        }
        AtomicOp::Min => alu::math(crate::front::tast::MathFn::Min, ty, old, x),
        AtomicOp::Max => alu::math(crate::front::tast::MathFn::Max, ty, old, x),
        AtomicOp::Inc => {
            if old as u32 >= x as u32 {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::Dec => {
            if old as u32 == 0 || old as u32 > x as u32 {
                x
            } else {
                old - 1
            }
        }
    }
}

#[inline(always)]
fn f32op(x: u64, y: u64, f: impl Fn(f32, f32) -> f32) -> u64 {
    alu::f32_bits(f(f32::from_bits(x as u32), f32::from_bits(y as u32)))
}

//! The compact pre-decoded form whole runs execute: one 16-byte [`Op`] per instruction, with the operation and
//! its type folded into one kind (no `(op, ty)` match per issue) and every operand a row of the register file
//! (constants get rows of their own, filled once), so the data path reads rows and never tests for an
//! immediate. Instructions without a fast form decode to [`Op::General`] and run through [`super::exec`] from
//! the IR, as single-stepping runs every instruction.

use crate::front::tast::Special;
use crate::ir::{ArithOp, CmpOp, Instr, Kernel, Operand, Pc, Ty};

/// A row of a whole run's register file: a register (`< Program::regs`) or a constant (after them).
pub type Row = u32;

/// A 32-bit operation with no fault and no effect beyond its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alu {
    AddI,
    SubI,
    MulI,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrS,
    LtS,
    LtU,
    LeS,
    LeU,
    GtS,
    GtU,
    GeS,
    GeU,
    Eq,
    Ne,
    AddF,
    SubF,
    MulF,
    DivF,
    /// Conversions (`b` is `a`): `int` to a 64-bit integer (sign-extended), `int` and `unsigned` to `float`,
    /// `float` to `int` and `unsigned` (truncated, saturated, NaN 0 as PTX's `cvt.rzi`), `float` to
    /// `double`. Conversions that keep or cut to the low 32 bits are [`Alu::And`] of `a` with itself.
    Sext,
    I2F,
    U2F,
    F2I,
    F2U,
    F2D,
}

/// One pre-decoded instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// `d = f(a, b)` on 32-bit values.
    Alu {
        f: Alu,
        d: Row,
        a: Row,
        b: Row,
    },
    Mov {
        d: Row,
        a: Row,
    },
    /// `d = base + index * scale`, the index read as i32 or u32.
    PtrAdd {
        d: Row,
        base: Row,
        index: Row,
        scale: i16,
        signed: bool,
    },
    /// Unsigned 32-bit division (`rem`: remainder): may fault, so lane order matters (`exec::divide_u32`).
    DivU {
        d: Row,
        a: Row,
        b: Row,
        rem: bool,
    },
    /// `threadIdx`, `blockIdx`, `blockDim` or `gridDim`.
    Special {
        d: Row,
        which: Special,
    },
    /// A load or store of `size` bytes: one stretch of memory when the lanes address consecutive elements,
    /// lane by lane otherwise.
    Load {
        size: u8,
        d: Row,
        addr: Row,
    },
    Store {
        size: u8,
        addr: Row,
        src: Row,
    },
    Jump(Pc),
    /// A conditional branch on `cond`; its targets, reconvergence point and site stay in the IR (a branch
    /// that ends a run reads them there).
    Branch {
        cond: Row,
    },
    /// Everything else: executed from the IR.
    General,
}

impl Op {
    /// Whether this instruction only moves a warp to the next instruction (when its fast form applies).
    pub fn is_straight(&self) -> bool {
        !matches!(self, Op::Jump(_) | Op::Branch { .. } | Op::General)
    }

    /// A load or store: the one kind whose issue touches memory, and so the parallel rule's record.
    pub fn is_memory(&self) -> bool {
        matches!(self, Op::Load { .. } | Op::Store { .. })
    }
}

/// A kernel, pre-decoded.
#[derive(Clone, Debug)]
pub struct Program {
    pub ops: Vec<Op>,
    /// The kernel's register count: constant `i` is row `regs + i`.
    pub regs: usize,
    pub consts: Vec<u64>,
    /// Per instruction: how many instructions from it on only move a warp to the next one (every kind
    /// except jumps, branches and [`Op::General`]). A whole run issues such a stretch with its bookkeeping
    /// done once (`warp_run`).
    pub straight: Vec<u32>,
    /// Per instruction: some conditional branch reconverges there. A pre-Volta warp's jump anywhere else
    /// only moves its top stack entry (nothing can pop), so a group of warps issues it like a straight
    /// instruction (`gang.rs`).
    pub reconverges: Vec<bool>,
    /// Per instruction that starts a basic block: the registers live there (`ir::liveness`), which are all a
    /// thread's state that the rest of the kernel can read (whole runs' spin check, `machine/spin.rs`).
    pub live_in: Vec<Option<Box<[Row]>>>,
}

impl Program {
    pub fn decode(kernel: &Kernel) -> Program {
        let mut p = Program {
            ops: vec![],
            regs: kernel.regs.len(),
            consts: vec![],
            straight: vec![],
            reconverges: vec![],
            live_in: vec![],
        };
        p.ops = kernel.instrs.iter().map(|i| p.op(i)).collect();
        p.straight = vec![0; p.ops.len()];
        for i in (0..p.ops.len()).rev() {
            if p.ops[i].is_straight() {
                p.straight[i] = 1 + p.straight.get(i + 1).copied().unwrap_or(0);
            }
        }
        p.reconverges = vec![false; p.ops.len()];
        for i in &kernel.instrs {
            if let Instr::Branch { reconv, .. } = i
                && let Some(r) = p.reconverges.get_mut(reconv.0 as usize)
            {
                *r = true;
            }
        }
        p.live_in = vec![None; p.ops.len()];
        for (block, live) in kernel.blocks.iter().zip(crate::ir::liveness::live_in(kernel)) {
            let rows = live.iter().enumerate().filter(|(_, l)| **l).map(|(r, _)| r as Row).collect();
            if let Some(at) = p.live_in.get_mut(block.start.0 as usize) {
                *at = Some(rows);
            }
        }
        p
    }

    /// Rows in a register file for this program: the registers, then the constants.
    pub fn rows(&self) -> usize {
        self.regs + self.consts.len()
    }

    /// Fills the constants' rows of a register file of `stride` lanes per row (once per register file: no
    /// instruction writes them).
    pub fn fill_consts(&self, regs: &mut [u64], stride: usize) {
        for (i, &c) in self.consts.iter().enumerate() {
            let row = (self.regs + i) * stride;
            regs[row..row + stride].fill(c);
        }
    }

    fn row(&mut self, o: Operand) -> Row {
        match o {
            Operand::Reg(r) => r.0,
            Operand::Imm(v) => {
                let i = self.consts.iter().position(|&c| c == v).unwrap_or_else(|| {
                    self.consts.push(v);
                    self.consts.len() - 1
                });
                (self.regs + i) as Row
            }
        }
    }

    fn op(&mut self, i: &Instr) -> Op {
        match *i {
            Instr::Mov { dst, src } => Op::Mov { d: dst.0, a: self.row(src) },
            Instr::Binary { op: ArithOp::Div | ArithOp::Rem, ty: Ty::U32, dst, a, b } => {
                let rem = matches!(i, Instr::Binary { op: ArithOp::Rem, .. });
                Op::DivU { d: dst.0, a: self.row(a), b: self.row(b), rem }
            }
            Instr::Binary { op, ty, dst, a, b } => match arith(op, ty) {
                Some(f) => Op::Alu { f, d: dst.0, a: self.row(a), b: self.row(b) },
                None => Op::General,
            },
            Instr::Convert { from, to, dst, src } => match convert(from, to) {
                Some(f) => {
                    let a = self.row(src);
                    Op::Alu { f, d: dst.0, a, b: a }
                }
                None => Op::General,
            },
            Instr::Cmp { op, ty, dst, a, b } => match compare(op, ty) {
                Some(f) => Op::Alu { f, d: dst.0, a: self.row(a), b: self.row(b) },
                None => Op::General,
            },
            // Element sizes past 32 KiB (big structs) take the general path.
            Instr::PtrAdd { dst, base, index, index_signed, scale } => match i16::try_from(scale) {
                Ok(scale) => {
                    Op::PtrAdd { d: dst.0, base: self.row(base), index: self.row(index), scale, signed: index_signed }
                }
                Err(_) => Op::General,
            },
            Instr::Special { dst, which } => Op::Special { d: dst.0, which },
            Instr::Load { ty, dst, addr, .. } => Op::Load { size: ty.size() as u8, d: dst.0, addr: self.row(addr) },
            Instr::Store { ty, addr, src, .. } => {
                Op::Store { size: ty.size() as u8, addr: self.row(addr), src: self.row(src) }
            }
            Instr::Jump { target } => Op::Jump(target),
            Instr::Branch { cond, .. } => Op::Branch { cond: self.row(cond) },
            _ => Op::General,
        }
    }
}

fn arith(op: ArithOp, ty: Ty) -> Option<Alu> {
    use ArithOp as A;
    let int = matches!(ty, Ty::I32 | Ty::U32);
    Some(match (op, ty) {
        (A::Add, _) if int => Alu::AddI,
        (A::Sub, _) if int => Alu::SubI,
        (A::Mul, _) if int => Alu::MulI,
        (A::And, _) if int => Alu::And,
        (A::Or, _) if int => Alu::Or,
        (A::Xor, _) if int => Alu::Xor,
        (A::Shl, _) if int => Alu::Shl,
        (A::Shr, Ty::U32) => Alu::ShrU,
        (A::Shr, Ty::I32) => Alu::ShrS,
        (A::Add, Ty::F32) => Alu::AddF,
        (A::Sub, Ty::F32) => Alu::SubF,
        (A::Mul, Ty::F32) => Alu::MulF,
        (A::Div, Ty::F32) => Alu::DivF,
        _ => return None,
    })
}

/// The fast form of a conversion (applied to `a` and `a`), for the types course kernels convert between:
/// a grid-stride loop's `int` index is `unsigned` arithmetic and back, a `size_t` index is a sign extension.
fn convert(from: Ty, to: Ty) -> Option<Alu> {
    use Ty::*;
    Some(match (from, to) {
        (I32 | U32, I32 | U32) | (U32, I64 | U64) | (I64 | U64, I32 | U32) => Alu::And,
        (I32, I64 | U64) => Alu::Sext,
        (I32, F32) => Alu::I2F,
        (U32, F32) => Alu::U2F,
        (F32, I32) => Alu::F2I,
        (F32, U32) => Alu::F2U,
        (F32, F64) => Alu::F2D,
        _ => return None,
    })
}

fn compare(op: CmpOp, ty: Ty) -> Option<Alu> {
    use CmpOp as C;
    Some(match (op, ty) {
        (C::Lt, Ty::I32) => Alu::LtS,
        (C::Lt, Ty::U32) => Alu::LtU,
        (C::Le, Ty::I32) => Alu::LeS,
        (C::Le, Ty::U32) => Alu::LeU,
        (C::Gt, Ty::I32) => Alu::GtS,
        (C::Gt, Ty::U32) => Alu::GtU,
        (C::Ge, Ty::I32) => Alu::GeS,
        (C::Ge, Ty::U32) => Alu::GeU,
        (C::Eq, Ty::I32 | Ty::U32) => Alu::Eq,
        (C::Ne, Ty::I32 | Ty::U32) => Alu::Ne,
        _ => return None,
    })
}

impl Alu {
    /// The operation on two registers' bits: the low 32 bits are the operands, the result is zero-extended
    /// (a conversion to a 64-bit type gives all 64 bits).
    ///
    /// Integer operations work in 64-bit lanes, the width of the register file, so the compiler's vector
    /// code needs no narrowing and widening around them; each equals the 32-bit operation for any inputs:
    /// the low half of a sum, difference, product or bitwise result depends only on the operands' low halves,
    /// unsigned order is the order of the low halves, and signed order is that order with bit 31 flipped.
    #[inline(always)]
    pub fn apply(self, x: u64, y: u64) -> u64 {
        const LOW: u64 = 0xffff_ffff;
        const SIGN: u64 = 0x8000_0000;
        let (ux, uy) = ((x & LOW) as i64, (y & LOW) as i64);
        let (sx, sy) = (((x ^ SIGN) & LOW) as i64, ((y ^ SIGN) & LOW) as i64);
        let (a, b) = (x as u32, y as u32);
        let f = |g: fn(f32, f32) -> f32| crate::sim::alu::f32_bits(g(f32::from_bits(a), f32::from_bits(b)));
        match self {
            Alu::AddI => x.wrapping_add(y) & LOW,
            Alu::SubI => x.wrapping_sub(y) & LOW,
            // (Both factors below 2^32: the product of the low halves, which the vector unit has.)
            Alu::MulI => (ux as u64).wrapping_mul(uy as u64) & LOW,
            Alu::And => x & y & LOW,
            Alu::Or => (x | y) & LOW,
            Alu::Xor => (x ^ y) & LOW,
            // PTX clamps shift counts: shl and shr.u32 give 0, shr.s32 fills with the sign.
            Alu::Shl => a.checked_shl(b).unwrap_or(0) as u64,
            Alu::ShrU => a.checked_shr(b).unwrap_or(0) as u64,
            Alu::ShrS => ((a as i32) >> b.min(31)) as u32 as u64,
            Alu::LtS => (sx < sy) as u64,
            Alu::LtU => (ux < uy) as u64,
            Alu::LeS => (sx <= sy) as u64,
            Alu::LeU => (ux <= uy) as u64,
            Alu::GtS => (sx > sy) as u64,
            Alu::GtU => (ux > uy) as u64,
            Alu::GeS => (sx >= sy) as u64,
            Alu::GeU => (ux >= uy) as u64,
            Alu::Eq => (ux == uy) as u64,
            Alu::Ne => (ux != uy) as u64,
            Alu::AddF => f(|p, q| p + q),
            Alu::SubF => f(|p, q| p - q),
            Alu::MulF => f(|p, q| p * q),
            Alu::DivF => f(|p, q| p / q),
            Alu::Sext => a as i32 as i64 as u64,
            Alu::I2F => crate::sim::alu::f32_bits(a as i32 as f32),
            Alu::U2F => crate::sim::alu::f32_bits(a as f32),
            Alu::F2I => f32::from_bits(a) as i32 as u32 as u64,
            Alu::F2U => f32::from_bits(a) as u32 as u64,
            Alu::F2D => (f32::from_bits(a) as f64).to_bits(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Op, Program};
    use crate::ir::{ArithOp, CmpOp, Instr, Ty};
    use crate::sim::alu;

    #[test]
    fn ops_are_compact() {
        assert!(std::mem::size_of::<Op>() <= 16, "{}", std::mem::size_of::<Op>());
    }

    /// Every fast operation computes what the general ALU computes, on values that probe the edges.
    #[test]
    fn fast_operations_agree_with_the_alu() {
        // Zero-extended values, and the same with bits above the low half set (the operations read the low
        // half only, however they compute).
        let low = [0u32, 1, 2, 31, 32, 33, 0x7fff_ffff, 0x8000_0000, u32::MAX, 0x3f80_0000, 0x7fc0_0000];
        let vals: Vec<u64> = low.into_iter().flat_map(|v| [v as u64, v as u64 | 0xdead_0001_0000_0000]).collect();
        let ariths = [ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::And, ArithOp::Or, ArithOp::Xor];
        let shifts_and_div = [ArithOp::Shl, ArithOp::Shr, ArithOp::Div];
        let cmps = [CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne];
        for ty in [Ty::I32, Ty::U32, Ty::F32] {
            for op in ariths.iter().chain(&shifts_and_div) {
                let Some(f) = super::arith(*op, ty) else { continue };
                for (&x, &y) in vals.iter().flat_map(|x| vals.iter().map(move |y| (x, y))) {
                    let (got, want) = (f.apply(x, y), alu::binary(*op, ty, x, y).expect("no division by zero"));
                    assert_eq!(got, want, "{op:?} {ty:?} {x:#x} {y:#x}");
                }
            }
            for to in [Ty::I32, Ty::U32, Ty::I64, Ty::U64, Ty::F32, Ty::F64] {
                let Some(f) = super::convert(ty, to) else { continue };
                let edges =
                    [0x4f00_0000u64, 0xcf00_0001, 0x4f80_0000, 0xbf00_0000, 0xff80_0000, 0x7f80_0000, 0x3fff_ffff];
                for &x in vals.iter().chain(&edges) {
                    assert_eq!(f.apply(x, x), alu::convert(ty, to, x), "{ty:?} -> {to:?} {x:#x}");
                }
            }
            for op in cmps {
                let Some(f) = super::compare(op, ty) else { continue };
                for (&x, &y) in vals.iter().flat_map(|x| vals.iter().map(move |y| (x, y))) {
                    assert_eq!(f.apply(x, y), alu::compare(op, ty, x, y) as u64, "{op:?} {ty:?} {x:#x} {y:#x}");
                }
            }
        }
    }

    #[test]
    fn constants_get_rows_after_the_registers() {
        let src = std::fs::read_to_string("kernels/reduce_neighbored.cu").expect("kernel file");
        let c = crate::compile::compile("r.cu", src.as_bytes(), &Default::default()).expect("compiles");
        let p = Program::decode(&c.kernel);
        assert_eq!(p.ops.len(), c.kernel.instrs.len());
        // `stride = 1`, `2 * stride`, `== 0`, `tid == 0`, `stride * 2`, `0 * 4`: each constant once.
        let mut consts = p.consts.clone();
        consts.sort();
        consts.dedup();
        assert_eq!(consts.len(), p.consts.len());
        assert!(p.consts.contains(&1) && p.consts.contains(&2) && p.consts.contains(&0));
        // Only the barrier and the exits run from the IR.
        for (op, i) in p.ops.iter().zip(&c.kernel.instrs) {
            assert_eq!(
                matches!(op, Op::General),
                matches!(i, Instr::SyncThreads { .. } | Instr::Exit),
                "{i:?}: {op:?}"
            );
        }
    }
}

//! A segment (`stretch.rs`) in Cranelift IR: one loop over the group's lanes whose body loads the segment's
//! input rows of the lane, computes every instruction with the values in machine registers, and stores each
//! written row's last value. Every operation has [`Alu::apply`]'s exact result (32-bit operations on the low
//! halves, zero-extended; PTX's clamped shift counts; single-precision NaNs as the GPU's `0x7fffffff`;
//! float-to-integer conversions truncated and saturated with NaN as 0), and lanes whose select word is 0
//! are not touched.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F64, I32, I64};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

use super::stretch::{Rows, dest};
use crate::front::launch::Dim3;
use crate::front::tast::Special;
use crate::sim::decoded::{Alu, Op, Row};

/// The compiled segment: `(regs, stride, base, n, select, env, full)`. `regs` is the block's register file
/// (row `r`, thread `t` at `r * stride + t`), the lanes are threads `base..base + n`, `select` holds one word
/// per lane (all ones: active), `env` the block's `blockIdx` (x, y, z), and `full` is non-zero when every
/// lane is active (the select words are not read).
pub type Code = unsafe extern "C" fn(*mut u64, u64, u64, u64, *const u64, *const u64, u64);

/// The launch's values a segment is compiled for.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub block_dim: Dim3,
    pub grid_dim: Dim3,
    /// The program's register count: rows from here on are constants.
    pub regs: usize,
}

/// Emits the function for segment `ops` (its rows `rows`, constants `consts`) into `b`, whose signature is
/// [`Code`]'s.
pub fn segment(b: &mut FunctionBuilder, ops: &[Op], rows: &Rows, consts: &[u64], shape: Shape) {
    let trusted = MemFlagsData::trusted();
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    let (header, check, masked, body, next, exit) =
        (b.create_block(), b.create_block(), b.create_block(), b.create_block(), b.create_block(), b.create_block());
    for blk in [header, check, masked, body, next] {
        b.append_block_param(blk, I64);
    }
    b.switch_to_block(entry);
    let p = b.block_params(entry).to_vec();
    let (regs, stride, base, n, select, env, full) = (p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    // Each row's first lane of the group, computed once.
    let mut row_at = HashMap::new();
    for &r in rows.inputs.iter().chain(&rows.outputs) {
        row_at.entry(r).or_insert_with(|| {
            let start = b.ins().imul_imm_s(stride, r as i64);
            let start = b.ins().iadd(start, base);
            let bytes = b.ins().ishl_imm_u(start, 3);
            b.ins().iadd(regs, bytes)
        });
    }
    let block_idx: Vec<Value> = (0..3).map(|a| b.ins().load(I64, trusted, env, 8 * a)).collect();
    let zero = b.ins().iconst(I64, 0);
    b.ins().jump(header, &[zero.into()]);

    b.switch_to_block(header);
    let i = b.block_params(header)[0];
    let done = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, n);
    b.ins().brif(done, exit, &[], check, &[i.into()]);

    b.switch_to_block(check);
    let i = b.block_params(check)[0];
    b.ins().brif(full, body, &[i.into()], masked, &[i.into()]);

    b.switch_to_block(masked);
    let i = b.block_params(masked)[0];
    let off = b.ins().ishl_imm_u(i, 3);
    let at = b.ins().iadd(select, off);
    let s = b.ins().load(I64, trusted, at, 0);
    b.ins().brif(s, body, &[i.into()], next, &[i.into()]);

    b.switch_to_block(body);
    let i = b.block_params(body)[0];
    let off = b.ins().ishl_imm_u(i, 3);
    let mut lane = Lane { b, vals: HashMap::new(), row_at: &row_at, off, consts, shape, block_idx, i, base };
    for op in ops {
        let v = lane.op(op);
        if let Some(d) = dest(op) {
            lane.vals.insert(d, v);
        }
    }
    for &d in &rows.outputs {
        let (v, at) = (lane.vals[&d], lane.row_at[&d]);
        let at = lane.b.ins().iadd(at, off);
        lane.b.ins().store(trusted, v, at, 0);
    }
    b.ins().jump(next, &[i.into()]);

    b.switch_to_block(next);
    let i = b.block_params(next)[0];
    let i = b.ins().iadd_imm_u(i, 1);
    b.ins().jump(header, &[i.into()]);

    b.switch_to_block(exit);
    b.ins().return_(&[]);
    b.seal_all_blocks();
}

/// One lane's body being built: the rows' current values (`i64`, as the register file holds them).
struct Lane<'a, 'f> {
    b: &'a mut FunctionBuilder<'f>,
    vals: HashMap<Row, Value>,
    row_at: &'a HashMap<Row, Value>,
    /// The lane's byte offset in a row.
    off: Value,
    consts: &'a [u64],
    shape: Shape,
    block_idx: Vec<Value>,
    /// The lane's index in the group, and the group's first thread.
    i: Value,
    base: Value,
}

impl Lane<'_, '_> {
    /// Row `r`'s value in this lane: computed earlier, a constant, or loaded.
    fn row(&mut self, r: Row) -> Value {
        if let Some(&v) = self.vals.get(&r) {
            return v;
        }
        let v = if let Some(&c) = (r as usize).checked_sub(self.shape.regs).and_then(|k| self.consts.get(k)) {
            self.b.ins().iconst(I64, c as i64)
        } else {
            let at = self.b.ins().iadd(self.row_at[&r], self.off);
            self.b.ins().load(I64, MemFlagsData::trusted(), at, 0)
        };
        self.vals.insert(r, v);
        v
    }

    /// The low half of row `r`.
    fn low(&mut self, r: Row) -> Value {
        let v = self.row(r);
        self.b.ins().ireduce(I32, v)
    }

    fn f32(&mut self, r: Row) -> Value {
        let v = self.low(r);
        self.b.ins().bitcast(F32, MemFlagsData::new(), v)
    }

    fn zext(&mut self, v: Value) -> Value {
        self.b.ins().uextend(I64, v)
    }

    /// A single-precision result as the GPU's bits (`sim::alu::f32_bits`: any NaN is `0x7fffffff`).
    fn f32_bits(&mut self, f: Value) -> Value {
        let nan = self.b.ins().fcmp(FloatCC::Unordered, f, f);
        let bits = self.b.ins().bitcast(I32, MemFlagsData::new(), f);
        let canonical = self.b.ins().iconst(I32, 0x7fff_ffff);
        let v = self.b.ins().select(nan, canonical, bits);
        self.zext(v)
    }

    /// The value `op` writes.
    fn op(&mut self, op: &Op) -> Value {
        match *op {
            Op::Alu { f, a, b, .. } => self.alu(f, a, b),
            Op::Mov { a, .. } => self.row(a),
            Op::PtrAdd { base, index, scale, signed, .. } => {
                let p = self.row(base);
                let i = self.low(index);
                let i = if signed { self.b.ins().sextend(I64, i) } else { self.b.ins().uextend(I64, i) };
                let scale = scale as i64;
                let off = if scale > 0 && (scale as u64).is_power_of_two() {
                    self.b.ins().ishl_imm_u(i, scale.trailing_zeros() as i64)
                } else {
                    self.b.ins().imul_imm_s(i, scale)
                };
                self.b.ins().iadd(p, off)
            }
            Op::Special { which, .. } => self.special(which),
            // (`stretch::compilable` lets no other kind in.)
            _ => self.b.ins().iconst(I64, 0),
        }
    }

    fn special(&mut self, which: Special) -> Value {
        let (bd, gd) = (self.shape.block_dim, self.shape.grid_dim);
        let axis = |d: Dim3, a: u8| d.as_array()[a as usize] as i64;
        match which {
            Special::ThreadIdx(a) => {
                // The thread's index in the block, as `Ctx::special` splits it (32-bit arithmetic).
                let tid = self.b.ins().iadd(self.base, self.i);
                let tid = self.b.ins().ireduce(I32, tid);
                let v = match a {
                    0 if bd.y == 1 && bd.z == 1 => tid,
                    0 => self.b.ins().urem_imm_u(tid, bd.x.max(1) as i64),
                    1 => {
                        let q = self.b.ins().udiv_imm_u(tid, bd.x.max(1) as i64);
                        self.b.ins().urem_imm_u(q, bd.y.max(1) as i64)
                    }
                    _ => self.b.ins().udiv_imm_u(tid, (bd.x.wrapping_mul(bd.y)).max(1) as i64),
                };
                self.zext(v)
            }
            Special::BlockIdx(a) => self.block_idx[a as usize],
            Special::BlockDim(a) => self.b.ins().iconst(I64, axis(bd, a)),
            Special::GridDim(a) => self.b.ins().iconst(I64, axis(gd, a)),
        }
    }

    fn alu(&mut self, f: Alu, a: Row, b: Row) -> Value {
        use Alu::*;
        match f {
            AddI | SubI | MulI | And | Or | Xor => {
                let (x, y) = (self.low(a), self.low(b));
                let ins = self.b.ins();
                let v = match f {
                    AddI => ins.iadd(x, y),
                    SubI => ins.isub(x, y),
                    MulI => ins.imul(x, y),
                    And => ins.band(x, y),
                    Or => ins.bor(x, y),
                    _ => ins.bxor(x, y),
                };
                self.zext(v)
            }
            Shl | ShrU | ShrS => {
                let (x, y) = (self.low(a), self.low(b));
                let v = if f == ShrS {
                    // (Counts past 31 fill with the sign.)
                    let most = self.b.ins().iconst(I32, 31);
                    let y = self.b.ins().umin(y, most);
                    self.b.ins().sshr(x, y)
                } else {
                    // (Cranelift masks the count; PTX gives 0 for counts past 31.)
                    let shifted = if f == Shl { self.b.ins().ishl(x, y) } else { self.b.ins().ushr(x, y) };
                    let past = self.b.ins().icmp_imm_u(IntCC::UnsignedGreaterThan, y, 31);
                    let zero = self.b.ins().iconst(I32, 0);
                    self.b.ins().select(past, zero, shifted)
                };
                self.zext(v)
            }
            LtS | LtU | LeS | LeU | GtS | GtU | GeS | GeU | Eq | Ne => {
                let cc = match f {
                    LtS => IntCC::SignedLessThan,
                    LtU => IntCC::UnsignedLessThan,
                    LeS => IntCC::SignedLessThanOrEqual,
                    LeU => IntCC::UnsignedLessThanOrEqual,
                    GtS => IntCC::SignedGreaterThan,
                    GtU => IntCC::UnsignedGreaterThan,
                    GeS => IntCC::SignedGreaterThanOrEqual,
                    GeU => IntCC::UnsignedGreaterThanOrEqual,
                    Eq => IntCC::Equal,
                    _ => IntCC::NotEqual,
                };
                let (x, y) = (self.low(a), self.low(b));
                let c = self.b.ins().icmp(cc, x, y);
                self.b.ins().uextend(I64, c)
            }
            AddF | SubF | MulF | DivF => {
                let (x, y) = (self.f32(a), self.f32(b));
                let ins = self.b.ins();
                let r = match f {
                    AddF => ins.fadd(x, y),
                    SubF => ins.fsub(x, y),
                    MulF => ins.fmul(x, y),
                    _ => ins.fdiv(x, y),
                };
                self.f32_bits(r)
            }
            Sext => {
                let x = self.low(a);
                self.b.ins().sextend(I64, x)
            }
            I2F | U2F => {
                let x = self.low(a);
                let r =
                    if f == I2F { self.b.ins().fcvt_from_sint(F32, x) } else { self.b.ins().fcvt_from_uint(F32, x) };
                let bits = self.b.ins().bitcast(I32, MemFlagsData::new(), r);
                self.zext(bits)
            }
            F2I | F2U => {
                let x = self.f32(a);
                let v = if f == F2I {
                    self.b.ins().fcvt_to_sint_sat(I32, x)
                } else {
                    self.b.ins().fcvt_to_uint_sat(I32, x)
                };
                self.zext(v)
            }
            F2D => {
                let x = self.f32(a);
                let d = self.b.ins().fpromote(F64, x);
                self.b.ins().bitcast(I64, MemFlagsData::new(), d)
            }
        }
    }
}

//! The operations a compiled loop computes inline, with `sim::alu`'s exact semantics, and the calls for the
//! rest: loads, stores and places, integer normalisation, arithmetic, comparisons and conversions.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F64, I8, I16, I32, I64};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value};

use super::{Helper, Lower, Site};
use crate::front::source::Span;
use crate::front::tast::{ArithOp, CmpOp};
use crate::front::types::Scalar;
use crate::host::tree::Place;
use crate::ir::Ty;

impl Lower<'_, '_> {
    pub(super) fn mem_type(s: Scalar) -> cranelift_codegen::ir::Type {
        match s.size() {
            1 => I8,
            2 => I16,
            4 => I32,
            _ => I64,
        }
    }

    pub(super) fn load(&mut self, p: Value, s: Scalar) -> Value {
        let t = Self::mem_type(s);
        let v = self.b.ins().load(t, MemFlagsData::new(), p, 0);
        if t == I64 { v } else { self.b.ins().uextend(I64, v) }
    }

    pub(super) fn store(&mut self, p: Value, s: Scalar, v: Value) {
        let t = Self::mem_type(s);
        let v = if t == I64 { v } else { self.b.ins().ireduce(t, v) };
        self.b.ins().store(MemFlagsData::new(), v, p, 0);
    }

    /// A place's value (stored as `s`) and, for memory, the checked pointer to write it back through.
    pub(super) fn read_place(&mut self, p: &Place, s: Scalar, span: Span) -> (Value, Option<Value>) {
        match p {
            Place::Slot(slot) => (self.b.use_var(self.var(*slot)), None),
            Place::Mem { addr, what } => {
                let a = self.address(addr);
                let ptr = self.host_ptr(a, s, what, span, false);
                (self.load(ptr, s), Some(ptr))
            }
        }
    }

    pub(super) fn write_back(&mut self, p: &Place, s: Scalar, ptr: Option<Value>, v: Value) {
        match (p, ptr) {
            (Place::Slot(slot), _) => self.b.def_var(self.var(*slot), v),
            (Place::Mem { .. }, Some(ptr)) => self.store(ptr, s, v),
            (Place::Mem { .. }, None) => unreachable!("a memory place was read through a pointer"),
        }
    }

    /// Integer bits in `s`'s canonical form (truncated, zero-extended).
    pub(super) fn normalize(&mut self, v: Value, s: Scalar) -> Value {
        match Self::mem_type(s) {
            I64 => v,
            t => {
                let n = self.b.ins().ireduce(t, v);
                self.b.ins().uextend(I64, n)
            }
        }
    }

    pub(super) fn is_int(s: Scalar) -> bool {
        !s.is_float() && s != Scalar::Bool
    }

    pub(super) fn arith(&mut self, op: ArithOp, s: Scalar, x: Value, y: Value, span: Span) -> Value {
        use ArithOp::*;
        let wide = matches!(s, Scalar::I64 | Scalar::U64);
        let int = wide || matches!(s, Scalar::I32 | Scalar::U32);
        if int && matches!(op, Add | Sub | Mul | And | Or | Xor) {
            let i = self.b.ins();
            let r = match op {
                Add => i.iadd(x, y),
                Sub => i.isub(x, y),
                Mul => i.imul(x, y),
                And => i.band(x, y),
                Or => i.bor(x, y),
                _ => i.bxor(x, y),
            };
            return self.normalize(r, s);
        }
        if matches!(s, Scalar::F32 | Scalar::F64) && matches!(op, Add | Sub | Mul | Div) {
            let (fx, fy) = (self.as_float(x, s), self.as_float(y, s));
            let i = self.b.ins();
            let r = match op {
                Add => i.fadd(fx, fy),
                Sub => i.fsub(fx, fy),
                Mul => i.fmul(fx, fy),
                _ => i.fdiv(fx, fy),
            };
            return self.float_bits(r, s);
        }
        if int && matches!(op, Div | Rem | Shl | Shr) {
            return self.divide_or_shift(op, s, x, y, span);
        }
        self.arith_call(op, s, x, y, span)
    }

    /// `sim::alu`'s operation by a call (division by zero leaves the loop with the interpreter's report).
    fn arith_call(&mut self, op: ArithOp, s: Scalar, x: Value, y: Value, span: Span) -> Value {
        let site = self.site(Site::Arith { op, ty: Ty::from(s), span });
        let out = self.b.ins().stack_addr(I64, self.out, 0);
        let r = self.call(Helper::Arith, &[self.env, site, x, y, out]);
        self.leave_unless_zero(r);
        self.b.ins().stack_load(I64, I64, self.out, 0)
    }

    /// Integer division, remainder and shifts (`s`: 32 or 64 bits) inline where the machine's instruction
    /// gives `sim::alu`'s result: a divisor other than 0 (and, signed, -1: `MIN / -1` wraps there and traps
    /// here), a shift count below the width (`alu` clamps larger ones). The rest calls `alu` as before: a
    /// loop filling an array with `rand() % 10` divided by a call per element.
    fn divide_or_shift(&mut self, op: ArithOp, s: Scalar, x: Value, y: Value, span: Span) -> Value {
        use ArithOp::*;
        let t = Self::mem_type(s);
        let signed = s.is_signed();
        let (xn, yn) = if t == I64 { (x, y) } else { (self.b.ins().ireduce(t, x), self.b.ins().ireduce(t, y)) };
        let fast = match op {
            Div | Rem => {
                let nonzero = self.b.ins().icmp_imm_u(IntCC::NotEqual, yn, 0);
                if signed {
                    // (-1 in `t`'s bits, zero-extended as Cranelift keeps narrow constants.)
                    let minus_one = self.b.ins().iconst(t, if t == I64 { -1 } else { 0xffff_ffff });
                    let not_minus_one = self.b.ins().icmp(IntCC::NotEqual, yn, minus_one);
                    self.b.ins().band(nonzero, not_minus_one)
                } else {
                    nonzero
                }
            }
            _ => {
                let width = if t == I64 { 64 } else { 32 };
                self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, yn, width)
            }
        };
        let (inline, slow, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let r = self.b.append_block_param(done, I64);
        self.b.ins().brif(fast, inline, &[], slow, &[]);
        self.b.set_cold_block(slow);
        self.b.switch_to_block(inline);
        let i = self.b.ins();
        let v = match (op, signed) {
            (Div, true) => i.sdiv(xn, yn),
            (Div, false) => i.udiv(xn, yn),
            (Rem, true) => i.srem(xn, yn),
            (Rem, false) => i.urem(xn, yn),
            (Shl, _) => i.ishl(xn, yn),
            (_, true) => i.sshr(xn, yn),
            _ => i.ushr(xn, yn),
        };
        let v = if t == I64 { v } else { self.b.ins().uextend(I64, v) };
        self.b.ins().jump(done, &[v.into()]);
        self.b.switch_to_block(slow);
        let v = self.arith_call(op, s, x, y, span);
        self.b.ins().jump(done, &[v.into()]);
        self.b.switch_to_block(done);
        r
    }

    pub(super) fn as_float(&mut self, x: Value, s: Scalar) -> Value {
        if s == Scalar::F32 {
            let n = self.b.ins().ireduce(I32, x);
            self.b.ins().bitcast(F32, MemFlagsData::new(), n)
        } else {
            self.b.ins().bitcast(F64, MemFlagsData::new(), x)
        }
    }

    pub(super) fn float_bits(&mut self, f: Value, s: Scalar) -> Value {
        if s == Scalar::F32 {
            let n = self.b.ins().bitcast(I32, MemFlagsData::new(), f);
            self.b.ins().uextend(I64, n)
        } else {
            self.b.ins().bitcast(I64, MemFlagsData::new(), f)
        }
    }

    pub(super) fn compare(&mut self, op: CmpOp, s: Scalar, x: Value, y: Value) -> Value {
        let c = match s {
            Scalar::F32 | Scalar::F64 => {
                let (fx, fy) = (self.as_float(x, s), self.as_float(y, s));
                let cc = match op {
                    CmpOp::Lt => FloatCC::LessThan,
                    CmpOp::Gt => FloatCC::GreaterThan,
                    CmpOp::Le => FloatCC::LessThanOrEqual,
                    CmpOp::Ge => FloatCC::GreaterThanOrEqual,
                    CmpOp::Eq => FloatCC::Equal,
                    CmpOp::Ne => FloatCC::NotEqual,
                };
                self.b.ins().fcmp(cc, fx, fy)
            }
            // `sim::alu::compare`: 32-bit types compare their low 32 bits; 64-bit ones all.
            Scalar::I32 | Scalar::U32 | Scalar::U8 | Scalar::Bool | Scalar::I64 | Scalar::U64 => {
                let signed = matches!(s, Scalar::I32 | Scalar::I64);
                let (x, y) = if matches!(s, Scalar::I64 | Scalar::U64) {
                    (x, y)
                } else {
                    (self.b.ins().ireduce(I32, x), self.b.ins().ireduce(I32, y))
                };
                let cc = match (op, signed) {
                    (CmpOp::Lt, true) => IntCC::SignedLessThan,
                    (CmpOp::Gt, true) => IntCC::SignedGreaterThan,
                    (CmpOp::Le, true) => IntCC::SignedLessThanOrEqual,
                    (CmpOp::Ge, true) => IntCC::SignedGreaterThanOrEqual,
                    (CmpOp::Lt, false) => IntCC::UnsignedLessThan,
                    (CmpOp::Gt, false) => IntCC::UnsignedGreaterThan,
                    (CmpOp::Le, false) => IntCC::UnsignedLessThanOrEqual,
                    (CmpOp::Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
                    (CmpOp::Eq, _) => IntCC::Equal,
                    (CmpOp::Ne, _) => IntCC::NotEqual,
                };
                self.b.ins().icmp(cc, x, y)
            }
            _ => {
                let site = self.site(Site::Cmp(op, Ty::from(s)));
                return self.call(Helper::Pure, &[self.env, site, x, y]);
            }
        };
        self.b.ins().uextend(I64, c)
    }

    /// `Scalar::convert_bits`: integer to integer inline, anything with a float or a bool through it.
    pub(super) fn convert(&mut self, from: Scalar, to: Scalar, x: Value) -> Value {
        if from == to {
            return x;
        }
        if Self::is_int(from) && Self::is_int(to) {
            let t = Self::mem_type(from);
            let v = if t == I64 {
                x
            } else {
                let n = self.b.ins().ireduce(t, x);
                if from.is_signed() { self.b.ins().sextend(I64, n) } else { self.b.ins().uextend(I64, n) }
            };
            return self.normalize(v, to);
        }
        if let Some(v) = self.convert_float(from, to, x) {
            return v;
        }
        let site = self.site(Site::Convert(from, to));
        let zero = self.b.ins().iconst(I64, 0);
        self.call(Helper::Pure, &[self.env, site, x, zero])
    }

    /// `Scalar::convert_bits` between integers of 32 or 64 bits (and narrower, from) and `float`/`double`
    /// inline, None for the others (bool, half, narrow targets). Each is the one IEEE operation Rust's `as`
    /// is: an integer rounded once to nearest, a double rounded to float, and float to integer saturating at
    /// the target's range with NaN as 0 (`saturate`): `(float)(rand() & 0xFF) / 10.0f` per element.
    fn convert_float(&mut self, from: Scalar, to: Scalar, x: Value) -> Option<Value> {
        let float = |s: Scalar| matches!(s, Scalar::F32 | Scalar::F64);
        let ftype = |s: Scalar| if s == Scalar::F32 { F32 } else { F64 };
        if Self::is_int(from) && float(to) {
            // The integer's value as 64 bits: sign-extended when signed (canonical bits are zero-extended).
            let t = Self::mem_type(from);
            let v = if t != I64 && from.is_signed() {
                let n = self.b.ins().ireduce(t, x);
                self.b.ins().sextend(I64, n)
            } else {
                x
            };
            let f = if from == Scalar::U64 {
                self.b.ins().fcvt_from_uint(ftype(to), v)
            } else {
                self.b.ins().fcvt_from_sint(ftype(to), v)
            };
            return Some(self.float_bits(f, to));
        }
        if float(from) && float(to) {
            let f = self.as_float(x, from);
            let g = if to == Scalar::F64 { self.b.ins().fpromote(F64, f) } else { self.b.ins().fdemote(F32, f) };
            return Some(self.float_bits(g, to));
        }
        if float(from) && matches!(to, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64) {
            let f = self.as_float(x, from);
            let t = Self::mem_type(to);
            let i = self.b.ins();
            let v = if to.is_signed() { i.fcvt_to_sint_sat(t, f) } else { i.fcvt_to_uint_sat(t, f) };
            return Some(if t == I64 { v } else { self.b.ins().uextend(I64, v) });
        }
        None
    }
}

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
        let site = self.site(Site::Arith { op, ty: Ty::from(s), span });
        let out = self.b.ins().stack_addr(I64, self.out, 0);
        let r = self.call(Helper::Arith, &[self.env, site, x, y, out]);
        self.leave_unless_zero(r);
        self.b.ins().stack_load(I64, I64, self.out, 0)
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
        let site = self.site(Site::Convert(from, to));
        let zero = self.b.ins().iconst(I64, 0);
        self.call(Helper::Pure, &[self.env, site, x, zero])
    }
}

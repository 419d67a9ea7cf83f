//! Host expressions: operators, assignments, casts (calls and launches are in [`super::libcalls`]).

use super::resolve::{Fail, Lv, Res, Resolver, Var};
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A, UnaryOp};
use crate::front::source::Span;
use crate::front::tast::{ArithOp, CmpOp, UnOp};
use crate::front::types::{Scalar, Type};

/// Names of the CUDA runtime's and C library's constants host code uses.
pub(super) fn known_constant(name: &str) -> Option<(u64, Type)> {
    let int = |v: i64| Some((v as u32 as u64, Type::INT));
    let double = |v: f64| Some((v.to_bits(), Type::Scalar(Scalar::F64)));
    let float = |v: f32| Some((v.to_bits() as u64, Type::FLOAT));
    match name {
        // <math.h>'s and <float.h>'s.
        "M_PI" => double(std::f64::consts::PI),
        "M_PI_2" => double(std::f64::consts::FRAC_PI_2),
        "M_PI_4" => double(std::f64::consts::FRAC_PI_4),
        "M_1_PI" => double(std::f64::consts::FRAC_1_PI),
        "M_2_PI" => double(std::f64::consts::FRAC_2_PI),
        "M_E" => double(std::f64::consts::E),
        "M_LN2" => double(std::f64::consts::LN_2),
        "M_LN10" => double(std::f64::consts::LN_10),
        "M_SQRT2" => double(std::f64::consts::SQRT_2),
        "M_SQRT1_2" => double(std::f64::consts::FRAC_1_SQRT_2),
        "FLT_MAX" => float(f32::MAX),
        "FLT_MIN" => float(f32::MIN_POSITIVE),
        "FLT_EPSILON" => float(f32::EPSILON),
        "DBL_MAX" => double(f64::MAX),
        "DBL_MIN" => double(f64::MIN_POSITIVE),
        "DBL_EPSILON" => double(f64::EPSILON),
        // glibc's: `INFINITY` and `NAN` are floats, `HUGE_VAL` a double.
        "INFINITY" | "HUGE_VALF" => float(f32::INFINITY),
        "NAN" => float(f32::NAN),
        "HUGE_VAL" => double(f64::INFINITY),
        "UINT_MAX" => Some((u32::MAX as u64, Type::UINT)),
        "cudaSuccess" | "cudaMemcpyHostToHost" | "EXIT_SUCCESS" => int(0),
        "cudaMemcpyHostToDevice" | "EXIT_FAILURE" => int(1),
        "cudaMemcpyDeviceToHost" => int(2),
        "cudaMemcpyDeviceToDevice" => int(3),
        "cudaMemcpyDefault" => int(4),
        "RAND_MAX" | "INT_MAX" => int(i32::MAX as i64),
        "INT_MIN" => int(i32::MIN as i64),
        "cudaErrorInvalidValue" => int(1),
        "cudaErrorMemoryAllocation" => int(2),
        "cudaErrorInvalidConfiguration" => int(9),
        "cudaErrorInvalidDevicePointer" => int(17),
        "cudaErrorInvalidMemcpyDirection" => int(21),
        "stdout" => Some((1, Type::ptr(Type::Void, false))),
        "stderr" => Some((2, Type::ptr(Type::Void, false))),
        _ => super::cuda::names::constant(name),
    }
}

fn arith_op(op: BinaryOp) -> Option<ArithOp> {
    Some(match op {
        BinaryOp::Add => ArithOp::Add,
        BinaryOp::Sub => ArithOp::Sub,
        BinaryOp::Mul => ArithOp::Mul,
        BinaryOp::Div => ArithOp::Div,
        BinaryOp::Rem => ArithOp::Rem,
        BinaryOp::Shl => ArithOp::Shl,
        BinaryOp::Shr => ArithOp::Shr,
        BinaryOp::BitAnd => ArithOp::And,
        BinaryOp::BitOr => ArithOp::Or,
        BinaryOp::BitXor => ArithOp::Xor,
        _ => return None,
    })
}

fn cmp_op(op: BinaryOp) -> Option<CmpOp> {
    Some(match op {
        BinaryOp::Lt => CmpOp::Lt,
        BinaryOp::Gt => CmpOp::Gt,
        BinaryOp::Le => CmpOp::Le,
        BinaryOp::Ge => CmpOp::Ge,
        BinaryOp::Eq => CmpOp::Eq,
        BinaryOp::Ne => CmpOp::Ne,
        _ => return None,
    })
}

impl Resolver<'_> {
    /// The value of an expression.
    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> Res<HExpr> {
        let span = e.span;
        let c = |bits: u64, ty: Type| Ok(HExpr::new(HK::Const(bits), ty, span));
        match &e.kind {
            A::Int { value, unsigned, long, decimal } => {
                let v = *value;
                let s = match (*unsigned, *long) {
                    (false, false) if v <= i32::MAX as u64 => Scalar::I32,
                    (false, false) if !*decimal && v <= u32::MAX as u64 => Scalar::U32,
                    (true, false) if v <= u32::MAX as u64 => Scalar::U32,
                    (true, _) => Scalar::U64,
                    _ if v <= i64::MAX as u64 => Scalar::I64,
                    _ => Scalar::U64,
                };
                c(if s.size() == 4 { v & 0xffff_ffff } else { v }, Type::Scalar(s))
            }
            A::Float { value, single: true } => c((*value as f32).to_bits() as u64, Type::FLOAT),
            A::Float { value, single: false } => c(value.to_bits(), Type::Scalar(Scalar::F64)),
            A::Bool(b) => c(*b as u64, Type::BOOL),
            A::Char(ch) => c(*ch as u64 & 0xffff_ffff, Type::INT),
            A::Str(s) => {
                let id = self.string(s);
                Ok(HExpr::new(HK::Str(id), Type::ptr(Type::Scalar(Scalar::I8), true), span))
            }
            A::Name(n) => match self.lookup(n) {
                Some(Var::Const(bits, ty)) => c(bits, ty),
                Some(_) => {
                    let (lv, ty) = self.lvalue(e)?;
                    self.load(lv, ty, span)
                }
                None => match known_constant(n) {
                    Some((bits, ty)) => c(bits, ty),
                    None => match self.this_field(n, span) {
                        Some(field) => self.rvalue(&field),
                        // A function's name as a value: its address (`kernel = copyRow;`).
                        None => match self.function_value(n, span) {
                            Some(v) => v,
                            None => Err(self.undeclared(n, span)),
                        },
                    },
                },
            },
            A::Index(..) | A::Member(..) | A::Unary(UnaryOp::Deref, _) => {
                let (lv, ty) = self.lvalue(e)?;
                self.load(lv, ty, span)
            }
            A::Unary(UnaryOp::AddrOf, x) if let Some(f) = self.address_of_function(x) => f,
            A::Unary(UnaryOp::AddrOf, x) => match self.lvalue(x)? {
                (Lv::Mem(addr, _), ty) => Ok(HExpr { ty: Type::ptr(ty, false), ..addr }),
                (Lv::Reg(_), _) => Err(self.error(span, "this value has no address")),
            },
            A::Unary(UnaryOp::Plus, x) => {
                let v = self.rvalue(x)?;
                match v.ty.scalar() {
                    Some(s) => self.convert(v, &Type::Scalar(s.promote())),
                    None => Err(self.error(span, format!("no unary `+` for `{}`", v.ty))),
                }
            }
            A::Unary(UnaryOp::Neg, x) => {
                let v = self.rvalue(x)?;
                self.unop(UnOp::Neg, v, span)
            }
            A::Unary(UnaryOp::BitNot, x) => {
                let v = self.rvalue(x)?;
                self.unop(UnOp::BitNot, v, span)
            }
            A::Unary(UnaryOp::Not, x) => {
                let v = self.cond(x)?;
                Ok(HExpr::new(HK::Unary(UnOp::Not, Scalar::Bool, Box::new(v)), Type::INT, span))
            }
            A::Binary { op, left: a, right: b } => self.binary(*op, a, b, span),
            A::Assign { op, target: a, value: b } => self.assign(*op, a, b, span),
            A::IncDec { increment, prefix, operand } => {
                let (lv, ty) = self.lvalue(operand)?;
                let step = match &ty {
                    Type::Ptr { elem, .. } => elem.size() as i64,
                    Type::Scalar(_) => 1,
                    _ => return Err(self.error(span, format!("`{ty}` cannot be incremented"))),
                };
                let step = if *increment { step } else { -step };
                let place = self.place(lv, &ty, span)?;
                let s = storage(&ty).ok_or(Fail)?;
                Ok(HExpr::new(HK::IncDec(Box::new(place), s, step, *prefix), ty, span))
            }
            A::Ternary { cond, then: a, els: b } => {
                let cnd = self.cond(cond)?;
                let (a, b) = (self.rvalue(a)?, self.rvalue(b)?);
                let ty = match (&a.ty, &b.ty) {
                    (Type::Scalar(x), Type::Scalar(y)) => Type::Scalar(Scalar::common(*x, *y)),
                    (Type::Ptr { .. }, _) => a.ty.clone(),
                    _ => b.ty.clone(),
                };
                let (a, b) = (self.convert(a, &ty)?, self.convert(b, &ty)?);
                Ok(HExpr::new(HK::Cond(Box::new(cnd), Box::new(a), Box::new(b)), ty, span))
            }
            A::Cast(ts, x) => {
                let to = self.ty(ts, 0)?;
                let v = self.rvalue(x)?;
                if to == Type::Void {
                    return Ok(HExpr { ty: Type::Void, ..v });
                }
                match (&v.ty, &to) {
                    (Type::Scalar(Scalar::F32 | Scalar::F64), Type::Ptr { .. }) => {
                        Err(self.error(span, "a floating-point value cannot become a pointer"))
                    }
                    _ => self.convert(v, &to),
                }
            }
            A::SizeofType(ts) => {
                let t = self.ty(ts, 0)?;
                c(t.size() as u64, Type::Scalar(Scalar::U64))
            }
            A::SizeofExpr(x) => {
                // A variable-length array's size is known when its declaration runs.
                if let A::Name(id) = &x.kind
                    && let Some(Var::Reg(slot, _)) = self.lookup(id)
                    && let Some(&size) = self.vla_sizes.get(&slot)
                {
                    return Ok(HExpr::new(HK::Slot(size), Type::Scalar(Scalar::U64), span));
                }
                let t = match self.lvalue(x) {
                    Ok((_, t)) => t,
                    Err(Fail) => {
                        self.diags.pop();
                        self.rvalue(x)?.ty
                    }
                };
                c(t.size() as u64, Type::Scalar(Scalar::U64))
            }
            A::Call(name, args) => self.call(name, args, span),
            A::Launch { kernel: k, config, args } => self.launch(k, config, args, span),
            A::Comma(a, b) => {
                let (a, b) = (self.rvalue(a)?, self.rvalue(b)?);
                let ty = b.ty.clone();
                Ok(HExpr::new(HK::Comma(Box::new(a), Box::new(b)), ty, span))
            }
            A::New { ty, count, args } => self.new_expr(ty, count.as_deref(), args, span),
            A::Delete(_, p) => {
                let v = self.rvalue(p)?;
                if !matches!(v.ty, Type::Ptr { .. }) {
                    return Err(self.error(p.span, format!("`delete` needs a pointer, not `{}`", v.ty)));
                }
                Ok(HExpr::new(HK::Lib(Lib::Free, vec![v]), Type::Void, span))
            }
            A::InitList(_) => Err(self.error(span, "a brace initialiser can only initialise a declaration")),
            A::MethodCall { object: obj, method: m, args } => {
                let o = self.rvalue(obj)?;
                if super::vector::vector_elem(&o.ty).is_some() {
                    return self.vector_method(o, m, args, span);
                }
                if let Some(call) = self.ofstream_method(obj, &o.ty, m, args, span) {
                    return call;
                }
                if let Some(call) = self.method_call(obj, m, args, span) {
                    return call;
                }
                Err(self.unsupported(m.span, "this member function in host code yet"))
            }
            A::Lambda { .. } => Err(self.unsupported(span, "a lambda here in host code yet")),
            A::Error => Err(Fail),
        }
    }

    /// `new T[n]`, `new T`, `new T(v)`: heap memory as `malloc` gives it (named for messages), the scalar
    /// initialised when a value is given.
    fn new_expr(
        &mut self,
        ts: &ast::TypeSpec,
        count: Option<&ast::Expr>,
        args: &[ast::Expr],
        span: Span,
    ) -> Res<HExpr> {
        let elem = self.ty(ts, 0)?;
        let size = HExpr::new(HK::Const(elem.size().max(1) as u64), Type::Scalar(Scalar::U64), span);
        let bytes = match count {
            Some(n) => {
                let n = self.rvalue(n)?;
                let n = self.convert(n, &Type::Scalar(Scalar::U64))?;
                HExpr::new(
                    HK::Arith(ArithOp::Mul, Scalar::U64, Box::new(n), Box::new(size)),
                    Type::Scalar(Scalar::U64),
                    span,
                )
            }
            None => size,
        };
        let name = self.string(&format!("new {}", elem));
        let name = HExpr::new(HK::Const(name as u64), Type::INT, span);
        let ptr_ty = Type::ptr(elem.clone(), false);
        let alloc = HExpr::new(HK::Lib(Lib::Malloc, vec![bytes, name]), ptr_ty.clone(), span);
        let init = match (args, count) {
            ([], _) | (_, Some(_)) => return Ok(alloc),
            ([v], None) if storage(&elem).is_some() => self.rvalue(v)?,
            _ => return Err(self.unsupported(span, "`new` with constructor arguments in host code yet")),
        };
        let init = self.convert(init, &elem)?;
        let slot = self.new_slot();
        let at = HExpr::new(HK::Slot(slot), ptr_ty.clone(), span);
        let keep = HExpr::new(HK::Assign(Box::new(Place::Slot(slot)), Box::new(alloc)), ptr_ty.clone(), span);
        let place = Place::Mem(Box::new(at.clone()), storage(&elem).ok_or(Fail)?, None);
        let store = HExpr::new(HK::Assign(Box::new(place), Box::new(init)), elem, span);
        let both = HExpr::new(HK::Comma(Box::new(keep), Box::new(store)), ptr_ty.clone(), span);
        Ok(HExpr::new(HK::Comma(Box::new(both), Box::new(at)), ptr_ty, span))
    }

    fn binary(&mut self, op: BinaryOp, a: &ast::Expr, b: &ast::Expr, span: crate::front::source::Span) -> Res<HExpr> {
        if matches!(op, BinaryOp::LogAnd | BinaryOp::LogOr) {
            let (x, y) = (Box::new(self.cond(a)?), Box::new(self.cond(b)?));
            let k = if op == BinaryOp::LogAnd { HK::And(x, y) } else { HK::Or(x, y) };
            return Ok(HExpr::new(k, Type::INT, span));
        }
        if op == BinaryOp::Shl
            && let Some(chain) = self.stream_shift(a, b, span)
        {
            return chain;
        }
        let (x, y) = (self.rvalue(a)?, self.rvalue(b)?);
        if let Some(cmp) = cmp_op(op) {
            let s = match (&x.ty, &y.ty) {
                (Type::Scalar(p), Type::Scalar(q)) => Scalar::common(*p, *q),
                _ => Scalar::U64,
            };
            let (x, y) = (self.convert(x, &Type::Scalar(s))?, self.convert(y, &Type::Scalar(s))?);
            return Ok(HExpr::new(HK::Cmp(cmp, s, Box::new(x), Box::new(y)), Type::INT, span));
        }
        let arith = arith_op(op).ok_or(Fail)?;
        match (&x.ty, &y.ty, arith) {
            (Type::Ptr { elem, .. }, Type::Scalar(_), ArithOp::Add | ArithOp::Sub) => {
                let size = elem.size() as i64;
                let ty = x.ty.clone();
                let mut i = self.index(y)?;
                if arith == ArithOp::Sub {
                    i = self.unop(UnOp::Neg, i, span)?;
                }
                Ok(HExpr::new(HK::PtrAdd(Box::new(x), Box::new(i), size), ty, span))
            }
            (Type::Scalar(_), Type::Ptr { elem, .. }, ArithOp::Add) => {
                let size = elem.size() as i64;
                let ty = y.ty.clone();
                let i = self.index(x)?;
                Ok(HExpr::new(HK::PtrAdd(Box::new(y), Box::new(i), size), ty, span))
            }
            (Type::Ptr { elem, .. }, Type::Ptr { .. }, ArithOp::Sub) => {
                let size = (elem.size() as i64).max(1);
                Ok(HExpr::new(HK::PtrDiff(Box::new(x), Box::new(y), size), Type::Scalar(Scalar::I64), span))
            }
            _ => self.arith(arith, x, y, span),
        }
    }

    fn assign(
        &mut self,
        op: Option<BinaryOp>,
        a: &ast::Expr,
        b: &ast::Expr,
        span: crate::front::source::Span,
    ) -> Res<HExpr> {
        let (lv, ty) = self.lvalue(a)?;
        let mut v = self.rvalue(b)?;
        if let Some(n) = super::resolve::name_of(a) {
            self.name_allocation(&mut v, &n);
        }
        if let (Type::Struct(_), None, Lv::Mem(addr, _)) = (&ty, op, &lv) {
            return self.copy_struct(addr.clone(), v, &ty, span);
        }
        let place = self.place(lv, &ty, span)?;
        let Some(op) = op else {
            let v = self.convert(v, &ty)?;
            return Ok(HExpr::new(HK::Assign(Box::new(place), Box::new(v)), ty, span));
        };
        let arith = arith_op(op).ok_or(Fail)?;
        match (&ty, &v.ty) {
            (Type::Ptr { elem, .. }, Type::Scalar(_)) if matches!(arith, ArithOp::Add | ArithOp::Sub) => {
                let size = elem.size() as i64;
                let i = self.index(v)?;
                let size = if arith == ArithOp::Sub { -size } else { size };
                Ok(HExpr::new(HK::PtrCompound(size, Box::new(place), Box::new(i)), ty, span))
            }
            (Type::Scalar(t), Type::Scalar(s)) => {
                let c = if matches!(arith, ArithOp::Shl | ArithOp::Shr) { t.promote() } else { Scalar::common(*t, *s) };
                let v = self.convert(v, &Type::Scalar(c))?;
                Ok(HExpr::new(HK::Compound(arith, c, *t, Box::new(place), Box::new(v)), ty, span))
            }
            _ => Err(self.error(span, format!("no `{}=` for `{ty}` and `{}`", op.symbol(), v.ty))),
        }
    }
}

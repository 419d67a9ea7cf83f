//! Host expressions: operators, assignments, casts (calls and launches are in [`super::libcalls`]).

use super::resolve::{Resolver, Var};
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A, UnaryOp};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::tast::{ArithOp, CmpOp, UnOp};
use crate::front::types::{Scalar, Type};

impl Resolver<'_> {
    /// The value of an expression.
    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> Result<Expr, Reported> {
        let span = e.span;
        let c = |bits: u64, ty: Type| Ok(Expr::new(ExprKind::Const(bits), ty, span));
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
                Ok(Expr::new(ExprKind::Str(id), Type::ptr(Type::Scalar(Scalar::I8), true), span))
            }
            A::Name(n) => match self.lookup(n) {
                Some(Var::Const(bits, ty)) => c(bits, ty),
                Some(_) => {
                    let (place, ty) = self.lvalue(e)?;
                    self.load(place, ty, span)
                }
                // The enclosing function's bare name, as g++ gives it (`next` in `Gen::next`, `fill` in
                // `fill<int>`).
                None if matches!(n.as_str(), "__func__" | "__FUNCTION__") => {
                    let full = self.current_fn.split('<').next().unwrap_or_default();
                    let bare = full.rsplit("::").next().unwrap_or_default().to_string();
                    let id = self.string(&bare);
                    Ok(Expr::new(ExprKind::Str(id), Type::ptr(Type::Scalar(Scalar::I8), true), span))
                }
                None => match super::cuda::names::known_constant(n) {
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
            A::Index(a, i) if let Some(v) = self.class_index(a, i, span) => v,
            A::Index(..) | A::Member(..) | A::Unary(UnaryOp::Deref, _) => {
                let (place, ty) = self.lvalue(e)?;
                self.load(place, ty, span)
            }
            A::Unary(UnaryOp::AddrOf, x) if let Some(f) = self.address_of_function(x) => f,
            A::Unary(UnaryOp::AddrOf, x) => match self.lvalue(x)? {
                (Place::Mem { addr, .. }, ty) => Ok(Expr { ty: Type::ptr(ty, false), ..*addr }),
                (Place::Slot(_), _) => Err(self.error(span, "this value has no address")),
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
                if let Some(call) = self.overloaded_unary("-", v.clone(), span) {
                    return call;
                }
                self.unop(UnOp::Neg, v, span)
            }
            A::Unary(UnaryOp::BitNot, x) => {
                let v = self.rvalue(x)?;
                self.unop(UnOp::BitNot, v, span)
            }
            A::Unary(UnaryOp::Not, x) => {
                let v = self.cond(x)?;
                Ok(Expr::new(
                    ExprKind::Unary { op: UnOp::Not, op_ty: Scalar::Bool, operand: Box::new(v) },
                    Type::INT,
                    span,
                ))
            }
            A::Binary { op, left: a, right: b } => self.binary(*op, a, b, span),
            A::Assign { op, target: a, value: b } => self.assign(*op, a, b, span),
            A::IncDec { increment, prefix, operand } => {
                let (place, ty) = self.lvalue(operand)?;
                let step = match &ty {
                    Type::Ptr { elem, .. } => elem.size() as i64,
                    Type::Scalar(_) => 1,
                    _ => return Err(self.error(span, format!("`{ty}` cannot be incremented"))),
                };
                let step = if *increment { step } else { -step };
                let (place, _) = self.assignable(place, &ty, span)?;
                let s = storage(&ty).ok_or(Reported)?;
                Ok(Expr::new(ExprKind::IncDec { place: Box::new(place), storage: s, step, prefix: *prefix }, ty, span))
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
                Ok(Expr::new(
                    ExprKind::Cond { cond: Box::new(cnd), then: Box::new(a), otherwise: Box::new(b) },
                    ty,
                    span,
                ))
            }
            A::Cast(ts, x) => {
                let to = self.ty(ts, 0)?;
                let v = self.rvalue(x)?;
                if to == Type::Void {
                    return Ok(Expr { ty: Type::Void, ..v });
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
                    return Ok(Expr::new(ExprKind::Slot(size), Type::Scalar(Scalar::U64), span));
                }
                let t = match self.lvalue(x) {
                    Ok((_, t)) => t,
                    Err(Reported) => {
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
                Ok(Expr::new(ExprKind::Comma(Box::new(a), Box::new(b)), ty, span))
            }
            A::New { ty, count, args } => self.new_expr(ty, count.as_deref(), args, span),
            A::Delete(array, p) => {
                let v = self.rvalue(p)?;
                if !matches!(v.ty, Type::Ptr { .. }) {
                    return Err(self.error(p.span, format!("`delete` needs a pointer, not `{}`", v.ty)));
                }
                // (`delete[]` of objects does not run their destructors yet: the count is not kept.)
                if !*array && let Some(r) = self.delete_object(v.clone(), span) {
                    return r;
                }
                Ok(Expr::new(ExprKind::Lib(Lib::Free, vec![v]), Type::Void, span))
            }
            A::InitList(_) => Err(self.error(span, "a brace initialiser can only initialise a declaration")),
            A::MethodCall { object: obj, method: m, args } => {
                if let Some(what) = self.caught_what(obj, m, args) {
                    return Ok(what);
                }
                if let Some(call) = self.ostream_method(obj, m, args, span) {
                    return call;
                }
                let o = self.rvalue(obj)?;
                if vector_elem(&o.ty).is_some() {
                    return self.vector_method(o, m, args, span);
                }
                if super::array::array_of(&o.ty).is_some() {
                    return self.array_method(o, m, args, span);
                }
                if let Some(call) = self.random_method(obj, &o.ty, m, args, span) {
                    return call;
                }
                if let Some(call) = self.string_method(obj, &o.ty, m, args, span) {
                    return call;
                }
                if let Some(call) = self.ofstream_method(obj, &o.ty, m, args, span) {
                    return call;
                }
                if let Some(call) = self.thread_method(obj, &o.ty, m, args, span) {
                    return call;
                }
                if let Some(call) = self.method_call(obj, m, args, span) {
                    return call;
                }
                Err(self.unsupported(m.span, "this member function in host code yet"))
            }
            A::Lambda { .. } => self.lambda(e),
            A::Throw(value) => self.throw(value.as_deref(), span),
            A::Error => Err(Reported),
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
    ) -> Result<Expr, Reported> {
        let elem = self.ty(ts, 0)?;
        let size = Expr::new(ExprKind::Const(elem.size().max(1) as u64), Type::Scalar(Scalar::U64), span);
        let bytes = match count {
            Some(n) => {
                let n = self.rvalue(n)?;
                let n = self.convert(n, &Type::Scalar(Scalar::U64))?;
                Expr::new(
                    ExprKind::Arith { op: ArithOp::Mul, op_ty: Scalar::U64, left: Box::new(n), right: Box::new(size) },
                    Type::Scalar(Scalar::U64),
                    span,
                )
            }
            None => size,
        };
        let name = self.string(&format!("new {}", elem));
        let name = Expr::new(ExprKind::Const(name as u64), Type::INT, span);
        let ptr_ty = Type::ptr(elem.clone(), false);
        // The third argument marks a `new`: it throws `std::bad_alloc` where malloc returns NULL.
        let is_new = Expr::new(ExprKind::Const(1), Type::INT, span);
        let alloc = Expr::new(ExprKind::Lib(Lib::Malloc, vec![bytes, name, is_new]), ptr_ty.clone(), span);
        if count.is_none()
            && let Some(object) = self.new_object(alloc.clone(), args, span)
        {
            return object;
        }
        let init = match (args, count) {
            ([], _) | (_, Some(_)) => return Ok(alloc),
            ([v], None) if storage(&elem).is_some() => self.rvalue(v)?,
            _ => return Err(self.unsupported(span, "`new` with constructor arguments in host code yet")),
        };
        let init = self.convert(init, &elem)?;
        let slot = self.new_slot();
        let at = Expr::new(ExprKind::Slot(slot), ptr_ty.clone(), span);
        let keep = Expr::new(ExprKind::assign(Place::Slot(slot), Place::REGISTER, alloc), ptr_ty.clone(), span);
        let s = storage(&elem).ok_or(Reported)?;
        let store = Expr::new(ExprKind::assign(Place::mem(at.clone(), None), s, init), elem, span);
        let both = Expr::new(ExprKind::Comma(Box::new(keep), Box::new(store)), ptr_ty.clone(), span);
        Ok(Expr::new(ExprKind::Comma(Box::new(both), Box::new(at)), ptr_ty, span))
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: crate::front::source::Span,
    ) -> Result<Expr, Reported> {
        if let Some(cmp) = self.string_compare(op, a, b, span) {
            return cmp;
        }
        if matches!(op, BinaryOp::LogAnd | BinaryOp::LogOr) {
            let (x, y) = (Box::new(self.cond(a)?), Box::new(self.cond(b)?));
            let k = if op == BinaryOp::LogAnd { ExprKind::And(x, y) } else { ExprKind::Or(x, y) };
            return Ok(Expr::new(k, Type::INT, span));
        }
        if op == BinaryOp::Shl
            && let Some(chain) = self.stream_shift(a, b, span)
        {
            return chain;
        }
        if op == BinaryOp::Shr
            && let Some(chain) = self.stream_extract(a, b, span)
        {
            return chain;
        }
        let (x, y) = (self.rvalue(a)?, self.rvalue(b)?);
        if matches!((&x.ty, &y.ty), (Type::Struct(_), _) | (_, Type::Struct(_))) {
            return self.overloaded_binary(op, x, y, span).unwrap_or(Err(Reported));
        }
        if let Some(cmp) = CmpOp::from_binary(op) {
            let s = match (&x.ty, &y.ty) {
                (Type::Scalar(p), Type::Scalar(q)) => Scalar::common(*p, *q),
                _ => Scalar::U64,
            };
            let (x, y) = (self.convert(x, &Type::Scalar(s))?, self.convert(y, &Type::Scalar(s))?);
            return Ok(Expr::new(
                ExprKind::Cmp { op: cmp, op_ty: s, left: Box::new(x), right: Box::new(y) },
                Type::INT,
                span,
            ));
        }
        let arith = ArithOp::from_binary(op).ok_or(Reported)?;
        match (&x.ty, &y.ty, arith) {
            (Type::Ptr { elem, .. }, Type::Scalar(_), ArithOp::Add | ArithOp::Sub) => {
                let size = elem.size() as i64;
                let ty = x.ty.clone();
                let mut i = self.index(y)?;
                if arith == ArithOp::Sub {
                    i = self.unop(UnOp::Neg, i, span)?;
                }
                Ok(Expr::new(ExprKind::PtrAdd { ptr: Box::new(x), index: Box::new(i), elem_size: size }, ty, span))
            }
            (Type::Scalar(_), Type::Ptr { elem, .. }, ArithOp::Add) => {
                let size = elem.size() as i64;
                let ty = y.ty.clone();
                let i = self.index(x)?;
                Ok(Expr::new(ExprKind::PtrAdd { ptr: Box::new(y), index: Box::new(i), elem_size: size }, ty, span))
            }
            (Type::Ptr { elem, .. }, Type::Ptr { .. }, ArithOp::Sub) => {
                let size = (elem.size() as i64).max(1);
                Ok(Expr::new(
                    ExprKind::PtrDiff { left: Box::new(x), right: Box::new(y), elem_size: size },
                    Type::Scalar(Scalar::I64),
                    span,
                ))
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
    ) -> Result<Expr, Reported> {
        if let Some(s) = self.string_assign(op, a, b, span) {
            return s;
        }
        let (place, ty) = self.lvalue(a)?;
        // `v = w;` of vectors: `w`'s elements copied into `v`'s storage (a temporary moves in).
        if let (Some(_), None, Place::Mem { addr, .. }) = (vector_elem(&ty), op, &place) {
            let at = Expr { ty: Type::ptr(ty.clone(), false), ..Expr::clone(addr) };
            let mut sets = vec![];
            self.vector_copy_init(at, &ty, b, &mut sets)?;
            let none = Expr::new(ExprKind::Const(0), Type::Void, span);
            return sequence(sets, none)
                .ok_or_else(|| self.unsupported(span, "this assignment of a `std::vector` yet"));
        }
        if let (Type::Struct(_), Some(op), Place::Mem { addr, .. }) = (&ty, op, &place) {
            let object = Expr { ty: ty.clone(), ..Expr::clone(addr) };
            return self.overloaded_compound(op, object, b, span).unwrap_or(Err(Reported));
        }
        let mut v = if op.is_none() { self.rvalue_as(b, &ty)? } else { self.rvalue(b)? };
        if let Some(n) = super::resolve::name_of(a) {
            self.name_allocation(&mut v, &n);
        }
        if let (Type::Struct(_), None, Place::Mem { addr, .. }) = (&ty, op, &place) {
            return self.copy_struct(Expr::clone(addr), v, &ty, span);
        }
        let (place, s) = self.assignable(place, &ty, span)?;
        let Some(op) = op else {
            let v = self.convert(v, &ty)?;
            return Ok(Expr::new(ExprKind::assign(place, s, v), ty, span));
        };
        let arith = ArithOp::from_binary(op).ok_or(Reported)?;
        match (&ty, &v.ty) {
            (Type::Ptr { elem, .. }, Type::Scalar(_)) if matches!(arith, ArithOp::Add | ArithOp::Sub) => {
                let size = elem.size() as i64;
                let i = self.index(v)?;
                let size = if arith == ArithOp::Sub { -size } else { size };
                Ok(Expr::new(
                    ExprKind::PtrCompound { elem_size: size, place: Box::new(place), value: Box::new(i) },
                    ty,
                    span,
                ))
            }
            (Type::Scalar(t), Type::Scalar(s)) => {
                let c = if matches!(arith, ArithOp::Shl | ArithOp::Shr) { t.promote() } else { Scalar::common(*t, *s) };
                let v = self.convert(v, &Type::Scalar(c))?;
                Ok(Expr::new(
                    ExprKind::Compound { op: arith, op_ty: c, storage: *t, place: Box::new(place), value: Box::new(v) },
                    ty,
                    span,
                ))
            }
            _ => Err(self.error(span, format!("no `{}=` for `{ty}` and `{}`", op.symbol(), v.ty))),
        }
    }
}

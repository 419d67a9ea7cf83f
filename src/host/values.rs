//! The resolver's values: conditions, conversions, places (lvalues) and loads from them, and the arithmetic
//! operators' typing ([`super::resolve`] holds the resolver, its names and functions).

use super::resolve::{Resolver, Var, name_of, ptr_add};
use super::tree::*;
use crate::front::ast::{self, ExprKind as A, UnaryOp};
use crate::front::diagnostic::{Diagnostic, ErrorCode, Reported};
use crate::front::source::Span;
use crate::front::tast::{ArithOp, CmpOp, UnOp};
use crate::front::types::{Scalar, Type};

impl Resolver<'_> {
    /// The type `e` has, found without keeping the diagnostics and scope-end destructors resolving it records
    /// (for choosing how to read a call, before it is resolved for real).
    pub(super) fn probe_type(&mut self, e: &ast::Expr) -> Result<Type, Reported> {
        let (diags, dtors) = (self.diags.len(), self.dtors.len());
        let ty = self.rvalue(e).map(|v| v.ty);
        self.diags.truncate(diags);
        self.dtors.truncate(dtors);
        ty
    }

    /// A condition, as `bool`.
    pub(super) fn cond(&mut self, e: &ast::Expr) -> Result<Expr, Reported> {
        if let Some(ok) = self.stream_truth(e) {
            return ok;
        }
        let v = self.rvalue(e)?;
        self.truth(v)
    }

    pub(super) fn truth(&mut self, v: Expr) -> Result<Expr, Reported> {
        let span = v.span;
        match storage(&v.ty) {
            Some(Scalar::Bool) => Ok(v),
            Some(s) => {
                let zero = Expr::new(ExprKind::Const(0), v.ty.clone(), span);
                Ok(Expr::new(
                    ExprKind::Cmp { op: CmpOp::Ne, op_ty: s, left: Box::new(v), right: Box::new(zero) },
                    Type::BOOL,
                    span,
                ))
            }
            None => Err(self.error(span, format!("a `{}` is not a condition", v.ty))),
        }
    }

    /// `v` converted to `to` as by assignment.
    pub(super) fn convert(&mut self, v: Expr, to: &Type) -> Result<Expr, Reported> {
        let span = v.span;
        if v.ty == *to || v.ty.is_error() || to.is_error() {
            return Ok(v);
        }
        match (&v.ty, to) {
            (Type::Scalar(a), Type::Scalar(b)) => {
                let (a, b) = (*a, *b);
                Ok(Expr::new(ExprKind::Convert { from: a, to: b, value: Box::new(v) }, to.clone(), span))
            }
            // C converts any object pointer to and from `void *` implicitly; other pointer mixes compile
            // with a warning in C, and casts say the same thing: accepted.
            (Type::Ptr { .. }, Type::Ptr { .. }) => Ok(Expr { ty: to.clone(), ..v }),
            (Type::Scalar(s), Type::Ptr { .. }) if s.is_integer() => {
                let v =
                    Expr::new(ExprKind::Convert { from: *s, to: Scalar::U64, value: Box::new(v) }, to.clone(), span);
                Ok(v)
            }
            (Type::Ptr { .. }, Type::Scalar(s)) => {
                Ok(Expr::new(ExprKind::Convert { from: Scalar::U64, to: *s, value: Box::new(v) }, to.clone(), span))
            }
            (Type::Array(e, _), Type::Ptr { .. }) => {
                let _ = e;
                Ok(Expr { ty: to.clone(), ..v })
            }
            _ => Err(self.error(span, format!("cannot convert `{}` to `{to}`", v.ty))),
        }
    }

    /// An lvalue: where the expression's object is, and its type.
    pub(super) fn lvalue(&mut self, e: &ast::Expr) -> Result<(Place, Type), Reported> {
        match &e.kind {
            A::Name(n) => match self.lookup(n) {
                Some(Var::Reg(s, t)) => Ok((Place::Slot(s), t)),
                Some(Var::Mem(s, t)) => {
                    let addr = Expr::new(ExprKind::Slot(s), Type::ptr(t.clone(), false), e.span);
                    Ok((Place::mem(addr, Some(n.clone())), t))
                }
                Some(Var::Global(i, t)) => {
                    let addr = Expr::new(ExprKind::Global(i), Type::ptr(t.clone(), false), e.span);
                    Ok((Place::mem(addr, Some(n.clone())), t))
                }
                Some(Var::Const(..)) => Err(self.error(e.span, format!("`{n}` is a constant"))),
                None => match self.this_field(n, e.span) {
                    Some(field) => self.lvalue(&field),
                    None => Err(self.undeclared(n, e.span)),
                },
            },
            A::Index(a, i) => {
                if let Some(c) = self.string_index(a, i, e.span) {
                    return self.lvalue(&c);
                }
                if let Some(v) = self.class_index(a, i, e.span) {
                    return self.value_place(v?, e.span);
                }
                let p = self.rvalue(a)?;
                if vector_elem(&p.ty).is_some() {
                    let i = self.rvalue(i)?;
                    return self.vector_index(p, i, e.span, name_of(a));
                }
                if super::array::array_of(&p.ty).is_some() {
                    let i = self.rvalue(i)?;
                    return self.array_index(p, i, e.span, name_of(a));
                }
                let Some(elem) = p.ty.pointee().cloned() else {
                    return Err(self.error(a.span, format!("`{}` cannot be indexed", p.ty)));
                };
                let idx = self.rvalue(i)?;
                let idx = self.index(idx)?;
                let what = name_of(a);
                let size = elem.size() as i64;
                let at = Expr::new(
                    ExprKind::PtrAdd { ptr: Box::new(p), index: Box::new(idx), elem_size: size },
                    Type::ptr(elem.clone(), false),
                    e.span,
                );
                Ok((Place::mem(at, what), elem))
            }
            A::Unary(UnaryOp::Deref, p) => {
                let v = self.rvalue(p)?;
                match v.ty.pointee().cloned() {
                    Some(Type::Void) => Err(self.error(e.span, "a `void *` cannot be dereferenced")),
                    Some(t) => Ok((Place::mem(v, name_of(p)), t)),
                    None => Err(self.error(e.span, format!("`{}` is not a pointer", v.ty))),
                }
            }
            A::Member(obj, field) => {
                let (place, t) = self.lvalue(obj)?;
                let (Type::Struct(def), Place::Mem { addr, .. }) = (&t, place) else {
                    return Err(self.error(e.span, format!("`{t}` has no fields")));
                };
                let Some((off, fty)) = self.class_field(def, &field.name) else {
                    return Err(self.error(field.span, format!("`{}` has no field `{}`", def.name, field.name)));
                };
                let (off, fty) = (off as i64, self.complete(fty));
                Ok((Place::mem(ptr_add(*addr, off, &fty), None), fty))
            }
            // A struct a call returned (`make(1).y`): it lives in the caller's storage for it.
            A::Call(..) | A::Binary { .. } | A::MethodCall { .. } => {
                let v = self.rvalue(e)?;
                self.value_place(v, e.span)
            }
            _ => Err(self.error(e.span, "this expression cannot be assigned to")),
        }
    }

    /// `ty` with a struct it points to that was incomplete where it was written (`Node *next` inside `Node`'s
    /// own definition) replaced by the finished struct, so `p->next->key` and `p->next + 1` see its layout.
    pub(super) fn complete(&self, ty: Type) -> Type {
        match ty {
            Type::Ptr { elem, is_const } => Type::Ptr { elem: Box::new(self.complete(*elem)), is_const },
            Type::Struct(d) if d.is_incomplete() => match self.kernels.structs.get(&d.name) {
                Some(full) => Type::Struct(full.clone()),
                None => Type::Struct(d),
            },
            t => t,
        }
    }

    pub(super) fn undeclared(&mut self, n: &str, span: Span) -> Reported {
        self.diags.push(Diagnostic::new(ErrorCode::Name, span, format!("`{n}` is not declared")).label("not declared"));
        Reported
    }

    /// An index or offset, as `long long`.
    pub(super) fn index(&mut self, v: Expr) -> Result<Expr, Reported> {
        match v.ty {
            Type::Scalar(s) if s.is_integer() => self.convert(v, &Type::Scalar(Scalar::I64)),
            _ => Err(self.error(v.span, format!("an index must be an integer, not `{}`", v.ty))),
        }
    }

    /// The value of an lvalue (arrays decay to a pointer to their first element).
    pub(super) fn load(&mut self, place: Place, ty: Type, span: Span) -> Result<Expr, Reported> {
        Ok(match (place, &ty) {
            (Place::Slot(s), _) => Expr::new(ExprKind::Slot(s), ty, span),
            (Place::Mem { addr, .. }, Type::Array(elem, _)) => Expr { ty: Type::ptr((**elem).clone(), false), ..*addr },
            (Place::Mem { addr, .. }, Type::Struct(_)) => Expr { ty, ..*addr },
            (Place::Mem { addr, what }, _) => {
                let s = storage(&ty).ok_or_else(|| self.error(span, format!("a `{ty}` has no value")))?;
                Expr::new(ExprKind::Load { addr, storage: s, what }, ty, span)
            }
        })
    }

    /// `place`, an lvalue of type `ty`, checked to be one a value can be stored to (in memory, a scalar or a
    /// pointer: not an array or a struct), with how a value is stored there.
    pub(super) fn assignable(&mut self, place: Place, ty: &Type, span: Span) -> Result<(Place, Scalar), Reported> {
        let s = match place {
            Place::Slot(_) => Place::REGISTER,
            Place::Mem { .. } => storage(ty).ok_or_else(|| self.error(span, format!("a `{ty}` cannot be assigned")))?,
        };
        Ok((place, s))
    }

    pub(super) fn string(&mut self, s: &str) -> u32 {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        self.strings.push(bytes);
        self.strings.len() as u32 - 1
    }

    /// Arithmetic `a op b` after the usual conversions.
    pub(super) fn arith(&mut self, op: ArithOp, a: Expr, b: Expr, span: Span) -> Result<Expr, Reported> {
        let (Some(sa), Some(sb)) = (a.ty.scalar(), b.ty.scalar()) else {
            return Err(self.error(span, format!("no operator for `{}` and `{}`", a.ty, b.ty)));
        };
        let c = if matches!(op, ArithOp::Shl | ArithOp::Shr) { sa.promote() } else { Scalar::common(sa, sb) };
        if c.is_float()
            && matches!(op, ArithOp::Rem | ArithOp::Shl | ArithOp::Shr | ArithOp::And | ArithOp::Or | ArithOp::Xor)
        {
            return Err(self.error(span, "this operator needs integer operands"));
        }
        let a = self.convert(a, &Type::Scalar(c))?;
        let b =
            self.convert(b, &Type::Scalar(if matches!(op, ArithOp::Shl | ArithOp::Shr) { sb.promote() } else { c }))?;
        let b = if matches!(op, ArithOp::Shl | ArithOp::Shr) { self.convert(b, &Type::Scalar(c))? } else { b };
        Ok(Expr::new(ExprKind::Arith { op, op_ty: c, left: Box::new(a), right: Box::new(b) }, Type::Scalar(c), span))
    }

    pub(super) fn unop(&mut self, op: UnOp, v: Expr, span: Span) -> Result<Expr, Reported> {
        let Some(s) = v.ty.scalar() else { return Err(self.error(span, format!("no operator for `{}`", v.ty))) };
        let p = s.promote();
        let v = self.convert(v, &Type::Scalar(p))?;
        Ok(Expr::new(ExprKind::Unary { op, op_ty: p, operand: Box::new(v) }, Type::Scalar(p), span))
    }
}

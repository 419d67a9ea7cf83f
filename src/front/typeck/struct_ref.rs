//! Where a struct-typed expression lives ([`StructRef`]: struct variables' registers or memory) and its
//! fields as values and places (`v.x`, `p->next->key`, `a[i].f`, `__ldg(&in[i])`).

use super::super::ast::{self, ExprKind as A};
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::Type;
use super::checker::{Binding, Checker};
use super::layout::field_addr;
use super::suggest::closest;

/// Where a struct-typed expression's fields are.
pub(super) enum StructRef {
    /// Fields of struct variable `idx` under `prefix` (`""`, or `"inner."`), once `pre` has run (the call
    /// that fills a temporary; empty for a variable).
    Local { idx: u32, prefix: String, ty: Type, pre: Vec<Stmt> },
    /// In memory at `addr` (a pointer to the struct).
    Mem { addr: Expr, ty: Type },
}

impl StructRef {
    pub(super) fn ty(&self) -> &Type {
        match self {
            StructRef::Local { ty, .. } | StructRef::Mem { ty, .. } => ty,
        }
    }
}

impl Checker {
    /// Where the struct an expression denotes is, if it denotes one (a temporary for a call or an operator
    /// that makes one).
    pub(super) fn struct_ref(&mut self, e: &ast::Expr) -> Option<StructRef> {
        match &e.kind {
            A::Name(n) => match self.lookup(n)? {
                Binding::StructLocal(idx) => {
                    let ty = self.struct_locals[idx as usize].ty.clone();
                    Some(StructRef::Local { idx, prefix: String::new(), ty, pre: vec![] })
                }
                // `__shared__ Vec3 centre;`: one struct in shared memory.
                Binding::SharedScalar(s) if matches!(self.shared[s.0 as usize].ty, Type::Struct(_)) => {
                    let ty = self.shared[s.0 as usize].ty.clone();
                    let addr = Expr::new(ExprKind::SharedAddr(s), Type::ptr(ty.clone(), false), e.span);
                    Some(StructRef::Mem { addr, ty })
                }
                // `__device__ Vec3 origin;`, `extern __shared__` and `__constant__` ones likewise.
                Binding::Global(g) if matches!(self.globals[g.0 as usize].ty, Type::Struct(_)) => {
                    let ty = self.globals[g.0 as usize].ty.clone();
                    Some(StructRef::Mem { addr: self.global_addr(g, e.span), ty })
                }
                _ => None,
            },
            // `*this` in a member function whose object is in registers.
            A::Unary(ast::UnaryOp::Deref, inner)
                if matches!(&inner.kind, A::Name(n) if n == "this")
                    && matches!(self.lookup("this"), Some(Binding::StructLocal(_))) =>
            {
                let Some(Binding::StructLocal(idx)) = self.lookup("this") else { return None };
                let ty = self.struct_locals[idx as usize].ty.clone();
                Some(StructRef::Local { idx, prefix: String::new(), ty, pre: vec![] })
            }
            A::Member(inner, field) => {
                let r = self.struct_ref(inner)?;
                let (owner, f) = self.field_of(&r, field)?;
                if !matches!(f.ty, Type::Struct(_)) {
                    return None;
                }
                let _ = owner;
                Some(match r {
                    StructRef::Local { idx, prefix, pre, .. } => {
                        StructRef::Local { idx, prefix: format!("{prefix}{}.", field.name), ty: f.ty.clone(), pre }
                    }
                    StructRef::Mem { addr, .. } => {
                        StructRef::Mem { addr: field_addr(&addr, f.offset, &f.ty, e.span), ty: f.ty.clone() }
                    }
                })
            }
            A::Index(..) | A::Unary(ast::UnaryOp::Deref, _) => {
                let (base, idx) = match &e.kind {
                    A::Index(b, i) => (b, Some(i)),
                    A::Unary(_, p) => (p, None),
                    _ => return None,
                };
                // Only pointers to structs are looked at here; anything else is an ordinary expression.
                if !self.is_struct_pointer(base) {
                    return None;
                }
                let p = self.expr(base);
                let ty = p.ty.pointee()?.clone();
                let addr = match idx {
                    Some(i) => {
                        let i = self.expr(i);
                        // A per-thread local array's index is checked against its length.
                        let i = self.checked_local_index(base, p.clone(), i);
                        self.ptr_offset(p, i, false, e.span)?
                    }
                    None => p,
                };
                Some(StructRef::Mem { addr, ty })
            }
            // `__ldg(&a[i])`, `__ldg(p)` of a vector or struct: the load it is (the read-only cache is not modelled).
            A::Call(name, args) if super::builtins::is_load(&name.name) && args.len() == 1 => match &args[0].kind {
                A::Unary(ast::UnaryOp::AddrOf, inner) => self.struct_ref(inner),
                _ => {
                    let deref =
                        ast::Expr { kind: A::Unary(ast::UnaryOp::Deref, Box::new(args[0].clone())), span: e.span };
                    self.struct_ref(&deref)
                }
            },
            _ => self.struct_temp(e),
        }
    }

    /// Whether `e` is (syntactically cheap to tell) a pointer to a struct: a name, a field or a cast of one.
    pub(super) fn is_struct_pointer(&mut self, e: &ast::Expr) -> bool {
        match &e.kind {
            A::Name(n) => match self.lookup(n) {
                Some(Binding::Local(l)) => {
                    matches!(self.locals[l.0 as usize].ty.pointee(), Some(Type::Struct(_)))
                }
                Some(Binding::Global(g)) => matches!(
                    &self.globals[g.0 as usize].ty,
                    Type::Array(e, _) if matches!(**e, Type::Struct(_))
                ),
                Some(Binding::SharedArray(s)) => matches!(
                    &self.shared[s.0 as usize].ty,
                    Type::Array(e, _) if matches!(**e, Type::Struct(_))
                ),
                _ => false,
            },
            A::Cast(ts, _) => ts.named.is_some() && ts.pointers > 0,
            // `p + i`, `i + p`, `p - i`.
            A::Binary { op: ast::BinaryOp::Add | ast::BinaryOp::Sub, left: a, right: b } => {
                self.is_struct_pointer(a) || self.is_struct_pointer(b)
            }
            A::Member(..) | A::Index(..) => {
                // A field or element that is itself a pointer to a struct: check its type without diagnostics.
                let before = self.diags.len();
                let v = self.expr(e);
                self.diags.truncate(before);
                matches!(v.ty.pointee(), Some(Type::Struct(_)))
            }
            _ => false,
        }
    }

    fn field_of(&mut self, r: &StructRef, field: &ast::Ident) -> Option<(Type, super::super::types::Field)> {
        let mut ty = r.ty().clone();
        // Reached through a pointer field of its own definition (`e->next->key`): the finished struct.
        if let Type::Struct(d) = &ty
            && d.is_incomplete()
            && let Some(full) = self.structs.get(&d.name)
        {
            ty = Type::Struct(full.clone());
        }
        let s = ty.as_struct()?;
        match s.field(&field.name) {
            Some(f) => Some((ty.clone(), f.clone())),
            None => {
                let names: Vec<String> = s.fields.iter().map(|f| f.name.clone()).collect();
                let mut d =
                    Diagnostic::new(ErrorCode::Name, field.span, format!("`{ty}` has no field `{}`", field.name))
                        .label("unknown field");
                if let Some(c) = closest(&field.name, &names) {
                    d = d.hint(format!("did you mean `{c}`?"));
                } else {
                    d = d.hint(format!("its fields: {}", names.join(", ")));
                }
                self.err(d);
                None
            }
        }
    }

    /// `s.f` / `p->f` / `a[i].f` as a value, if `obj` is a struct; None otherwise (not a struct).
    pub(super) fn struct_member(&mut self, obj: &ast::Expr, field: &ast::Ident, span: Span) -> Option<Expr> {
        let r = self.struct_ref(obj)?;
        let Some((_, f)) = self.field_of(&r, field) else { return Some(Expr::error(span)) };
        Some(match r {
            StructRef::Local { idx, prefix, pre, .. } => {
                let path = format!("{prefix}{}", field.name);
                let v = match self.struct_locals[idx as usize].leaves.iter().find(|(p, ..)| *p == path) {
                    Some((_, id, t)) => Expr::new(ExprKind::Local(*id), t.clone(), span),
                    None => self.type_error(span, format!("`{}` is a struct: use one of its fields", field.name)),
                };
                if pre.is_empty() {
                    v
                } else {
                    let ty = v.ty.clone();
                    Expr::new(ExprKind::Seq(pre, Box::new(v)), ty, span)
                }
            }
            StructRef::Mem { addr, .. } => {
                let a = field_addr(&addr, f.offset, &f.ty, span);
                match &f.ty {
                    Type::Array(e, _) => Expr::new(a.kind, Type::ptr((**e).clone(), false), span),
                    Type::Struct(_) => {
                        self.type_error(span, format!("`{}` is a struct: use one of its fields", field.name))
                    }
                    t => Expr::new(ExprKind::Load(Box::new(a)), t.clone(), span),
                }
            }
        })
    }

    /// The storage `s.f` / `p->f` names, if `obj` is a struct.
    pub(super) fn struct_member_place(
        &mut self,
        obj: &ast::Expr,
        field: &ast::Ident,
        span: Span,
    ) -> Option<Option<Place>> {
        let r = self.struct_ref(obj)?;
        let Some((_, f)) = self.field_of(&r, field) else { return Some(None) };
        Some(match r {
            StructRef::Local { pre, .. } if !pre.is_empty() => {
                self.err(
                    Diagnostic::new(ErrorCode::Type, span, "this expression is not assignable")
                        .label("a field of a temporary"),
                );
                None
            }
            StructRef::Local { idx, prefix, .. } => {
                let path = format!("{prefix}{}", field.name);
                self.struct_locals[idx as usize]
                    .leaves
                    .iter()
                    .find(|(p, ..)| *p == path)
                    .map(|(_, id, _)| Place::Local(*id))
            }
            StructRef::Mem { addr, .. } => Some(Place::Mem(Box::new(field_addr(&addr, f.offset, &f.ty, span)))),
        })
    }
}

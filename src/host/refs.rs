//! Functions returning a reference in host code (`float &at(int i)`, `T &operator[](int i)`,
//! `Vec &operator+=(const Vec &o)`): the function returns the address of what its `return` names, and a call
//! stands for the object there, so `v.at(2) = 3.0f;` and `v[1] += 2;` store through it.

use super::methods::expr;
use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::Type;

impl Resolver<'_> {
    /// `return e;` in a function returning a reference: the address of `e`'s object.
    pub(super) fn returned_reference(&mut self, e: &ast::Expr) -> Result<Expr, Reported> {
        match self.lvalue(e)? {
            (Place::Mem { addr, .. }, ty) => {
                let v = Expr { ty: Type::ptr(ty, false), ..*addr };
                self.convert(v, &self.ret.clone())
            }
            (Place::Slot(_), _) => {
                Err(self.unsupported(e.span, "returning a reference to this in host code yet (a parameter by value)"))
            }
        }
    }

    /// A call `call` of a function returning a reference (its value the address): the object there.
    pub(super) fn referenced(&mut self, call: Expr, span: Span) -> Result<Expr, Reported> {
        let ty = call.ty.pointee().cloned().unwrap_or(Type::Error);
        self.load(Place::mem(call, None), ty, span)
    }

    /// Where a value lives when it has a place: an object loaded from memory (what a call of a function
    /// returning a reference gives) or a struct (its value is its address).
    pub(super) fn value_place(&mut self, v: Expr, span: Span) -> Result<(Place, Type), Reported> {
        match v {
            Expr { kind: ExprKind::Load { addr, what, .. }, ty, .. } => Ok((Place::Mem { addr, what }, ty)),
            v @ Expr { ty: Type::Struct(_), .. } => {
                let t = v.ty.clone();
                Ok((Place::mem(Expr { ty: Type::ptr(t.clone(), false), ..v }, None), t))
            }
            _ => Err(self.error(span, "this expression cannot be assigned to")),
        }
    }

    /// `obj[i]` of a class with a member `operator[]` (`Matrix::operator[](int)`); None otherwise.
    pub(super) fn class_index(&mut self, obj: &ast::Expr, i: &ast::Expr, span: Span) -> Option<Result<Expr, Reported>> {
        if !self.fns.keys().any(|f| f.ends_with("::operator[]")) {
            return None;
        }
        let Ok(ty) = self.probe_type(obj) else { return None };
        let Type::Struct(_) = ty else { return None };
        self.method_of(&ty, "operator[]")?;
        let op = ast::Ident { name: "operator[]".into(), span: obj.span };
        let call = expr(A::MethodCall { object: Box::new(obj.clone()), method: op, args: vec![i.clone()] }, span);
        Some(self.rvalue(&call))
    }
}

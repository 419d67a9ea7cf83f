//! Functions returning a reference in host code (`float &at(int i)`, `T &operator[](int i)`,
//! `Vec &operator+=(const Vec &o)`): the function returns the address of what its `return` names, and a call
//! stands for the object there, so `v.at(2) = 3.0f;` and `v[1] += 2;` store through it.

use super::methods::expr;
use super::resolve::{Resolver, Var};
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::Type;

impl Resolver<'_> {
    /// `T &r = x;` (`const T &`, `auto &`): `r` names `x`'s object, through a slot that holds its address, as
    /// a reference parameter does. A value with no object of its own (`const float &s = a + b;`) is copied
    /// to a temporary in the frame, which lives as long as the reference (as C++ extends its life).
    pub(super) fn local_reference(
        &mut self,
        d: &ast::Decl,
        dc: &ast::Declarator,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Reported> {
        let (name, span) = (dc.name.name.clone(), dc.name.span);
        let Some(init) = &dc.init else {
            return Err(self.error(span, format!("the reference `{name}` needs an initialiser")));
        };
        let declared = if d.ty.named.as_deref() == Some("auto") { None } else { Some(self.ty(&d.ty, dc.pointers)?) };
        let before = self.diags.len();
        let place = self.lvalue(init);
        if place.is_err() {
            self.diags.truncate(before);
        }
        let (addr, ty) = match place {
            Ok((Place::Mem { addr, .. }, ty)) if declared.as_ref().is_none_or(|t| *t == ty) => (*addr, ty),
            _ => {
                let v = self.rvalue(init)?;
                let ty = declared.unwrap_or_else(|| v.ty.clone());
                let slot = self.new_slot();
                self.frame.push((slot, ty.size().max(1), name.clone()));
                let at = Expr::new(ExprKind::Slot(slot), Type::ptr(ty.clone(), false), span);
                let v = self.convert(v, &ty)?;
                let store = match &ty {
                    Type::Struct(_) => self.copy_struct(Expr { ty: ty.clone(), ..at.clone() }, v, &ty, span)?,
                    _ => {
                        let s = storage(&ty).ok_or(Reported)?;
                        Expr::new(ExprKind::assign(Place::mem(at.clone(), Some(name.clone())), s, v), ty.clone(), span)
                    }
                };
                out.push(Stmt::Expr(store));
                (at, ty)
            }
        };
        let slot = self.new_slot();
        let addr = Expr { ty: Type::ptr(ty.clone(), false), ..addr };
        out.push(Stmt::Expr(Expr::new(ExprKind::assign(Place::Slot(slot), Place::REGISTER, addr), ty.clone(), span)));
        self.scopes.last_mut().ok_or(Reported)?.insert(name, Var::Mem(slot, ty));
        Ok(())
    }

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

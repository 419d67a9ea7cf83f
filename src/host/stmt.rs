//! Host statements: blocks and their scopes, `if`, the loops (range-based `for` among them), `switch`, `goto`,
//! `return`. Declarations are in [`super::decl`].

use std::collections::HashMap;

use super::resolve::{Resolver, Var};
use super::tree::*;
use crate::front::ast::{self, StmtKind as S, TypeSpec};
use crate::front::diagnostic::Reported;
use crate::front::tast::CmpOp;
use crate::front::types::{Scalar, Type};

impl Resolver<'_> {
    pub(super) fn stmts(&mut self, stmts: &[ast::Stmt]) -> Result<Vec<Stmt>, Reported> {
        let mut out = vec![];
        let mut failed = false;
        for s in stmts {
            match self.stmt(s, &mut out) {
                Ok(()) => {}
                Err(Reported) => failed = true,
            }
        }
        if failed { Err(Reported) } else { Ok(out) }
    }

    pub(super) fn scoped(&mut self, s: &ast::Stmt) -> Result<Stmt, Reported> {
        self.scopes.push(HashMap::new());
        let mut out = vec![];
        let r = self.stmt(s, &mut out);
        self.end_scope(&mut out);
        self.scopes.pop();
        r?;
        Ok(if out.len() == 1 { out.pop().unwrap_or(Stmt::Block(vec![])) } else { Stmt::Block(out) })
    }

    fn stmt(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) -> Result<(), Reported> {
        let h = match &s.kind {
            S::Decl(d) => return self.decl(d, out),
            S::Expr(e) => {
                if let Some(r) = self.member_init(e, out) {
                    return r;
                }
                match self.thread_assign(e, out) {
                    Some(r) => return r,
                    None => Stmt::Expr(self.rvalue(e)?),
                }
            }
            S::Block(b) => {
                self.scopes.push(HashMap::new());
                let r = self.stmts(b).map(|mut out| {
                    self.end_scope(&mut out);
                    out
                });
                self.scopes.pop();
                Stmt::Block(r?)
            }
            S::If { cond, then, els } => {
                let c = self.cond(cond)?;
                let t = self.scoped(then)?;
                let e = match els {
                    Some(e) => Some(Box::new(self.scoped(e)?)),
                    None => None,
                };
                Stmt::If { cond: c, then: Box::new(t), otherwise: e }
            }
            S::While { cond, body } => Stmt::While(self.cond(cond)?, Box::new(self.scoped(body)?)),
            S::DoWhile { body, cond } => Stmt::DoWhile(Box::new(self.scoped(body)?), self.cond(cond)?),
            S::For { init, cond, step, body } => {
                self.scopes.push(HashMap::new());
                let r = self.for_parts(init, cond, step, body).map(|s| self.with_scope_end(s));
                self.scopes.pop();
                r?
            }
            S::Break => Stmt::Break,
            S::Continue => Stmt::Continue,
            S::Return(e) => {
                let v = match e {
                    Some(e) if self.ret_ref => Some(self.returned_reference(e)?),
                    // `return "many";` from a function returning a `std::string`: a string made from it.
                    Some(e) if super::cuda::names::is_string(&self.ret) => {
                        Some(self.string_value(e, &self.ret.clone())?)
                    }
                    Some(e) => {
                        let v = self.rvalue_as(e, &self.ret.clone())?;
                        self.deduce_return(&v, s.span)?;
                        Some(self.convert(v, &self.ret.clone())?)
                    }
                    None => None,
                };
                match (v, self.ret_slot) {
                    (Some(v), Some(slot)) => {
                        let ret = self.ret.clone();
                        let to = Expr::new(ExprKind::Slot(slot), ret.clone(), s.span);
                        let copy = self.copy_struct(to.clone(), v, &ret, s.span)?;
                        Stmt::Block(vec![Stmt::Expr(copy), self.return_destroying(Some(to), s.span)])
                    }
                    (v, _) => self.return_destroying(v, s.span),
                }
            }
            S::Switch { cond, body } => self.switch(cond, body)?,
            S::Try { body, handlers } => self.try_catch(body, handlers)?,
            S::ForRange { ty, pointers, reference, name, range, body } => {
                self.scopes.push(HashMap::new());
                // `for (auto m : {A, B})`: the braced list is a hidden array of the loop's scope.
                let mut pre = vec![];
                let braced = match &range.kind {
                    ast::ExprKind::InitList(items) if !items.is_empty() => {
                        Some(self.braced_range(ty, *pointers, items, range, &mut pre))
                    }
                    _ => None,
                };
                let r = match &braced {
                    Some(Err(_)) => Err(Reported),
                    Some(Ok(hidden)) => self.range_for(ty, *pointers, *reference, name, hidden, body),
                    None => self.range_for(ty, *pointers, *reference, name, range, body),
                };
                let r = r.map(|s| self.with_scope_end(s));
                self.scopes.pop();
                let r = r?;
                if pre.is_empty() {
                    r
                } else {
                    pre.push(r);
                    Stmt::Block(pre)
                }
            }
            S::Case(_) | S::Default => {
                return Err(self.unsupported(s.span, "`case` labels outside a switch's braces"));
            }
            S::Goto(l) => match self.labels.iter().position(|x| *x == l.name) {
                Some(i) => Stmt::Goto(i as u32),
                None => return Err(self.error(l.span, format!("no label `{}` in this function's body", l.name))),
            },
            S::Label(l) if self.scopes.len() == 1 => {
                Stmt::Label(self.labels.iter().position(|x| *x == l.name).unwrap_or(0) as u32)
            }
            S::Label(_) => {
                return Err(self.unsupported(
                    s.span,
                    "labels inside a nested block (`goto` goes to labels of the function's body)",
                ));
            }
            S::Empty => return Ok(()),
        };
        out.push(h);
        Ok(())
    }

    /// `for (T x : range) body` over a `std::vector` or an array: a pointer runs from its first element to its
    /// end; `x` is a copy of the element, or (`T &x`) the element itself.
    fn range_for(
        &mut self,
        ts: &TypeSpec,
        pointers: u8,
        reference: bool,
        name: &ast::Ident,
        range: &ast::Expr,
        body: &ast::Stmt,
    ) -> Result<Stmt, Reported> {
        let span = range.span;
        // The two ends a pointer runs between: a `std::string`'s characters, or a class's `begin()` and `end()`
        // (a course's own buffer class); None for a vector or an array, handled below.
        let ends = match self.string_range(range).transpose()? {
            Some(ends) => Some(ends),
            None => self.class_range(range)?,
        };
        let (begin, elem) = match (&ends, self.lvalue(range)?) {
            (Some((begin, _)), _) => (begin.clone(), begin.ty.pointee().cloned().unwrap_or(Type::Scalar(Scalar::I8))),
            (None, place) => match place {
                (Place::Mem { addr, .. }, ty) => match (vector_elem(&ty).cloned(), ty) {
                    (Some(elem), ty) => (self.vector_ptr(Expr { ty, ..*addr }, 0, &elem), elem),
                    // A `std::array` is its `_M_elems` in place.
                    (None, ty) if super::array::array_of(&ty).is_some() => {
                        let elem = super::array::array_of(&ty).map(|(e, _)| e.clone()).ok_or(Reported)?;
                        (Expr { ty: Type::ptr(elem.clone(), false), ..*addr }, elem)
                    }
                    (None, Type::Array(elem, _)) => (Expr { ty: Type::ptr((*elem).clone(), false), ..*addr }, *elem),
                    (None, t) => return Err(self.error(span, format!("a `for (x : range)` loop over a `{t}`"))),
                },
                (Place::Slot(_), t) => return Err(self.error(span, format!("a `for (x : range)` loop over a `{t}`"))),
            },
        };
        let ptr_ty = Type::ptr(elem.clone(), false);
        let size = elem.size() as i64;
        let end = match self.lvalue(range)? {
            _ if ends.is_some() => ends.map(|(_, end)| end).ok_or(Reported)?,
            (Place::Mem { addr, .. }, ty) if vector_elem(&ty).is_some() => {
                self.vector_ptr(Expr { ty, ..*addr }, 1, &elem)
            }
            (Place::Mem { addr, .. }, ty) if super::array::array_of(&ty).is_some() => {
                self.array_ptr(Expr { ty, ..*addr }, 1).ok_or(Reported)?
            }
            (_, Type::Array(_, n)) => {
                let n = Expr::new(ExprKind::Const(n as u64), Type::Scalar(Scalar::I64), span);
                Expr::new(
                    ExprKind::PtrAdd { ptr: Box::new(begin.clone()), index: Box::new(n), elem_size: size },
                    ptr_ty.clone(),
                    span,
                )
            }
            _ => return Err(Reported),
        };
        let (p, e) = (self.new_slot(), self.new_slot());
        let set = |slot, v: Expr| {
            Stmt::Expr(Expr::new(ExprKind::assign(Place::Slot(slot), Place::REGISTER, v), ptr_ty.clone(), span))
        };
        let init = vec![set(p, begin), set(e, end)];
        let at = |slot| Expr::new(ExprKind::Slot(slot), ptr_ty.clone(), span);
        let cond = Expr::new(
            ExprKind::Cmp { op: CmpOp::Ne, op_ty: Scalar::U64, left: Box::new(at(p)), right: Box::new(at(e)) },
            Type::BOOL,
            span,
        );
        let one = Expr::new(ExprKind::Const(1), Type::Scalar(Scalar::I64), span);
        let next = Expr::new(
            ExprKind::PtrAdd { ptr: Box::new(at(p)), index: Box::new(one), elem_size: size },
            ptr_ty.clone(),
            span,
        );
        let step = Expr::new(ExprKind::assign(Place::Slot(p), Place::REGISTER, next), ptr_ty.clone(), span);
        let ty = if ts.named.as_deref() == Some("auto") {
            (0..pointers).fold(elem.clone(), |t, _| Type::ptr(t, false))
        } else {
            self.ty(ts, pointers)?
        };
        let mut stmts = vec![];
        self.scopes.push(HashMap::new());
        let var = name.name.clone();
        if reference || matches!(ty, Type::Struct(_)) {
            if ty != elem {
                self.scopes.pop();
                return Err(self.error(name.span, format!("a `{ty} &` cannot refer to the range's `{elem}` elements")));
            }
            if reference {
                // The slot holding the element's address stands for the element.
                self.scopes.last_mut().ok_or(Reported)?.insert(var, Var::Mem(p, ty));
            } else {
                let own = self.new_slot();
                self.frame.push((own, ty.size().max(1), var.clone()));
                // (The element, a struct value: its address typed as the struct.)
                let element = Expr { ty: ty.clone(), ..at(p) };
                let copy = self.copy_struct(Expr::new(ExprKind::Slot(own), ty.clone(), span), element, &ty, span)?;
                stmts.push(Stmt::Expr(copy));
                self.scopes.last_mut().ok_or(Reported)?.insert(var, Var::Mem(own, ty));
            }
        } else {
            let Some(s) = storage(&elem) else {
                self.scopes.pop();
                return Err(self.unsupported(span, "this range in a `for (x : range)` loop yet"));
            };
            if self.addressed.contains(&var) {
                self.scopes.pop();
                return Err(self.unsupported(name.span, "taking the address of a range-for variable yet"));
            }
            let x = self.new_slot();
            let v = Expr::new(ExprKind::Load { addr: Box::new(at(p)), storage: s, what: None }, elem.clone(), span);
            let v = self.convert(v, &ty)?;
            stmts.push(Stmt::Expr(Expr::new(ExprKind::assign(Place::Slot(x), Place::REGISTER, v), ty.clone(), span)));
            self.scopes.last_mut().ok_or(Reported)?.insert(var, Var::Reg(x, ty));
        }
        let r = self.scoped(body);
        self.scopes.pop();
        stmts.push(r?);
        Ok(Stmt::For { init, cond: Some(cond), step: Some(step), body: Box::new(Stmt::Block(stmts)) })
    }

    /// `begin()` and `end()` of `range` when it is an object of a class with those members returning pointers
    /// (C++'s range-for calls them once, before the loop); None for anything else.
    fn class_range(&mut self, range: &ast::Expr) -> Result<Option<(Expr, Expr)>, Reported> {
        let Ok(ty @ Type::Struct(_)) = self.probe_type(range) else { return Ok(None) };
        if vector_elem(&ty).is_some() || self.method_of(&ty, "begin").is_none() || self.method_of(&ty, "end").is_none()
        {
            return Ok(None);
        }
        let call = |m: &str| ast::Expr {
            kind: ast::ExprKind::MethodCall {
                object: Box::new(range.clone()),
                method: ast::Ident { name: m.into(), span: range.span },
                args: vec![],
            },
            span: range.span,
        };
        let (begin, end) = (self.rvalue(&call("begin"))?, self.rvalue(&call("end"))?);
        if !begin.ty.is_ptr() || begin.ty != end.ty {
            return Err(
                self.unsupported(range.span, "a range-for over a class whose `begin()`/`end()` are not pointers")
            );
        }
        Ok(Some((begin, end)))
    }

    /// The braced list of `for (T x : {a, b, c})` stored in a hidden array of the current scope (its
    /// elements of the loop variable's type; with `auto`, of the first item's), and a name for that array.
    fn braced_range(
        &mut self,
        ts: &TypeSpec,
        pointers: u8,
        items: &[ast::Expr],
        list: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<ast::Expr, Reported> {
        let span = list.span;
        let elem = if ts.named.as_deref() == Some("auto") {
            match self.rvalue(&items[0])?.ty {
                Type::Array(e, _) => Type::ptr(*e, false),
                t => t,
            }
        } else {
            self.ty(ts, pointers)?
        };
        if storage(&elem).is_none() {
            return Err(self.unsupported(span, "a braced list of this type in a `for (x : range)` loop yet"));
        }
        let ty = Type::Array(Box::new(elem), items.len() as u32);
        let slot = self.new_slot();
        // (A name no program can spell, so the body cannot reach the array.)
        let hidden = format!("for-range@{}", span.start);
        self.frame.push((slot, ty.size().max(1), hidden.clone()));
        out.push(Stmt::Zero(slot, ty.size()));
        let addr = Expr::new(ExprKind::Slot(slot), Type::ptr(ty.clone(), false), span);
        self.init_in_memory(addr, &ty, list, out)?;
        self.scopes.last_mut().ok_or(Reported)?.insert(hidden.clone(), Var::Mem(slot, ty));
        Ok(ast::Expr { kind: ast::ExprKind::Name(hidden), span })
    }

    /// `switch (cond) { case 1: ... }`: labels at the top level of the braces.
    fn switch(&mut self, cond: &ast::Expr, body: &ast::Stmt) -> Result<Stmt, Reported> {
        let v = self.rvalue(cond)?;
        let Some(s) = v.ty.scalar().filter(|s| s.is_integer()) else {
            return Err(self.error(cond.span, format!("a switch needs an integer, not `{}`", v.ty)));
        };
        let s = s.promote();
        let v = self.convert(v, &Type::Scalar(s))?;
        let S::Block(items) = &body.kind else {
            return Err(self.unsupported(body.span, "a switch whose body is not a block"));
        };
        self.scopes.push(HashMap::new());
        let (mut cases, mut default, mut out) = (vec![], None, vec![]);
        let mut failed = false;
        for item in items {
            match &item.kind {
                S::Case(e) => match self.const_eval(e) {
                    Some(k) => cases.push((Scalar::I64.convert_bits(s, k as u64), out.len())),
                    None => {
                        self.error(e.span, "a case label must be an integer constant");
                        failed = true;
                    }
                },
                S::Default => default = Some(out.len()),
                _ => failed |= self.stmt(item, &mut out).is_err(),
            }
        }
        self.scopes.pop();
        if failed {
            return Err(Reported);
        }
        Ok(Stmt::Switch { value: v, cases, default, body: out })
    }

    fn for_parts(
        &mut self,
        init: &Option<Box<ast::Stmt>>,
        cond: &Option<ast::Expr>,
        step: &Option<ast::Expr>,
        body: &ast::Stmt,
    ) -> Result<Stmt, Reported> {
        let mut i = vec![];
        if let Some(s) = init {
            self.stmt(s, &mut i)?;
        }
        let c = match cond {
            Some(c) => Some(self.cond(c)?),
            None => None,
        };
        let st = match step {
            Some(e) => Some(self.rvalue(e)?),
            None => None,
        };
        Ok(Stmt::For { init: i, cond: c, step: st, body: Box::new(self.scoped(body)?) })
    }
}

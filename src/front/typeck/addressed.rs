//! Variables of device code whose address is taken (`minmax(a, n, &lo, &hi)`, `int *p = &x;`). A register
//! has no address, so such a variable lives in per-thread memory, as nvcc puts it in local memory: one copy
//! per thread, like a local array (`GlobalSpace::Local`), read and written through its address.

use std::collections::HashSet;

use super::checker::{Binding, Checker};
use crate::front::ast::{self, ExprKind as A, StmtKind as S, UnaryOp};
use crate::front::source::Span;
use crate::front::tast::*;
use crate::front::types::Type;

/// The names written as `&name` anywhere in a function's body (whatever they name: the checker keeps in
/// memory only the scalar and struct variables among them).
pub(super) fn addressed_names(body: &[ast::Stmt]) -> HashSet<String> {
    let mut out = HashSet::new();
    for s in body {
        stmt(s, &mut out);
    }
    out
}

fn stmt(s: &ast::Stmt, out: &mut HashSet<String>) {
    let mut e = |x: &ast::Expr| expr(x, out);
    match &s.kind {
        S::Decl(d) => {
            for dc in &d.declarators {
                dc.dims.iter().for_each(&mut e);
                dc.init.iter().for_each(&mut e);
            }
        }
        S::Expr(x) | S::Case(x) => e(x),
        S::Return(x) => x.iter().for_each(e),
        S::Block(b) => b.iter().for_each(|s| stmt(s, out)),
        S::If { cond, then, els } => {
            e(cond);
            stmt(then, out);
            els.iter().for_each(|s| stmt(s, out));
        }
        S::While { cond, body } | S::DoWhile { body, cond } | S::Switch { cond, body } => {
            e(cond);
            stmt(body, out);
        }
        S::For { init, cond, step, body } => {
            init.iter().for_each(|s| stmt(s, out));
            cond.iter().chain(step).for_each(|x| expr(x, out));
            stmt(body, out);
        }
        S::ForRange { range, body, .. } => {
            e(range);
            stmt(body, out);
        }
        S::Try { body, handlers } => {
            stmt(body, out);
            handlers.iter().for_each(|h| stmt(&h.body, out));
        }
        S::Break | S::Continue | S::Default | S::Goto(_) | S::Label(_) | S::Empty => {}
    }
}

fn expr(x: &ast::Expr, out: &mut HashSet<String>) {
    let mut e = |x: &ast::Expr| expr(x, out);
    match &x.kind {
        A::Unary(UnaryOp::AddrOf, inner) if matches!(&inner.kind, A::Name(_)) => {
            if let A::Name(n) = &inner.kind {
                out.insert(n.clone());
            }
        }
        A::Member(a, _) | A::Unary(_, a) | A::IncDec { operand: a, .. } | A::Cast(_, a) | A::SizeofExpr(a) => e(a),
        A::Delete(_, a) => e(a),
        A::Throw(a) => a.iter().for_each(|a| e(a)),
        A::Index(a, b) | A::Binary { left: a, right: b, .. } | A::Comma(a, b) => {
            e(a);
            e(b);
        }
        A::Assign { target, value, .. } => {
            e(target);
            e(value);
        }
        A::Ternary { cond, then, els } => {
            e(cond);
            e(then);
            e(els);
        }
        A::Call(_, args) | A::InitList(args) => args.iter().for_each(e),
        A::MethodCall { object, args, .. } => {
            e(object);
            args.iter().for_each(e);
        }
        A::Launch { config, args, .. } => config.iter().chain(args).for_each(e),
        A::New { count, args, .. } => count.iter().map(|c| &**c).chain(args).for_each(e),
        A::Lambda { body, .. } => body.iter().for_each(|s| stmt(s, out)),
        A::Int { .. } | A::Float { .. } | A::Bool(_) | A::Char(_) | A::Str(_) | A::Name(_) | A::SizeofType(_) => {}
        A::Error => {}
    }
}

impl Checker {
    /// Is `name`, declared as a `ty`, a variable kept in per-thread memory (its address is taken)?
    pub(super) fn lives_in_memory(&self, name: &ast::Ident, ty: &Type) -> bool {
        // (A cuRAND state's `&state` is the generator's own: `curand` keeps it in registers.)
        let curand = crate::front::builtin_types::is_curand_state(ty);
        self.addressed.contains(&name.name) && (ty.scalar().is_some() || matches!(ty, Type::Struct(_))) && !curand
    }

    /// A parameter whose address is taken: its value copied into per-thread memory as the body starts, and
    /// its name bound to that copy from then on.
    pub(super) fn addressed_param(&mut self, name: &ast::Ident, ty: &Type, param: LocalId) -> Vec<Stmt> {
        let span = name.span;
        let init = Expr::new(ExprKind::Local(param), ty.clone(), span);
        let dc = ast::Declarator::plain(name.clone(), None);
        // Rebinding the name in the same scope is no redeclaration.
        self.scopes.last_mut().expect("a scope is always open").remove(&name.name);
        let stmts = self.local_array(span, &dc, ty);
        let Some(Binding::Global(g)) = self.lookup(&name.name) else { return stmts };
        let at = self.global_addr(g, span);
        let set = Expr::new(ExprKind::Assign(Place::Mem(Box::new(at)), Box::new(init)), ty.clone(), span);
        vec![Stmt { kind: StmtKind::Expr(set), span }]
    }

    /// A struct variable whose address is taken (`float3 v; set(&v);`): in memory, its initialiser assigned
    /// to it as a whole (`float3 w = make_float3(1, 2, 3);`).
    pub(super) fn addressed_struct(&mut self, span: Span, dc: &ast::Declarator, ty: &Type) -> Vec<Stmt> {
        let bare = ast::Declarator::plain(dc.name.clone(), None);
        let mut out = self.local_array(span, &bare, ty);
        if let Some(init) = &dc.init {
            let target = ast::Expr { kind: A::Name(dc.name.name.clone()), span: dc.name.span };
            out.extend(self.struct_assign(&target, init, span).unwrap_or_default());
        }
        out
    }
}

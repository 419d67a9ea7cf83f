//! What a host lambda is made of, apart from resolving it ([`super::lambda`]): the record of a closure class,
//! where a lambda is and what it captures, and the walks over a lambda's body that find the names it uses and
//! the lambdas inside a function. These read only the syntax tree, so the resolver and the address-taken walk
//! ([`super::addressed`]) use them without importing the lambda resolver (which imports the resolver).

use std::collections::HashSet;

use crate::front::ast::{self, ExprKind as A, StmtKind as S};
use crate::front::source::Span;
use crate::front::types::Type;

/// A closure class: which of its fields are references (hold the captured variable's address).
#[derive(Clone, Debug, Default)]
pub(super) struct Closure {
    pub(super) ty: Option<Type>,
    pub(super) by_ref: HashSet<String>,
}

/// Where a lambda is: the function it is in and its span.
pub(super) type Site = (String, Span);

/// What a lambda captures: each name, with whether it is by reference.
pub(super) type Taken = Vec<(String, bool)>;

/// The prefix of closure classes' names.
pub(super) const CLOSURE: &str = "__lambda_";

/// Whether `t` is a closure class.
pub(super) fn is_closure(t: &Type) -> bool {
    matches!(t, Type::Struct(d) if d.name.starts_with(CLOSURE))
}

/// The names a lambda's body uses that are not its own (its parameters', the locals it declares), in order:
/// what `[&]` or `[=]` may capture.
pub(super) fn free_names(params: &[ast::Param], body: &[ast::Stmt]) -> Vec<String> {
    let mut used = vec![];
    names_in_stmts(body, &mut used);
    let mut own: HashSet<String> = params.iter().map(|p| p.name.name.clone()).collect();
    body.iter().for_each(|s| declared_in(s, &mut own));
    used.retain(|n| !own.contains(n));
    used
}

/// The names a statement declares (locals, loop variables), nested blocks' included.
fn declared_in(s: &ast::Stmt, out: &mut HashSet<String>) {
    match &s.kind {
        S::Decl(d) => out.extend(d.declarators.iter().map(|dc| dc.name.name.clone())),
        S::Block(b) => b.iter().for_each(|s| declared_in(s, out)),
        S::If { then, els, .. } => {
            declared_in(then, out);
            if let Some(e) = els {
                declared_in(e, out);
            }
        }
        S::While { body, .. } | S::DoWhile { body, .. } | S::Switch { body, .. } => declared_in(body, out),
        S::ForRange { name, body, .. } => {
            out.insert(name.name.clone());
            declared_in(body, out);
        }
        S::For { init, body, .. } => {
            if let Some(i) = init {
                declared_in(i, out);
            }
            declared_in(body, out);
        }
        S::Try { body, handlers } => {
            declared_in(body, out);
            handlers.iter().for_each(|h| declared_in(&h.body, out));
        }
        _ => {}
    }
}

/// The names a lambda's body uses (variables and called names), in order, nested lambdas' included.
pub(super) fn names_in_stmts(body: &[ast::Stmt], out: &mut Vec<String>) {
    body.iter().for_each(|s| names_in_stmt(s, out));
}

fn names_in_stmt(s: &ast::Stmt, out: &mut Vec<String>) {
    let mut e = |x: &ast::Expr| names_in(x, out);
    match &s.kind {
        S::Decl(d) => {
            for dc in &d.declarators {
                dc.dims.iter().for_each(&mut e);
                dc.init.iter().for_each(&mut e);
            }
        }
        S::Expr(x) | S::Return(Some(x)) | S::Case(x) => e(x),
        S::Block(b) => names_in_stmts(b, out),
        S::If { cond, then, els } => {
            e(cond);
            names_in_stmt(then, out);
            if let Some(s) = els {
                names_in_stmt(s, out);
            }
        }
        S::While { cond, body } | S::DoWhile { body, cond } => {
            e(cond);
            names_in_stmt(body, out);
        }
        S::For { init, cond, step, body } => {
            if let Some(i) = init {
                names_in_stmt(i, out);
            }
            let mut e = |x: &ast::Expr| names_in(x, out);
            cond.iter().for_each(&mut e);
            step.iter().for_each(&mut e);
            names_in_stmt(body, out);
        }
        S::ForRange { range, body, .. } => {
            e(range);
            names_in_stmt(body, out);
        }
        S::Switch { cond, body } => {
            e(cond);
            names_in_stmt(body, out);
        }
        S::Try { body, handlers } => {
            names_in_stmt(body, out);
            handlers.iter().for_each(|h| names_in_stmt(&h.body, out));
        }
        _ => {}
    }
}

fn names_in(e: &ast::Expr, out: &mut Vec<String>) {
    let all = |xs: &[ast::Expr], out: &mut Vec<String>| xs.iter().for_each(|x| names_in(x, out));
    match &e.kind {
        A::Name(n) => out.push(n.clone()),
        A::Call(f, args) => {
            out.push(f.name.clone());
            all(args, out);
        }
        A::Member(x, _) | A::Unary(_, x) | A::Cast(_, x) | A::SizeofExpr(x) | A::Delete(_, x) => names_in(x, out),
        A::IncDec { operand, .. } => names_in(operand, out),
        A::Index(a, b)
        | A::Binary { left: a, right: b, .. }
        | A::Assign { target: a, value: b, .. }
        | A::Comma(a, b) => {
            names_in(a, out);
            names_in(b, out);
        }
        A::Ternary { cond, then, els } => {
            names_in(cond, out);
            names_in(then, out);
            names_in(els, out);
        }
        A::InitList(xs) => all(xs, out),
        A::MethodCall { object, args, .. } => {
            names_in(object, out);
            all(args, out);
        }
        A::Launch { config, args, .. } => {
            all(config, out);
            all(args, out);
        }
        A::New { count, args, .. } => {
            if let Some(c) = count {
                names_in(c, out);
            }
            all(args, out);
        }
        A::Throw(Some(x)) => names_in(x, out),
        A::Lambda { body, captures, .. } => {
            out.extend(captures.names.iter().map(|c| c.name.name.clone()));
            names_in_stmts(body, out);
        }
        _ => {}
    }
}

/// The lambdas a body stores in a variable whose parameters include references (`auto inc = [](int &v) {
/// v++; };`): the variable's name and which parameters are references, as a function's are known to calls.
pub(super) fn lambda_refs(body: &[ast::Stmt]) -> Vec<(String, Vec<bool>)> {
    let mut out = vec![];
    body.iter().for_each(|s| lambda_refs_in(s, &mut out));
    out
}

fn lambda_refs_in(s: &ast::Stmt, out: &mut Vec<(String, Vec<bool>)>) {
    match &s.kind {
        S::Decl(d) => {
            for dc in &d.declarators {
                if let Some(ast::Expr { kind: A::Lambda { params, .. }, .. }) = &dc.init
                    && params.iter().any(|p| p.reference)
                {
                    out.push((dc.name.name.clone(), params.iter().map(|p| p.reference).collect()));
                }
            }
        }
        S::Block(b) => b.iter().for_each(|s| lambda_refs_in(s, out)),
        S::If { then, els, .. } => {
            lambda_refs_in(then, out);
            if let Some(e) = els {
                lambda_refs_in(e, out);
            }
        }
        S::While { body, .. } | S::DoWhile { body, .. } | S::ForRange { body, .. } | S::Switch { body, .. } => {
            lambda_refs_in(body, out)
        }
        S::For { init, body, .. } => {
            if let Some(i) = init {
                lambda_refs_in(i, out);
            }
            lambda_refs_in(body, out);
        }
        S::Try { body, handlers } => {
            lambda_refs_in(body, out);
            handlers.iter().for_each(|h| lambda_refs_in(&h.body, out));
        }
        _ => {}
    }
}

//! Which locals of a host function live in host memory: those whose address is taken (`&x`) or that are
//! passed to a reference parameter.

use std::collections::{HashMap, HashSet};

use crate::front::ast::{self, ExprKind as A, StmtKind as S, UnaryOp};

/// Which parameters of each host function are references.
pub(super) type Refs = HashMap<String, Vec<bool>>;

/// Names whose address the statement takes (`&x`): those locals live in host memory.
pub(super) fn addressed_in_stmt(s: &ast::Stmt, out: &mut HashSet<String>, refs: &Refs) {
    match &s.kind {
        S::Decl(d) => {
            for dc in &d.declarators {
                // `int &r = n;`: `r` holds `n`'s address.
                if dc.reference
                    && let Some(A::Name(n)) = dc.init.as_ref().map(|e| &e.kind)
                {
                    out.insert(n.clone());
                }
                dc.init.iter().for_each(|e| addressed_in(e, out, refs));
            }
        }
        S::Expr(e) | S::Return(Some(e)) => addressed_in(e, out, refs),
        S::Switch { cond, body } => {
            addressed_in(cond, out, refs);
            addressed_in_stmt(body, out, refs);
        }
        S::Block(b) => b.iter().for_each(|s| addressed_in_stmt(s, out, refs)),
        S::Try { body, handlers } => {
            addressed_in_stmt(body, out, refs);
            handlers.iter().for_each(|h| addressed_in_stmt(&h.body, out, refs));
        }
        S::If { cond, then, els } => {
            addressed_in(cond, out, refs);
            addressed_in_stmt(then, out, refs);
            if let Some(e) = els {
                addressed_in_stmt(e, out, refs);
            }
        }
        S::While { cond, body } | S::DoWhile { body, cond } => {
            addressed_in(cond, out, refs);
            addressed_in_stmt(body, out, refs);
        }
        S::ForRange { range, body, .. } => {
            addressed_in(range, out, refs);
            addressed_in_stmt(body, out, refs);
        }
        S::For { init, cond, step, body } => {
            if let Some(i) = init {
                addressed_in_stmt(i, out, refs);
            }
            cond.iter().chain(step.iter()).for_each(|e| addressed_in(e, out, refs));
            addressed_in_stmt(body, out, refs);
        }
        _ => {}
    }
}

fn addressed_in(e: &ast::Expr, out: &mut HashSet<String>, refs: &Refs) {
    match &e.kind {
        A::Unary(UnaryOp::AddrOf, x) => {
            if let A::Name(n) = &x.kind {
                out.insert(n.clone());
            }
            addressed_in(x, out, refs);
        }
        A::Member(x, _) | A::Unary(_, x) | A::Cast(_, x) | A::SizeofExpr(x) | A::Delete(_, x) => {
            addressed_in(x, out, refs)
        }
        A::Comma(a, b) => {
            addressed_in(a, out, refs);
            addressed_in(b, out, refs);
        }
        A::New { count, args, .. } => count.iter().map(|c| &**c).chain(args).for_each(|a| addressed_in(a, out, refs)),
        A::IncDec { operand, .. } => addressed_in(operand, out, refs),
        A::Index(a, b) | A::Binary { left: a, right: b, .. } | A::Assign { target: a, value: b, .. } => {
            addressed_in(a, out, refs);
            addressed_in(b, out, refs);
        }
        A::Ternary { cond: a, then: b, els: c } => {
            addressed_in(a, out, refs);
            addressed_in(b, out, refs);
            addressed_in(c, out, refs);
        }
        A::Call(f, args) => {
            // A local passed to a reference parameter lives in memory (the callee gets its address).
            if let Some(r) = refs.get(&f.name) {
                for (a, _) in args.iter().zip(r).filter(|(_, r)| **r) {
                    if let A::Name(n) = &a.kind {
                        out.insert(n.clone());
                    }
                }
            }
            args.iter().for_each(|a| addressed_in(a, out, refs))
        }
        A::InitList(args) | A::MethodCall { args, .. } => args.iter().for_each(|a| addressed_in(a, out, refs)),
        A::Launch { config: c, args, .. } => c.iter().chain(args).for_each(|a| addressed_in(a, out, refs)),
        // A lambda's captures by reference hold the variables' addresses ([`super::lambda`]); with `[&]`, any
        // name its body uses may be one.
        A::Lambda { captures, params, body, .. } => {
            out.extend(captures.names.iter().filter(|c| c.by_ref).map(|c| c.name.name.clone()));
            if captures.default == ast::CaptureDefault::Ref {
                out.extend(super::closure::free_names(params, body));
            }
        }
        _ => {}
    }
}

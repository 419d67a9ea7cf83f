//! Which slots a loop names: each becomes a Cranelift variable of the compiled loop.

use std::collections::BTreeSet;

use crate::host::tree::*;

/// Every slot a statement names (read or written, also inside what the interpreter will run).
pub(super) fn slots_of(s: &Stmt, into: &mut BTreeSet<Slot>) {
    let e = |x: &Expr, into: &mut BTreeSet<Slot>| expr_slots(x, into);
    match s {
        Stmt::Expr(x) => e(x, into),
        Stmt::Block(b) => b.iter().for_each(|s| slots_of(s, into)),
        Stmt::Try(b, handlers) => {
            slots_of(b, into);
            for h in handlers {
                into.extend(h.slot);
                slots_of(&h.body, into);
            }
        }
        Stmt::If { cond: c, then: t, otherwise: f } => {
            e(c, into);
            slots_of(t, into);
            if let Some(f) = f {
                slots_of(f, into);
            }
        }
        Stmt::While(c, b) | Stmt::DoWhile(b, c) => {
            e(c, into);
            slots_of(b, into);
        }
        Stmt::For { init, cond: c, step, body: b } => {
            init.iter().for_each(|s| slots_of(s, into));
            c.iter().chain(step.iter()).for_each(|x| e(x, into));
            slots_of(b, into);
        }
        Stmt::Return(Some(x)) => e(x, into),
        Stmt::Switch { value: v, body: b, .. } => {
            e(v, into);
            b.iter().for_each(|s| slots_of(s, into));
        }
        Stmt::SetGlobal(_, s) | Stmt::Zero(s, _) => {
            into.insert(*s);
        }
        Stmt::Vla { slot: s, bytes: n, .. } => {
            into.insert(*s);
            e(n, into);
        }
        Stmt::Break | Stmt::Continue | Stmt::Return(None) | Stmt::Goto(_) | Stmt::Label(_) | Stmt::Managed { .. } => {}
    }
}

fn place_slots(p: &Place, into: &mut BTreeSet<Slot>) {
    match p {
        Place::Slot(s) => {
            into.insert(*s);
        }
        Place::Mem { addr: a, .. } => expr_slots(a, into),
    }
}

fn expr_slots(e: &Expr, into: &mut BTreeSet<Slot>) {
    match &e.kind {
        ExprKind::Slot(s) => {
            into.insert(*s);
        }
        ExprKind::Const(_) | ExprKind::Str(_) | ExprKind::Global(_) => {}
        ExprKind::Load { addr: a, .. } | ExprKind::Unary { operand: a, .. } | ExprKind::Convert { value: a, .. } => {
            expr_slots(a, into)
        }
        ExprKind::Assign { place: p, value: v, .. }
        | ExprKind::Compound { place: p, value: v, .. }
        | ExprKind::PtrCompound { place: p, value: v, .. } => {
            place_slots(p, into);
            expr_slots(v, into);
        }
        ExprKind::IncDec { place: p, .. } => place_slots(p, into),
        ExprKind::Arith { left: a, right: b, .. }
        | ExprKind::Cmp { left: a, right: b, .. }
        | ExprKind::And(a, b)
        | ExprKind::Or(a, b)
        | ExprKind::PtrAdd { ptr: a, index: b, .. }
        | ExprKind::PtrDiff { left: a, right: b, .. }
        | ExprKind::Comma(a, b) => {
            expr_slots(a, into);
            expr_slots(b, into);
        }
        ExprKind::Cond { cond: c, then: a, otherwise: b } => [c, a, b].into_iter().for_each(|x| expr_slots(x, into)),
        ExprKind::Call(_, args) | ExprKind::Lib(_, args) | ExprKind::InitDim3(_, args) => {
            args.iter().for_each(|a| expr_slots(a, into));
            if let ExprKind::InitDim3(a, _) = &e.kind {
                expr_slots(a, into);
            }
        }
        ExprKind::Generate { first: a, last: b, value: v, .. } => {
            [a, b, v].into_iter().for_each(|x| expr_slots(x, into))
        }
        ExprKind::CallPtr(c) => {
            expr_slots(&c.target, into);
            c.args.iter().for_each(|a| expr_slots(a, into));
        }
        ExprKind::LaunchPtr(l) => {
            expr_slots(&l.ptr, into);
            for (_, direct) in &l.launches {
                launch_slots(direct, into);
            }
        }
        ExprKind::Launch(l) => launch_slots(l, into),
    }
}

fn launch_slots(l: &LaunchExpr, into: &mut BTreeSet<Slot>) {
    for x in [&l.grid, &l.block] {
        match x {
            Dim3Src::Int(x) | Dim3Src::Mem(x) => expr_slots(x, into),
            Dim3Src::Parts(p) => p.iter().for_each(|x| expr_slots(x, into)),
        }
    }
    l.shared.iter().chain(l.stream.iter()).chain(l.args.iter().map(|(x, _)| x)).for_each(|x| expr_slots(x, into));
    l.scope.iter().for_each(|v| {
        into.insert(v.slot);
    });
}

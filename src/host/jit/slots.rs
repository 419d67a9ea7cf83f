//! Which slots a loop names: each becomes a Cranelift variable of the compiled loop.

use std::collections::BTreeSet;

use crate::host::tree::*;

/// Every slot a statement names (read or written, also inside what the interpreter will run).
pub(super) fn slots_of(s: &HStmt, into: &mut BTreeSet<Slot>) {
    let e = |x: &HExpr, into: &mut BTreeSet<Slot>| expr_slots(x, into);
    match s {
        HStmt::Expr(x) => e(x, into),
        HStmt::Block(b) => b.iter().for_each(|s| slots_of(s, into)),
        HStmt::If(c, t, f) => {
            e(c, into);
            slots_of(t, into);
            if let Some(f) = f {
                slots_of(f, into);
            }
        }
        HStmt::While(c, b) | HStmt::DoWhile(b, c) => {
            e(c, into);
            slots_of(b, into);
        }
        HStmt::For(init, c, step, b) => {
            init.iter().for_each(|s| slots_of(s, into));
            c.iter().chain(step.iter()).for_each(|x| e(x, into));
            slots_of(b, into);
        }
        HStmt::Return(Some(x)) => e(x, into),
        HStmt::Switch(v, _, _, b) => {
            e(v, into);
            b.iter().for_each(|s| slots_of(s, into));
        }
        HStmt::SetGlobal(_, s) | HStmt::Zero(s, _) => {
            into.insert(*s);
        }
        HStmt::Vla(s, n, _) => {
            into.insert(*s);
            e(n, into);
        }
        HStmt::Break | HStmt::Continue | HStmt::Return(None) | HStmt::Goto(_) | HStmt::Label(_) => {}
    }
}

fn place_slots(p: &Place, into: &mut BTreeSet<Slot>) {
    match p {
        Place::Slot(s) => {
            into.insert(*s);
        }
        Place::Mem(a, _, _) => expr_slots(a, into),
    }
}

fn expr_slots(e: &HExpr, into: &mut BTreeSet<Slot>) {
    match &e.kind {
        HK::Slot(s) => {
            into.insert(*s);
        }
        HK::Const(_) | HK::Str(_) | HK::Global(_) => {}
        HK::Load(a, _, _) | HK::Unary(_, _, a) | HK::Convert(_, _, a) => expr_slots(a, into),
        HK::Assign(p, v) | HK::Compound(_, _, _, p, v) | HK::PtrCompound(_, p, v) => {
            place_slots(p, into);
            expr_slots(v, into);
        }
        HK::IncDec(p, _, _, _) => place_slots(p, into),
        HK::Arith(_, _, a, b)
        | HK::Cmp(_, _, a, b)
        | HK::And(a, b)
        | HK::Or(a, b)
        | HK::PtrAdd(a, b, _)
        | HK::PtrDiff(a, b, _)
        | HK::Comma(a, b) => {
            expr_slots(a, into);
            expr_slots(b, into);
        }
        HK::Cond(c, a, b) => [c, a, b].into_iter().for_each(|x| expr_slots(x, into)),
        HK::Call(_, args) | HK::Lib(_, args) | HK::InitDim3(_, args) => {
            args.iter().for_each(|a| expr_slots(a, into));
            if let HK::InitDim3(a, _) = &e.kind {
                expr_slots(a, into);
            }
        }
        HK::Generate(a, b, _, v) => [a, b, v].into_iter().for_each(|x| expr_slots(x, into)),
        HK::CallPtr(c) => {
            expr_slots(&c.target, into);
            c.args.iter().for_each(|a| expr_slots(a, into));
        }
        HK::LaunchPtr(l) => {
            expr_slots(&l.ptr, into);
            for (_, direct) in &l.launches {
                launch_slots(direct, into);
            }
        }
        HK::Launch(l) => launch_slots(l, into),
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

//! Calls: device functions, printf, the core intrinsics and the math library; the recursion check.

use super::builtins::BUILTIN_NAMES;
use super::checker::{Binding, Checker};
use super::groups::makes_group;
use super::intrinsics::{INTRINSIC_NAMES, intrinsic, unsupported_function};
use super::suggest::closest;
use crate::front::ast::{self, ExprKind as A, FnKind};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::source::Span;
use crate::front::tast::*;
use crate::front::types::{Scalar, Type};

impl Checker {
    // ---- calls ----

    pub(super) fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        if name.name == "printf" {
            return self.printf(args, span);
        }
        if name.name == "assert" && !self.fns.contains_key("assert") {
            return self.assert(args, span);
        }
        if name.name == "sync"
            && let Some(e) = self.group_sync_call(args, span)
        {
            return e;
        }
        // (A function of the file's own named `reduce` is that function: course code writes them; so are the scans.)
        if matches!(name.name.as_str(), "reduce" | "inclusive_scan" | "exclusive_scan")
            && !self.fns.contains_key(&name.name)
            && !self.templates.contains_key(&name.name)
            && let Some(e) = self.group_collective(&name.name, args, span)
        {
            return e;
        }
        if makes_group(&name.name).is_some() {
            return self.type_error(
                span,
                format!("`{}` makes a group: give it a name, `auto g = {}(...);`", name.name, name.name),
            );
        }
        if let Some(e) = self.desugared_call(&name.name, args, span) {
            return e;
        }
        if let Some(intr) = intrinsic(&name.name) {
            return self.intrinsic(intr, &name.name, args, span);
        }
        if let Some(e) = self.builtin_call(name, args, span) {
            return e;
        }
        if !self.fns.contains_key(&name.name) && self.templates.contains_key(&name.name) {
            return self.template_call(name, args, span);
        }
        let chosen = self.overloads.get(&name.name).cloned().map(|ids| self.choose_overload(&ids, args));
        let chosen = chosen.or_else(|| {
            // `Point::make(1, 2)`: a static member function.
            let ids = self.members_named(&name.name)?;
            let refs: Vec<&ast::Expr> = args.iter().collect();
            self.best_fit_pub(&ids, &refs).or(ids.first().copied())
        });
        if let Some(&id) = chosen.as_ref().or(self.fns.get(&name.name)) {
            let sig = self.sigs[id.0 as usize].clone();
            if sig.kind == FnKind::Global {
                self.err(
                    Diagnostic::unsupported(span, "launching a kernel from a kernel (dynamic parallelism)")
                        .with_secondary(sig.span, "kernel declared here"),
                );
                return Expr::error(span);
            }
            let out = self.emit_call(id, None, args, span);
            return self.call_value(out, span);
        }
        for a in args {
            self.expr(a);
        }
        let set_aside = [ast::ItemKind::Function, ast::ItemKind::Kernel];
        if self.unsupported_group_call(name) || self.unavailable_use(&name.name, &set_aside, name.span) {
        } else if matches!(self.lookup(&name.name), Some(Binding::Local(_))) {
            // A call through a variable: a function pointer, which device code has none of.
            self.err(
                Diagnostic::unsupported(name.span, "function pointers")
                    .hint("call the function by its name, choosing with `if` or `switch`"),
            );
        } else if let Some(why) = unsupported_function(&name.name) {
            self.err(Diagnostic::unsupported(name.span, format!("`{}` ({why})", name.name)));
        } else if let Some(host) = self.host_functions.iter().find(|h| h.name == name.name) {
            self.err(
                Diagnostic::new(ErrorCode::Name, name.span, format!("`{}` is a host function", name.name))
                    .label("device code cannot call it")
                    .with_secondary(host.span, "declared without __device__")
                    .hint("mark it `__host__ __device__` to compile it for both"),
            );
        } else {
            let mut known: Vec<String> = self.fns.keys().cloned().collect();
            known.extend(INTRINSIC_NAMES.iter().chain(BUILTIN_NAMES).map(|s| s.to_string()));
            known.extend(crate::front::cmath::names());
            let mut d = Diagnostic::new(ErrorCode::Name, name.span, format!("cannot find function `{}`", name.name))
                .label("not declared");
            if let Some(c) = closest(&name.name, &known) {
                d = d.hint(format!("did you mean `{c}`?"));
            }
            self.err(d);
        }
        Expr::error(span)
    }

    /// The overload whose parameter types fit the arguments best: exact types first, then the fewest
    /// conversions (C++'s rules, simplified to what course code overloads on: float against double).
    fn choose_overload(&mut self, ids: &[FnId], args: &[ast::Expr]) -> FnId {
        let before = self.diags.len();
        let types: Vec<Type> =
            args.iter().map(|a| self.struct_local_type(a).unwrap_or_else(|| self.expr(a).ty)).collect();
        self.diags.truncate(before);
        let score = |c: &Checker, id: FnId| -> Option<usize> {
            let params = &c.sigs[id.0 as usize].params;
            if params.len() < types.len() {
                return None;
            }
            Some(params.iter().zip(&types).filter(|(p, t)| p != t).count())
        };
        ids.iter()
            .copied()
            .filter_map(|id| score(self, id).map(|s| (s, id)))
            .min_by_key(|&(s, _)| s)
            .map_or(ids[0], |(_, id)| id)
    }

    /// `assert(cond)` (the parser added the condition's text as a second argument).
    pub(super) fn assert(&mut self, args: &[ast::Expr], span: Span) -> Expr {
        let [cond, ast::Expr { kind: A::Str(text), .. }] = args else {
            return self.type_error(span, format!("`assert` takes 1 argument but {} were given", args.len()));
        };
        let c = self.cond(cond);
        Expr::new(ExprKind::Assert(text.clone(), Box::new(c)), Type::Void, span)
    }

    pub(super) fn printf(&mut self, args: &[ast::Expr], span: Span) -> Expr {
        let Some(A::Str(fmt)) = args.first().map(|a| &a.kind) else {
            return self.type_error(span, "printf needs a string literal as its first argument");
        };
        let (fmt, rest) = splice_string_args(fmt, &args[1..]);
        let mut out = vec![];
        for a in rest {
            let v = self.expr(a);
            // The default argument promotions of a variadic call.
            let v = match v.ty.scalar() {
                Some(Scalar::F16 | Scalar::F32) => Self::to_scalar(v, Scalar::F64),
                Some(s) if s.is_integer() => Self::to_scalar(v, s.promote()),
                _ => v,
            };
            out.push(v);
        }
        Expr::new(ExprKind::Printf(fmt, out), Type::INT, span)
    }

    pub(super) fn expect_args(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        range: std::ops::RangeInclusive<usize>,
        span: Span,
    ) -> bool {
        if range.contains(&args.len()) {
            return true;
        }
        let want = if range.start() == range.end() {
            range.start().to_string()
        } else {
            format!("{} to {}", range.start(), range.end())
        };
        self.err(Diagnostic::new(
            ErrorCode::Type,
            span,
            format!("`{name}` takes {want} argument(s) but {} were given", args.len()),
        ));
        false
    }

    pub(super) fn intrinsic(&mut self, intr: Intrinsic, name: &str, args: &[ast::Expr], span: Span) -> Expr {
        let uint = |c: &mut Self, a: &ast::Expr| {
            let v = c.expr(a);
            c.convert(v, &Type::UINT, "argument")
        };
        let int = |c: &mut Self, a: &ast::Expr| {
            let v = c.expr(a);
            c.convert(v, &Type::INT, "argument")
        };
        let full_mask = |span| Expr::new(ExprKind::Const(0xffff_ffff), Type::UINT, span);
        let (ty, args) = match intr {
            Intrinsic::SyncThreads
            | Intrinsic::ThreadFence
            | Intrinsic::ActiveMask
            | Intrinsic::GridSync
            | Intrinsic::GridValid => {
                if !self.expect_args(name, args, 0..=0, span) {
                    return Expr::error(span);
                }
                (
                    match intr {
                        Intrinsic::ActiveMask => Type::UINT,
                        Intrinsic::GridValid => Type::BOOL,
                        _ => Type::Void,
                    },
                    vec![],
                )
            }
            Intrinsic::SyncThreadsReduce(_) => {
                if !self.expect_args(name, args, 1..=1, span) {
                    return Expr::error(span);
                }
                (Type::INT, vec![self.cond(&args[0])])
            }
            // `clock()` gives a `clock_t` (`long`), `clock64()` a `long long`: 64 bits both.
            Intrinsic::Clock { .. } => {
                if !self.expect_args(name, args, 0..=0, span) {
                    return Expr::error(span);
                }
                (Type::Scalar(Scalar::I64), vec![])
            }
            Intrinsic::GroupSync => (Type::Void, args.iter().map(|a| uint(self, a)).collect()),
            Intrinsic::SyncWarp => {
                if !self.expect_args(name, args, 0..=1, span) {
                    return Expr::error(span);
                }
                let mask = args.first().map_or_else(|| full_mask(span), |a| uint(self, a));
                (Type::Void, vec![mask])
            }
            Intrinsic::Atomic(op) => {
                let n = if op == AtomicOp::Cas { 3 } else { 2 };
                if !self.expect_args(name, args, n..=n, span) {
                    return Expr::error(span);
                }
                let ptr = self.expr(&args[0]);
                let elem = match &ptr.ty {
                    Type::Ptr { elem, is_const: false } => elem.scalar(),
                    Type::Error => return Expr::error(span),
                    _ => None,
                };
                // The overloads CUDA 12 declares (sm_60 and later).
                let allowed: &[Scalar] = match op {
                    AtomicOp::Add => &[Scalar::I32, Scalar::U32, Scalar::U64, Scalar::F32, Scalar::F64],
                    AtomicOp::Exch => &[Scalar::I32, Scalar::U32, Scalar::U64, Scalar::F32],
                    AtomicOp::Cas => &[Scalar::I32, Scalar::U32, Scalar::U64, Scalar::U16],
                    AtomicOp::Min | AtomicOp::Max => &[Scalar::I32, Scalar::U32, Scalar::U64, Scalar::I64],
                    AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => &[Scalar::I32, Scalar::U32, Scalar::U64],
                    AtomicOp::Sub => &[Scalar::I32, Scalar::U32],
                    AtomicOp::Inc | AtomicOp::Dec => &[Scalar::U32],
                };
                let Some(elem) = elem.filter(|e| allowed.contains(e)) else {
                    let names: Vec<_> = allowed.iter().map(|s| format!("{} *", s.name())).collect();
                    return self.type_error(
                        args[0].span,
                        format!("`{name}` needs an address of type {}, found `{}`", names.join(" or "), ptr.ty),
                    );
                };
                let mut out = vec![ptr];
                for a in &args[1..] {
                    let v = self.expr(a);
                    out.push(self.convert(v, &Type::Scalar(elem), "argument"));
                }
                (Type::Scalar(elem), out)
            }
            Intrinsic::Shfl(_) => {
                if !self.expect_args(name, args, 3..=4, span) {
                    return Expr::error(span);
                }
                let mask = uint(self, &args[0]);
                let v = self.expr(&args[1]);
                let Some(s) = self.arith_operand(&v, name) else { return Expr::error(span) };
                let s = s.promote();
                let v = Self::to_scalar(v, s);
                let lane = int(self, &args[2]);
                let width =
                    args.get(3).map_or_else(|| Expr::new(ExprKind::Const(32), Type::INT, span), |a| int(self, a));
                (Type::Scalar(s), vec![mask, v, lane, width])
            }
            Intrinsic::Vote(kind) => {
                if !self.expect_args(name, args, 2..=2, span) {
                    return Expr::error(span);
                }
                let mask = uint(self, &args[0]);
                if kind == VoteKind::MatchAny {
                    // The value is compared whole: an integer of its own width (a float's bits).
                    let v = self.expr(&args[1]);
                    let Some(s) = self.arith_operand(&v, name) else { return Expr::error(span) };
                    let v = Self::to_scalar(v, s.promote());
                    return Expr::new(ExprKind::Intrinsic(intr, vec![mask, v]), Type::UINT, span);
                }
                let p = self.cond(&args[1]);
                (if kind == VoteKind::Ballot { Type::UINT } else { Type::INT }, vec![mask, p])
            }
            Intrinsic::Math(f) => return self.math(f, name, args, span),
            // Made by the struct copies, never by name.
            Intrinsic::CheckAlign { .. }
            | Intrinsic::CheckIndex { .. }
            | Intrinsic::Curand { .. }
            | Intrinsic::Texture { .. }
            | Intrinsic::VectorPart { .. } => {
                return Expr::error(span);
            }
        };
        Expr::new(ExprKind::Intrinsic(intr, args), ty, span)
    }

    pub(super) fn math(&mut self, f: MathFn, name: &str, args: &[ast::Expr], span: Span) -> Expr {
        let n = f.arity();
        if !self.expect_args(name, args, n..=n, span) {
            return Expr::error(span);
        }
        let vals: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
        let mut kinds = vec![];
        for v in &vals {
            match self.arith_operand(v, name) {
                Some(s) => kinds.push(s),
                None => return Expr::error(span),
            }
        }
        let common = kinds.iter().copied().reduce(Scalar::common).unwrap_or(Scalar::I32);
        let ty = crate::front::cmath::result_type(name, f, common);
        let args = vals.into_iter().map(|v| Self::to_scalar(v, ty)).collect();
        Expr::new(ExprKind::Intrinsic(Intrinsic::Math(f), args), Type::Scalar(ty), span)
    }

    // ---- whole-program checks ----

    pub(super) fn check_recursion(&mut self, p: &Program) {
        // Depth-first search for a cycle in the call graph; device calls are inlined, so cycles cannot be.
        fn visit(p: &Program, f: FnId, stack: &mut Vec<FnId>, done: &mut Vec<bool>) -> Option<Vec<FnId>> {
            if let Some(pos) = stack.iter().position(|&g| g == f) {
                return Some(stack[pos..].to_vec());
            }
            if done[f.0 as usize] {
                return None;
            }
            stack.push(f);
            for &g in &p.function(f).calls {
                if let Some(c) = visit(p, g, stack, done) {
                    return Some(c);
                }
            }
            stack.pop();
            done[f.0 as usize] = true;
            None
        }
        let mut done = vec![false; p.functions.len()];
        for i in 0..p.functions.len() {
            if let Some(cycle) = visit(p, FnId(i as u32), &mut vec![], &mut done) {
                let names: Vec<_> = cycle.iter().map(|f| p.function(*f).name.as_str()).collect();
                let f = p.function(cycle[0]);
                self.err(
                    Diagnostic::unsupported(f.span, "recursive device functions")
                        .label(format!("cycle: {} -> {}", names.join(" -> "), names[0]))
                        .hint("write the recursion as a loop"),
                );
                return;
            }
        }
    }
}

/// Writes string-literal arguments of `%s` (`__FILE__`, a macro's `#x`) into the format itself: device code
/// has no strings to pass, but a literal's text is known now. Returns the format and the other arguments.
fn splice_string_args<'a>(fmt: &str, args: &'a [ast::Expr]) -> (String, Vec<&'a ast::Expr>) {
    let mut out = String::with_capacity(fmt.len());
    let mut rest = vec![];
    let mut args = args.iter();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push_str("%%");
            continue;
        }
        let mut spec = String::from('%');
        while let Some(&n) = chars.peek() {
            spec.push(n);
            chars.next();
            if n.is_ascii_alphabetic() && !matches!(n, 'l' | 'h' | 'z' | 'j' | 't' | 'L') {
                break;
            }
        }
        let stars = spec.matches('*').count();
        for _ in 0..stars {
            rest.extend(args.next());
        }
        match args.next() {
            // A plain `%s` of a literal is spliced into the format; with a width or precision the literal is
            // an argument (in constant memory), padded when printed.
            Some(ast::Expr { kind: A::Str(s), .. }) if spec == "%s" => {
                out.push_str(&s.replace('%', "%%"));
            }
            Some(a) => {
                out.push_str(&spec);
                rest.push(a);
            }
            None => out.push_str(&spec),
        }
    }
    rest.extend(args);
    (out, rest)
}

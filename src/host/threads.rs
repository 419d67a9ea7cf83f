//! `<thread>`, `<mutex>`, `<condition_variable>` and `<atomic>` as course code uses them: one host thread per
//! GPU or per chunk of work, joined; a mutex around a shared counter; a condition variable a thread waits on.
//! Host code runs on one deterministic thread, with POSIX threads' rule (`super::pthread`): a `std::thread`
//! runs its function (a function's name with its arguments, or a lambda, whose captures are the names in scope)
//! to its end where it is created, `join` then has nothing to wait for, and a mutex is always free (no other
//! thread runs while one holds it). That is one schedule a real machine may choose whenever the program's
//! threads share data only through `join` and locks. A thread that waits on a condition variable for what no
//! other thread can do any more under it (the predicate is false, or a wait without one) is a host deadlock
//! at the wait's line, warpdbg's exit status 3, as a device deadlock. `std::atomic<T>` is the `T` itself.

use super::cuda::names::is_thread_type;
use super::methods::{ctor_args, expr};
use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A, StmtKind as S};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::Type;

/// Where a `std::thread`'s handle (`get_id()`) starts: glibc's are addresses of thread stacks; each creation
/// site gets its own (the offset of the declaration in its file), as `pthread_create`'s do.
const HANDLE_BASE: u64 = 0x7fff_f700_0000;

/// What `std::thread::hardware_concurrency()` answers: a small machine's two cores, the same on every run.
const HARDWARE_CONCURRENCY: u64 = 2;

fn int(value: u64, span: Span) -> ast::Expr {
    expr(A::Int { value, unsigned: false, long: value > u32::MAX as u64, decimal: true }, span)
}

fn member(obj: &ast::Expr, field: &str) -> ast::Expr {
    expr(A::Member(Box::new(obj.clone()), ast::Ident { name: field.into(), span: obj.span }), obj.span)
}

fn assign(target: ast::Expr, op: Option<BinaryOp>, value: ast::Expr, span: Span) -> ast::Expr {
    expr(A::Assign { op, target: Box::new(target), value: Box::new(value) }, span)
}

/// `std::ref(x)` and `std::cref(x)` pass `x` itself (the thread's function takes it by reference).
fn unwrap_ref(e: &ast::Expr) -> ast::Expr {
    match &e.kind {
        A::Call(f, args) if matches!(f.name.as_str(), "ref" | "cref") && args.len() == 1 => args[0].clone(),
        _ => e.clone(),
    }
}

/// Whether a statement (a lambda's body) holds a `return`, which would leave the function that runs it in
/// place.
fn returns(s: &ast::Stmt) -> bool {
    match &s.kind {
        S::Return(_) => true,
        S::Block(b) => b.iter().any(returns),
        S::If { then, els, .. } => returns(then) || els.as_deref().is_some_and(returns),
        S::While { body, .. }
        | S::DoWhile { body, .. }
        | S::For { body, .. }
        | S::ForRange { body, .. }
        | S::Switch { body, .. } => returns(body),
        S::Try { body, handlers } => returns(body) || handlers.iter().any(|h| returns(&h.body)),
        _ => false,
    }
}

/// The value a predicate lambda returns (`[&] { return ready; }`), or None.
fn predicate(e: &ast::Expr) -> Option<&ast::Expr> {
    match &e.kind {
        A::Lambda { params, body, .. } if params.is_empty() => match body.as_slice() {
            [ast::Stmt { kind: S::Return(Some(v)), .. }] => Some(v),
            _ => None,
        },
        _ => None,
    }
}

impl Resolver<'_> {
    /// `std::thread t(f, args...)` (runs `f` now), `std::mutex m;`, `std::lock_guard<std::mutex> g(m);` and
    /// the rest (None: not one of these types).
    pub(super) fn thread_construct(
        &mut self,
        name: &ast::Ident,
        ty: &Type,
        init: Option<&ast::Expr>,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<(), Reported>> {
        let kind = ["thread", "mutex", "condition_variable", "lock_guard", "unique_lock"]
            .into_iter()
            .find(|k| is_thread_type(ty, k))?;
        if kind != "thread" {
            // A lock's mutex is always free, so locking it does nothing.
            return Some(Ok(()));
        }
        let args = match init.map(|e| &e.kind) {
            // `std::thread t = std::thread(f, i);`
            Some(A::Call(f, args)) if f.name == "thread" && !self.fns.contains_key("thread") => Some(args.as_slice()),
            _ => ctor_args(init),
        };
        let Some(args) = args else {
            return Some(Err(self.unsupported(name.span, "copying or moving a `std::thread` yet")));
        };
        let Some((f, rest)) = args.split_first() else { return Some(Ok(())) };
        let obj = expr(A::Name(name.name.clone()), name.span);
        Some(self.start_thread(&obj, f, rest, init.map_or(name.span, |e| e.span), out))
    }

    /// Runs the thread's function `f` on `args` to its end, then stores the thread's handle in `obj`.
    fn start_thread(
        &mut self,
        obj: &ast::Expr,
        f: &ast::Expr,
        args: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Reported> {
        let args: Vec<ast::Expr> = args.iter().map(unwrap_ref).collect();
        match &f.kind {
            A::Name(n) => {
                let call = expr(A::Call(ast::Ident { name: n.clone(), span: f.span }, args), span);
                let run = self.rvalue(&call)?;
                out.push(Stmt::Expr(run));
            }
            A::Lambda { params, body, .. } => {
                if params.len() != args.len() {
                    return Err(self.error(
                        f.span,
                        format!("the thread's lambda takes {} arguments, and {} are given", params.len(), args.len()),
                    ));
                }
                if body.iter().any(returns) {
                    return Err(self.unsupported(f.span, "a `return` in a thread's lambda yet"));
                }
                if let Some(p) = params.iter().find(|p| p.reference) {
                    return Err(self.unsupported(p.name.span, "a thread lambda's reference parameter yet"));
                }
                // `{ T p = arg; ...; body }`: the lambda's captures are the names in scope here.
                let mut block: Vec<ast::Stmt> = params
                    .iter()
                    .zip(&args)
                    .map(|(p, a)| ast::Stmt {
                        kind: S::Decl(ast::Decl {
                            shared: false,
                            is_extern: false,
                            ty: p.ty.clone(),
                            declarators: vec![ast::Declarator::plain(p.name.clone(), Some(a.clone()))],
                            span: p.name.span,
                        }),
                        span: p.name.span,
                    })
                    .collect();
                block.extend(body.iter().cloned());
                out.extend(self.stmts(&[ast::Stmt { kind: S::Block(block), span: f.span }])?);
            }
            _ => {
                return Err(self.unsupported(f.span, "a thread's function other than a function's name or a lambda"));
            }
        }
        let handle = assign(member(obj, "handle"), None, int(HANDLE_BASE + span.start as u64, span), span);
        let store = self.rvalue(&handle)?;
        out.push(Stmt::Expr(store));
        Ok(())
    }

    /// `t = std::thread(f, args...);` as a statement (`workers[i] = std::thread(...)`): runs `f` now (None:
    /// another statement).
    pub(super) fn thread_assign(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Option<Result<(), Reported>> {
        let A::Assign { op: None, target, value } = &e.kind else { return None };
        let A::Call(f, args) = &value.kind else { return None };
        if f.name != "thread" || self.fns.contains_key("thread") {
            return None;
        }
        let Some((start, rest)) = args.split_first() else {
            return Some(Err(self.unsupported(value.span, "assigning an empty `std::thread` yet")));
        };
        Some(match self.lvalue(target) {
            Ok((_, ty)) if is_thread_type(&ty, "thread") => self.start_thread(target, start, rest, value.span, out),
            Ok(_) => Err(self.error(target.span, "a `std::thread` can only be assigned to a `std::thread`")),
            Err(r) => Err(r),
        })
    }

    /// `t.join()`, `m.lock()`, `cv.wait(lock, pred)`, `n.fetch_add(1)` and their companions on an object `obj`
    /// of type `ty` (None: not such an object, or not such a member function of a scalar).
    pub(super) fn thread_method(
        &mut self,
        obj: &ast::Expr,
        ty: &Type,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let zero = int(0, span);
        let e = if is_thread_type(ty, "thread") {
            match (m.name.as_str(), args) {
                // The thread has finished already.
                ("join" | "detach", []) => assign(member(obj, "handle"), None, zero, span),
                ("joinable", []) => expr(
                    A::Binary { op: BinaryOp::Ne, left: Box::new(member(obj, "handle")), right: Box::new(zero) },
                    span,
                ),
                ("get_id", []) => member(obj, "handle"),
                _ => return Some(Err(self.unsupported(m.span, format_args!("`std::thread::{}` yet", m.name)))),
            }
        } else if is_thread_type(ty, "mutex") || is_thread_type(ty, "unique_lock") {
            match (m.name.as_str(), args) {
                ("lock" | "unlock", []) => zero,
                // Always free; always held by its lock.
                ("try_lock" | "owns_lock", []) => int(1, span),
                _ => return Some(Err(self.unsupported(m.span, format_args!("`{}` on a lock yet", m.name)))),
            }
        } else if is_thread_type(ty, "condition_variable") {
            match (m.name.as_str(), args) {
                ("notify_one" | "notify_all", []) => zero,
                ("wait", [_lock]) => self.wait_for(zero, span),
                ("wait", [_lock, pred]) => match predicate(pred) {
                    Some(v) => self.wait_for(v.clone(), span),
                    None => {
                        return Some(Err(
                            self.unsupported(pred.span, "a wait predicate other than `[&] { return cond; }`")
                        ));
                    }
                },
                _ => {
                    let what = format_args!("`condition_variable::{}` yet", m.name);
                    return Some(Err(self.unsupported(m.span, what)));
                }
            }
        } else if let Type::Scalar(_) = ty {
            // `std::atomic<T>`: the `T` itself, one thread running at a time.
            match (m.name.as_str(), args) {
                ("load", []) => obj.clone(),
                ("store", [v]) => assign(obj.clone(), None, v.clone(), span),
                ("fetch_add" | "fetch_sub", [v]) if matches!(v.kind, A::Int { .. } | A::Name(_)) => {
                    // `(n += v) - v`: the value before (`v` has no side effects).
                    let (op, undo) = if m.name == "fetch_add" {
                        (BinaryOp::Add, BinaryOp::Sub)
                    } else {
                        (BinaryOp::Sub, BinaryOp::Add)
                    };
                    let changed = assign(obj.clone(), Some(op), v.clone(), span);
                    expr(A::Binary { op: undo, left: Box::new(changed), right: Box::new(v.clone()) }, span)
                }
                _ => return None,
            }
        } else {
            return None;
        };
        Some(self.rvalue(&e))
    }

    /// The wait's call: its predicate `cond` and the deadlock's message, were it false.
    fn wait_for(&self, cond: ast::Expr, span: Span) -> ast::Expr {
        let message = "a thread waits on a condition variable here forever: its predicate is false and no other \
             thread can make it true (warpdbg runs each std::thread to its end where it is created, so the threads \
             created after this one have not started and those before it have finished); create the thread that \
             notifies first";
        let text = expr(A::Str(message.into()), span);
        expr(A::Call(ast::Ident { name: "wait for@".into(), span }, vec![cond, text]), span)
    }

    /// `std::thread::hardware_concurrency()`, `std::this_thread::sleep_for(d)` and `yield()` (namespaces are
    /// dropped; None: another call, or a function of the program's own of that name).
    pub(super) fn thread_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        if self.fns.contains_key(&name.name) {
            return None;
        }
        let e = match (name.name.as_str(), args) {
            ("hardware_concurrency", []) => {
                expr(A::Int { value: HARDWARE_CONCURRENCY, unsigned: true, long: false, decimal: true }, span)
            }
            // No other thread can run meanwhile; the virtual clock does not move (host code takes no time).
            ("sleep_for", [d]) => expr(A::Comma(Box::new(d.clone()), Box::new(int(0, span))), span),
            ("yield", []) => int(0, span),
            _ => return None,
        };
        Some(self.rvalue(&e))
    }
}

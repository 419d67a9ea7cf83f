//! POSIX threads as course code uses them: CUDA by Example's `book.h` starts one host thread per GPU with
//! `pthread_create` and waits with `pthread_join`. Host code runs on one deterministic thread, so a created
//! thread runs its function to the end at once, and joining it has nothing left to wait for. That is one of
//! the schedules a real machine may pick for a program that only shares data through `join`; a program
//! whose threads wait for each other (a condition variable, a spin on a flag) would not finish under it,
//! and those functions are not read.

use super::methods::expr;
use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, ExprKind as A, UnaryOp};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};

/// Where the thread handles `pthread_create` stores start: glibc's are addresses of thread stacks, so a
/// printed handle looks like one; each call site gets its own handle (the offset of the call in its file).
const HANDLE_BASE: u64 = 0x7fff_f700_0000;

fn int(value: u64, span: Span) -> ast::Expr {
    expr(A::Int { value, unsigned: false, long: value > u32::MAX as u64, decimal: true }, span)
}

impl Resolver<'_> {
    /// `pthread_create`, `pthread_join` and their companions, or None for another name.
    pub(super) fn pthread_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let zero = int(0, span);
        let call = match (name.name.as_str(), args) {
            // `*thread = handle, start(arg), 0`.
            ("pthread_create", [thread, _attributes, start, arg]) => {
                let store = expr(
                    A::Assign {
                        op: None,
                        target: Box::new(expr(A::Unary(UnaryOp::Deref, Box::new(thread.clone())), thread.span)),
                        value: Box::new(int(HANDLE_BASE + span.start as u64, span)),
                    },
                    span,
                );
                let run = match &start.kind {
                    A::Name(f) => {
                        expr(A::Call(ast::Ident { name: f.clone(), span: start.span }, vec![arg.clone()]), span)
                    }
                    _ => {
                        return Some(Err(self.unsupported(
                            start.span,
                            "a thread's start routine other than a function or variable name",
                        )));
                    }
                };
                let run_then_zero = expr(A::Comma(Box::new(run), Box::new(zero)), span);
                expr(A::Comma(Box::new(store), Box::new(run_then_zero)), span)
            }
            // The thread has finished already; its result is not kept (`retval` is left as it is).
            ("pthread_join", [thread, _retval]) => expr(A::Comma(Box::new(thread.clone()), Box::new(zero)), span),
            ("pthread_detach" | "pthread_cancel", [thread]) => {
                expr(A::Comma(Box::new(thread.clone()), Box::new(zero)), span)
            }
            // One thread: a lock is always free.
            ("pthread_mutex_lock" | "pthread_mutex_unlock" | "pthread_mutex_destroy", [mutex]) => {
                expr(A::Comma(Box::new(mutex.clone()), Box::new(zero)), span)
            }
            ("pthread_mutex_init", [mutex, _attributes]) => {
                expr(A::Comma(Box::new(mutex.clone()), Box::new(zero)), span)
            }
            ("pthread_self", []) => {
                return Some(
                    self.rvalue(&int(HANDLE_BASE, span)).and_then(|v| self.convert(v, &Type::Scalar(Scalar::U64))),
                );
            }
            (f, _) => {
                let n = match f {
                    "pthread_create" => 4,
                    "pthread_join" | "pthread_mutex_init" => 2,
                    "pthread_detach"
                    | "pthread_cancel"
                    | "pthread_mutex_lock"
                    | "pthread_mutex_unlock"
                    | "pthread_mutex_destroy" => 1,
                    "pthread_self" => 0,
                    _ => return None,
                };
                return Some(Err(
                    self.error(span, format!("`{f}` takes {n} argument{}", if n == 1 { "" } else { "s" }))
                ));
            }
        };
        Some(self.rvalue(&call).and_then(|v| self.convert(v, &Type::INT)))
    }
}

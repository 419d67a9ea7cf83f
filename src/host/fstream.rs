//! `std::ofstream`: an output file stream, kept as a handle of C's files ([`super::files`]): the constructor
//! that opens, `open`, `<<` (the items `std::cout` takes, [`super::stream`]), `is_open` and `close`. Course code
//! writes its results for gnuplot this way. Files left open are closed when the program ends.

use super::cuda::names::is_ofstream;
use super::methods::{ctor_args, expr};
use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::Type;

/// The stream's file handle: `obj.handle`.
pub(super) fn handle(obj: &ast::Expr) -> ast::Expr {
    expr(A::Member(Box::new(obj.clone()), ast::Ident { name: "handle".into(), span: obj.span }), obj.span)
}

fn call(f: &str, args: Vec<ast::Expr>, span: Span) -> ast::Expr {
    expr(A::Call(ast::Ident { name: f.into(), span }, args), span)
}

/// `obj.handle = fopen(path, "w")`, or `"a"` when the mode names `app` (`std::ios::out | std::ios::app`).
fn open(obj: &ast::Expr, path: &ast::Expr, mode: Option<&ast::Expr>, span: Span) -> ast::Expr {
    let append = mode.is_some_and(|m| names(m, "app"));
    let how = expr(A::Str(if append { "a" } else { "w" }.into()), span);
    expr(
        A::Assign {
            op: None,
            target: Box::new(handle(obj)),
            value: Box::new(call("fopen", vec![path.clone(), how], span)),
        },
        span,
    )
}

/// Whether `e` names `name` (as `ios::name`, `std::ios::name` or `std::ios_base::name`) anywhere.
fn names(e: &ast::Expr, name: &str) -> bool {
    match &e.kind {
        A::Name(n) => n == name || n.ends_with(&format!("::{name}")),
        A::Binary { left: a, right: b, .. } => names(a, name) || names(b, name),
        _ => false,
    }
}

impl Resolver<'_> {
    /// `f.open(path[, mode])`, `f.is_open()` or `f.close()` on an `ofstream` `obj` of type `ty` (None: not
    /// one).
    pub(super) fn ofstream_method(
        &mut self,
        obj: &ast::Expr,
        ty: &Type,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        if !is_ofstream(ty) {
            return None;
        }
        let e = match (m.name.as_str(), args) {
            ("open", [path, rest @ ..]) if rest.len() <= 1 => open(obj, path, rest.first(), span),
            ("close", []) => call("fclose", vec![handle(obj)], span),
            ("is_open", []) => {
                let zero = expr(A::Int { value: 0, unsigned: false, long: false, decimal: true }, span);
                expr(A::Binary { op: BinaryOp::Ne, left: Box::new(handle(obj)), right: Box::new(zero) }, span)
            }
            _ => return Some(Err(self.unsupported(m.span, format_args!("`ofstream::{}` here yet", m.name)))),
        };
        Some(self.rvalue(&e))
    }

    /// `std::ofstream f("out.dat"[, mode]);`: opens it (None: not an `ofstream`; a plain declaration leaves it
    /// closed).
    pub(super) fn ofstream_construct(
        &mut self,
        name: &ast::Ident,
        ty: &Type,
        init: Option<&ast::Expr>,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<(), Reported>> {
        if !is_ofstream(ty) {
            return None;
        }
        if init.is_none() {
            return Some(Ok(()));
        }
        let Some(args) = ctor_args(init) else {
            return Some(Err(self.unsupported(name.span, "copying an `ofstream` yet")));
        };
        let Some((path, rest)) = args.split_first().filter(|(_, rest)| rest.len() <= 1) else {
            return Some(Err(self.unsupported(name.span, "this `ofstream` constructor yet")));
        };
        let span = init.map_or(name.span, |e| e.span);
        let e = open(&expr(A::Name(name.name.clone()), name.span), path, rest.first(), span);
        Some(self.rvalue(&e).map(|h| out.push(Stmt::Expr(h))))
    }
}

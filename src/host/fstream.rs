//! `std::ofstream` (and `std::ifstream`, `std::fstream`, the string streams): a stream kept as a handle of C's
//! files ([`super::files`]): the constructor that opens, `open`, `<<` (the items `std::cout` takes,
//! [`super::stream`]), `is_open` and `close`; reading is [`super::istream`]'s. Course code writes its results
//! for gnuplot this way. Files left open are closed when the program ends.

use super::cuda::names::stream_kind;
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

/// `obj.handle = fopen(path, "w")`, or `"a"` when the mode names `app` (`std::ios::out | std::ios::app`); an
/// `ifstream` (and an `fstream` whose mode does not name `out` or `app`) reads: `"r"`.
fn open(obj: &ast::Expr, kind: &str, path: &ast::Expr, mode: Option<&ast::Expr>, span: Span) -> ast::Expr {
    let append = mode.is_some_and(|m| names(m, "app"));
    let out = mode.is_some_and(|m| names(m, "out"));
    let read = kind == "ifstream" || (kind == "fstream" && !append && !out);
    let how = expr(
        A::Str(
            if read {
                "r"
            } else if append {
                "a"
            } else {
                "w"
            }
            .into(),
        ),
        span,
    );
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
        let kind = stream_kind(ty)?;
        if let Some(e) = self.istream_method(obj, m, args, span) {
            return Some(e);
        }
        let e = match (m.name.as_str(), args) {
            ("open", [path, rest @ ..]) if rest.len() <= 1 => open(obj, kind, path, rest.first(), span),
            ("close", []) => call("fclose", vec![handle(obj)], span),
            ("is_open", []) => {
                let zero = expr(A::Int { value: 0, unsigned: false, long: false, decimal: true }, span);
                expr(A::Binary { op: BinaryOp::Ne, left: Box::new(handle(obj)), right: Box::new(zero) }, span)
            }
            _ => return Some(Err(self.unsupported(m.span, format_args!("`{kind}::{}` here yet", m.name)))),
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
        let kind = stream_kind(ty)?;
        let obj = expr(A::Name(name.name.clone()), name.span);
        let span = init.map_or(name.span, |e| e.span);
        let string_stream = kind.ends_with("stringstream");
        if init.is_none() {
            // A file stream declared plainly is closed; a string stream has an empty buffer.
            if !string_stream {
                return Some(Ok(()));
            }
            return Some(self.string_stream_open(&obj, kind, None, span).map(|h| out.push(Stmt::Expr(h))));
        }
        let Some(args) = ctor_args(init) else {
            return Some(Err(self.unsupported(name.span, format_args!("copying an `{kind}` yet"))));
        };
        let Some((path, rest)) = args.split_first().filter(|(_, rest)| rest.len() <= 1) else {
            return Some(Err(self.unsupported(name.span, format_args!("this `{kind}` constructor yet"))));
        };
        let e = if string_stream {
            self.string_stream_open(&obj, kind, Some(path), span)
        } else {
            self.rvalue(&open(&obj, kind, path, rest.first(), span))
        };
        Some(e.map(|h| out.push(Stmt::Expr(h))))
    }
}

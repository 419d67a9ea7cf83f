//! `std::string` in host code, as far as course code uses it without keeping one: a comparison of a
//! temporary made from a C string with another string (`string(argv[2]) == "--verify"`), which compares
//! the characters as `strcmp` does.

use super::resolve::Resolver;
use super::tree::Expr;
use crate::front::ast::{self, BinaryOp, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;

/// The C string a `std::string(s)` (or `string(s)`) temporary is made from.
fn temporary(e: &ast::Expr) -> Option<&ast::Expr> {
    match &e.kind {
        A::Call(f, args) if matches!(f.name.as_str(), "string" | "std::string") => match args.as_slice() {
            [s] => Some(s),
            _ => None,
        },
        _ => None,
    }
}

impl Resolver<'_> {
    /// `string(a) == b` (and `!=`, `<`, ..., either side a temporary): `strcmp(a, b) == 0`; None when
    /// neither side is one.
    pub(super) fn string_compare(
        &mut self,
        op: BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        if !matches!(op, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge) {
            return None;
        }
        if temporary(a).is_none() && temporary(b).is_none() {
            return None;
        }
        let (x, y) = (temporary(a).unwrap_or(a), temporary(b).unwrap_or(b));
        let e = |kind| ast::Expr { kind, span };
        let call = e(A::Call(ast::Ident { name: "strcmp".into(), span }, vec![x.clone(), y.clone()]));
        let zero = e(A::Int { value: 0, unsigned: false, long: false, decimal: true });
        Some(self.rvalue(&e(A::Binary { op, left: Box::new(call), right: Box::new(zero) })))
    }
}

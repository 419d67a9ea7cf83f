//! Intrinsics written as the plain C they compute, so nothing new reaches the IR: `__frcp_rn(x)` is `1.0f / x`
//! (IEEE division rounds to nearest, as `__frcp_rn` does), and the integer dot products `__dp4a`,
//! `__dp2a_lo` and `__dp2a_hi` are sums of the byte and half-word products, exact in 32-bit arithmetic
//! (wrapping like the hardware's `IDP4A`/`IDP2A`).

use super::checker::Checker;
use crate::front::ast::Ident;
use crate::front::ast::{self, BaseType, BinaryOp, ExprKind as A};
use crate::front::source::Span;
use crate::front::tast::*;
use crate::front::types::{Scalar, Type};

/// A piece of the spelled-out expression, placed at the call.
fn node(kind: A, span: Span) -> ast::Expr {
    ast::Expr { kind, span }
}

fn int(value: u64, span: Span) -> ast::Expr {
    node(A::Int { value, unsigned: false, long: false, decimal: true }, span)
}

fn cast(base: BaseType, e: ast::Expr, span: Span) -> ast::Expr {
    let ty = ast::TypeSpec { base, named: None, is_const: false, is_volatile: false, pointers: 0, span, func: None };
    node(A::Cast(ty, Box::new(e)), span)
}

fn bin(op: BinaryOp, a: ast::Expr, b: ast::Expr, span: Span) -> ast::Expr {
    node(A::Binary { op, left: Box::new(a), right: Box::new(b) }, span)
}

/// Lane `i` of `x` split into `bits`-wide lanes, as the lane type (`(signed char)(x >> 8 * i)`); of a `char4`
/// or `uchar4` (`__dp4a`'s vector overloads), its field (`x.y`).
fn lane(x: &ast::Expr, i: u64, bits: u64, signed: bool, span: Span) -> ast::Expr {
    if let A::Member(v, f) = &x.kind
        && f.name.is_empty()
    {
        let field = Ident { name: ["x", "y", "z", "w"][i as usize].into(), span };
        return cast(
            if signed { BaseType::Int } else { BaseType::UInt },
            node(A::Member(v.clone(), field), span),
            span,
        );
    }
    let base = match (bits, signed) {
        (8, true) => BaseType::SChar,
        (8, false) => BaseType::UChar,
        (_, true) => BaseType::Short,
        (_, false) => BaseType::UShort,
    };
    let word = cast(if signed { BaseType::Int } else { BaseType::UInt }, x.clone(), span);
    let shifted = if i == 0 { word } else { bin(BinaryOp::Shr, word, int(bits * i, span), span) };
    cast(if signed { BaseType::Int } else { BaseType::UInt }, cast(base, shifted, span), span)
}

impl Checker {
    /// Checks a call of an intrinsic spelled out here; None if `name` is not one.
    pub(super) fn desugared_call(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let want = match name {
            "__frcp_rn" | "__drcp_rn" => 1,
            "__dp4a" | "__dp2a_lo" | "__dp2a_hi" | "sincosf" | "sincos" | "__sincosf" => 3,
            _ => return None,
        };
        if args.len() != want {
            return Some(
                self.type_error(span, format!("`{name}` takes {want} argument(s) but {} were given", args.len())),
            );
        }
        let e = match name {
            // `sincosf(x, &s, &c)`: the sine and the cosine, each as its own function computes it.
            "sincosf" | "sincos" | "__sincosf" => {
                let (sin, cos) = match name {
                    "sincosf" => ("sinf", "cosf"),
                    "sincos" => ("sin", "cos"),
                    _ => ("__sinf", "__cosf"),
                };
                let store = |to: &ast::Expr, f: &str| {
                    let value = node(A::Call(Ident { name: f.into(), span }, vec![args[0].clone()]), span);
                    let target = node(A::Unary(ast::UnaryOp::Deref, Box::new(to.clone())), span);
                    node(A::Assign { op: None, target: Box::new(target), value: Box::new(value) }, span)
                };
                node(A::Comma(Box::new(store(&args[1], sin)), Box::new(store(&args[2], cos))), span)
            }
            "__frcp_rn" => bin(BinaryOp::Div, node(A::Float { value: 1.0, single: true }, span), args[0].clone(), span),
            "__drcp_rn" => {
                bin(BinaryOp::Div, node(A::Float { value: 1.0, single: false }, span), args[0].clone(), span)
            }
            _ => {
                // The unsigned forms take and return `unsigned int`: the first operand's type chooses.
                let types: Vec<Type> = args[..2].iter().map(|a| self.probe_type(a)).collect();
                let signed = !matches!(&types[0], Type::Scalar(Scalar::U32))
                    && !matches!(&types[0], Type::Struct(d) if d.name == "uchar4");
                // A `char4`/`uchar4` operand is read field by field (marked by an unnamed member).
                let operand = |a: &ast::Expr, ty: &Type| match ty {
                    Type::Struct(d) if name == "__dp4a" && matches!(d.name.as_str(), "char4" | "uchar4") => {
                        node(A::Member(Box::new(a.clone()), Ident { name: String::new(), span }), span)
                    }
                    _ => a.clone(),
                };
                let (a, b) = (&operand(&args[0], &types[0]), &operand(&args[1], &types[1]));
                let mut sum = cast(if signed { BaseType::Int } else { BaseType::UInt }, args[2].clone(), span);
                let terms: Vec<(ast::Expr, ast::Expr)> = match name {
                    "__dp4a" => (0..4).map(|i| (lane(a, i, 8, signed, span), lane(b, i, 8, signed, span))).collect(),
                    // Two half-words of `a` against two bytes of `b`: its low half (`_lo`) or high half (`_hi`).
                    _ => {
                        let from = if name == "__dp2a_hi" { 2 } else { 0 };
                        (0..2).map(|i| (lane(a, i, 16, signed, span), lane(b, from + i, 8, signed, span))).collect()
                    }
                };
                for (x, y) in terms {
                    sum = bin(BinaryOp::Add, sum, bin(BinaryOp::Mul, x, y, span), span);
                }
                sum
            }
        };
        Some(self.expr(&e))
    }
}

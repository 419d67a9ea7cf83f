//! Element initialisers (`i`, `rand(lo, hi)`, arithmetic) lowered to [`InitExpr`], and constant sizes.

use std::collections::HashMap;

use crate::front::ast::{self, BinaryOp, ExprKind as A, UnaryOp};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::launch::{InitExpr, InitOp, Value};
use crate::front::source::Span;

pub(super) fn find_div_zero(e: &InitExpr, span: Span) -> Option<Diagnostic> {
    match e {
        InitExpr::Binary { op: InitOp::Div | InitOp::Rem, left: a, right: b } => {
            if b.is_uniform() && b.eval(0, 0, 0) == Value::Int(0) {
                return Some(
                    Diagnostic::new(ErrorCode::Directive, span, "division by zero in a directive")
                        .label("divides by zero"),
                );
            }
            find_div_zero(a, span).or_else(|| find_div_zero(b, span))
        }
        InitExpr::Binary { left: a, right: b, .. } | InitExpr::Rand(a, b) => {
            find_div_zero(a, span).or_else(|| find_div_zero(b, span))
        }
        InitExpr::Neg(a) | InitExpr::BitNot(a) => find_div_zero(a, span),
        InitExpr::Fields(fields) => fields.iter().find_map(|f| find_div_zero(f, span)),
        InitExpr::Bytes { fields, .. } => fields.iter().find_map(|(_, _, f)| find_div_zero(f, span)),
        InitExpr::Const(_) | InitExpr::Index | InitExpr::List(_) => None,
    }
}

/// An element initialiser: may use `i` and `rand(lo, hi)`.
pub(super) fn init_expr(e: &ast::Expr, diags: &mut Vec<Diagnostic>) -> Option<InitExpr> {
    let ie = lower_init(e, None, diags)?;
    if let Some(d) = find_div_zero(&ie, e.span) {
        diags.push(d);
        return None;
    }
    Some(ie)
}

/// Directive expressions: with `env` (sizes), names are scalar args; without (initialisers), `i` and `rand`.
pub(super) fn lower_init(
    e: &ast::Expr,
    env: Option<&HashMap<String, Option<Value>>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<InitExpr> {
    let span = e.span;
    let bad = |diags: &mut Vec<Diagnostic>, what: &str| {
        diags.push(
            Diagnostic::new(ErrorCode::Directive, span, format!("{what} is not allowed in a directive"))
                .hint("directive expressions use numbers, + - * / % << >> & | ^ ~ ( ), `i` and rand(lo, hi) in initialisers, and scalar @arg names in sizes"),
        );
        None
    };
    Some(match &e.kind {
        A::Int { value, .. } => InitExpr::Const(Value::Int(*value as i64)),
        A::Float { value, .. } => InitExpr::Const(Value::Float(*value)),
        A::Bool(b) => InitExpr::Const(Value::Int(*b as i64)),
        A::Char(c) => InitExpr::Const(Value::Int(*c as i64)),
        A::Name(n) => match env {
            None if n == "i" => InitExpr::Index,
            None => {
                diags.push(
                    Diagnostic::new(ErrorCode::Directive, span, format!("unknown name `{n}` in an initialiser"))
                        .label("only `i`, the element index, is known here"),
                );
                return None;
            }
            Some(env) => match env.get(n) {
                Some(Some(v)) => InitExpr::Const(*v),
                Some(None) => return None,
                None => {
                    diags.push(
                        Diagnostic::new(ErrorCode::Directive, span, format!("unknown name `{n}` in a size"))
                            .label("not a scalar @arg")
                            .hint("sizes may use numbers and the names of scalar `@arg`s"),
                    );
                    return None;
                }
            },
        },
        A::Unary(UnaryOp::Neg, a) => InitExpr::Neg(Box::new(lower_init(a, env, diags)?)),
        A::Unary(UnaryOp::Plus, a) => lower_init(a, env, diags)?,
        A::Unary(UnaryOp::BitNot, a) => InitExpr::BitNot(Box::new(lower_init(a, env, diags)?)),
        A::Binary { op, left: a, right: b } => {
            let op = match op {
                BinaryOp::Add => InitOp::Add,
                BinaryOp::Sub => InitOp::Sub,
                BinaryOp::Mul => InitOp::Mul,
                BinaryOp::Div => InitOp::Div,
                BinaryOp::Rem => InitOp::Rem,
                BinaryOp::Shl => InitOp::Shl,
                BinaryOp::Shr => InitOp::Shr,
                BinaryOp::BitAnd => InitOp::And,
                BinaryOp::BitOr => InitOp::Or,
                BinaryOp::BitXor => InitOp::Xor,
                _ => return bad(diags, &format!("`{}`", op.symbol())),
            };
            InitExpr::Binary {
                op,
                left: Box::new(lower_init(a, env, diags)?),
                right: Box::new(lower_init(b, env, diags)?),
            }
        }
        A::Call(name, args) if name.name == "rand" && env.is_none() => {
            if args.len() != 2 {
                diags.push(Diagnostic::new(ErrorCode::Directive, span, "`rand` takes two arguments: rand(lo, hi)"));
                return None;
            }
            InitExpr::Rand(Box::new(lower_init(&args[0], env, diags)?), Box::new(lower_init(&args[1], env, diags)?))
        }
        A::Call(name, _) => return bad(diags, &format!("calling `{}`", name.name)),
        _ => return bad(diags, "this kind of expression"),
    })
}

/// A value as a message shows it.
pub(super) fn show(v: Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f}"),
    }
}

/// Evaluates a size or scalar expression; names refer to scalar arguments in `env`.
pub(super) fn const_eval(
    e: &ast::Expr,
    env: &HashMap<String, Option<Value>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Value> {
    let ie = lower_init(e, Some(env), diags)?;
    if let Some(d) = find_div_zero(&ie, e.span) {
        diags.push(d);
        return None;
    }
    Some(ie.eval(0, 0, 0))
}

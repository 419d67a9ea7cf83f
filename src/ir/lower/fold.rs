//! Conditions that are compile-time constants, which become jumps rather than branches.

use crate::front::tast::{self as t, CmpOp, ExprKind as E};
use crate::front::types::Scalar;

/// The value of a condition that is a compile-time constant (`while (true)`, `for (;;)`, and a template
/// constant's test such as `iBlockSize >= 1024 && tid < 512` with `iBlockSize` 256).
pub(super) fn const_bool(e: &t::Expr) -> Option<bool> {
    match &e.kind {
        E::Const(b) => Some(*b != 0),
        E::Convert(inner) if matches!(inner.kind, E::Const(_)) && inner.ty.scalar().is_some_and(|s| s.is_integer()) => {
            let E::Const(b) = inner.kind else { return None };
            Some(b != 0)
        }
        // A comparison folds when it tests a template constant (which an instance holds as a converted
        // constant, `(unsigned int)(512)`); a comparison of two plain literals stays a branch, as written.
        E::Cmp { op, left: a, right: b } if matches!(a.kind, E::Convert(_)) || matches!(b.kind, E::Convert(_)) => {
            let (x, y) = (const_int(a)?, const_int(b)?);
            Some(match op {
                CmpOp::Lt => x < y,
                CmpOp::Gt => x > y,
                CmpOp::Le => x <= y,
                CmpOp::Ge => x >= y,
                CmpOp::Eq => x == y,
                CmpOp::Ne => x != y,
            })
        }
        E::LogicalAnd(a, b) => match const_bool(a)? {
            false => Some(false),
            true => const_bool(b),
        },
        E::LogicalOr(a, b) => match const_bool(a)? {
            true => Some(true),
            false => const_bool(b),
        },
        E::Unary(t::UnOp::Not, a) => const_bool(a).map(|v| !v),
        _ => None,
    }
}

/// The value of an integer constant (converted between integer types), as the operands of a comparison of
/// that type see it: both operands have one type, so comparing the values as i128 orders them right.
fn const_int(e: &t::Expr) -> Option<i128> {
    let s = e.ty.scalar().filter(|s| s.is_integer())?;
    let bits = match &e.kind {
        E::Const(b) => *b,
        E::Convert(inner) => {
            let from = inner.ty.scalar().filter(|s| s.is_integer())?;
            from.convert_bits(s, const_int(inner)? as u64)
        }
        _ => return None,
    };
    Some(if s == Scalar::U64 { bits as i128 } else { s.int_value(bits) as i128 })
}

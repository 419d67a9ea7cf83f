//! `<cmath>`'s floating-point functions by name, one table for device code (the type checker) and host code
//! (the host interpreter's library), so a function either side reads, the other reads too, with the same
//! result type: C++'s overloads, which nvcc and g++ both apply (`sqrt(float)` is `std::sqrt(float)` and
//! computes in float; `sqrtf` always in float; `sqrt` of an integer or a double in double).

use super::tast::MathFn;
use super::types::Scalar;

/// `<cmath>`'s functions in their double (overloaded) spelling; each also has an `f` form (`sqrtf`).
const FUNCTIONS: [(&str, MathFn); 39] = [
    ("fabs", MathFn::Abs),
    ("fmin", MathFn::Min),
    ("fmax", MathFn::Max),
    ("sqrt", MathFn::Sqrt),
    ("cbrt", MathFn::Cbrt),
    ("floor", MathFn::Floor),
    ("ceil", MathFn::Ceil),
    ("trunc", MathFn::Trunc),
    ("round", MathFn::Round),
    ("exp", MathFn::Exp),
    ("exp2", MathFn::Exp2),
    ("expm1", MathFn::Expm1),
    ("log", MathFn::Log),
    ("log2", MathFn::Log2),
    ("log10", MathFn::Log10),
    ("log1p", MathFn::Log1p),
    ("sin", MathFn::Sin),
    ("cos", MathFn::Cos),
    ("tan", MathFn::Tan),
    ("asin", MathFn::Asin),
    ("acos", MathFn::Acos),
    ("atan", MathFn::Atan),
    ("atan2", MathFn::Atan2),
    ("sinh", MathFn::Sinh),
    ("cosh", MathFn::Cosh),
    ("tanh", MathFn::Tanh),
    ("pow", MathFn::Pow),
    ("fmod", MathFn::Fmod),
    ("hypot", MathFn::Hypot),
    ("copysign", MathFn::Copysign),
    ("erf", MathFn::Erf),
    ("erfc", MathFn::Erfc),
    ("tgamma", MathFn::Tgamma),
    ("lgamma", MathFn::Lgamma),
    ("asinh", MathFn::Asinh),
    ("acosh", MathFn::Acosh),
    ("atanh", MathFn::Atanh),
    ("fdim", MathFn::Fdim),
    ("remainder", MathFn::Remainder),
];

/// The function `name` (`sqrt`, `sqrtf`, `std::sqrt`) computes, or None for a name outside the table.
pub fn function(name: &str) -> Option<MathFn> {
    let name = name.strip_prefix("std::").unwrap_or(name);
    let base = name.strip_suffix('f').filter(|b| FUNCTIONS.iter().any(|(n, _)| n == b)).unwrap_or(name);
    FUNCTIONS.iter().find(|(n, _)| *n == base).map(|&(_, f)| f)
}

/// Whether `name` is a float spelling: `sqrtf`, `erff`, `rsqrtf` (not `erf` or `modf`, which are the table's
/// double spellings).
fn is_single(name: &str) -> bool {
    let in_table = |n: &str| FUNCTIONS.iter().any(|(t, _)| *t == n);
    match name.strip_suffix('f') {
        Some(base) => in_table(base) || !in_table(name),
        None => false,
    }
}

/// Every name [`function`] knows, both spellings, for "did you mean" hints.
pub fn names() -> impl Iterator<Item = String> {
    FUNCTIONS.iter().flat_map(|(n, _)| [n.to_string(), format!("{n}f")])
}

/// The type a call of `name` computing `f` converts its operands to and returns, given the usual arithmetic
/// conversion of its operands' types (`operands`): C++'s overload resolution. `...f` names (and CUDA's `__`
/// intrinsics) compute in float, `__d...` ones in double; `min`, `max` and `abs` (`fabs` too) follow their
/// operands; the rest compute in a float operand's type, and in double otherwise (an integer operand too).
pub fn result_type(name: &str, f: MathFn, operands: Scalar) -> Scalar {
    let name = name.strip_prefix("std::").unwrap_or(name);
    if name.starts_with("__d") {
        Scalar::F64
    } else if is_single(name) || name.starts_with("__") {
        Scalar::F32
    } else if matches!(f, MathFn::Min | MathFn::Max | MathFn::Abs) || operands == Scalar::F32 {
        operands
    } else {
        Scalar::F64
    }
}

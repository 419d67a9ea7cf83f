//! `<cmath>`'s functions whose operands or results are not one floating-point type (`lround`, `ldexp`,
//! `frexp`, `modf`, `sincos`, `signbit`, `nan`, `fma`): the host library's. The ones over one type are
//! [`crate::front::cmath`]'s table, shared with device code. A name ending in `f` computes in float, the
//! others in double. Each has one right answer (no rounding but the final one), so `libm`'s versions are
//! glibc's.

use super::interp::{Interp, Unwind};
use super::libfns::CmathFn;
use super::tree::{Expr, Lib, LibArgs};
use crate::front::tast::MathFn;
use crate::front::types::{Scalar, Type};

/// The names [`library`] knows in their double spelling.
const NAMES: [&str; 11] =
    ["fma", "lround", "llround", "lrint", "llrint", "signbit", "ldexp", "scalbn", "frexp", "modf", "sincos"];

/// The function `name` (with or without `std::`), its parameters and its result.
pub(super) fn library(name: &str) -> Option<(Lib, Vec<Type>, bool, Type)> {
    let name = name.strip_prefix("std::").unwrap_or(name);
    let rint = |s: Scalar| Some((Lib::Math(MathFn::Rint), vec![Type::Scalar(s)], false, Type::Scalar(s)));
    match name {
        // In the default rounding mode: to the nearest, ties to even.
        "rint" | "nearbyint" => return rint(Scalar::F64),
        "rintf" | "nearbyintf" => return rint(Scalar::F32),
        _ => {}
    }
    let (base, s) = if NAMES.contains(&name) || name == "nan" {
        (name, Scalar::F64)
    } else {
        match name.strip_suffix('f') {
            Some(b) if NAMES.contains(&b) || b == "nan" => (b, Scalar::F32),
            _ => return None,
        }
    };
    let x = Type::Scalar(s);
    let long = Type::Scalar(Scalar::I64);
    let ptr = |t: Type| Type::ptr(t, false);
    let (f, params, ret) = match base {
        "fma" => (CmathFn::Fma(s), vec![x.clone(), x.clone(), x.clone()], x),
        "lround" | "llround" => (CmathFn::Lround, vec![Type::Scalar(Scalar::F64)], long),
        "lrint" | "llrint" => (CmathFn::Lrint, vec![Type::Scalar(Scalar::F64)], long),
        // `std::signbit` of a float or a double: the sign survives the conversion to double.
        "signbit" => (CmathFn::Signbit, vec![Type::Scalar(Scalar::F64)], Type::BOOL),
        "ldexp" | "scalbn" => (CmathFn::Ldexp(s), vec![x.clone(), Type::INT], x),
        "frexp" => (CmathFn::Frexp(s), vec![x.clone(), ptr(Type::INT)], x),
        "modf" => (CmathFn::Modf(s), vec![x.clone(), ptr(x.clone())], x),
        "sincos" => (CmathFn::Sincos(s), vec![x.clone(), ptr(x.clone()), ptr(x)], Type::Void),
        "nan" => (CmathFn::Nan(s), vec![ptr(Type::Scalar(Scalar::I8))], x),
        _ => return None,
    };
    Some((Lib::Cmath(f), params, false, ret))
}

/// A value of type `s` as the bits the interpreter holds.
fn bits(s: Scalar, v: f64) -> u64 {
    if s == Scalar::F32 { (v as f32).to_bits() as u64 } else { v.to_bits() }
}

/// The operand of type `s` from the bits the interpreter holds.
fn value(s: Scalar, b: u64) -> f64 {
    if s == Scalar::F32 { f32::from_bits(b as u32) as f64 } else { f64::from_bits(b) }
}

impl Interp<'_> {
    /// Runs `<cmath>` function `f` on its evaluated arguments.
    pub(super) fn cmath(&mut self, f: CmathFn, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        Ok(match f {
            CmathFn::Fma(Scalar::F32) => {
                let x = |i: usize| f32::from_bits(v[i] as u32);
                libm::fmaf(x(0), x(1), x(2)).to_bits() as u64
            }
            CmathFn::Fma(_) => libm::fma(f64::from_bits(v[0]), f64::from_bits(v[1]), f64::from_bits(v[2])).to_bits(),
            // Out of a long's range C leaves the result unspecified; x86-64's conversion gives i64::MIN.
            CmathFn::Lround => long(f64::from_bits(v[0]).round()),
            CmathFn::Lrint => long(f64::from_bits(v[0]).round_ties_even()),
            CmathFn::Signbit => (f64::from_bits(v[0]).is_sign_negative()) as u64,
            CmathFn::Ldexp(s) => {
                let (x, n) = (value(s, v[0]), v[1] as u32 as i32);
                if s == Scalar::F32 { libm::ldexpf(x as f32, n).to_bits() as u64 } else { libm::ldexp(x, n).to_bits() }
            }
            CmathFn::Frexp(s) => {
                // A float's fraction and exponent are its double's (exact, subnormals included).
                let (m, exp) = libm::frexp(value(s, v[0]));
                self.write_bytes(v[1], Some(&exp.to_le_bytes()), 4, 0, e.span)?;
                bits(s, m)
            }
            CmathFn::Modf(s) => {
                let x = value(s, v[0]);
                let (frac, int) = if x.is_infinite() { (0f64.copysign(x), x) } else { (x - x.trunc(), x.trunc()) };
                // The fractional part of a negative number keeps its sign (`modf(-3.0)` is -0.0).
                let frac = if frac == 0.0 { 0f64.copysign(x) } else { frac };
                let size = s.size() as u64;
                let int = bits(s, int).to_le_bytes();
                self.write_bytes(v[1], Some(&int[..size as usize]), size, 0, e.span)?;
                bits(s, frac)
            }
            CmathFn::Sincos(s) => {
                // glibc's `sincos` gives what its `sin` and `cos` give.
                let ty = crate::ir::Ty::from(s);
                let size = s.size() as u64;
                for (f, to) in [(MathFn::Sin, v[1]), (MathFn::Cos, v[2])] {
                    let r = crate::sim::alu::host_math(f, ty, v[0], 0).to_le_bytes();
                    self.write_bytes(to, Some(&r[..size as usize]), size, 0, e.span)?;
                }
                0
            }
            CmathFn::Nan(s) => bits(s, f64::NAN),
        })
    }
}

/// A whole number as C's conversion to `long` on x86-64 gives it (out of range and NaN: i64::MIN).
fn long(x: f64) -> u64 {
    // 2^63: the first double past a long's range.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if !(-LIMIT..LIMIT).contains(&x) { i64::MIN as u64 } else { x as i64 as u64 }
}

//! CUDA's single-precision math library (`sinf`, `logf`, `expf`, `atan2f`, ...) as an H100/H200 computes it:
//! the range reductions, polynomials and special cases that nvcc 13 compiles `sinf(x)` and the rest into
//! (`-O2 -arch=sm_90`, no fast math), read from that SASS (`tests/conformance/libm/libm.cu` records it) and
//! redone here one FFMA at a time (`f32::mul_add`: one rounding, as the GPU's FFMA). A function whose result
//! goes through FFMA, FMUL, FADD and integer instructions alone is bit-exact; where the GPU's path takes a
//! special function unit instruction (`MUFU.EX2`, `MUFU.RCP`, `MUFU.RSQ`: [`mufu`]) that instruction is taken
//! as correctly rounded, and the result can be an ulp or two off the GPU's. Denormals are kept, as nvcc keeps them
//! without `--use_fast_math`. The unit tests measure each function against an H200's results.
//!
//! Host code keeps the C library's answers (`alu::host_math`); only device code comes here.

mod exp;
mod hyper;
mod inverse;
mod log;
mod ops;
mod trig;

pub(super) use ops::mufu;
use ops::{add_rz, c, horner};

use crate::front::tast::MathFn;

/// `f` of `x` (and `y`) in single precision as the GPU's math library computes it, for the functions
/// modelled here; `None` for the rest (the caller computes those as before).
pub fn device(f: MathFn, x: f32, y: f32) -> Option<f32> {
    Some(match f {
        MathFn::Sin => trig::sin(x),
        MathFn::Cos => trig::cos(x),
        MathFn::Tan => trig::tan(x),
        MathFn::Log => log::log(x),
        MathFn::Log2 => log::log2(x),
        MathFn::Log10 => log::log10(x),
        MathFn::Log1p => log::log1p(x),
        MathFn::Exp => exp::exp(x),
        MathFn::Exp10 => exp::exp10(x),
        MathFn::Expm1 => exp::expm1(x),
        MathFn::Pow => exp::pow(x, y),
        MathFn::Atan => inverse::atan(x),
        MathFn::Atan2 => inverse::atan2(x, y),
        MathFn::Asin => inverse::asin(x),
        MathFn::Acos => inverse::acos(x),
        MathFn::Erf => hyper::erf(x),
        MathFn::Erfc => hyper::erfc(x),
        MathFn::Tanh => hyper::tanh(x),
        MathFn::Sinh => hyper::sinh(x),
        MathFn::Cosh => hyper::cosh(x),
        MathFn::Asinh => hyper::asinh(x),
        MathFn::Acosh => hyper::acosh(x),
        MathFn::Atanh => hyper::atanh(x),
        MathFn::Hypot => inverse::hypot(x, y),
        // `exp2f` is `MUFU.EX2` alone: a correctly rounded one is no closer to the GPU than the C library's.
        _ => return None,
    })
}

#[cfg(test)]
mod tests;

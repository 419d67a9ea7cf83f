//! The data path: arithmetic, comparisons, conversions and math functions on raw register bits, as the GPU
//! computes them (32-bit wrapping integers, IEEE floats, PTX's clamped shifts).

use super::fast_math;
use super::libdevice;
use super::special_math::Special;
use crate::front::tast::MathFn;
use crate::front::types::Scalar;
use crate::ir::{ArithOp, CmpOp, Ty, UnOp};

/// The only arithmetic fault: integer division (or remainder) by zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivideByZero;

impl std::fmt::Display for DivideByZero {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("integer division by zero")
    }
}

impl std::error::Error for DivideByZero {}

/// The bits a float operation leaves in a register: the GPU's single-precision units give every NaN result
/// as the canonical `0x7fffffff` (measured on an H100: `inf - inf`, `0 * inf`, `sqrtf(-1)`, `-nan`), where
/// x86 gives `0xffc00000` (which `printf` shows as `-nan`). Double precision gives x86's `0xfff8...` on both.
#[inline(always)]
pub fn f32_bits(r: f32) -> u64 {
    f32_out::<true>(r)
}

/// A single-precision result on the GPU (`GPU`) or on the host (x86's NaNs, as the host's own unit leaves them).
#[inline(always)]
fn f32_out<const GPU: bool>(r: f32) -> u64 {
    if GPU && r.is_nan() { 0x7fff_ffff } else { r.to_bits() as u64 }
}

/// Two-operand arithmetic as the GPU does it.
#[inline]
pub fn binary(op: ArithOp, ty: Ty, a: u64, b: u64) -> Result<u64, DivideByZero> {
    binary_on::<true>(op, ty, a, b)
}

/// Two-operand arithmetic as host code (x86) does it.
pub fn host_binary(op: ArithOp, ty: Ty, a: u64, b: u64) -> Result<u64, DivideByZero> {
    binary_on::<false>(op, ty, a, b)
}

#[inline(always)]
fn binary_on<const GPU: bool>(op: ArithOp, ty: Ty, a: u64, b: u64) -> Result<u64, DivideByZero> {
    Ok(match ty {
        Ty::I32 => {
            let (x, y) = (a as u32 as i32, b as u32 as i32);
            (match op {
                ArithOp::Add => x.wrapping_add(y),
                ArithOp::Sub => x.wrapping_sub(y),
                ArithOp::Mul => x.wrapping_mul(y),
                ArithOp::Div => {
                    if y == 0 {
                        return Err(DivideByZero);
                    }
                    x.wrapping_div(y)
                }
                ArithOp::Rem => {
                    if y == 0 {
                        return Err(DivideByZero);
                    }
                    x.wrapping_rem(y)
                }
                // PTX clamps shift counts to 32: shl gives 0, shr.s32 fills with the sign.
                ArithOp::Shl => (x as u32).checked_shl(y as u32).unwrap_or(0) as i32,
                ArithOp::Shr => x >> (y as u32).min(31),
                ArithOp::And => x & y,
                ArithOp::Or => x | y,
                ArithOp::Xor => x ^ y,
            }) as u32 as u64
        }
        Ty::F32 => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            f32_out::<GPU>(match op {
                ArithOp::Add => x + y,
                ArithOp::Sub => x - y,
                ArithOp::Mul => x * y,
                ArithOp::Div => x / y,
                ArithOp::Rem => x % y,
                _ => f32::NAN,
            })
        }
        // A half's arithmetic is float's, rounded once more to half (front/half.rs says why that is exact).
        Ty::F16 => {
            let wide = |v: u64| crate::front::half::to_f64(v as u16) as f32;
            let (x, y) = (wide(a), wide(b));
            let r = match op {
                ArithOp::Add => x + y,
                ArithOp::Sub => x - y,
                ArithOp::Mul => x * y,
                ArithOp::Div => x / y,
                _ => f32::NAN,
            };
            crate::front::half::from_f64(r as f64) as u64
        }
        Ty::F64 => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            (match op {
                ArithOp::Add => x + y,
                ArithOp::Sub => x - y,
                ArithOp::Mul => x * y,
                ArithOp::Div => x / y,
                ArithOp::Rem => x % y,
                _ => f64::NAN,
            })
            .to_bits()
        }
        Ty::I64 => {
            let (x, y) = (a as i64, b as i64);
            (match op {
                ArithOp::Add => x.wrapping_add(y),
                ArithOp::Sub => x.wrapping_sub(y),
                ArithOp::Mul => x.wrapping_mul(y),
                ArithOp::Div => {
                    if y == 0 {
                        return Err(DivideByZero);
                    }
                    x.wrapping_div(y)
                }
                ArithOp::Rem => {
                    if y == 0 {
                        return Err(DivideByZero);
                    }
                    x.wrapping_rem(y)
                }
                // PTX clamps 64-bit shift counts to 64.
                ArithOp::Shl => (x as u64).checked_shl(y as u32).unwrap_or(0) as i64,
                ArithOp::Shr => x >> (y as u64).min(63),
                ArithOp::And => x & y,
                ArithOp::Or => x | y,
                ArithOp::Xor => x ^ y,
            }) as u64
        }
        // Addresses add and subtract as 64-bit unsigned numbers.
        Ty::U64 | Ty::Ptr => match op {
            ArithOp::Add => a.wrapping_add(b),
            ArithOp::Sub => a.wrapping_sub(b),
            ArithOp::Mul => a.wrapping_mul(b),
            ArithOp::Div => a.checked_div(b).ok_or(DivideByZero)?,
            ArithOp::Rem => a.checked_rem(b).ok_or(DivideByZero)?,
            ArithOp::Shl => a.checked_shl(b.min(64) as u32).unwrap_or(0),
            ArithOp::Shr => a.checked_shr(b.min(64) as u32).unwrap_or(0),
            ArithOp::And => a & b,
            ArithOp::Or => a | b,
            ArithOp::Xor => a ^ b,
        },
        // U32, and anything narrower that slipped through promotion, computes as unsigned 32-bit.
        _ => {
            let (x, y) = (a as u32, b as u32);
            (match op {
                ArithOp::Add => x.wrapping_add(y),
                ArithOp::Sub => x.wrapping_sub(y),
                ArithOp::Mul => x.wrapping_mul(y),
                ArithOp::Div => x.checked_div(y).ok_or(DivideByZero)?,
                ArithOp::Rem => x.checked_rem(y).ok_or(DivideByZero)?,
                ArithOp::Shl => x.checked_shl(y).unwrap_or(0),
                ArithOp::Shr => x.checked_shr(y).unwrap_or(0),
                ArithOp::And => x & y,
                ArithOp::Or => x | y,
                ArithOp::Xor => x ^ y,
            }) as u64
        }
    })
}

#[inline]
pub fn compare(op: CmpOp, ty: Ty, a: u64, b: u64) -> bool {
    macro_rules! cmp {
        ($x:expr, $y:expr) => {
            match op {
                CmpOp::Lt => $x < $y,
                CmpOp::Gt => $x > $y,
                CmpOp::Le => $x <= $y,
                CmpOp::Ge => $x >= $y,
                CmpOp::Eq => $x == $y,
                CmpOp::Ne => $x != $y,
            }
        };
    }
    match ty {
        Ty::I32 => cmp!(a as u32 as i32, b as u32 as i32),
        Ty::I8 => cmp!(a as u8 as i8, b as u8 as i8),
        Ty::I16 => cmp!(a as u16 as i16, b as u16 as i16),
        Ty::U16 => cmp!(a as u16, b as u16),
        Ty::I64 => cmp!(a as i64, b as i64),
        Ty::U64 => cmp!(a, b),
        Ty::F32 => cmp!(f32::from_bits(a as u32), f32::from_bits(b as u32)),
        Ty::F64 => cmp!(f64::from_bits(a), f64::from_bits(b)),
        Ty::F16 => cmp!(crate::front::half::to_f64(a as u16), crate::front::half::to_f64(b as u16)),
        Ty::Ptr => cmp!(a, b),
        _ => cmp!(a as u32, b as u32),
    }
}

/// One-operand arithmetic as the GPU does it.
#[inline]
pub fn unary(op: UnOp, ty: Ty, a: u64) -> u64 {
    unary_on::<true>(op, ty, a)
}

/// One-operand arithmetic as host code (x86) does it.
pub fn host_unary(op: UnOp, ty: Ty, a: u64) -> u64 {
    unary_on::<false>(op, ty, a)
}

#[inline(always)]
fn unary_on<const GPU: bool>(op: UnOp, ty: Ty, a: u64) -> u64 {
    match (op, ty) {
        (UnOp::Not, _) => (a == 0) as u64,
        (UnOp::Neg, Ty::F32) => f32_out::<GPU>(-f32::from_bits(a as u32)),
        (UnOp::Neg, Ty::F64) => (-f64::from_bits(a)).to_bits(),
        (UnOp::Neg, Ty::F16) => (a ^ 0x8000) & 0xffff,
        (UnOp::Neg, Ty::I64 | Ty::U64) => a.wrapping_neg(),
        (UnOp::BitNot, Ty::I64 | Ty::U64) => !a,
        (UnOp::Neg, _) => (a as u32).wrapping_neg() as u64,
        (UnOp::BitNot, _) => !(a as u32) as u64,
    }
}

#[inline]
pub fn convert(from: Ty, to: Ty, a: u64) -> u64 {
    match (from.scalar(), to.scalar()) {
        (Some(f), Some(t)) => f.convert_bits(t, a),
        (None, Some(Scalar::Bool)) => (a != 0) as u64,
        _ => a,
    }
}

/// `a * b + c` with one rounding (the GPU's FFMA / DFMA).
pub fn fma(ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    match ty {
        Ty::F64 => f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c)).to_bits(),
        _ => {
            let (x, y, z) = (f32::from_bits(a as u32), f32::from_bits(b as u32), f32::from_bits(c as u32));
            f32_bits(x.mul_add(y, z))
        }
    }
}

/// The correctly rounded two-operand operations (`__fdividef`, `__fadd_rn`, `__fsub_rn`, `__fmul_rn`).
fn rn<
    T: std::ops::Add<Output = T> + std::ops::Sub<Output = T> + std::ops::Mul<Output = T> + std::ops::Div<Output = T>,
>(
    f: MathFn,
    x: T,
    y: T,
) -> T {
    match f {
        MathFn::AddRn => x + y,
        MathFn::SubRn => x - y,
        MathFn::MulRn => x * y,
        _ => x / y,
    }
}

/// The floating-point math functions on `x` and `y` of type `$t` (`f32` or `f64`): one table for both
/// precisions.
macro_rules! float_math {
    ($t:ty, $f:expr, $x:expr, $y:expr) => {{
        let (f, x, y): (MathFn, $t, $t) = ($f, $x, $y);
        match f {
            // fminf/fmaxf return the other operand when one is NaN.
            MathFn::Min => x.min(y),
            MathFn::Max => x.max(y),
            MathFn::Abs => x.abs(),
            MathFn::Sqrt => x.sqrt(),
            MathFn::Rsqrt => 1.0 / x.sqrt(),
            MathFn::Floor => x.floor(),
            MathFn::Ceil => x.ceil(),
            MathFn::Trunc => x.trunc(),
            MathFn::Round => x.round(),
            MathFn::Exp => x.exp(),
            MathFn::Exp2 => x.exp2(),
            MathFn::Log => x.ln(),
            MathFn::Log2 => x.log2(),
            MathFn::Sin => x.sin(),
            MathFn::Cos => x.cos(),
            MathFn::Tan => x.tan(),
            MathFn::Pow => x.powf(y),
            MathFn::Fmod => x % y,
            MathFn::Div | MathFn::AddRn | MathFn::SubRn | MathFn::MulRn => rn(f, x, y),
            MathFn::Saturate => {
                if x.is_nan() {
                    0.0
                } else {
                    x.clamp(0.0, 1.0)
                }
            }
            MathFn::Rint => x.round_ties_even(),
            MathFn::Exp10 => <$t>::powf(10.0, x),
            MathFn::Log10 => x.log10(),
            MathFn::Atan => x.atan(),
            MathFn::Atan2 => x.atan2(y),
            MathFn::Asin => x.asin(),
            MathFn::Acos => x.acos(),
            MathFn::Sinh => x.sinh(),
            MathFn::Cosh => x.cosh(),
            MathFn::Tanh => x.tanh(),
            MathFn::Cbrt => x.cbrt(),
            MathFn::Hypot => x.hypot(y),
            MathFn::Expm1 => x.exp_m1(),
            MathFn::Log1p => x.ln_1p(),
            MathFn::Copysign => x.copysign(y),
            MathFn::Erf => Special::erf(x),
            MathFn::Erfc => Special::erfc(x),
            MathFn::Tgamma => Special::tgamma(x),
            MathFn::Lgamma => Special::lgamma(x),
            MathFn::Asinh => Special::asinh(x),
            MathFn::Acosh => Special::acosh(x),
            MathFn::Atanh => Special::atanh(x),
            MathFn::Fdim => Special::fdim(x, y),
            MathFn::Remainder => Special::remainder(x, y),
            // Float only (the intrinsics take and return `float`).
            MathFn::FastExp => fast_math::exp(x as f32) as $t,
            MathFn::FastExp10 => fast_math::exp10(x as f32) as $t,
            MathFn::FastLog => fast_math::log(x as f32) as $t,
            MathFn::FastLog2 => fast_math::log2(x as f32) as $t,
            MathFn::FastLog10 => fast_math::log10(x as f32) as $t,
            MathFn::FastPow => fast_math::pow(x as f32, y as f32) as $t,
            MathFn::FastSin => fast_math::sin(x as f32) as $t,
            MathFn::FastCos => fast_math::cos(x as f32) as $t,
            MathFn::FastTan => fast_math::tan(x as f32) as $t,
            _ => x * y, // Fma is lowered to `Instr::Fma`; the integer functions never reach here
        }
    }};
}

/// A math-library function as the GPU computes it.
pub fn math(f: MathFn, ty: Ty, a: u64, b: u64) -> u64 {
    math_on::<true>(f, ty, a, b)
}

/// A math-library function as host code (glibc on x86) computes it.
pub fn host_math(f: MathFn, ty: Ty, a: u64, b: u64) -> u64 {
    math_on::<false>(f, ty, a, b)
}

fn math_on<const GPU: bool>(f: MathFn, ty: Ty, a: u64, b: u64) -> u64 {
    if let Some(v) = bit_math(f, ty, a, b) {
        return v;
    }
    match ty {
        Ty::F32 => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            // Device code computes `sinf`, `logf`, ... as CUDA's math library does (its last bits differ
            // from the C library's); host code keeps the C library's.
            let r = if GPU { libdevice::device(f, x, y) } else { None };
            f32_out::<GPU>(r.unwrap_or_else(|| float_math!(f32, f, x, y)))
        }
        Ty::F64 => float_math!(f64, f, f64::from_bits(a), f64::from_bits(b)).to_bits(),
        Ty::I32 => {
            let (x, y) = (a as u32 as i32, b as u32 as i32);
            (match f {
                MathFn::Min => x.min(y),
                MathFn::Max => x.max(y),
                MathFn::Abs => x.wrapping_abs(),
                _ => x,
            }) as u32 as u64
        }
        Ty::I64 => {
            let (x, y) = (a as i64, b as i64);
            (match f {
                MathFn::Min => x.min(y),
                MathFn::Max => x.max(y),
                MathFn::Abs => x.wrapping_abs(),
                _ => x,
            }) as u64
        }
        Ty::U64 => match f {
            MathFn::Min => a.min(b),
            MathFn::Max => a.max(b),
            _ => a,
        },
        _ => {
            let (x, y) = (a as u32, b as u32);
            (match f {
                MathFn::Min => x.min(y),
                MathFn::Max => x.max(y),
                _ => x,
            }) as u64
        }
    }
}

/// The bit-manipulation and integer-product intrinsics, whatever their result type.
fn bit_math(f: MathFn, ty: Ty, a: u64, b: u64) -> Option<u64> {
    let signed = matches!(ty, Ty::I32 | Ty::I64);
    Some(match f {
        MathFn::Bits => a,
        MathFn::Popc => (a as u32).count_ones() as u64,
        MathFn::Popc64 => a.count_ones() as u64,
        MathFn::Clz => (a as u32).leading_zeros() as u64,
        MathFn::Clz64 => a.leading_zeros() as u64,
        MathFn::Ffs => {
            let x = a as u32;
            if x == 0 { 0 } else { x.trailing_zeros() as u64 + 1 }
        }
        MathFn::Ffs64 => {
            if a == 0 {
                0
            } else {
                a.trailing_zeros() as u64 + 1
            }
        }
        MathFn::Brev => (a as u32).reverse_bits() as u64,
        MathFn::Brev64 => a.reverse_bits(),
        MathFn::PackBits => {
            let (bits, mut mask) = (a as u32, b as u32);
            let mut out = 0u32;
            let mut k = 0;
            while mask != 0 {
                let l = mask.trailing_zeros();
                out |= ((bits >> l) & 1) << k;
                k += 1;
                mask &= mask - 1;
            }
            out as u64
        }
        MathFn::NthLane => {
            let (mut mask, n) = (a as u32, b as u32);
            if mask == 0 {
                return Some(0);
            }
            for _ in 0..n % mask.count_ones() {
                mask &= mask - 1;
            }
            mask.trailing_zeros() as u64
        }
        MathFn::Mul24 if signed => {
            // The low 24 bits of each operand, sign-extended, multiplied; the low 32 bits kept.
            let x = ((a as u32) << 8) as i32 >> 8;
            let y = ((b as u32) << 8) as i32 >> 8;
            x.wrapping_mul(y) as u32 as u64
        }
        MathFn::Mul24 => ((a as u32 & 0xff_ffff).wrapping_mul(b as u32 & 0xff_ffff)) as u64,
        MathFn::MulHi => match ty {
            Ty::I32 => (((a as u32 as i32 as i64) * (b as u32 as i32 as i64)) >> 32) as u32 as u64,
            Ty::U32 => (((a as u32 as u64) * (b as u32 as u64)) >> 32) & 0xffff_ffff,
            Ty::I64 => (((a as i64 as i128) * (b as i64 as i128)) >> 64) as u64,
            _ => (((a as u128) * (b as u128)) >> 64) as u64,
        },
        _ => return None,
    })
}

/// Reads register bits as a typed number, for display and JSON.
pub fn display(ty: Ty, bits: u64) -> String {
    match ty {
        Ty::Bool => (bits & 1 != 0).to_string(),
        Ty::I8 => (bits as u8 as i8).to_string(),
        Ty::U8 => (bits as u8).to_string(),
        Ty::I32 => (bits as u32 as i32).to_string(),
        Ty::U32 => (bits as u32).to_string(),
        Ty::I16 => (bits as u16 as i16).to_string(),
        Ty::U16 => (bits as u16).to_string(),
        Ty::I64 => (bits as i64).to_string(),
        Ty::U64 => bits.to_string(),
        Ty::F16 => format!("{:?}", crate::front::half::to_f64(bits as u16)),
        Ty::F32 => format!("{:?}", f32::from_bits(bits as u32)),
        Ty::F64 => format!("{:?}", f64::from_bits(bits)),
        Ty::Ptr => format!("{bits:#x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_edges() {
        assert_eq!(binary(ArithOp::Add, Ty::I32, i32::MAX as u32 as u64, 1), Ok(i32::MIN as u32 as u64));
        assert_eq!(
            binary(ArithOp::Div, Ty::I32, i32::MIN as u32 as u64, (-1i32) as u32 as u64),
            Ok(i32::MIN as u32 as u64)
        );
        assert_eq!(binary(ArithOp::Div, Ty::U32, 7, 0), Err(DivideByZero));
        assert_eq!(binary(ArithOp::Shl, Ty::U32, 1, 40), Ok(0));
        assert_eq!(binary(ArithOp::Shr, Ty::I32, (-8i32) as u32 as u64, 40), Ok(u32::MAX as u64));
        assert_eq!(binary(ArithOp::Rem, Ty::I32, (-7i32) as u32 as u64, 2), Ok((-1i32) as u32 as u64));
    }

    #[test]
    fn unsigned_compare_differs_from_signed() {
        let minus_one = (-1i32) as u32 as u64;
        assert!(compare(CmpOp::Lt, Ty::I32, minus_one, 1));
        assert!(!compare(CmpOp::Lt, Ty::U32, minus_one, 1));
    }

    #[test]
    fn conversions_saturate_like_cvt_rzi() {
        assert_eq!(convert(Ty::F32, Ty::I32, (3.9f32).to_bits() as u64), 3);
        assert_eq!(convert(Ty::F32, Ty::I32, (1e20f32).to_bits() as u64), i32::MAX as u64);
        assert_eq!(convert(Ty::F32, Ty::U32, (-5.0f32).to_bits() as u64), 0);
        assert_eq!(convert(Ty::F32, Ty::I32, f32::NAN.to_bits() as u64), 0);
        assert_eq!(convert(Ty::I32, Ty::U8, 300), 44);
        assert_eq!(convert(Ty::I8, Ty::I32, 0xff), u32::MAX as u64);
    }
}

//! IEEE binary16 (`__half` of `cuda_fp16.h`): the bit-exact conversions the GPU's `cvt` does, and the text
//! of the built-in `cuda_fp16.h` (`half2`, the intrinsics) written in the kernel language itself.
//!
//! A half's arithmetic is done in `float` and rounded back to half: for `+`, `-`, `*` and `/` of two halves,
//! float's 24 bits are at least 2 * 11 + 2, so rounding twice gives the once-rounded result (Figueroa's
//! theorem); `__hfma` computes in `double`, where the product is exact and the sum rounds once.

/// `value` rounded to the nearest binary16, ties to even (`cvt.rn.f16.f32`/`.f64`): subnormals kept,
/// anything from 65520 up becomes infinity, NaN becomes the canonical `0x7fff`.
pub fn from_f64(value: f64) -> u16 {
    if value.is_nan() {
        return 0x7fff;
    }
    let sign: u16 = if value.is_sign_negative() { 0x8000 } else { 0 };
    let a = value.abs();
    // 65520 is halfway between 65504 (the largest half) and 65536: ties to even go up, to infinity.
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    // The quantum at a's binade: 2^-24 below the smallest normal (2^-14), else 2^(e - 10).
    let e = if a < f64::powi(2.0, -14) { -14 } else { exponent(a) };
    let m = (a * f64::powi(2.0, 10 - e)).round_ties_even() as u16;
    // Normal: ((e + 15) << 10) + (m - 1024); a mantissa that rounds up to 2048 carries into the exponent,
    // and a subnormal's that reaches 1024 becomes the smallest normal, by the same sum.
    sign | ((((e + 14) as u16) << 10) + m)
}

/// The binary exponent of a positive finite `a` (`floor(log2(a))`).
fn exponent(a: f64) -> i32 {
    ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

/// The value of a binary16's bits (exact in `f64`).
pub fn to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((bits >> 10) & 0x1f) as i32;
    let m = (bits & 0x3ff) as f64;
    sign * match e {
        0 => m * f64::powi(2.0, -24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * f64::powi(2.0, e - 25),
    }
}

/// `cuda_fp16.h` as warpdbg provides it: `half2` is a struct of two halves, the intrinsics are
/// `__host__ __device__` functions over float, as the header's host paths are.
pub const HEADER: &str = include_str!("half_header.cuh");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_nearest_even_with_subnormals_and_overflow() {
        assert_eq!(from_f64(1.0), 0x3c00);
        assert_eq!(from_f64(-2.0), 0xc000);
        assert_eq!(from_f64(65504.0), 0x7bff);
        assert_eq!(from_f64(65519.99), 0x7bff);
        assert_eq!(from_f64(65520.0), 0x7c00);
        assert_eq!(from_f64(f64::INFINITY), 0x7c00);
        assert_eq!(from_f64(f64::powi(2.0, -24)), 0x0001);
        assert_eq!(from_f64(f64::powi(2.0, -25)), 0x0000);
        assert_eq!(from_f64(f64::powi(2.0, -25) * 1.5), 0x0001);
        assert_eq!(from_f64(f64::powi(2.0, -14)), 0x0400);
        assert_eq!(from_f64(f64::powi(2.0, -14) - f64::powi(2.0, -25)), 0x0400);
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: to even, 1.
        assert_eq!(from_f64(1.0 + f64::powi(2.0, -11)), 0x3c00);
        assert_eq!(from_f64(1.0 + 3.0 * f64::powi(2.0, -11)), 0x3c02);
        assert_eq!(from_f64(0.1), 0x2e66);
        assert_eq!(from_f64(-0.0), 0x8000);
        assert_eq!(from_f64(f64::NAN), 0x7fff);
        for bits in 0..0x7c00u16 {
            assert_eq!(from_f64(to_f64(bits)), bits);
            assert_eq!(from_f64(-to_f64(bits)), bits | 0x8000);
        }
        assert_eq!(to_f64(0x7bff), 65504.0);
        assert_eq!(to_f64(0x0001), f64::powi(2.0, -24));
        assert!(to_f64(0x7e00).is_nan());
    }
}

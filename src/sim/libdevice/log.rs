//! `logf`, `log2f`, `log10f`, `log1pf`: the operand split into 2^e times a mantissa near 1 by integer
//! arithmetic on its bits, a polynomial in the mantissa minus one. No special function unit: bit-exact.

use super::{add_rz, c, horner};

/// `x` as 2^e * m with m in [2/3, 4/3) (`split` the bits that start that interval), a subnormal scaled up
/// by 2^23 first: (m - 1, e).
fn reduce(x: f32, split: u32) -> (f32, f32, f32) {
    let tiny = x < f32::MIN_POSITIVE;
    let x = if tiny { x * 8_388_608.0 } else { x };
    let bits = x.to_bits();
    let e = bits.wrapping_sub(split) & 0xFF80_0000;
    let m = f32::from_bits(bits.wrapping_sub(e));
    let e = (e as i32 as f32).mul_add(c(0x3400_0000), if tiny { -23.0 } else { 0.0 });
    (m - 1.0, e, x)
}

/// The cases the polynomial does not cover: infinity, NaN, negative operands and zero.
fn special(x: f32, v: f32) -> f32 {
    let v = if x.to_bits() >= 0x7F80_0000 { x.mul_add(f32::INFINITY, f32::INFINITY) } else { v };
    if x == 0.0 { f32::NEG_INFINITY } else { v }
}

/// ln(1 + u) for u in [-1/3, 1/3) by `logf`'s polynomial.
fn ln1p_poly(u: f32) -> f32 {
    let p = horner(
        u,
        &[
            0xBE05_5027,
            0x3E10_39F6,
            0xBDF8_CDCC,
            0x3E0F_2955,
            0xBE2A_D8B9,
            0x3E4C_ED0B,
            0xBE7F_FF22,
            0x3EAA_AA78,
            0xBF00_0000,
        ],
    );
    (u * p).mul_add(u, u)
}

/// `logf(x)`: bit-exact.
pub fn log(x: f32) -> f32 {
    let (u, e, x) = reduce(x, 0x3F2A_AAAB);
    special(x, e.mul_add(c(0x3F31_7218), ln1p_poly(u)))
}

/// `log10f(x)`: `logf`'s result times log10(e), bit-exact.
pub fn log10(x: f32) -> f32 {
    log(x) * c(0x3EDE_5BD9)
}

/// `log2f(x)`: its own polynomial (m in [sqrt(1/2), sqrt(2))), bit-exact.
pub fn log2(x: f32) -> f32 {
    let (u, e, x) = reduce(x, 0x3F35_04F3);
    let p = horner(
        u,
        &[
            0x3DC6_B27F,
            0xBE2C_7F30,
            0x3E2F_CF2A,
            0xBE37_4E43,
            0x3E52_0BF4,
            0xBE76_3C8B,
            0x3E93_BF99,
            0xBEB8_AA49,
            0x3EF6_384A,
            0xBF38_AA3B,
        ],
    );
    special(x, e + u.mul_add(c(0x3FB8_AA3B), u * (u * p)))
}

/// `log1pf(x)` (also the end of `asinhf`, `acoshf`, `atanhf`): 1 + x rounded toward zero gives the
/// exponent, `x` itself is scaled by it (so the low bits 1 + x loses are kept), then a polynomial. Negative,
/// infinite and NaN operands below -1 (and +inf, NaN) go through FFMA x, inf, inf; -0 is kept. Bit-exact.
pub fn log1p(x: f32) -> f32 {
    let one = add_rz(x, 1.0);
    let e = one.to_bits().wrapping_sub(0x3F40_0000) & 0xFF80_0000;
    let bits = x.to_bits();
    let m = f32::from_bits(bits.wrapping_sub(e));
    let four = f32::from_bits(0x4080_0000u32.wrapping_sub(e));
    let u = 0.25f32.mul_add(four, -1.0) + m;
    let ef = e as i32 as f32 * c(0x3400_0000);
    let p = horner(
        u,
        &[
            0xBD39_BF78,
            0x3DD8_0012,
            0xBE07_78E0,
            0x3E14_6475,
            0xBE2A_68DD,
            0x3E4C_AF9E,
            0xBE80_0042,
            0x3EAA_AAE6,
            0xBF00_0000,
        ],
    );
    let v = ef.mul_add(c(0x3F31_7218), (u * p).mul_add(u, u));
    if bits < 0x7F80_0000 {
        return v;
    }
    let v = if (bits as i32) < 0xBF80_0001u32 as i32 { v } else { x.mul_add(f32::INFINITY, f32::INFINITY) };
    if x == 0.0 { -0.0 } else { v }
}

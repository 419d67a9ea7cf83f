//! `expf`, `exp10f`, `expm1f`, `powf`. The first two end in `MUFU.EX2` of a reduced argument (taken
//! as correctly rounded, so they can be an ulp off the GPU); `expm1f` takes `EX2` of an integer only (exact)
//! and is bit-exact; `powf` computes its logarithm with `MUFU.RCP` and its power by a polynomial.

use super::{c, horner, mufu};

/// e^x or 10^x as nvcc's `expf`/`exp10f`: k = floor(x * log2(b) + 1/2) by a rounding-down FFMA, then
/// `EX2(x * log2(b) - k) * 2^k` (log2(b) in two pieces; `step` is log2(b)/252, `hi` and `lo` its pieces).
fn exp_base(x: f32, step: f32, hi: f32, lo: f32) -> f32 {
    let t = x.mul_add(step, 0.5);
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    // FFMA.RM t, 252, 12582913: below 2^24 with an integer addend, rounding down is the floor.
    let k = (t as f64 * 252.0).floor() as u32;
    let j = f32::from_bits(0x4B40_0001 + k);
    let r = x.mul_add(lo, x.mul_add(hi, -(j - 12_583_039.0)));
    let scale = f32::from_bits(j.to_bits() << 23);
    mufu::ex2_ftz(r) * scale
}

/// `expf(x)`: `MUFU.EX2` of the reduced argument times a power of two.
pub fn exp(x: f32) -> f32 {
    exp_base(x, c(0x3BBB_989D), c(0x3FB8_AA3B), c(0x32A5_7060))
}

/// `exp10f(x)`: as `expf`, with log2(10).
pub fn exp10(x: f32) -> f32 {
    exp_base(x, c(0x3C57_FA62), c(0x4054_9A78), c(0x3397_9A37))
}

/// `expm1f(x)`: e^x - 1 as 2^j * expm1(r) + (2^j - 1) with j = rint(x * log2(e)) (0 for |x| < 0.41).
/// Bit-exact.
pub fn expm1(x: f32) -> f32 {
    let j = (x * c(0x3FB8_AA3B)).round_ties_even();
    let j = if x.abs() < c(0x3ED1_EB85) { 0.0 } else { j };
    let r = (-j).mul_add(c(0x3F31_7200), x);
    let r = (-j).mul_add(c(0x35BF_BE8E), r);
    // 2^128 overflows: take 2^127 and double the result.
    let top = j == 128.0;
    let j = if top { j - 1.0 } else { j };
    let p = horner(r, &[0x3AB5_EBE6, 0x3C09_5663, 0x3D2A_ABE3, 0x3E2A_A9F6, 0x3EFF_FFFE]);
    let m = (r * p).mul_add(r, r);
    let two_j = mufu::ex2(j);
    let v = m.mul_add(two_j, two_j - 1.0);
    let v = if top { v + v } else { v };
    let v = if j > 128.0 { f32::INFINITY } else { v };
    let v = if j < -25.0 { -1.0 } else { v };
    if x == 0.0 { x + x } else { v }
}

/// log2(|x|) as the pair `hi + lo` (`powf`'s logarithm): m in [sqrt(1/2), sqrt(2)), q = 2(m - 1)/(m + 1)
/// through `MUFU.RCP`, an odd polynomial in q with the quotient's rounding error carried along.
fn log2_pair(x: f32) -> (f32, f32) {
    let ax = x.abs();
    let tiny = ax < f32::MIN_POSITIVE;
    let ax = if tiny { ax * 16_777_216.0 } else { ax };
    let bits = ax.to_bits();
    let t = bits.wrapping_sub(0x3F35_04F3) & 0xFF80_0000;
    let m = f32::from_bits(bits.wrapping_sub(t));
    let e = (t as i32 as f32).mul_add(c(0x3400_0000), if tiny { -24.0 } else { 0.0 });
    let (a, b) = (m - 1.0, m + 1.0);
    let rc = mufu::rcp_ftz(b);
    let q = (a + a) * rc;
    let q2 = q * q;
    let d = a - q;
    let lo = rc * (-q).mul_add(a, d + d);
    let p = c(0x3A2C_32E4).mul_add(q2, c(0x3B52_E7DB));
    let p = p.mul_add(q2, c(0x3C93_BB73));
    let p = p.mul_add(q2, c(0x3DF6_384F)) * q2;
    let log2e = c(0x3FB8_AA3B);
    let hi = q.mul_add(log2e, e);
    let s = q.mul_add(log2e, e - hi);
    let s = lo.mul_add(log2e, s);
    let s = q.mul_add(c(0x32A5_5E34), s);
    let s = (p * 3.0).mul_add(lo, s);
    let s = p.mul_add(q, s);
    let sum = hi + s;
    (sum, s - (sum - hi))
}

/// `powf(x, y)`: 2^(y * log2|x|) with the product kept as a pair, its integer part as an exponent and a
/// polynomial for the rest; then C's special cases. `MUFU.RCP` in the logarithm is the only approximation.
pub fn pow(x: f32, y: f32) -> f32 {
    let (hi, lo) = log2_pair(x);
    let ph = hi * y;
    let pl = lo.mul_add(y, hi.mul_add(y, -ph));
    let n = ph.round_ties_even();
    let f = pl + (ph - n);
    let p = horner(f, &[0x391F_CB8E, 0x3AAF_85ED, 0x3C1D_9856, 0x3D63_57BB, 0x3E75_FDEC, 0x3F31_7218]);
    let p = p.mul_add(f, 1.0);
    // 2^n in two factors, so that 2^n below the normal range or near the top scales correctly.
    let bias: u32 = if n > 0.0 { 0 } else { 0x8300_0000 };
    let first = f32::from_bits(bias.wrapping_add(0x7F00_0000));
    let second = f32::from_bits(((n as i32 as u32) << 23).wrapping_sub(bias));
    let v = p * first * second;
    let v = if ph.abs() > 152.0 { if ph < 0.0 { 0.0 } else { f32::INFINITY } } else { v };
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let odd = (y - 2.0 * (y * 0.5).trunc()).abs() == 1.0;
    if x == 0.0 || x.is_infinite() {
        let b = (x + x).to_bits();
        let b = if y < 0.0 { b ^ 0x7F80_0000 } else { b };
        return f32::from_bits(if odd { b } else { b & 0x7FFF_FFFF });
    }
    if x == -1.0 && y.is_infinite() {
        return 1.0;
    }
    if x >= 0.0 {
        return v;
    }
    if y.floor() != y {
        f32::NAN
    } else if odd {
        -v
    } else {
        v
    }
}

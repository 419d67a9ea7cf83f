//! `erff`, `erfcf`, `tanhf`, `sinhf`, `coshf`, `asinhf`, `acoshf`, `atanhf`. Near zero `erff`, `tanhf` and
//! `sinhf` are odd polynomials (bit-exact); away from it they, `erfcf` and `coshf` go through `MUFU.EX2` and
//! `MUFU.RCP`, and the inverse functions through `MUFU.RSQ`/`MUFU.RCP` before `log1pf`'s arithmetic.

use super::log::log1p;
use super::{c, horner, mufu};

/// `erff(x)`: bit-exact below |x| = 1.0029 (x + x * p(x^2)); above, 1 - `EX2(p(|x|))`.
pub fn erf(x: f32) -> f32 {
    let ax = x.abs();
    let big = ax >= c(0x3F80_60FE);
    let t = if big { ax } else { x * x };
    const K: [(u32, u32); 7] = [
        (0x38EB_4C3A, 0x38B1_E96A),
        (0xBAAE_005B, 0xBA57_4D20),
        (0x3C09_919F, 0x3BAA_D5EA),
        (0xBD24_D99A, 0xBCDC_1BE7),
        (0x3E23_5519, 0x3DE7_18AF),
        (0x3F69_B4F9, 0xBEC0_93AC),
        (0x3F21_0A14, 0x3E03_75D3),
    ];
    let p = horner(t, &K.map(|(above, below)| if big { above } else { below }));
    let z = if big { -ax } else { x };
    let v = p.mul_add(z, z);
    if big { (1.0 - mufu::ex2_ftz(v)).copysign(x) } else { v }
}

/// e^v as `erfcf`, `sinhf` and `coshf` compute it: the exponent t = trunc(v log2 e) (clamped to 126), `EX2`
/// of the rest (v - t ln 2 in two FFMAs), times 2^t scaled by `bias` (12,583,039 for 2^t; 2 less for a
/// quarter of it).
fn exp_split(v: f32, bias: f32) -> f32 {
    let t = (v * c(0x3FB8_AA3B)).trunc();
    let t = if t.abs() > 126.0 { 126f32.copysign(t) } else { t };
    let r = t.mul_add(c(0x3102_E308), t.mul_add(c(0xBF31_7218), v));
    let scale = f32::from_bits((t + bias).to_bits() << 23);
    mufu::ex2_ftz(r * c(0x3FB8_AA3B)) * scale
}

/// e^-(a^2) for `erfcf`, the rounding error of a^2 folded in.
fn exp_neg_square(a: f32) -> f32 {
    let sq = a * a;
    let e = exp_split(-sq, 12_583_039.0);
    e.mul_add((-a).mul_add(a, sq), e)
}

/// `erfcf(x)`: a polynomial in (|x| - 4)/(|x| + 4) over 1 + 2|x|, times e^-(x^2); 2 minus it for negative
/// x. Its two reciprocals are `MUFU.RCP` and its exponential `MUFU.EX2`.
pub fn erfc(x: f32) -> f32 {
    let a = x.abs();
    let rc = mufu::rcp_ftz(a + 4.0);
    let q = (a - 4.0) * rc;
    let q = rc.mul_add((-q).mul_add(a, (-4.0f32).mul_add(q + 1.0, a)), q);
    let p = horner(
        q,
        &[
            0x3A69_A091,
            0x3BE6_E05B,
            0xBC81_FB4B,
            0x3D15_373B,
            0xBD88_7C5A,
            0x3DC0_21D5,
            0xBDCE_D424,
            0x3D8B_74DE,
            0x3C7B_F170,
            0xBE0E_F8D4,
            0x3F9D_D2C9,
        ],
    );
    let rd = mufu::rcp_ftz(2f32.mul_add(a, 1.0));
    let d = p * rd;
    let d = (a.mul_add(d * -2.0, p) - d).mul_add(rd, d);
    let v = d * exp_neg_square(a);
    let v = if a > c(0x4120_E148) { 0.0 } else { v };
    if x < 0.0 { 2.0 - v } else { v }
}

/// `tanhf(x)`: x + x^3 p(x^2) below |x| = 0.6 (bit-exact); 1 - 2 / (`EX2(2|x| log2 e)` + 1) through
/// `MUFU.RCP` above (1 from 9.01).
pub fn tanh(x: f32) -> f32 {
    let ax = x.abs();
    if ax >= c(0x3F19_999A) {
        let e = mufu::ex2_ftz(ax * c(0x4038_AA3B));
        let v = mufu::rcp_ftz(e + 1.0).mul_add(-2.0, 1.0);
        let v = if ax >= c(0x4110_2CB4) { 1.0 } else { v };
        return v.copysign(x);
    }
    let s = x * x;
    let p = horner(s, &[0x3C80_F082, 0xBD56_3CAE, 0x3E08_5941, 0xBEAA_A9ED]);
    p.mul_add(s, 0.0).mul_add(x, x)
}

/// e^|x| / 4 for `sinhf` and `coshf` (the quarter keeps e^|x| finite up to the top of the range).
fn exp_quarter(ax: f32) -> f32 {
    exp_split(ax, 12_583_037.0)
}

/// `sinhf(x)`: x + x^3 p(x^2) below |x| = 1 (bit-exact); (e^|x| - e^-|x|) / 2 above, by `MUFU.EX2` and
/// `MUFU.RCP`.
pub fn sinh(x: f32) -> f32 {
    let ax = x.abs();
    if ax >= 1.0 {
        let q = exp_quarter(ax);
        return 2f32.mul_add(q, mufu::div_ftz(-0.125, q)).copysign(x);
    }
    let s = x * x;
    let p = horner(s, &[0x363D_0ADA, 0x394F_FF49, 0x3C08_889A, 0x3E2A_AAAB]);
    (s * p).mul_add(x, x)
}

/// `coshf(x)`: (e^|x| + e^-|x|) / 2 by `MUFU.EX2` and `MUFU.RCP`.
pub fn cosh(x: f32) -> f32 {
    let q = exp_quarter(x.abs());
    2f32.mul_add(q, mufu::div_ftz(0.125, q))
}

/// `asinhf(x)`: log1p(|x| + x^2 / (sqrt(x^2 + 1) + 1)) by `MUFU.RSQ` and `MUFU.RCP`; ln 2 + log1p(|x|)
/// above 2^23.
pub fn asinh(x: f32) -> f32 {
    let ax = x.abs();
    let sq = x.mul_add(x, 1.0);
    let d = mufu::rcp_ftz(sq.mul_add(mufu::rsqrt_ftz(sq), 1.0));
    let big = ax > 8_388_608.0;
    let v = log1p(if big { ax } else { ax.mul_add(ax * d, ax) });
    let v = if big { v + c(0x3F31_7218) } else { v };
    if ax.is_nan() { v } else { v.copysign(x) }
}

/// `acoshf(x)`: log1p(x - 1 + sqrt(x^2 - 1)) with the root by `MUFU.RSQ` and a Newton step; ln 2 +
/// log1p(x - 2) above 2^23 + 1 (and below 1, where it is NaN).
pub fn acosh(x: f32) -> f32 {
    let m = x - 1.0;
    let big = m.to_bits() > 0x4B00_0000;
    let sq = x.mul_add(x, -1.0);
    let rs = mufu::rsqrt_ftz(sq);
    let (a, h) = (sq * rs, rs * 0.5);
    let root = (-a).mul_add(a, sq).mul_add(h, a);
    let root = if sq == 0.0 { 0.0 } else { root };
    let v = log1p(m + if big { c(0xBF80_0001) } else { root });
    if big { v + c(0x3F31_7218) } else { v }
}

/// `atanhf(x)`: log1p(2|x| / (1 - |x|)) / 2, the quotient through `MUFU.RCP`.
pub fn atanh(x: f32) -> f32 {
    let ax = x.abs();
    let r = mufu::rcp_ftz(1.0 - ax);
    let t = if ax > c(0x7E80_0000) { -2.0 } else { ax * (r + r) };
    0.5f32.copysign(x) * log1p(t)
}

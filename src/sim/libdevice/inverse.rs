//! `atanf`, `atan2f`, `asinf`, `acosf` (odd polynomials after a reduction to [0, 1] or [0, 0.56]) and
//! `hypotf`. `atan2f` divides with IEEE division and `hypotf` takes an IEEE square root, so both are
//! bit-exact; `atanf` above 1 reduces by `MUFU.RCP`, `asinf` and `acosf` above 0.56 by `MUFU.RSQ` (with a
//! Newton step): there they can be an ulp off the GPU.

use super::{c, horner, mufu};

/// pi/2 as the product the GPU's FFMAs add to (0x3FD774EB * 0x3F6EE581, rounded once with the addend).
const PI_2: (u32, u32) = (0x3F6E_E581, 0x3FD7_74EB);

/// `a * b + v`, the way the library adds pi/2 (or pi: `PI_2`'s first factor doubled).
fn plus(k: (u32, u32), v: f32) -> f32 {
    c(k.0).mul_add(c(k.1), v)
}

/// atan(t) for t in [0, 1] by `atanf`'s polynomial.
fn atan_poly(t: f32) -> f32 {
    let s = t * t;
    let p = horner(
        s,
        &[0x3B20_90AA, 0xBC6B_E14F, 0x3D23_397E, 0xBD94_8A7A, 0x3DD7_6B21, 0xBE11_1E88, 0x3E4C_AF60, 0xBEAA_AA27],
    );
    (s * p).mul_add(t, t)
}

/// `atanf(x)`: bit-exact for |x| <= 1; above, pi/2 - atan(`RCP(|x|)`).
pub fn atan(x: f32) -> f32 {
    let ax = x.abs();
    let big = ax > 1.0;
    let v = atan_poly(if big { mufu::rcp_ftz(ax) } else { ax });
    let v = if big { plus(PI_2, -v) } else { v };
    if ax.is_nan() { v } else { v.copysign(x) }
}

/// `atan2f(y, x)`: the smaller magnitude over the larger by IEEE division, a polynomial, then the octant.
/// Bit-exact.
pub fn atan2(y: f32, x: f32) -> f32 {
    let (ax, ay) = (x.abs(), y.abs());
    let steep = ay > ax;
    let (hi, lo) = if steep { (ay, ax) } else { (ax, ay) };
    let q = lo / hi;
    let s = q * q;
    let p = horner(
        s,
        &[0x3B33_710B, 0xBC80_7748, 0x3D2C_DAB2, 0xBD99_2D10, 0x3DD9_EA6C, 0xBE11_7CB1, 0x3E4C_BCE0, 0xBEAA_AA7D],
    );
    let v = (s * p).mul_add(q, q);
    let negative = (x.to_bits() as i32) < 0;
    let v = match (steep, negative) {
        (true, true) => plus(PI_2, v),
        (true, false) => plus(PI_2, -v),
        (false, true) => plus((0x3FEE_E581, PI_2.1), -v),
        (false, false) => v,
    };
    let v = if ax == ay { if negative { c(0x4016_CBE4) } else { c(0x3F49_0FDB) } } else { v };
    let v = if hi == 0.0 { if negative { c(0x4049_0FDB) } else { 0.0 } } else { v };
    let sum = ax + ay;
    if sum.is_nan() { sum } else { v.copysign(y) }
}

/// sqrt((1 - |x|) / 2) as the library computes it: `MUFU.RSQ` and one Newton step (0 at |x| = 1).
fn half_versine_root(ax: f32) -> f32 {
    let h = 0.5f32.mul_add(-ax, 0.5);
    let rs = mufu::rsqrt_ftz(h);
    let (a, b) = (h * rs, rs * 0.5);
    let root = a.mul_add((-a).mul_add(b, 0.5), a);
    if ax == 1.0 { 0.0 } else { root }
}

/// `asinf(x)`: a polynomial up to |x| = 0.56 (bit-exact there), pi/2 - 2 asin(sqrt((1 - |x|)/2)) above.
pub fn asin(x: f32) -> f32 {
    let ax = x.abs();
    let big = ax > c(0x3F0F_5C29);
    let t = if big { half_versine_root(ax) } else { ax };
    let s = t * t;
    let p = horner(s, &[0x3D4D_D2F7, 0x3C99_CA97, 0x3D3F_90E8, 0x3D99_3CCF, 0x3E2A_AC04]);
    let v = (s * p).mul_add(t, t);
    let v = if big { plus(PI_2, v * -2.0) } else { v };
    if v.is_nan() { v } else { v.copysign(x) }
}

/// `acosf(x)`: pi/2 - asin(x) up to |x| = 0.56 (bit-exact there); 2 asin(sqrt((1 - |x|)/2)) above (pi
/// minus it for negative x).
pub fn acos(x: f32) -> f32 {
    let ax = x.abs();
    let big = ax > c(0x3F0F_5C29);
    let t = if big { half_versine_root(ax) } else { ax }.copysign(x);
    let s = t * t;
    let p = horner(s, &[0x3D10_ECEF, 0x3C8B_1ABB, 0x3CFC_028C, 0x3D37_2139, 0x3D99_93DB, 0x3E2A_AAC6]);
    let v = (s * p).mul_add(t, t);
    let w = plus(PI_2, if big { v } else { -v });
    let v = if x > c(0x3F0F_5C29) { v } else { w };
    if big { v + v } else { v }
}

/// `hypotf(x, y)`: both scaled by a power of two from the larger one's exponent, the IEEE square root of
/// the sum of squares, scaled back. Bit-exact.
pub fn hypot(x: f32, y: f32) -> f32 {
    let (a, b) = (x.abs().to_bits() as i32, y.abs().to_bits() as i32);
    let (small, large) = (f32::from_bits(a.min(b) as u32), f32::from_bits(a.max(b) as u32));
    let e = large.to_bits() & 0xFE00_0000;
    let scale = f32::from_bits(0x7E80_0000 - e);
    let (s, l) = (small * scale, large * scale);
    let r = l.mul_add(l, s * s).sqrt() * f32::from_bits(e | 0x0080_0000);
    let r = if small == 0.0 { large } else { r };
    if small == f32::INFINITY { f32::INFINITY } else { r }
}

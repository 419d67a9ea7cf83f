//! `sinf`, `cosf`, `tanf`: a reduction by pi/2 (three FFMAs with pi/2 split in three below 105615, a 192-bit
//! product with 2/pi's bits above), then a polynomial in the remainder chosen by the quadrant.

use super::{c, horner, mufu};

/// 2/pi's first 192 bits, least significant word first (the GPU's table for the reduction of large
/// arguments).
const TWO_OVER_PI: [u32; 6] = [0x3C43_9041, 0xDB62_9599, 0xF534_DDC0, 0xFC27_57D1, 0x4E44_1529, 0xA2F9_836E];

/// `x` reduced by pi/2: the remainder `r` in [-pi/4, pi/4] and the quadrant `q` (`x = q * pi/2 + r`).
fn reduce(x: f32) -> (f32, i32) {
    // Below 105615 the quadrant fits and pi/2 in three pieces (24 + 24 + 24 bits) is exact enough.
    let q = (x * c(0x3F22_F983)).round_ties_even() as i32;
    let qf = q as f32;
    let r = qf.mul_add(c(0xBFC9_0FDA), x);
    let r = qf.mul_add(c(0xB3A2_2168), r);
    let r = qf.mul_add(c(0xA7C2_34C5), r);
    if x.abs() < 105615.0 || x.is_nan() {
        return (r, q);
    }
    if x.abs() == f32::INFINITY {
        return (x * 0.0, 0);
    }
    payne_hanek(x)
}

/// Payne and Hanek's reduction as the GPU does it: the mantissa times 2/pi's bits, 64 bits of the fraction
/// kept and converted through a double.
fn payne_hanek(x: f32) -> (f32, i32) {
    let bits = x.to_bits();
    let e = ((bits >> 23) & 255) as i32 - 128;
    let m = (bits << 8) | 0x8000_0000;
    let word = (e as u32 >> 5) as usize;
    let mut p = [0u32; 7];
    let mut carry = 0u64;
    for (i, t) in TWO_OVER_PI.iter().enumerate() {
        let v = *t as u64 * m as u64 + carry;
        p[i] = v as u32;
        carry = v >> 32;
    }
    p[6] = carry as u32;
    let (mut hi, mut lo) = (p[6 - word], p[5 - word]);
    let shift = (e & 31) as u32;
    if shift != 0 {
        hi = (lo >> (32 - shift)).wrapping_add(hi << shift);
        lo = (p[4 - word] >> (32 - shift)).wrapping_add(lo << shift);
    }
    let sign = bits & 0x8000_0000;
    let frac = (lo >> 30) | (hi << 2);
    let up = frac >> 31; // the fraction is past one half: round the quadrant up, the remainder negative
    let turns = up.wrapping_add(hi >> 30) as i32;
    let q = if sign == 0 { turns } else { turns.wrapping_neg() };
    let neg = if up != 0 { sign ^ 0x8000_0000 } else { sign };
    let mask = if up != 0 { u32::MAX } else { 0 };
    let fixed = (((frac ^ mask) as u64) << 32 | ((lo << 2) ^ mask) as u64) as i64;
    let r = (fixed as f64 * f64::from_bits(0x3BF9_21FB_5444_2D19)) as f32;
    (if neg == 0 { r } else { -r }, q)
}

/// The sine (`q` even) or cosine (`q` odd) polynomial of `r`, negated in the quadrants that want it.
fn sin_poly(r: f32, q: i32) -> f32 {
    let odd = q & 1 != 0;
    let s = r * r;
    let p = if odd { c(0x37CB_AC00).mul_add(s, c(0xBAB6_07ED)) } else { c(0xB94D_4153) };
    let p = p.mul_add(s, if odd { c(0x3D2A_AABB) } else { c(0x3C08_85E4) });
    let p = p.mul_add(s, if odd { c(0xBEFF_FFFF) } else { c(0xBE2A_AAA8) });
    let base = if odd { 1.0 } else { r };
    let t = s.mul_add(base, 0.0);
    let v = p.mul_add(t, base);
    // FFMA v, -1, 0: a zero stays positive.
    if q & 2 != 0 { v.mul_add(-1.0, 0.0) } else { v }
}

/// `sinf(x)`: bit-exact.
pub fn sin(x: f32) -> f32 {
    let (r, q) = reduce(x);
    sin_poly(r, q)
}

/// `cosf(x)`: bit-exact.
pub fn cos(x: f32) -> f32 {
    let (r, q) = reduce(x);
    sin_poly(r, q.wrapping_add(1))
}

/// `tanf(x)`: a polynomial in the remainder, bit-exact in the quadrants around multiples of pi; in the
/// others the GPU takes `MUFU.RCP` of its negation, taken here as correctly rounded.
pub fn tan(x: f32) -> f32 {
    let (r, q) = reduce(x);
    let s = r * r;
    let p = horner(s, &[0x3C19_0000, 0x3B56_0000, 0x3CC7_0000, 0x3D5B_0000, 0x3E08_9438, 0x3EAA_AA88]);
    let t = if r.abs() == c(0x3A00_B43C) { r } else { p.mul_add(s * r, r) };
    if q & 1 != 0 { mufu::rcp_ftz(-t) } else { t }
}

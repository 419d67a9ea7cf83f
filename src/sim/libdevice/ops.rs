//! What the functions share: the special function unit's instructions, a rounding-toward-zero add, Horner's
//! rule, and constants given as bits.

/// The special function unit's instructions, taken as correctly rounded (their own last-bit error is not
/// modelled). `.ftz` forms flush a subnormal operand and result to zero, as the hardware does.
pub mod mufu {
    fn flush(v: f32) -> f32 {
        if v.is_subnormal() { 0.0f32.copysign(v) } else { v }
    }

    /// `MUFU.EX2` (`ex2.approx.ftz.f32`): 2^p.
    pub fn ex2_ftz(p: f32) -> f32 {
        flush((flush(p) as f64).exp2() as f32)
    }

    /// `ex2.approx.f32` as nvcc compiles it: below 2^-126, the square of `EX2` of half the power.
    pub fn ex2(p: f32) -> f32 {
        if p < -126.0 {
            let h = ex2_ftz(p * 0.5);
            h * h
        } else {
            ex2_ftz(p)
        }
    }

    /// `MUFU.RCP` (`rcp.approx.ftz.f32`): 1 / x.
    pub fn rcp_ftz(x: f32) -> f32 {
        flush(1.0 / flush(x))
    }

    /// `MUFU.RSQ` (`rsqrt.approx.ftz.f32`): 1 / sqrt(x).
    pub fn rsqrt_ftz(x: f32) -> f32 {
        flush((1.0 / (flush(x) as f64).sqrt()) as f32)
    }

    /// `div.approx.ftz.f32`: `a * RCP(b)`, as the hardware computes it.
    pub fn div_ftz(a: f32, b: f32) -> f32 {
        flush(flush(a) * rcp_ftz(b))
    }
}

/// `a + b` rounded toward zero (`FADD.RZ`).
pub fn add_rz(a: f32, b: f32) -> f32 {
    let s = a + b;
    if !s.is_finite() {
        return if a.is_finite() && b.is_finite() { f32::MAX.copysign(s) } else { s };
    }
    // Knuth's two-sum: `err` is exactly (a + b) - s.
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    if err != 0.0 && (err < 0.0) != (s < 0.0) { toward_zero(s) } else { s }
}

/// The float next to `v` toward zero (`v` finite and not zero).
fn toward_zero(v: f32) -> f32 {
    f32::from_bits(v.to_bits() - 1)
}

/// The polynomial whose coefficients are `k` (as bits, the highest degree first) at `x`, by Horner's rule
/// one FFMA a step, as the GPU evaluates it.
pub fn horner(x: f32, k: &[u32]) -> f32 {
    k[1..].iter().fold(c(k[0]), |p, &k| p.mul_add(x, c(k)))
}

/// The constant of these bits (the SASS and PTX give constants as bits).
pub const fn c(bits: u32) -> f32 {
    f32::from_bits(bits)
}

//! CUDA's fast-math intrinsics (`__expf`, `__logf`, `__powf`, `__sinf`, ...) as the GPU computes them: the
//! multiplications nvcc puts around the special function unit's instructions (read from an H200's SASS:
//! `__expf(x)` is `MUFU.EX2(x * 1.442695f)`, `__logf(x)` is `MUFU.LG2(x) * 0.6931472f`, `__sinf(x)` is
//! `MUFU.SIN(x * 0.15915494f rounded toward zero)`, `__powf(x, y)` is `MUFU.EX2(y * MUFU.LG2(x))`, a result
//! below the smallest normal computed as the square of `EX2` of half the exponent), with the unit's own
//! approximations taken as correctly rounded. Measured against 2,048 H200 results (`tests/conformance/
//! fast_math/`, the tests below; the 65,536 they were taken from agree alike): `__expf` and `__exp10f` within
//! 2 ulp of the GPU everywhere (within 1 in 97 %), where a correctly rounded `expf` was 10 ulp or more off in
//! 12 %; `__sinf`/`__cosf` within the unit's absolute error (3.3e-7), which
//! is many ulp near their zeros, as on the GPU. What is left is the unit's own error: `MUFU.EX2` is 1 ulp
//! off a correctly rounded `exp2f` in 30 % of inputs, `MUFU.LG2` more near 1 (an absolute error), which
//! `__powf` magnifies.

use super::libdevice::mufu;

/// `MUFU.LG2` of `x`: nvcc scales a subnormal operand up first, so it is read whole.
fn lg2(x: f32) -> f32 {
    (x as f64).log2() as f32
}

/// `x * (1 / 2pi)` rounded toward zero (`FMUL.RZ`), the operand of `MUFU.SIN` and `MUFU.COS` in turns.
fn turns(x: f32) -> f32 {
    let exact = x as f64 * (std::f32::consts::FRAC_1_PI * 0.5) as f64;
    let r = exact as f32;
    if (r as f64).abs() > exact.abs() { f32::from_bits(r.to_bits() - 1) } else { r }
}

/// `__expf(x)`.
pub fn exp(x: f32) -> f32 {
    mufu::ex2(x * std::f32::consts::LOG2_E)
}

/// `__exp10f(x)`.
pub fn exp10(x: f32) -> f32 {
    mufu::ex2(x * std::f32::consts::LOG2_10)
}

/// `__log2f(x)`.
pub fn log2(x: f32) -> f32 {
    lg2(x)
}

/// `__logf(x)`.
pub fn log(x: f32) -> f32 {
    lg2(x) * std::f32::consts::LN_2
}

/// `__log10f(x)`.
pub fn log10(x: f32) -> f32 {
    lg2(x) * std::f32::consts::LOG10_2
}

/// `__powf(x, y)`.
pub fn pow(x: f32, y: f32) -> f32 {
    mufu::ex2(lg2(x) * y)
}

/// `__sinf(x)`.
pub fn sin(x: f32) -> f32 {
    (std::f64::consts::TAU * turns(x) as f64).sin() as f32
}

/// `__cosf(x)`.
pub fn cos(x: f32) -> f32 {
    (std::f64::consts::TAU * turns(x) as f64).cos() as f32
}

/// `__tanf(x)`: `__sinf(x) / __cosf(x)` as nvcc divides, both scaled by 2^24 around `MUFU.RCP`.
pub fn tan(x: f32) -> f32 {
    const SCALE: f32 = 16_777_216.0;
    (sin(x) * SCALE) * (1.0 / (cos(x) * SCALE))
}

#[cfg(test)]
mod tests {
    /// An H200's results (`tests/conformance/fast_math/h200.txt`): x, y, then the nine intrinsics' results.
    const H200: &str = include_str!("../../tests/conformance/fast_math/h200.txt");

    fn rows() -> Vec<Vec<f32>> {
        H200.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split(' ').map(|w| f32::from_bits(u32::from_str_radix(w, 16).unwrap_or(0))).collect())
            .collect()
    }

    /// The distance in units in the last place (0 for two NaNs, large for a NaN against a number).
    fn ulps(a: f32, b: f32) -> u32 {
        if a.is_nan() || b.is_nan() {
            return if a.is_nan() && b.is_nan() { 0 } else { u32::MAX };
        }
        let key = |v: f32| {
            let i = v.to_bits() as i64;
            if i < 0x8000_0000 { i } else { 0x8000_0000 - i }
        };
        (key(a) - key(b)).unsigned_abs() as u32
    }

    /// For each intrinsic: how many of the GPU's results warpdbg's equals, how many are within 1 and within
    /// 2 ulp, and the largest absolute difference.
    fn agreement(f: impl Fn(f32, f32) -> f32, column: usize) -> (usize, usize, usize, f64) {
        let (mut same, mut one, mut two, mut worst) = (0, 0, 0, 0f64);
        for r in rows() {
            let (ours, gpu) = (f(r[0], r[1]), r[column]);
            let u = ulps(ours, gpu);
            same += (u == 0) as usize;
            one += (u <= 1) as usize;
            two += (u <= 2) as usize;
            if ours.is_finite() && gpu.is_finite() {
                worst = worst.max((ours as f64 - gpu as f64).abs());
            }
        }
        (same, one, two, worst)
    }

    type Fast = fn(f32, f32) -> f32;
    /// (results equal, within 1 ulp, within 2 ulp).
    type Counts = (usize, usize, usize);

    /// Each intrinsic against the H200: (results equal, within 1 ulp, within 2 ulp) of 2,048, and the largest
    /// absolute difference, as measured on this model. The exponentials agree within 2 ulp everywhere; the
    /// logarithms and sine and cosine within the unit's absolute error (which is many ulp near their zeros,
    /// as on the GPU); `__powf` and `__tanf` magnify the unit's own error, which the model does not copy.
    #[test]
    fn the_intrinsics_are_as_close_to_the_gpu_as_measured() {
        use super::*;
        let cases: [(Fast, usize, Counts, f64); 9] = [
            (|x, _| exp(x), 2, (1497, 2043, 2048), 2.1e31),
            (|x, _| exp10(x), 3, (1618, 2043, 2048), 1.1e31),
            (|x, _| log(x.abs()), 4, (1334, 1879, 2027), 2e-6),
            (|x, _| log2(x.abs()), 5, (1197, 2003, 2026), 2e-6),
            (|x, _| log10(x.abs()), 6, (1233, 1857, 2022), 1e-6),
            (|x, y| pow(x.abs(), y), 7, (732, 1467, 1513), 2.1e19),
            (|x, _| sin(x), 8, (376, 918, 1170), 3.3e-7),
            (|x, _| cos(x), 9, (525, 1209, 1480), 3.3e-7),
            (|x, _| tan(x), 10, (146, 423, 695), 0.27),
        ];
        for (f, column, counts, bound) in cases {
            let (same, one, two, worst) = agreement(f, column);
            assert_eq!((same, one, two), counts, "column {column}");
            assert!(worst <= bound, "column {column}: {worst}");
        }
    }

    /// The model is the point: correctly rounded `expf`, `sinf` and `powf` (what warpdbg computed before) are
    /// farther from the GPU's intrinsics.
    #[test]
    fn correctly_rounded_functions_are_farther_from_the_gpu() {
        use super::*;
        let pairs: [(Fast, Fast, usize); 3] = [
            (|x, _| exp(x), |x, _| x.exp(), 2),
            (|x, _| sin(x), |x, _| x.sin(), 8),
            (|x, y| pow(x.abs(), y), |x, y| x.abs().powf(y), 7),
        ];
        for (model, rounded, column) in pairs {
            let (m, r) = (agreement(model, column), agreement(rounded, column));
            assert!(m.0 > r.0 && m.2 > r.2, "column {column}: model {m:?}, correctly rounded {r:?}");
        }
    }
}

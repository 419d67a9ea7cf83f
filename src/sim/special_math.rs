//! `<cmath>`'s functions Rust's standard library does not have (`erf`, `tgamma`, `lgamma`, `fdim`,
//! `remainder`, the inverse hyperbolic ones), for both precisions. Natively they are the C library's own
//! (glibc's on Linux, which host code's answers must equal: a student compares against the binary g++ builds);
//! in the page's WebAssembly, where there is no C library, the `libm` crate's (musl's algorithms, which may
//! differ from glibc's in the last bit for `tgamma`).

/// The functions on one floating-point type.
pub trait Special: Copy {
    fn erf(self) -> Self;
    fn erfc(self) -> Self;
    fn tgamma(self) -> Self;
    fn lgamma(self) -> Self;
    fn asinh(self) -> Self;
    fn acosh(self) -> Self;
    fn atanh(self) -> Self;
    fn fdim(self, y: Self) -> Self;
    fn remainder(self, y: Self) -> Self;
}

#[cfg(not(target_arch = "wasm32"))]
mod c {
    unsafe extern "C" {
        pub fn erf(x: f64) -> f64;
        pub fn erff(x: f32) -> f32;
        pub fn erfc(x: f64) -> f64;
        pub fn erfcf(x: f32) -> f32;
        pub fn tgamma(x: f64) -> f64;
        pub fn tgammaf(x: f32) -> f32;
        pub fn lgamma(x: f64) -> f64;
        pub fn lgammaf(x: f32) -> f32;
        pub fn asinh(x: f64) -> f64;
        pub fn asinhf(x: f32) -> f32;
        pub fn acosh(x: f64) -> f64;
        pub fn acoshf(x: f32) -> f32;
        pub fn atanh(x: f64) -> f64;
        pub fn atanhf(x: f32) -> f32;
        pub fn fdim(x: f64, y: f64) -> f64;
        pub fn fdimf(x: f32, y: f32) -> f32;
        pub fn remainder(x: f64, y: f64) -> f64;
        pub fn remainderf(x: f32, y: f32) -> f32;
    }
}

#[cfg(target_arch = "wasm32")]
mod c {
    // The same names over the `libm` crate, so the impls below read alike on both targets; `unsafe` only to
    // match the C declarations' calls.
    macro_rules! over_libm {
        ($($f:ident($($a:ident: $t:ty),*) -> $r:ty;)*) => {
            $(pub unsafe fn $f($($a: $t),*) -> $r { libm::$f($($a),*) })*
        };
    }
    over_libm! {
        erf(x: f64) -> f64; erff(x: f32) -> f32; erfc(x: f64) -> f64; erfcf(x: f32) -> f32;
        tgamma(x: f64) -> f64; tgammaf(x: f32) -> f32; lgamma(x: f64) -> f64; lgammaf(x: f32) -> f32;
        asinh(x: f64) -> f64; asinhf(x: f32) -> f32; acosh(x: f64) -> f64; acoshf(x: f32) -> f32;
        atanh(x: f64) -> f64; atanhf(x: f32) -> f32; fdim(x: f64, y: f64) -> f64; fdimf(x: f32, y: f32) -> f32;
        remainder(x: f64, y: f64) -> f64; remainderf(x: f32, y: f32) -> f32;
    }
}

macro_rules! special {
    ($t:ty, $erf:ident, $erfc:ident, $tgamma:ident, $lgamma:ident, $asinh:ident, $acosh:ident, $atanh:ident,
     $fdim:ident, $rem:ident) => {
        // SAFETY: pure C math functions on plain numbers (lgamma writes the global `signgam`, which no code
        // here reads).
        impl Special for $t {
            fn erf(self) -> Self {
                unsafe { c::$erf(self) }
            }
            fn erfc(self) -> Self {
                unsafe { c::$erfc(self) }
            }
            fn tgamma(self) -> Self {
                unsafe { c::$tgamma(self) }
            }
            fn lgamma(self) -> Self {
                unsafe { c::$lgamma(self) }
            }
            fn asinh(self) -> Self {
                unsafe { c::$asinh(self) }
            }
            fn acosh(self) -> Self {
                unsafe { c::$acosh(self) }
            }
            fn atanh(self) -> Self {
                unsafe { c::$atanh(self) }
            }
            fn fdim(self, y: Self) -> Self {
                unsafe { c::$fdim(self, y) }
            }
            fn remainder(self, y: Self) -> Self {
                unsafe { c::$rem(self, y) }
            }
        }
    };
}

special!(f64, erf, erfc, tgamma, lgamma, asinh, acosh, atanh, fdim, remainder);
special!(f32, erff, erfcf, tgammaf, lgammaf, asinhf, acoshf, atanhf, fdimf, remainderf);

#[cfg(test)]
mod tests {
    use super::Special;

    /// Values glibc 2.36 computes (`printf("%.17g")` of the same calls on `volatile` operands, gcc 12: with
    /// constant operands gcc folds the call itself, correctly rounded, and `acosh(2.0)` would end in 8).
    #[test]
    #[allow(clippy::excessive_precision)] // glibc's digits as printed
    fn double_functions_are_glibcs() {
        assert_eq!(Special::erf(0.5f64), 0.52049987781304652);
        assert_eq!(Special::erfc(0.5f64), 0.47950012218695348);
        assert_eq!(Special::tgamma(5.0f64), 24.0);
        assert_eq!(Special::lgamma(0.5f64), 0.57236494292470008);
        assert_eq!(Special::asinh(1.0f64), 0.88137358701954305);
        assert_eq!(Special::acosh(2.0f64), 1.3169578969248166);
        assert_eq!(Special::fdim(3.0f64, 1.0), 2.0);
        assert_eq!(Special::remainder(5.5f64, 2.0), -0.5);
    }
}

//! A warp's 32 lane values turned into a lane mask in a few vector instructions: which lanes hold a value,
//! which lanes' registers are non-zero. The scheduler and the branch unit ask these on every issue; a loop
//! over lanes shifting one bit at a time does not vectorise (the compiler cannot see that a vector compare and
//! a sign-bit gather do the same), so x86-64 uses SSE2 (part of its baseline, always present), or AVX2 where
//! the CPU has it for the test the branch unit asks, WebAssembly its 128-bit SIMD where the module is built with
//! it (the playground page is), and other targets a plain loop. And the way back: a value written to the lanes
//! a mask names (`fill_where`, an ITS warp's PCs at a divergent branch).

/// Which build of the data path runs: the AVX2 one where the CPU can run it, unless the configuration asks
/// for the portable one (`sim::Tuning::portable`: the tests run both builds and compare). Only
/// [`DataPath::new`] makes one, so one that says AVX2 is the check the AVX2 build's `unsafe` calls rely on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataPath {
    avx2: bool,
}

impl DataPath {
    /// The AVX2 build where [`cpu_has_avx2`], unless `portable`.
    pub fn new(portable: bool) -> DataPath {
        DataPath { avx2: !portable && cpu_has_avx2() }
    }

    /// The AVX2 build runs (the CPU has AVX2). Only x86-64 builds have an AVX2 build to ask about.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub fn avx2(self) -> bool {
        self.avx2
    }
}

/// Whether the CPU can run the data path's AVX2 build: an x86-64 CPU with AVX2, BMI1/2, LZCNT and POPCNT.
/// Decided once per process.
pub fn cpu_has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static AVX2: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        // With the bit-manipulation and population-count instructions that come with it (Haswell,
        // Excavator and later): the AVX2 build is compiled for all of them.
        *AVX2.get_or_init(|| {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("popcnt")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Bit `l` set where `values[l] == x`.
#[inline]
pub fn eq_mask(values: &[u32; 32], x: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_ps, _mm_set1_epi32};
        let mut m = 0u32;
        // SAFETY: SSE2 is in every x86-64 CPU; each unaligned load reads 4 of the 32 values, in bounds.
        unsafe {
            let k = _mm_set1_epi32(x as i32);
            for i in 0..8 {
                let v = _mm_loadu_si128(values.as_ptr().add(4 * i).cast());
                let eq = _mm_castsi128_ps(_mm_cmpeq_epi32(v, k));
                m |= (_mm_movemask_ps(eq) as u32) << (4 * i);
            }
        }
        m
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        eq_mask_simd128(values, x)
    }
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    {
        eq_mask_plain(values, x)
    }
}

/// Bit `l` set where `values[l] != 0`: four lanes per compare in the AVX2 build of the data path, two with
/// SSE2.
#[inline]
pub fn nonzero_mask(values: &[u64; 32], path: DataPath) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if path.avx2() {
            // SAFETY: the CPU has AVX2 (a `DataPath` says so only then).
            return unsafe { nonzero_mask_avx2(values) };
        }
        nonzero_mask_sse2(values)
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        let _ = path;
        nonzero_mask_simd128(values)
    }
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    {
        let _ = path;
        nonzero_mask_plain(values)
    }
}

/// [`eq_mask`] with WebAssembly's 128-bit SIMD (the playground page is built with it): four lanes per
/// compare, as SSE2. (LLVM does not turn [`eq_mask_plain`]'s fold into `i32x4.bitmask`; the ITS scheduler asks
/// this at every group choice, and the plain loop was a tenth of the page's `c`: benches/playground.md.)
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
pub fn eq_mask_simd128(values: &[u32; 32], x: u32) -> u32 {
    use core::arch::wasm32::{i32x4_bitmask, i32x4_eq, u32x4, u32x4_splat};
    let k = u32x4_splat(x);
    let mut m = 0u32;
    for (i, v) in values.chunks_exact(4).enumerate() {
        let v = u32x4(v[0], v[1], v[2], v[3]);
        m |= (i32x4_bitmask(i32x4_eq(v, k)) as u32) << (4 * i);
    }
    m
}

/// [`nonzero_mask`] with WebAssembly's 128-bit SIMD: two lanes per compare.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
pub fn nonzero_mask_simd128(values: &[u64; 32]) -> u32 {
    use core::arch::wasm32::{i64x2_bitmask, i64x2_eq, u64x2, u64x2_splat};
    let z = u64x2_splat(0);
    let mut zero = 0u32;
    for (i, v) in values.chunks_exact(2).enumerate() {
        zero |= (i64x2_bitmask(i64x2_eq(u64x2(v[0], v[1]), z)) as u32) << (2 * i);
    }
    !zero
}

/// [`nonzero_mask`] with SSE2 (x86-64's baseline): two lanes per compare.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn nonzero_mask_sse2(values: &[u64; 32]) -> u32 {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_castsi128_pd, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_pd, _mm_setzero_si128,
        _mm_shuffle_epi32,
    };
    let mut zero = 0u32;
    // SAFETY: SSE2 is in every x86-64 CPU; each unaligned load reads 2 of the 32 values, in bounds.
    unsafe {
        let z = _mm_setzero_si128();
        for i in 0..16 {
            let v = _mm_loadu_si128(values.as_ptr().add(2 * i).cast());
            // A 64-bit lane is zero when both its 32-bit halves are: swap the halves and AND.
            let halves = _mm_cmpeq_epi32(v, z);
            let both = _mm_and_si128(halves, _mm_shuffle_epi32::<0b10_11_00_01>(halves));
            zero |= (_mm_movemask_pd(_mm_castsi128_pd(both)) as u32) << (2 * i);
        }
    }
    !zero
}

/// Bit `l` (from 1) set where `values[l] - values[l - 1]` is neither 0 nor `step`: where a run of lanes that
/// each take the next `step`-byte element, or the same one, breaks (`sim::lane_runs`). Two lanes per compare
/// with SSE2; bit 0 is never set.
#[inline]
pub fn step_breaks(values: &[u64; 32], step: u64) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_castsi128_pd, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_pd, _mm_or_si128,
            _mm_set1_epi64x, _mm_setzero_si128, _mm_shuffle_epi32, _mm_sub_epi64,
        };
        let mut fine = 0u32;
        // SAFETY: SSE2 is in every x86-64 CPU; the unaligned loads read values `2i..2i + 3`, in bounds for
        // `i < 15` (lanes 31's difference is taken below).
        unsafe {
            let (z, s) = (_mm_setzero_si128(), _mm_set1_epi64x(step as i64));
            // A 64-bit lane equals when both its 32-bit halves do: swap the halves and AND.
            let eq64 = |a, b| {
                let halves = _mm_cmpeq_epi32(a, b);
                _mm_and_si128(halves, _mm_shuffle_epi32::<0b10_11_00_01>(halves))
            };
            for i in 0..15 {
                let lo = _mm_loadu_si128(values.as_ptr().add(2 * i).cast());
                let hi = _mm_loadu_si128(values.as_ptr().add(2 * i + 1).cast());
                let d = _mm_sub_epi64(hi, lo);
                let ok = _mm_or_si128(eq64(d, z), eq64(d, s));
                fine |= (_mm_movemask_pd(_mm_castsi128_pd(ok)) as u32) << (2 * i + 1);
            }
        }
        let d = values[31].wrapping_sub(values[30]);
        fine |= ((d == 0 || d == step) as u32) << 31;
        !fine & !1
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        step_breaks_plain(values, step)
    }
}

/// [`step_breaks`] lane by lane.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub fn step_breaks_plain(values: &[u64; 32], step: u64) -> u32 {
    let mut breaks = 0u32;
    for l in 1..32 {
        let d = values[l].wrapping_sub(values[l - 1]);
        breaks |= ((d != step && d != 0) as u32) << l;
    }
    breaks
}

/// [`nonzero_mask`] four lanes per compare.
///
/// # Safety
/// The CPU has AVX2 ([`cpu_has_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub unsafe fn nonzero_mask_avx2(values: &[u64; 32]) -> u32 {
    use std::arch::x86_64::{_mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_loadu_si256, _mm256_movemask_pd};
    let mut zero = 0u32;
    let z = std::arch::x86_64::_mm256_setzero_si256();
    for i in 0..8 {
        // SAFETY: each unaligned load reads 4 of the 32 values, in bounds.
        let v = unsafe { _mm256_loadu_si256(values.as_ptr().add(4 * i).cast()) };
        let eq = _mm256_cmpeq_epi64(v, z);
        zero |= (_mm256_movemask_pd(_mm256_castsi256_pd(eq)) as u32) << (4 * i);
    }
    !zero
}

/// Writes `x` to the lanes whose bit is set in `mask`, leaving the others: four lanes per select on x86-64
/// (SSE2: a compare of each lane's bit, then and/andnot/or), where iterating the mask's bits costs a handful
/// of instructions per lane (an ITS warp's divergent branch sets the PCs of both sides).
#[inline]
pub fn fill_where(values: &mut [u32; 32], mask: u32, x: u32) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_or_si128, _mm_set1_epi32,
            _mm_setr_epi32, _mm_storeu_si128,
        };
        // SAFETY: SSE2 is in every x86-64 CPU; each unaligned load and store covers 4 of the 32 values, in
        // bounds.
        unsafe {
            let k = _mm_set1_epi32(x as i32);
            let bits = _mm_setr_epi32(1, 2, 4, 8);
            for i in 0..8 {
                let nibble = _mm_set1_epi32(((mask >> (4 * i)) & 0xf) as i32);
                let sel = _mm_cmpeq_epi32(_mm_and_si128(nibble, bits), bits);
                let p = values.as_mut_ptr().add(4 * i).cast();
                let v = _mm_loadu_si128(p);
                _mm_storeu_si128(p, _mm_or_si128(_mm_and_si128(sel, k), _mm_andnot_si128(sel, v)));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    fill_where_plain(values, mask, x)
}

/// [`fill_where`] one lane at a time (the other targets' version, and the tests' reference).
#[cfg(any(test, not(target_arch = "x86_64")))]
pub fn fill_where_plain(values: &mut [u32; 32], mask: u32, x: u32) {
    for (l, v) in values.iter_mut().enumerate() {
        if mask >> l & 1 != 0 {
            *v = x;
        }
    }
}

/// [`eq_mask`] one lane at a time (the other targets' version, and the tests' reference).
#[cfg(any(test, not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))))]
pub fn eq_mask_plain(values: &[u32; 32], x: u32) -> u32 {
    values.iter().enumerate().fold(0, |m, (l, v)| m | ((*v == x) as u32) << l)
}

/// [`nonzero_mask`] one lane at a time.
#[cfg(any(test, not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))))]
pub fn nonzero_mask_plain(values: &[u64; 32]) -> u32 {
    values.iter().enumerate().fold(0, |m, (l, v)| m | ((*v != 0) as u32) << l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_agree_with_one_lane_at_a_time() {
        // Values that differ only in one half of a 64-bit lane, or in the sign bit, are the ones a wrong
        // shuffle or compare would get wrong.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..2000 {
            let mut small = [0u32; 32];
            let mut wide = [0u64; 32];
            for l in 0..32 {
                let r = next();
                small[l] = if r & 3 == 0 { 7 } else { (r >> 8) as u32 % 9 };
                wide[l] = match r & 7 {
                    0 => 0,
                    1 => 1 << 32,
                    2 => 1,
                    3 => 1 << 63,
                    4 => 1 << 31,
                    _ => {
                        if round % 2 == 0 {
                            0
                        } else {
                            r
                        }
                    }
                };
            }
            for x in [0, 7, 8, u32::MAX] {
                assert_eq!(eq_mask(&small, x), eq_mask_plain(&small, x), "{small:?} == {x}");
            }
            let mask = [next() as u32, 0, u32::MAX, 1 << 31][round % 4];
            let (mut filled, mut reference) = (small, small);
            fill_where(&mut filled, mask, round as u32);
            fill_where_plain(&mut reference, mask, round as u32);
            assert_eq!(filled, reference, "{small:?} where {mask:#x}");
            for path in [DataPath::new(false), DataPath::new(true)] {
                assert_eq!(nonzero_mask(&wide, path), nonzero_mask_plain(&wide), "{wide:?}");
            }
            // Lanes stepping by 0, the element size, another size, or a step that differs in one half only.
            let mut walk = [next(); 32];
            for l in 1..32 {
                let step = [0, 4, 8, 4 | 1 << 32, 1 << 63, 4][(next() % 6) as usize];
                walk[l] = walk[l - 1].wrapping_add(step);
            }
            assert_eq!(step_breaks(&walk, 4), step_breaks_plain(&walk, 4), "{walk:?}");
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            for x in [0, 7, 8, u32::MAX] {
                assert_eq!(eq_mask_simd128(&small, x), eq_mask_plain(&small, x), "{small:?} == {x}");
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            assert_eq!(nonzero_mask_simd128(&wide), nonzero_mask_plain(&wide), "{wide:?}");
            #[cfg(target_arch = "x86_64")]
            assert_eq!(nonzero_mask_sse2(&wide), nonzero_mask_plain(&wide), "{wide:?}");
            #[cfg(target_arch = "x86_64")]
            if cpu_has_avx2() {
                // SAFETY: the CPU has AVX2.
                assert_eq!(unsafe { nonzero_mask_avx2(&wide) }, nonzero_mask_plain(&wide), "{wide:?}");
            }
        }
        assert_eq!(nonzero_mask(&[0; 32], DataPath::new(false)), 0);
        assert_eq!(eq_mask(&[5; 32], 5), u32::MAX);
    }
}

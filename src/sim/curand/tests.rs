//! The generators against a second, deliberately naive implementation (XORWOW stepped one step at a time from
//! the published algorithm) and against Random123's published known-answer vectors for Philox4x32-10.

use super::*;

/// Marsaglia's xorwow as cuRAND seeds it, written out again without sharing code with the module.
struct Naive {
    d: u32,
    v: [u32; 5],
}

impl Naive {
    fn new(seed: u64) -> Naive {
        let t0 = 1099087573u32.wrapping_mul(seed as u32 ^ 0xaad26b49);
        let t1 = 2591861531u32.wrapping_mul((seed >> 32) as u32 ^ 0xf7dcefdd);
        Naive {
            d: 6615241u32.wrapping_add(t1).wrapping_add(t0),
            v: [
                123456789u32.wrapping_add(t0),
                362436069 ^ t0,
                521288629u32.wrapping_add(t1),
                88675123 ^ t1,
                5783321u32.wrapping_add(t0),
            ],
        }
    }

    fn next(&mut self) -> u32 {
        let t = self.v[0] ^ (self.v[0] >> 2);
        self.v.rotate_left(1);
        self.v[4] = (self.v[3] ^ (self.v[3] << 4)) ^ (t ^ (t << 1));
        // rotate_left moved old v[4] to index 3.
        self.d = self.d.wrapping_add(362437);
        self.v[4].wrapping_add(self.d)
    }
}

fn xorwow_words(seed: u64, sub: u64, off: u64, n: usize) -> Vec<u32> {
    let mut s: Vec<u64> = xorwow_init(seed, sub, off).to_vec();
    (0..n).map(|_| eval_u32(Gen::Xorwow, &mut s)).collect()
}

fn eval_u32(g: Gen, s: &mut [u64]) -> u32 {
    let out = eval(CurandFn::Draw(g, Draw::U32), s);
    let n = s.len();
    s.copy_from_slice(&out[..n]);
    out[n] as u32
}

#[test]
fn xorwow_matches_the_naive_generator() {
    let mut naive = Naive::new(1234);
    let want: Vec<u32> = (0..100).map(|_| naive.next()).collect();
    assert_eq!(xorwow_words(1234, 0, 0, 100), want);
    let mut naive = Naive::new(0xdead_beef_0bad_cafe);
    let want: Vec<u32> = (0..10).map(|_| naive.next()).collect();
    assert_eq!(xorwow_words(0xdead_beef_0bad_cafe, 0, 0, 10), want);
}

#[test]
fn xorwow_offset_skips_draws() {
    let all = xorwow_words(42, 0, 0, 1100);
    for off in [1u64, 2, 7, 64, 100, 1000] {
        assert_eq!(xorwow_words(42, 0, off, 50), all[off as usize..off as usize + 50], "offset {off}");
    }
}

#[test]
fn xorwow_subsequences_compose() {
    // 2^67 steps twice is subsequence 2; subsequence 3 then offset 5 is offset 5 then subsequence 3.
    let v = [1u32, 2, 3, 4, 5];
    let twice = xorwow_jump(xorwow_jump(v, 1, 0), 1, 0);
    assert_eq!(twice, xorwow_jump(v, 2, 0));
    assert_eq!(xorwow_jump(xorwow_jump(v, 3, 0), 0, 5), xorwow_jump(v, 3, 5));
    // 2^67 = 16 * 2^63: the subsequence half of the table agrees with the offset half's.
    let sixteen = (0..16).fold(v, |acc, _| xorwow_jump(acc, 0, 1 << 63));
    assert_eq!(xorwow_jump(v, 1, 0), sixteen);
    // Different subsequences differ.
    assert_ne!(xorwow_words(1, 1, 0, 4), xorwow_words(1, 0, 0, 4));
}

#[test]
fn xorwow_jump_cost_is_small() {
    let t = std::time::Instant::now();
    xorwow_init(1, 1, 1);
    let first = t.elapsed();
    let t = std::time::Instant::now();
    for i in 0..1000u64 {
        xorwow_init(1234, i, 0);
    }
    let per = t.elapsed() / 1000;
    // Measured: the tables take a few ms once; an init about a microsecond (debug builds: tens).
    assert!(first.as_secs() < 5 && per.as_millis() < 5, "{first:?} {per:?}");
}

#[test]
fn philox_known_answers() {
    // Random123's kat_vectors for philox4x32 with 10 rounds.
    assert_eq!(philox4x32_10([0; 4], [0; 2]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
    assert_eq!(philox4x32_10([u32::MAX; 4], [u32::MAX; 2]), [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]);
    assert_eq!(
        philox4x32_10([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]),
        [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
    );
}

#[test]
fn philox_stream_is_the_counter_blocks() {
    let mut s = philox_init(7, 3, 0).to_vec();
    let words: Vec<u32> = (0..12).map(|_| eval_u32(Gen::Philox, &mut s)).collect();
    let mut want = vec![];
    for ctr in 0..3u32 {
        want.extend(philox4x32_10([ctr, 0, 3, 0], [7, 0]));
    }
    assert_eq!(words, want);
    // An offset of 6 words starts at the second block's third word.
    let mut s = philox_init(7, 3, 6).to_vec();
    let skipped: Vec<u32> = (0..6).map(|_| eval_u32(Gen::Philox, &mut s)).collect();
    assert_eq!(skipped, want[6..12]);
    // curand4 from the middle of a block.
    let mut s = philox_init(7, 3, 1).to_vec();
    let out = eval(CurandFn::Draw(Gen::Philox, Draw::U32x4), &s);
    s.copy_from_slice(&out[..PHILOX_LEAVES]);
    assert_eq!(out[PHILOX_LEAVES..].iter().map(|&x| x as u32).collect::<Vec<_>>(), want[1..5]);
    assert_eq!(eval_u32(Gen::Philox, &mut s), want[5]);
}

#[test]
fn uniform_conversion_edges() {
    // The smallest word gives about 2^-33, the largest rounds to exactly 1.0 (cuRAND's range is (0, 1]).
    assert_eq!(uniform(u32::MAX), 1.0);
    assert!(uniform(0) > 0.0 && uniform(0) < 2.4e-10);
    assert_eq!(uniform(1 << 31), 0.5);
    assert!(uniform_double(0, 0) > 0.0 && uniform_double(u32::MAX, u32::MAX) <= 1.0);
}

#[test]
fn normal_caches_the_second_value() {
    let mut s = xorwow_init(5, 0, 0).to_vec();
    let words = xorwow_words(5, 0, 0, 2);
    let (a, b) = box_muller(words[0], words[1]);
    let f = CurandFn::Draw(Gen::Xorwow, Draw::Normal);
    let out = eval(f, &s);
    s.copy_from_slice(&out[..XORWOW_LEAVES]);
    assert_eq!(out[XORWOW_LEAVES] as u32, a.to_bits());
    let out2 = eval(f, &s);
    assert_eq!(out2[XORWOW_LEAVES] as u32, b.to_bits());
    // The second call drew nothing.
    assert_eq!(out2[..6], out[..6]);
    assert!(a.is_finite() && b.is_finite());
}

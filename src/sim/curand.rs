//! The cuRAND device API's generators, bit for bit: XORWOW (`curandState`, Marsaglia 2003, with cuRAND's seed
//! scrambling and skip-ahead) and Philox4x32-10 (`curandStatePhilox4_32_10_t`, Salmon et al. 2011), and the
//! conversions cuRAND applies to their words (uniform floats and doubles, Box-Muller normals).
//!
//! A generator's state is a list of words in the order its struct's scalars are laid out (see
//! [`XORWOW_LEAVES`], [`PHILOX_LEAVES`]); every function here is pure: old state (and arguments) in, new state
//! and results out. The front end turns each call into one instruction per output word, so the state is
//! updated in registers or memory as a kernel's own struct would be, and the debugger shows it.
//!
//! XORWOW's `curand_init` jumps `subsequence * 2^67 + offset` steps ahead. The step is linear over GF(2) on the
//! 160 bits of `v[5]`, so the jump is a power of its 160x160 transition matrix: the matrices `M^(2^j)` are
//! computed once per process by repeated squaring (about 130 squarings, a few milliseconds) and a jump
//! multiplies the state by those its step count's bits name.

use std::sync::OnceLock;

use crate::front::curand::{CurandFn, Draw, Gen, PHILOX_LEAVES, XORWOW_LEAVES};

/// Runs `f` on `args` (raw register bits); returns the new state words, then the results.
pub fn eval(f: CurandFn, args: &[u64]) -> Vec<u64> {
    let arg = |i: usize| args.get(i).copied().unwrap_or(0);
    match f {
        CurandFn::Init(Gen::Xorwow) => xorwow_init(arg(0), arg(1), arg(2)).to_vec(),
        CurandFn::Init(Gen::Philox) => philox_init(arg(0), arg(1), arg(2)).to_vec(),
        CurandFn::Draw(g, d) => {
            let n = f.leaves();
            let mut st: Vec<u64> = (0..n).map(arg).collect();
            let extra = [arg(n), arg(n + 1)];
            let res = draw(g, d, &mut st, extra);
            st.extend(res);
            st
        }
    }
}

/// Output `out` of `f` on `args`. Each output word is its own instruction, so the last evaluation is kept
/// (per thread of the simulator) and the other words of the same call reuse it.
pub fn eval_one(f: CurandFn, args: &[u64], out: usize) -> u64 {
    type Memo = Option<(CurandFn, Vec<u64>, Vec<u64>)>;
    thread_local! {
        static LAST: std::cell::RefCell<Memo> = const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((lf, la, lo)) = last.as_ref()
            && *lf == f
            && la.as_slice() == args
        {
            return lo.get(out).copied().unwrap_or(0);
        }
        let outs = eval(f, args);
        let v = outs.get(out).copied().unwrap_or(0);
        *last = Some((f, args.to_vec(), outs));
        v
    })
}

/// `d` advances by this each step.
const XORWOW_D_STEP: u32 = 362_437;

/// One XORWOW step on `[d, v0..v4]`; returns the output word.
fn xorwow_next(s: &mut [u64]) -> u32 {
    let v = |i: usize| s[1 + i] as u32;
    let t = v(0) ^ (v(0) >> 2);
    let v4 = v(4);
    let new = (v4 ^ (v4 << 4)) ^ (t ^ (t << 1));
    for i in 0..4 {
        s[1 + i] = s[2 + i];
    }
    s[5] = new as u64;
    let d = (s[0] as u32).wrapping_add(XORWOW_D_STEP);
    s[0] = d as u64;
    new.wrapping_add(d)
}

/// The XORWOW step on `v` alone (160 bits, word 0 first): what the transition matrix describes.
fn xorwow_v_step(v: [u32; 5]) -> [u32; 5] {
    let t = v[0] ^ (v[0] >> 2);
    [v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))]
}

/// A 160x160 matrix over GF(2) by columns: column `c` is the image of basis vector `c`.
type Matrix = Vec<[u32; 5]>;

fn mat_vec(m: &Matrix, v: [u32; 5]) -> [u32; 5] {
    let mut out = [0u32; 5];
    for (w, &word) in v.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let col = &m[w * 32 + b];
            for k in 0..5 {
                out[k] ^= col[k];
            }
        }
    }
    out
}

/// `M^(2^j)` for j = 0..=130: enough for `2^64 * 2^67` steps.
fn xorwow_powers() -> &'static [Matrix] {
    static POWERS: OnceLock<Vec<Matrix>> = OnceLock::new();
    POWERS.get_or_init(|| {
        let mut m: Matrix = (0..160)
            .map(|c| {
                let mut e = [0u32; 5];
                e[c / 32] = 1 << (c % 32);
                xorwow_v_step(e)
            })
            .collect();
        let mut out = Vec::with_capacity(131);
        for _ in 0..131 {
            // M^2: each column's image under M.
            let sq = m.iter().map(|col| mat_vec(&m, *col)).collect();
            out.push(std::mem::replace(&mut m, sq));
        }
        out
    })
}

/// `v` after `steps` XORWOW steps, `steps = hi * 2^67 + lo` (at most 2^131).
fn xorwow_jump(mut v: [u32; 5], hi: u64, lo: u64) -> [u32; 5] {
    let p = xorwow_powers();
    for (base, n) in [(0usize, lo), (67, hi)] {
        let mut bits = n;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            v = mat_vec(&p[base + b], v);
        }
    }
    v
}

/// `curand_init` for XORWOW: the seed scrambled into `d` and `v`, then the skip-ahead.
pub fn xorwow_init(seed: u64, subsequence: u64, offset: u64) -> [u64; XORWOW_LEAVES] {
    let s0 = (seed as u32) ^ 0xaad2_6b49;
    let s1 = ((seed >> 32) as u32) ^ 0xf7dc_efdd;
    let t0 = 1_099_087_573u32.wrapping_mul(s0);
    let t1 = 2_591_861_531u32.wrapping_mul(s1);
    let d = 6_615_241u32.wrapping_add(t1).wrapping_add(t0);
    let v = [
        123_456_789u32.wrapping_add(t0),
        362_436_069u32 ^ t0,
        521_288_629u32.wrapping_add(t1),
        88_675_123u32 ^ t1,
        5_783_321u32.wrapping_add(t0),
    ];
    let v = xorwow_jump(v, subsequence, offset);
    // The subsequence jump leaves d alone (2^67 steps add a multiple of 2^32 to it); the offset adds its steps.
    let d = d.wrapping_add(XORWOW_D_STEP.wrapping_mul(offset as u32));
    let mut out = [0u64; XORWOW_LEAVES];
    out[0] = d as u64;
    for i in 0..5 {
        out[1 + i] = v[i] as u64;
    }
    out
}

const PHILOX_W0: u32 = 0x9E37_79B9;
const PHILOX_W1: u32 = 0xBB67_AE85;
const PHILOX_M0: u32 = 0xD251_1F53;
const PHILOX_M1: u32 = 0xCD9E_8D57;

/// Philox4x32 with 10 rounds: the counter `c` encrypted under key `k`.
pub fn philox4x32_10(mut c: [u32; 4], mut k: [u32; 2]) -> [u32; 4] {
    for round in 0..10 {
        if round > 0 {
            k[0] = k[0].wrapping_add(PHILOX_W0);
            k[1] = k[1].wrapping_add(PHILOX_W1);
        }
        let p0 = PHILOX_M0 as u64 * c[0] as u64;
        let p1 = PHILOX_M1 as u64 * c[2] as u64;
        let (hi0, lo0) = ((p0 >> 32) as u32, p0 as u32);
        let (hi1, lo1) = ((p1 >> 32) as u32, p1 as u32);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
    }
    c
}

fn philox_ctr(s: &[u64]) -> [u32; 4] {
    [s[0] as u32, s[1] as u32, s[2] as u32, s[3] as u32]
}

fn philox_set_ctr(s: &mut [u64], c: [u32; 4]) {
    for i in 0..4 {
        s[i] = c[i] as u64;
    }
}

/// Recomputes `output` from `ctr` and `key`.
fn philox_refresh(s: &mut [u64]) {
    let out = philox4x32_10(philox_ctr(s), [s[8] as u32, s[9] as u32]);
    for i in 0..4 {
        s[4 + i] = out[i] as u64;
    }
}

/// Adds `n` to the counter's low 64 bits, carrying into the high words as cuRAND does.
fn philox_incr_n(s: &mut [u64], n: u64) {
    let mut c = philox_ctr(s);
    let nlo = n as u32;
    let mut nhi = (n >> 32) as u32;
    c[0] = c[0].wrapping_add(nlo);
    if c[0] < nlo {
        nhi = nhi.wrapping_add(1);
    }
    c[1] = c[1].wrapping_add(nhi);
    if nhi > c[1] {
        c[2] = c[2].wrapping_add(1);
        if c[2] == 0 {
            c[3] = c[3].wrapping_add(1);
        }
    }
    philox_set_ctr(s, c);
}

/// Adds `n` to the counter's high 64 bits (a subsequence).
fn philox_incr_hi(s: &mut [u64], n: u64) {
    let mut c = philox_ctr(s);
    let nlo = n as u32;
    let mut nhi = (n >> 32) as u32;
    c[2] = c[2].wrapping_add(nlo);
    if c[2] < nlo {
        nhi = nhi.wrapping_add(1);
    }
    c[3] = c[3].wrapping_add(nhi);
    philox_set_ctr(s, c);
}

/// The counter plus one, carrying through all 128 bits.
fn philox_incr(s: &mut [u64]) {
    let mut c = philox_ctr(s);
    for w in c.iter_mut() {
        *w = w.wrapping_add(1);
        if *w != 0 {
            break;
        }
    }
    philox_set_ctr(s, c);
}

/// `curand_init` for Philox: the key is the seed, the subsequence the counter's high half, the offset words
/// into the stream.
pub fn philox_init(seed: u64, subsequence: u64, offset: u64) -> [u64; PHILOX_LEAVES] {
    let mut s = [0u64; PHILOX_LEAVES];
    s[8] = seed as u32 as u64;
    s[9] = seed >> 32;
    philox_incr_hi(&mut s, subsequence);
    philox_refresh(&mut s);
    let mut state = (offset & 3) as u32;
    let mut n = offset / 4;
    if state > 3 {
        n += 1;
        state -= 4;
    }
    s[10] = state as u64;
    philox_incr_n(&mut s, n);
    philox_refresh(&mut s);
    s
}

/// One word from a Philox state: `output[STATE]`, then a fresh block once all four are used.
fn philox_next(s: &mut [u64]) -> u32 {
    let st = s[10] as u32;
    let ret = s[4 + (st as usize).min(3)] as u32;
    let ret = if st > 3 { s[4] as u32 } else { ret };
    let st = st.wrapping_add(1);
    s[10] = st as u64;
    if st == 4 {
        philox_incr(s);
        philox_refresh(s);
        s[10] = 0;
    }
    ret
}

/// `curand4` on Philox: the four words from `STATE` on, the block advanced once.
fn philox_next4(s: &mut [u64]) -> [u32; 4] {
    let tmp = [s[4] as u32, s[5] as u32, s[6] as u32, s[7] as u32];
    philox_incr(s);
    philox_refresh(s);
    let out = [s[4] as u32, s[5] as u32, s[6] as u32, s[7] as u32];
    match s[10] as u32 {
        1 => [tmp[1], tmp[2], tmp[3], out[0]],
        2 => [tmp[2], tmp[3], out[0], out[1]],
        3 => [tmp[3], out[0], out[1], out[2]],
        _ => tmp,
    }
}

fn next(g: Gen, s: &mut [u64]) -> u32 {
    match g {
        Gen::Xorwow => xorwow_next(s),
        Gen::Philox => philox_next(s),
    }
}

/// cuRAND's `CURAND_2POW32_INV`: the float literal `2.3283064e-10f`, which is a little below 2^-32.
const POW32_INV: f32 = 2.328_306_4e-10;
/// `CURAND_2POW32_INV_2PI`: `2.3283064e-10f * 6.2831855f`, folded in float.
fn pow32_inv_2pi() -> f32 {
    POW32_INV * 6.283_185_5
}
const POW53_INV: f64 = 1.0 / 9_007_199_254_740_992.0;

/// `x * CURAND_2POW32_INV + CURAND_2POW32_INV / 2`, contracted into one FMA as nvcc compiles it.
pub fn uniform(x: u32) -> f32 {
    (x as f32).mul_add(POW32_INV, POW32_INV / 2.0)
}

/// A double in (0, 1] from 53 bits of two words.
pub fn uniform_double(x: u32, y: u32) -> f64 {
    let z = x as u64 ^ ((y as u64) << 21);
    (z as f64).mul_add(POW53_INV, POW53_INV / 2.0)
}

/// The Box-Muller pair of two words: `__sincosf` as the special function unit computes it
/// ([`super::fast_math`]), `logf` correctly rounded; the unit's own error remains, so a result may differ
/// from the GPU's in the last bits (see docs).
pub fn box_muller(x: u32, y: u32) -> (f32, f32) {
    let u = uniform(x);
    let c = pow32_inv_2pi();
    let v = (y as f32).mul_add(c, c / 2.0);
    let s = (-2.0f32 * u.ln()).sqrt();
    (super::fast_math::sin(v) * s, super::fast_math::cos(v) * s)
}

/// The double Box-Muller pair of four words (`sincospi` of a value in (0, 2]).
pub fn box_muller_double(x0: u32, x1: u32, y0: u32, y1: u32) -> (f64, f64) {
    let u = uniform_double(x0, x1);
    let zy = y0 as u64 ^ ((y1 as u64) << 21);
    let v = (zy as f64).mul_add(POW53_INV * 2.0, POW53_INV);
    let s = (-2.0 * u.ln()).sqrt();
    let a = v * std::f64::consts::PI;
    (a.sin() * s, a.cos() * s)
}

const FLAG_NORMAL: u64 = 1;
const FLAG_LOG_NORMAL: u64 = 2;
/// Where the Box-Muller cache lives among a state's words, from its end.
const FLAG: usize = 4;
const FLAG_DOUBLE: usize = 3;
const EXTRA: usize = 2;
const EXTRA_DOUBLE: usize = 1;

fn draw(g: Gen, d: Draw, s: &mut [u64], extra: [u64; 2]) -> Vec<u64> {
    let n = s.len();
    let f32b = |f: f32| f.to_bits() as u64;
    match d {
        Draw::U32 => vec![next(g, s) as u64],
        Draw::Uniform => vec![f32b(uniform(next(g, s)))],
        Draw::UniformDouble => {
            let x = next(g, s);
            let y = next(g, s);
            vec![uniform_double(x, y).to_bits()]
        }
        Draw::Normal | Draw::LogNormal => {
            let want = if d == Draw::Normal { FLAG_NORMAL } else { FLAG_LOG_NORMAL };
            let flag = s[n - FLAG] as u32 as u64;
            if flag == want {
                s[n - FLAG] = 0;
                return vec![s[n - EXTRA] & 0xffff_ffff];
            }
            let x = next(g, s);
            let y = next(g, s);
            let (a, b) = box_muller(x, y);
            let (a, b) = if d == Draw::LogNormal {
                let (mean, sd) = (f32::from_bits(extra[0] as u32), f32::from_bits(extra[1] as u32));
                // `mean + stddev * v` contracts into an FMA.
                (sd.mul_add(a, mean).exp(), sd.mul_add(b, mean).exp())
            } else {
                (a, b)
            };
            s[n - EXTRA] = f32b(b);
            s[n - FLAG] = want;
            vec![f32b(a)]
        }
        Draw::NormalDouble => {
            if s[n - FLAG_DOUBLE] as u32 as u64 == FLAG_NORMAL {
                s[n - FLAG_DOUBLE] = 0;
                return vec![s[n - EXTRA_DOUBLE]];
            }
            let w: Vec<u32> = (0..4).map(|_| next(g, s)).collect();
            let (a, b) = box_muller_double(w[0], w[1], w[2], w[3]);
            s[n - EXTRA_DOUBLE] = b.to_bits();
            s[n - FLAG_DOUBLE] = FLAG_NORMAL;
            vec![a.to_bits()]
        }
        Draw::Normal2 => {
            let x = next(g, s);
            let y = next(g, s);
            let (a, b) = box_muller(x, y);
            vec![f32b(a), f32b(b)]
        }
        Draw::U32x4 | Draw::Uniform4 | Draw::Normal4 => {
            let w = match g {
                Gen::Philox => philox_next4(s),
                Gen::Xorwow => [next(g, s), next(g, s), next(g, s), next(g, s)],
            };
            match d {
                Draw::U32x4 => w.iter().map(|&x| x as u64).collect(),
                Draw::Uniform4 => w.iter().map(|&x| f32b(uniform(x))).collect(),
                _ => {
                    let (a, b) = box_muller(w[0], w[1]);
                    let (c, e) = box_muller(w[2], w[3]);
                    vec![f32b(a), f32b(b), f32b(c), f32b(e)]
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;

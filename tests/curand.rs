//! The cuRAND device API in kernels: the conformance kernels' final memory equals what the generators of
//! `sim::curand` (tested on their own against a naive XORWOW and Random123's Philox answers) produce for the
//! same calls, so the state is carried right through locals, memory, copies and the Box-Muller cache. A
//! Monte-Carlo pi kernel of the kind courses write, and the diagnostics.

mod common;

use warpdbg::compile;
use warpdbg::front::CompileError;
use warpdbg::front::curand::{CurandFn, Draw, Gen};
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::curand::{eval, philox_init, xorwow_init};

/// A generator's state as the kernel holds it, drawn from by calling `eval` as the instructions do.
struct State {
    g: Gen,
    words: Vec<u64>,
}

impl State {
    fn draw(&mut self, d: Draw, extra: &[u64]) -> Vec<u64> {
        let mut args = self.words.clone();
        args.extend_from_slice(extra);
        let out = eval(CurandFn::Draw(self.g, d), &args);
        let n = self.words.len();
        self.words.copy_from_slice(&out[..n]);
        out[n..].to_vec()
    }
    fn f32(&mut self, d: Draw) -> f64 {
        f32::from_bits(self.draw(d, &[])[0] as u32) as f64
    }
}

fn compile_err(text: &str) -> CompileError {
    let o = Overrides { mode: Some(Mode::Its), ..Overrides::default() };
    match compile::compile("k.cu", text.as_bytes(), &o) {
        Ok(_) => panic!("compiled, but should not:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn xorwow_kernel_matches_the_generator() {
    let r = common::run("tests/conformance/curand_xorwow.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed");
    let (words, unif, norm, dbl) = (r.ints("words"), r.floats("unif"), r.floats("norm"), r.floats("dbl"));
    for id in 0..64u64 {
        let sub = if id == 63 { 0x1_2345_6789 } else { id };
        let mut s = State { g: Gen::Xorwow, words: xorwow_init(1234, sub, id % 3).to_vec() };
        let i = id as usize;
        for k in 0..4 {
            assert_eq!(words[i * 4 + k], s.draw(Draw::U32, &[])[0] as i64, "words[{}]", i * 4 + k);
        }
        // The first uniform comes from the local copy; the second from the state in memory, which is still
        // where curand_init left it (the copy is written back at the end).
        let mut mem = State { g: Gen::Xorwow, words: xorwow_init(1234, sub, id % 3).to_vec() };
        assert_eq!(unif[i * 2], s.f32(Draw::Uniform), "unif[{}]", i * 2);
        assert_eq!(unif[i * 2 + 1], mem.f32(Draw::Uniform), "unif[{}]", i * 2 + 1);
        assert_eq!(norm[i * 3], s.f32(Draw::Normal));
        assert_eq!(norm[i * 3 + 1], s.f32(Draw::Normal));
        let ln = s.draw(Draw::LogNormal, &[1.0f32.to_bits() as u64, 0.5f32.to_bits() as u64]);
        assert_eq!(norm[i * 3 + 2], f32::from_bits(ln[0] as u32) as f64);
        assert_eq!(dbl[i * 2], f64::from_bits(s.draw(Draw::UniformDouble, &[])[0]));
        assert_eq!(dbl[i * 2 + 1], f64::from_bits(s.draw(Draw::NormalDouble, &[])[0]));
    }
    // The two normals of one pair: the second is the cached one (no words drawn between them).
    assert_ne!(norm[0], norm[1]);
}

#[test]
fn philox_kernel_matches_the_generator() {
    let r = common::run("tests/conformance/curand_philox.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed");
    let (words, unif, norm) = (r.ints("words"), r.floats("unif"), r.floats("norm"));
    for id in 0..32u64 {
        let mut s = State { g: Gen::Philox, words: philox_init(42, id, id % 5).to_vec() };
        let i = id as usize;
        let mut want: Vec<i64> = (0..4).map(|_| s.draw(Draw::U32, &[])[0] as i64).collect();
        want.extend(s.draw(Draw::U32x4, &[]).iter().map(|&w| w as i64));
        assert_eq!(words[i * 8..i * 8 + 8], want[..], "thread {id}");
        let mut u = vec![s.f32(Draw::Uniform)];
        u.extend(s.draw(Draw::Uniform4, &[]).iter().map(|&b| f32::from_bits(b as u32) as f64));
        assert_eq!(unif[i * 5..i * 5 + 5], u[..], "thread {id}");
        let mut n = vec![s.f32(Draw::Normal)];
        n.extend(s.draw(Draw::Normal4, &[]).iter().map(|&b| f32::from_bits(b as u32) as f64));
        assert_eq!(norm[i * 5..i * 5 + 5], n[..], "thread {id}");
    }
}

#[test]
fn monte_carlo_pi_counts_hits_per_thread() {
    let src = "#include <curand_kernel.h>
// @arg hits int[64] = 0
// @arg n = 200
// @grid 2
// @block 32
__global__ void pi(int *hits, int n) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState state;
    curand_init(2024, id, 0, &state);
    int count = 0;
    for (int i = 0; i < n; i++) {
        float x = curand_uniform(&state);
        float y = curand_uniform(&state);
        if (x * x + y * y <= 1.0f) count++;
    }
    hits[id] = count;
}
";
    let o = Overrides { mode: Some(Mode::Its), ..Overrides::default() };
    let c = compile::compile("pi.cu", src.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"));
    let r = common::run_compiled(&c, warpdbg::sim::Config::default());
    let hits = r.ints("hits");
    let mut total = 0;
    for id in 0..64u64 {
        let mut s = State { g: Gen::Xorwow, words: xorwow_init(2024, id, 0).to_vec() };
        let mut count = 0;
        for _ in 0..200 {
            let x = s.f32(Draw::Uniform) as f32;
            let y = s.f32(Draw::Uniform) as f32;
            // x * x + y * y contracts into fmaf(x, x, y * y), as nvcc compiles it.
            if x.mul_add(x, y * y) <= 1.0 {
                count += 1;
            }
        }
        assert_eq!(hits[id as usize], count, "thread {id}");
        total += count;
    }
    let pi = 4.0 * total as f64 / (64.0 * 200.0);
    assert!((pi - std::f64::consts::PI).abs() < 0.05, "{pi}");
}

#[test]
fn curand_mistakes_are_diagnosed() {
    let e = compile_err(
        "#include <curand_kernel.h>
// @arg o float[1]
__global__ void k(float *o) {
    curandState s;
    curand_init(1, 0, 0, &s);
    o[0] = curand_poisson(&s, 4.0);
}
",
    );
    assert_eq!(
        e.to_string().lines().take(2).collect::<Vec<_>>(),
        [
            "error[E-unsupported]: not supported by warpdbg: the cuRAND device function `curand_poisson`",
            "  ┌─ k.cu:6:12"
        ]
    );
    let e = compile_err(
        "#include <curand_kernel.h>
// @arg o float[1]
__global__ void k(float *o) {
    curandState s;
    curand_init(1, 0, 0, &s);
    float4 v = curand_uniform4(&s);
    o[0] = v.x;
}
",
    );
    assert_eq!(
        e.to_string().lines().take(2).collect::<Vec<_>>(),
        [
            "error[E-type]: `curand_uniform4` needs a `curandStatePhilox4_32_10_t *`, found `curandState *`",
            "  ┌─ k.cu:6:32"
        ]
    );
    let e = compile_err(
        "// @arg o float[1]
__global__ void k(float *o) {
    o[0] = curand_uniform(o);
}
",
    );
    assert_eq!(
        e.to_string().lines().take(2).collect::<Vec<_>>(),
        ["error[E-type]: expected a pointer to a cuRAND state (`&state`), found `float *`", "  ┌─ k.cu:3:27"]
    );
    let e = compile_err(
        "// @arg o float[1]
__global__ void k(float *o) {
    curandStateMRG32k3a_t s;
    o[0] = 0;
}
",
    );
    assert_eq!(
        e.to_string().lines().take(2).collect::<Vec<_>>(),
        [
            "error[E-unsupported]: not supported by warpdbg: cuRAND generators other than XORWOW and Philox",
            "  ┌─ k.cu:3:5"
        ]
    );
}

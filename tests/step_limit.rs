//! The default step limit grows with what a launch legitimately asks for (issue 36): each thread may run
//! every instruction of its kernel once per unit of the largest integer argument, up to 2^33 steps in all,
//! above the old per-warp rules (docs/programs.md, "The step limit"). A runaway loop still ends in the
//! step-limit outcome (exit code 4). Constants that bound loops (`#define N`) count as arguments do.

mod common;

use common::{compile, compile_with, overrides, run_compiled, warpdbg};
use warpdbg::compile::compile as compile_source;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::{
    ARGUMENT_STEP_CEILING, Config, GlobalMemory, Machine, Outcome, argument_steps, kernel_file_step_limit,
    largest_bound, largest_integer_argument, largest_loop_constant, program_step_limit,
};

const SGEMM: &str = "benches/kernels/sgemm_naive.cu";
const RUNAWAY: &str = "tests/kernels/step_limit/runaway_n.cu";
const LOOP_CONSTANT: &str = "tests/kernels/step_limit/loop_constant.cu";
const RUNAWAY_CONSTANT: &str = "tests/kernels/step_limit/runaway_constant.cu";

/// The default step limit of a kernel file's launch, and its warps.
fn limit(path: &str, args: &[&str], grid: Option<&str>) -> (u64, u64) {
    let o = Overrides { grid: grid.map(str::to_string), ..overrides(Mode::Its, args) };
    let compiled = compile_with(path, &o);
    let m = Machine::new(&compiled, &Config::default()).expect("launch fits");
    (m.max_steps, m.metrics.warps)
}

/// The steps the naive matrix product of side `n` issues (16x16 blocks).
fn sgemm_steps(n: u64) -> u64 {
    let r = run_compiled(&compile(SGEMM, Mode::Its, &[&format!("n={n}")]), Config::default());
    assert_eq!(r.outcome, Outcome::Completed);
    r.machine.steps
}

#[test]
fn the_largest_integer_argument_counts_and_pointers_floats_and_negatives_do_not() {
    let src = "// @arg a float[4] = 0\n// @arg x = 2.5\n// @arg n = 300\n// @arg m = 7\n// @arg neg = -5\n\
               // @arg big = 1 << 40\n\
               __global__ void k(float *a, float x, int n, unsigned m, int neg, long long big) { a[0] = x; }\n";
    let at = |o: Overrides| {
        let c = compile_source("k.cu", src.as_bytes(), &o).expect("compiles");
        let (_, params) = GlobalMemory::from_launch(&c.launch);
        largest_integer_argument(&c.kernel, &params)
    };
    assert_eq!(at(overrides(Mode::Its, &["big=0"])), 300);
    assert_eq!(at(overrides(Mode::Its, &[])), 1 << 40);
    assert_eq!(at(overrides(Mode::Its, &["big=-1", "n=-1", "m=4000000000"])), 4_000_000_000);
}

#[test]
fn the_rule_s_values() {
    // No integer argument: the old rules.
    assert_eq!(argument_steps(4_096, 40, 0), 0);
    assert_eq!(kernel_file_step_limit(4_096, 0), 40_960_000);
    assert_eq!(kernel_file_step_limit(1, 0), 10_000_000);
    assert_eq!(program_step_limit(128, 4_096, 0), 1 << 28);
    // warps x instructions x argument, where that is more than the old rule, up to 2^33.
    assert_eq!(argument_steps(16_384, 39, 1_024), 654_311_424);
    assert_eq!(kernel_file_step_limit(16_384, argument_steps(16_384, 39, 1_024)), 654_311_424);
    assert_eq!(program_step_limit(16_384, 12 << 20, argument_steps(16_384, 39, 1_024)), 1 << 30);
    assert_eq!(argument_steps(131_072, 39, 2_048), ARGUMENT_STEP_CEILING);
    assert_eq!(program_step_limit(131_072, 48 << 20, argument_steps(131_072, 39, 2_048)), 1 << 33);
    assert_eq!(argument_steps(u64::MAX, u64::MAX, u64::MAX), 1 << 33);
    // A vector add of 2^24 elements: the ceiling, above the old kernel-file rule's 5.2 G.
    assert_eq!(kernel_file_step_limit(524_288, argument_steps(524_288, 10, 1 << 24)), 1 << 33);
}

#[test]
fn a_2048_cubed_matrix_product_fits_under_the_new_limit_and_not_under_the_old() {
    // Each warp issues a + b n steps (b per iteration of the k loop): measured at two small sizes.
    let (s32, s64) = (sgemm_steps(32), sgemm_steps(64));
    let (w32, w64) = (4 * 8, 16 * 8);
    let b = (s64 / w64 - s32 / w32) / 32;
    let a = s32 / w32 - 32 * b;
    assert_eq!(s64, w64 * (a + 64 * b), "steps per warp are linear in n");
    let steps = |n: u64| (n / 16) * (n / 16) * 8 * (a + n * b);
    let (max, warps) = limit(SGEMM, &["n=2048"], None);
    assert_eq!(warps, 131_072);
    assert!(steps(2_048) > 3_000_000_000 && steps(2_048) <= max, "{} steps, limit {max}", steps(2_048));
    assert!(steps(2_048) > kernel_file_step_limit(warps, 0));
    assert!(steps(2_048) > program_step_limit(warps, 48 << 20, 0));
    let (max, warps) = limit(SGEMM, &["n=1024"], None);
    assert!(steps(1_024) <= max && steps(1_024) > kernel_file_step_limit(warps, 0), "{max}");
}

#[test]
fn a_1024_wide_matrix_product_the_old_rule_stopped_completes() {
    // The top-left 128 x 256 corner of a 1024 x 1024 product (grid 16 x 8: 1,024 warps of about 15,400
    // steps each), which the old rule's 10,000 per warp stopped.
    let o = Overrides { grid: Some("16,8".into()), ..overrides(Mode::PreVolta, &["n=1024"]) };
    let compiled = compile_with(SGEMM, &o);
    let old = Config { max_steps: Some(kernel_file_step_limit(1_024, 0)), ..Config::default() };
    assert_eq!(run_compiled(&compiled, old).outcome, Outcome::StepLimit);
    let r = run_compiled(&compiled, Config::default());
    assert_eq!(r.outcome, Outcome::Completed, "{}", r.explanation());
    assert!(r.machine.steps > kernel_file_step_limit(1_024, 0) && r.machine.steps < r.machine.max_steps);
    // C[0][0] = sum over k of A[k] B[k n], with A[i] = i % 7 * 0.5 and B[i] = i % 5 * 0.25.
    let c00: f64 = (0..1024u64).map(|k| (k % 7) as f64 * 0.5 * ((k * 1024) % 5) as f64 * 0.25).sum();
    assert_eq!(r.floats("C")[0], c00);
}

#[test]
fn a_runaway_loop_with_a_large_argument_still_ends_at_the_step_limit_with_exit_code_4() {
    let compiled = compile(RUNAWAY, Mode::Its, &[]);
    let asked = argument_steps(1, compiled.kernel.instrs.len() as u64, 1 << 20);
    assert!(asked > 10_000_000, "n = 2^20 raises the limit of one warp above the floor: {asked}");
    let r = run_compiled(&compiled, Config::default());
    assert_eq!((r.outcome.clone(), r.machine.max_steps), (Outcome::StepLimit, asked));
    assert!(r.explanation().contains("step limit"), "{}", r.explanation());
    // The command's exit code and report, with a smaller limit (the run above took the raised one).
    for file in [RUNAWAY, "tests/conformance/runaway.cu"] {
        let out = warpdbg(&["run", file, "--json", "--memory", "none", "--max-steps", "200000"]);
        assert_eq!(out.status.code(), Some(4), "{file}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("\"step_limit\""), "{file}");
    }
}

#[test]
fn loop_constants_count_as_arguments_do_and_other_constants_do_not() {
    let at = |src: &str| {
        let c = compile_source("k.cu", src.as_bytes(), &overrides(Mode::Its, &[])).expect("compiles");
        let (_, params) = GlobalMemory::from_launch(&c.launch);
        (largest_loop_constant(&c.kernel), largest_bound(&c.kernel, &params))
    };
    let head = "// @arg a int[4] = 0\n// @arg n = 300\n#define N 2048\n";
    // A loop's bound, with an argument: the larger.
    assert_eq!(
        at(&format!("{head}__global__ void k(int *a, int n) {{ for (int i = 0; i < N; i++) a[0] += n; }}\n")),
        (2048, 2048)
    );
    // An `if`'s constant does not count, nor a negative one, nor a float.
    let src = format!(
        "{head}__global__ void k(int *a, int n) {{ if (a[0] < 100000) a[1] = 1; for (int i = 0; i > -50000; i--) a[2] += i; \
         for (float x = 0; x < 1e9f; x += 1) a[3] += n; }}\n"
    );
    assert_eq!(at(&src), (0, 300));
    // `while` and unsigned bounds; a constant on the left.
    let src = format!(
        "{head}__global__ void k(int *a, int n) {{ unsigned i = 0; while (70000u > i) i += a[0]; a[1] = i; }}\n"
    );
    assert_eq!(at(&src), (70_000, 70_000));
    assert_eq!(largest_loop_constant(&compile(LOOP_CONSTANT, Mode::Its, &[]).kernel), 1 << 21);
}

#[test]
fn a_loop_over_a_constant_the_old_rule_stopped_completes() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let compiled = compile(LOOP_CONSTANT, mode, &[]);
        let old = Config { max_steps: Some(kernel_file_step_limit(1, 0)), ..Config::default() };
        assert_eq!(run_compiled(&compiled, old).outcome, Outcome::StepLimit);
        let r = run_compiled(&compiled, Config::default());
        assert_eq!(r.outcome, Outcome::Completed, "{}", r.explanation());
        let asked = argument_steps(1, compiled.kernel.instrs.len() as u64, 1 << 21);
        assert_eq!(r.machine.max_steps, asked);
        assert!(r.machine.steps > kernel_file_step_limit(1, 0) && r.machine.steps < asked);
        let sums: Vec<i64> =
            (0..32u32).map(|t| (0..1u32 << 21).fold(0u32, |s, k| s.wrapping_add(k ^ t)) as i64).collect();
        assert_eq!(r.ints("out"), sums);
    }
}

#[test]
fn a_runaway_loop_over_a_constant_ends_at_the_limit_the_constant_asks_for() {
    let compiled = compile(RUNAWAY_CONSTANT, Mode::Its, &[]);
    let asked = argument_steps(1, compiled.kernel.instrs.len() as u64, 1 << 20);
    let r = run_compiled(&compiled, Config::default());
    assert_eq!((r.outcome.clone(), r.machine.max_steps, r.machine.steps), (Outcome::StepLimit, asked, asked));
    assert!(r.explanation().contains("step limit"), "{}", r.explanation());
}

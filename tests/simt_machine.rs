//! The simulated SM and its pre-Volta SIMT-stack model (issue 4): exact final memory of every seed kernel
//! (computed here from the inputs, not copied from output), the textbook divergence figures, SIMT-stack pushes
//! and pops, the pre-Volta spin-lock livelock, and sanitizer-style faults.

mod common;

use common::{MODES, compile, initial_ints, line_of, run, run_with, trace};
use warpdbg::front::launch::Mode;
use warpdbg::ir::Pc;
use warpdbg::sim::inspect::{self, StackEntry};
use warpdbg::sim::{Config, LaneMask, LaunchError, Machine, Outcome};

// ---------------------------------------------------------------- final memory of every seed kernel

#[test]
fn vec_add_sums_every_element_in_both_modes() {
    for mode in MODES {
        for n in [1003u32, 100] {
            let r = run("kernels/vec_add.cu", mode, &[&format!("n={n}")]);
            assert_eq!(r.outcome(), "completed");
            let want: Vec<f64> = (0..n).map(|i| (i as f32 * 0.5 + (2 * i) as f32) as f64).collect();
            assert_eq!(r.floats("C"), want, "{mode:?} n={n}");
        }
    }
}

#[test]
fn grayscale_converts_every_pixel_with_c_float_rules() {
    let path = "kernels/grayscale.cu";
    for mode in MODES {
        let c = compile(path, mode, &[]);
        let pin = initial_ints(&c, "Pin");
        let r = run(path, mode, &[]);
        assert_eq!(r.outcome(), "completed");
        // nvcc contracts `0.21f * r + 0.71f * g + 0.07f * b` into two FMAs (fused left to right, the left
        // product first): one rounding each; the store truncates to unsigned char. An H100 agrees on every
        // pixel (tests/conformance/expected/grayscale.json).
        let want: Vec<i64> = pin
            .chunks(3)
            .map(|p| {
                let (r, g, b) = (p[0] as f32, p[1] as f32, p[2] as f32);
                0.07f32.mul_add(b, 0.21f32.mul_add(r, 0.71f32 * g)) as u8 as i64
            })
            .collect();
        assert_eq!(want.len(), 76 * 62);
        let got = r.ints("Pout");
        let wrong: Vec<(usize, i64, i64)> = got
            .iter()
            .zip(&want)
            .enumerate()
            .filter(|(_, (g, w))| g != w)
            .map(|(i, (g, w))| (i, *g, *w))
            .take(5)
            .collect();
        assert!(wrong.is_empty(), "{mode:?}: (pixel, got, want) {wrong:?}");
    }
}

#[test]
fn loop_divergence_runs_each_threads_own_trip_count() {
    for mode in MODES {
        let r = run("kernels/loop_divergence.cu", mode, &[]);
        let want: Vec<i64> = (0..32).map(|t: i64| (0..4 + t % 5).map(|k| (t + 1) * (k + 1)).sum()).collect();
        assert_eq!(r.ints("out"), want, "{mode:?}");
    }
}

#[test]
fn math_kernels_and_warp_indexing_pick_the_right_side() {
    type Expected = fn(i64) -> f64;
    let cases: [(&str, Expected); 4] = [
        ("mathKernel1", |t| if t % 2 == 0 { 100.0 } else { 200.0 }),
        ("mathKernel2", |t| if (t / 32) % 2 == 0 { 100.0 } else { 200.0 }),
        ("mathKernel3", |t| if t % 2 == 0 { 100.0 } else { 200.0 }),
        // `itid & 0x01 == 0` is `itid & (0x01 == 0)`: always 0, so every thread takes the else side.
        ("mathKernel4", |_| 200.0),
    ];
    for mode in MODES {
        for (kernel, f) in cases {
            let mut ov = common::overrides(mode, &[]);
            ov.kernel = Some(kernel.into());
            let r = common::run_compiled(&common::compile_with("kernels/math_kernels.cu", &ov), Config::default());
            assert_eq!(r.outcome, Outcome::Completed);
            assert_eq!(r.floats("c"), (0..64).map(f).collect::<Vec<_>>(), "{kernel} {mode:?}");
        }
        let r = run("kernels/warp_indexing.cu", mode, &[]);
        let want: Vec<f64> = (0..128)
            .map(|t| if (t / 32) % 2 == 0 { 100.0 + (t / 32) as f64 } else { 200.0 + (t / 32) as f64 })
            .collect();
        assert_eq!(r.floats("c"), want, "warp_indexing {mode:?}");
    }
}

/// The reductions' whole input array after the kernel, done sequentially stride by stride (each stride's
/// updates touch disjoint elements, so the order inside a stride does not matter).
fn reduce_in_place(data: &mut [i64], block: usize, kernel: &str) {
    for b in data.chunks_mut(block) {
        match kernel {
            "neighbored" => {
                let mut stride = 1;
                while stride < block {
                    for tid in (0..block).filter(|t| t % (2 * stride) == 0) {
                        b[tid] = (b[tid] + b[tid + stride]) as i32 as i64;
                    }
                    stride *= 2;
                }
            }
            "less" => {
                let mut stride = 1;
                while stride < block {
                    for tid in 0..block {
                        let index = 2 * stride * tid;
                        if index < block {
                            b[index] = (b[index] + b[index + stride]) as i32 as i64;
                        }
                    }
                    stride *= 2;
                }
            }
            _ => {
                let mut stride = block / 2;
                while stride > 0 {
                    for tid in 0..stride {
                        b[tid] = (b[tid] + b[tid + stride]) as i32 as i64;
                    }
                    stride /= 2;
                }
            }
        }
    }
}

#[test]
fn reductions_sum_every_block_and_leave_the_partial_sums() {
    for (path, kernel) in [
        ("kernels/reduce_neighbored.cu", "neighbored"),
        ("kernels/reduce_neighbored_less.cu", "less"),
        ("kernels/reduce_interleaved.cu", "interleaved"),
    ] {
        for mode in MODES {
            let c = compile(path, mode, &[]);
            let input = initial_ints(&c, "g_idata");
            assert_eq!(input.len(), 1 << 13);
            assert!(input.iter().all(|v| (0..=255).contains(v)) && input.iter().any(|v| *v != input[0]));
            let sums: Vec<i64> = input.chunks(512).map(|b| b.iter().sum()).collect();
            let mut partial = input.clone();
            reduce_in_place(&mut partial, 512, kernel);
            let r = run(path, mode, &[]);
            assert_eq!(r.outcome(), "completed");
            assert_eq!(r.ints("g_odata"), sums, "{path} {mode:?}");
            assert_eq!(r.ints("g_idata"), partial, "{path} {mode:?}");
        }
    }
}

#[test]
fn spin_lock_completes_in_its_and_safe_spin_lock_everywhere() {
    let r = run("kernels/spin_lock.cu", Mode::Its, &[]);
    assert_eq!((r.outcome(), r.ints("counter"), r.ints("lock")), ("completed", vec![32], vec![0]));
    for mode in MODES {
        let r = run("tests/conformance/safe_spin_lock.cu", mode, &[]);
        assert_eq!((r.outcome(), r.ints("counter"), r.ints("lock")), ("completed", vec![32], vec![0]), "{mode:?}");
    }
}

#[test]
fn deadlock_kernel_in_pre_volta_completes_with_what_the_divergent_barrier_lets_through() {
    // Pre-Volta counts whole warps at a barrier: the even threads pass line 28 before any odd thread has
    // written its s[tid], so they read s[tid + 1] == 0; the odd threads later read the evens' sums.
    let r = run("kernels/deadlock.cu", Mode::PreVolta, &[]);
    assert_eq!(r.outcome(), "completed");
    let input: Vec<i64> = (0..64).collect();
    let even = |t: usize| (0..8).map(|k| input[(t + k) % 64]).sum::<i64>();
    let odd = |t: usize| (0..8).fold(1i64, |acc, k| (acc * 3 + input[(t + k) % 64]) as i32 as i64);
    let want: Vec<i64> = (0..64).map(|t| if t % 2 == 0 { even(t) } else { odd(t) - even(t - 1) }).collect();
    assert_eq!(r.ints("out"), want);
    assert_eq!(r.ints("in"), input);
}

// ---------------------------------------------------------------- textbook divergence figures

fn divergent_per_warp(r: &common::Run, line: u64) -> f64 {
    r.line(line)["divergent_branches"].as_f64().expect("count") / r.metric("warps")
}

#[test]
fn vec_add_warps_and_divergent_warps_match_the_textbook() {
    for mode in MODES {
        for (n, warps) in [(1003, 32.0), (100, 4.0)] {
            let r = run("kernels/vec_add.cu", mode, &[&format!("n={n}")]);
            assert_eq!((r.metric("warps"), r.metric("divergent_warps")), (warps, 1.0), "{mode:?} n={n}");
            assert_eq!(r.metric("divergent_branches"), 1.0);
            assert_eq!(r.metric("branches"), warps);
            assert_eq!(r.metric("branch_efficiency"), 100.0 * (warps - 1.0) / warps);
        }
    }
}

#[test]
fn grayscale_has_160_warps_and_31_divergent() {
    for mode in MODES {
        let r = run("kernels/grayscale.cu", mode, &[]);
        assert_eq!((r.metric("warps"), r.metric("divergent_warps")), (160.0, 31.0), "{mode:?}");
        // Counted per statement: the `&&` operand that diverges in the bottom row's warps does not count.
        let line = line_of("kernels/grayscale.cu", "if (col < width && row < height)");
        assert_eq!(r.line(line)["divergent_warps"], 31);
        assert_eq!(r.line(line)["divergent_branches"], 31);
    }
}

#[test]
fn reduction_if_lines_diverge_as_measured_on_an_h100() {
    for (path, cond, per_warp) in [
        ("kernels/reduce_neighbored.cu", "if ((tid % (2 * stride)) == 0)", 5.9375),
        ("kernels/reduce_neighbored_less.cu", "if (index < blockDim.x)", 0.3125),
        ("kernels/reduce_interleaved.cu", "if (tid < stride)", 0.3125),
    ] {
        for mode in MODES {
            let r = run(path, mode, &[]);
            assert_eq!(r.metric("warps"), 256.0);
            assert_eq!(divergent_per_warp(&r, line_of(path, cond)), per_warp, "{path} {mode:?}");
            // warpdbg also counts `if (tid == 0)`, which nvcc predicates: warp 0 of each block diverges.
            assert_eq!(divergent_per_warp(&r, line_of(path, "if (tid == 0)")), 1.0 / 16.0, "{path}");
        }
    }
}

#[test]
fn threads_per_instruction_is_thread_over_warp_instructions() {
    let r = run("kernels/loop_divergence.cu", Mode::PreVolta, &[]);
    let (t, w) = (r.metric("thread_instructions"), r.metric("warp_instructions"));
    assert!(w > 0.0 && t < 32.0 * w);
    // The report rounds to three decimals.
    assert_eq!(r.metric("threads_per_instruction"), (t / w * 1000.0).round() / 1000.0);
    // Independently: the trace's issued lanes sum to the thread instructions.
    let issued = trace("kernels/loop_divergence.cu", Mode::PreVolta, &[]);
    assert_eq!(issued.len() as f64, w);
    assert_eq!(issued.iter().map(|i| i.mask.count() as f64).sum::<f64>(), t);
}

// ---------------------------------------------------------------- SIMT stack

/// (line, mask, stack depth) of each issued instruction.
fn issued(path: &str, mode: Mode) -> Vec<(u32, u32, Option<u32>)> {
    trace(path, mode, &[]).iter().map(|i| (i.line, i.mask.0, i.stack_depth)).collect()
}

/// Runs of equal (mask, depth): the order paths run in and how deep the stack is while they do.
fn phases(path: &str) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = vec![];
    for (_, mask, depth) in issued(path, Mode::PreVolta) {
        let p = (mask, depth.expect("pre-Volta traces carry the depth"));
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    out
}

#[test]
fn figure_4_9_runs_a_then_b_then_c() {
    assert_eq!(
        phases("tests/conformance/fig49.cu"),
        vec![(0xffff_ffff, 1), (0x00ff_ffff, 3), (0xff00_0000, 2), (0xffff_ffff, 1)]
    );
    let r = run("tests/conformance/fig49.cu", Mode::PreVolta, &[]);
    assert_eq!(r.ints("out"), (0..32).map(|t| if t < 24 { 2 * t } else { 3 * t }).collect::<Vec<_>>());
    assert_eq!(r.metric("max_stack_depth"), 3.0);
}

#[test]
fn nested_if_else_pushes_and_pops_in_order() {
    // Outer then (0-15) with the outer reconvergence entry and the else entry below it; inside, inner then
    // (0-7), inner else (8-15), the inner join (0-15), then the outer else (16-31), then everyone.
    assert_eq!(
        phases("tests/conformance/nested.cu"),
        vec![
            (0xffff_ffff, 1),
            (0x0000_ffff, 3),
            (0x0000_00ff, 5),
            (0x0000_ff00, 4),
            (0x0000_ffff, 3),
            (0xffff_0000, 2),
            (0xffff_ffff, 1)
        ]
    );
    let r = run("tests/conformance/nested.cu", Mode::PreVolta, &[]);
    assert_eq!(
        r.ints("out"),
        (0..32)
            .map(|t| if t < 8 {
                11
            } else if t < 16 {
                12
            } else {
                3
            })
            .collect::<Vec<_>>()
    );
    assert_eq!(r.metric("max_stack_depth"), 5.0);
}

#[test]
fn nested_stack_entries_hold_pc_rpc_and_mask() {
    let c = compile("tests/conformance/nested.cu", Mode::PreVolta, &[]);
    let mut m = Machine::new(&c, &Config::default()).expect("launch");
    let inner_then = line_of("tests/conformance/nested.cu", "v = 1;") as u32;
    let join = line_of("tests/conformance/nested.cu", "v = v + 10;") as u32;
    let outer_else = line_of("tests/conformance/nested.cu", "v = 3;") as u32;
    let store = line_of("tests/conformance/nested.cu", "out[tid] = v;") as u32;
    // Step until the inner then-path is about to run.
    let stack = loop {
        m.step(1);
        let Some(stack) = inspect::simt_stack(&m.blocks[0].warps[0]) else { panic!("pre-Volta warp") };
        if m.kernel.line(stack.top().expect("entries").pc) == inner_then {
            break stack.clone();
        }
        assert!(m.steps < 50, "inner then never reached");
    };
    let lines: Vec<(u32, Option<u32>, u32)> = stack
        .entries
        .iter()
        .map(|e: &StackEntry| (m.kernel.line(e.pc), (e.rpc != Pc::EXIT).then(|| m.kernel.line(e.rpc)), e.mask.0))
        .collect();
    // The inner else entry waits at its first instruction (`v = 2`, line after `} else {`).
    let inner_else = line_of("tests/conformance/nested.cu", "v = 2;") as u32;
    assert_eq!(
        lines,
        vec![
            (store, None, 0xffff_ffff),
            (outer_else, Some(store), 0xffff_0000),
            (join, Some(store), 0x0000_ffff),
            (inner_else, Some(join), 0x0000_ff00),
            (inner_then, Some(join), 0x0000_00ff),
        ]
    );
    // What the screen shows: each lane where it waits, in the topmost entry that holds it, once.
    let groups: Vec<(u32, u32, &str)> = warpdbg::sim::inspect::thread_groups(&m.blocks[0].warps[0])
        .iter()
        .map(|(pc, mask, what)| (m.kernel.line(*pc), mask.0, *what))
        .collect();
    let mut want = vec![
        (inner_then, 0x0000_00ff, "running"),
        (inner_else, 0x0000_ff00, "waiting in stack"),
        (outer_else, 0xffff_0000, "waiting in stack"),
    ];
    want.sort_by_key(|g| stack.entries.iter().position(|e| m.kernel.line(e.pc) == g.0));
    let mut got = groups.clone();
    got.sort_by_key(|g| stack.entries.iter().position(|e| m.kernel.line(e.pc) == g.0));
    assert_eq!(got, want);
    let lines = warpdbg::sim::inspect::warps_per_line(&m);
    assert_eq!(lines.values().copied().collect::<Vec<_>>(), vec![1, 1, 1], "{lines:?}");
}

#[test]
fn divergent_loop_keeps_one_entry_for_the_staying_threads() {
    // 4 + tid % 5 iterations: all 32 threads for 4, then 25, 18, 12, 6; the stack holds the loop's exit
    // entry and one entry for the threads that stay (replaced, not grown, at each further divergence).
    let body = line_of("kernels/loop_divergence.cu", "sum += in[tid]") as u32;
    let rows = issued("kernels/loop_divergence.cu", Mode::PreVolta);
    let first_pc = trace("kernels/loop_divergence.cu", Mode::PreVolta, &[])
        .iter()
        .filter(|i| i.line == body)
        .map(|i| i.pc)
        .min()
        .expect("body issued");
    let per_iteration: Vec<(u32, u32)> = trace("kernels/loop_divergence.cu", Mode::PreVolta, &[])
        .iter()
        .filter(|i| i.pc == first_pc)
        .map(|i| (i.mask.count(), i.stack_depth.expect("depth")))
        .collect();
    assert_eq!(per_iteration, vec![(32, 1), (32, 1), (32, 1), (32, 1), (25, 2), (18, 2), (12, 2), (6, 2)]);
    assert_eq!(rows.last().map(|r| (r.1, r.2)), Some((0xffff_ffff, Some(1))), "all reconverge for the store");
    let r = run("kernels/loop_divergence.cu", Mode::PreVolta, &[]);
    assert_eq!(r.metric("max_stack_depth"), 2.0);
    let cond = line_of("kernels/loop_divergence.cu", "for (int k = 0; k < 4 + tid % 5; k++)");
    // The loop condition runs 9 times; it diverges at iterations 4..7 (5 divides 32 unevenly).
    assert_eq!((r.line(cond)["branches"].as_u64(), r.line(cond)["divergent_branches"].as_u64()), (Some(9), Some(4)));
}

#[test]
fn early_return_removes_threads_from_every_entry() {
    let rows = issued("tests/conformance/early_return.cu", Mode::PreVolta);
    let ret = line_of("tests/conformance/early_return.cu", "return;") as u32;
    let store = line_of("tests/conformance/early_return.cu", "out[tid] = tid;") as u32;
    assert!(rows.contains(&(ret, 0x0000_00ff, Some(2))), "threads 0-7 return on their own entry: {rows:?}");
    // After the return the remaining threads run alone, on a stack of one entry: nobody waits for 0-7.
    let after: Vec<_> = rows.iter().filter(|r| r.0 == store).collect();
    assert!(!after.is_empty() && after.iter().all(|r| r.1 == 0xffff_ff00 && r.2 == Some(1)), "{after:?}");
    let r = run("tests/conformance/early_return.cu", Mode::PreVolta, &[]);
    assert_eq!(r.ints("out"), (0..32).map(|t| if t < 8 { 0 } else { t }).collect::<Vec<_>>());
}

// ---------------------------------------------------------------- SIMT-induced deadlock

#[test]
fn naive_spin_lock_livelocks_in_pre_volta_and_is_explained() {
    let path = "kernels/spin_lock.cu";
    let r = run(path, Mode::PreVolta, &[]);
    assert_eq!(r.outcome(), "livelock");
    let spin = line_of(path, "while (atomicCAS(lock, 0, 1) != 0)");
    let critical = line_of(path, "*counter = *counter + 1;");
    assert_eq!(
        r.waits(),
        vec![(spin, "spin".to_string(), "1-31".to_string()), (critical, "reconvergence".to_string(), "0".to_string())]
    );
    let e = r.explanation();
    assert!(e.contains(&format!("threads 1-31 of block (0,0,0) are spinning on line {spin}")), "{e}");
    assert!(e.contains(&format!("thread 0 is waiting, masked, at line {critical}")), "{e}");
    assert!(e.contains("SIMT-induced deadlock"), "{e}");
    assert_eq!((r.ints("lock"), r.ints("counter")), (vec![1], vec![0]));
}

// ---------------------------------------------------------------- faults

fn fault(r: &common::Run) -> &serde_json::Value {
    assert_eq!(r.outcome(), "fault");
    let f = r.json["faults"].as_array().expect("faults");
    assert_eq!(f.len(), 1);
    &f[0]
}

#[test]
fn off_by_one_read_is_reported_like_compute_sanitizer() {
    let path = "tests/conformance/off_by_one.cu";
    for mode in MODES {
        let r = run(path, mode, &[]);
        let f = fault(&r);
        let base = r.machine.global.find("g_idata").expect("g_idata").base;
        assert_eq!(f["kind"], "out_of_bounds");
        assert_eq!(f["line"], line_of(path, "int v = g_idata[idx];"));
        assert_eq!(
            (f["thread"].clone(), f["block"].clone()),
            (serde_json::json!([488, 0, 0]), serde_json::json!([1, 0, 0]))
        );
        assert_eq!(f["address"].as_u64(), Some(base + 4000));
        let msg = f["message"].as_str().expect("message");
        for want in [
            "========= Invalid __global__ read of size 4 bytes".to_string(),
            format!("in {path}:10"),
            "by thread (488,0,0) in block (1,0,0)".to_string(),
            format!("Access to {:#x} is out of bounds", base + 4000),
            "is 1 bytes after the nearest allocation g_idata".to_string(),
            "of size 4,000 bytes".to_string(),
            "read g_idata[1000], one element past the end".to_string(),
        ] {
            assert!(msg.contains(&want), "{want:?} missing from\n{msg}");
        }
    }
}

#[test]
fn shared_out_of_bounds_write_names_the_array() {
    let r = run("tests/conformance/shared_oob.cu", Mode::Its, &[]);
    let f = fault(&r);
    assert_eq!((f["kind"].as_str(), f["line"].as_u64()), (Some("out_of_bounds"), Some(7)));
    assert_eq!(f["thread"], serde_json::json!([32, 0, 0]));
    let msg = f["message"].as_str().expect("message");
    assert!(msg.contains("Invalid __shared__ write of size 4 bytes"), "{msg}");
    assert!(msg.contains("1 bytes after the nearest allocation s at"), "{msg}");
    assert!(msg.contains("of size 128 bytes"), "{msg}");
    // The faulting warp's store did not happen; warp 0's did.
    assert_eq!(r.ints("out"), vec![0; 64]);
}

#[test]
fn division_by_zero_names_the_thread() {
    for mode in MODES {
        let r = run("tests/conformance/div_zero.cu", mode, &[]);
        let f = fault(&r);
        assert_eq!((f["kind"].as_str(), f["line"].as_u64()), (Some("division_by_zero"), Some(7)));
        assert_eq!(f["thread"], serde_json::json!([5, 0, 0]));
        assert!(f["message"].as_str().expect("message").contains("Integer division by zero"));
    }
}

#[test]
fn runaway_loop_stops_at_the_step_limit() {
    for mode in MODES {
        let config = Config { max_steps: Some(5_000), ..Default::default() };
        let r = run_with("tests/conformance/runaway.cu", mode, &[], config);
        assert_eq!(r.outcome, Outcome::StepLimit);
        assert_eq!(r.json["steps"], 5_000);
        assert!(r.explanation().contains("step limit"), "{}", r.explanation());
        assert_eq!(r.ints("out"), vec![0]);
    }
}

#[test]
fn oversized_launch_is_refused_before_allocating() {
    let c = compile("kernels/vec_add.cu", Mode::Its, &["n=1<<28"]);
    let config = Config { memory_cap: 1 << 30, ..Default::default() };
    match Machine::new(&c, &config) {
        Err(e @ LaunchError::MemoryCap { needed, cap }) => {
            assert_eq!(cap, 1 << 30);
            assert!(needed >= 3 << 30, "three arrays of 1<<28 floats: {needed}");
            assert!(e.to_string().contains("pass --memory-cap BYTES"), "{e}");
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a 3 GiB launch passed a 1 GiB cap"),
    }
}

#[test]
fn a_block_with_a_partial_warp_never_runs_the_missing_lanes() {
    // 40 threads: warp 1 has lanes 0-7 only (threads 32-39).
    let mut ov = common::overrides(Mode::PreVolta, &["out=int[40]=0"]);
    ov.block = Some("40".into());
    let c = common::compile_with("tests/conformance/early_return.cu", &ov);
    let mut m = Machine::new(&c, &Config::default()).expect("launch");
    assert_eq!(m.blocks[0].warps[1].exists, LaneMask(0xff));
    let mut lanes_of_warp_1 = LaneMask::EMPTY;
    let o = m.step_traced(10_000, &mut |i| {
        if i.warp.0 == 1 {
            lanes_of_warp_1 = lanes_of_warp_1.or(i.mask);
        }
    });
    assert_eq!(o, Outcome::Completed);
    assert_eq!(lanes_of_warp_1, LaneMask(0xff));
    let out: Vec<u64> = (0..40).map(|i| m.global.find("out").expect("out").element(i)).collect();
    assert_eq!(out, (0..40).map(|t| if t < 8 { 0 } else { t }).collect::<Vec<u64>>());
}

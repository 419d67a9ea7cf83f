//! The device JIT (`sim::jit`, docs/jit.md) changes nothing a run shows: every kernel of `kernels/`,
//! `benches/kernels/` and `tests/conformance/`, in both execution models, run whole with every straight
//! segment compiled at its first issue (`DeviceJit::Eager`) and with none (`DeviceJit::Off`), ends with the
//! same outcome, steps, memory, metrics, hazards and reports.

mod common;

use std::path::{Path, PathBuf};

use warpdbg::compile;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::{Config, DeviceJit, Machine, Tuning, jit_compiled_segments, report};

/// As `tests/trace_identity.rs`: kernels that never finish stop here.
const MAX_STEPS: u64 = 1_000_000;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn kernel_files() -> Vec<String> {
    common::cu_files(&["kernels", "benches/kernels", "tests/conformance"])
}

fn run(compiled: &compile::Compiled, jit: DeviceJit) -> (Machine, warpdbg::sim::Outcome) {
    let config = Config {
        max_steps: Some(MAX_STEPS),
        tuning: Tuning { device_jit: jit, ..Tuning::default() },
        ..Config::default()
    };
    let mut m = Machine::new(compiled, &config).expect("launch fits");
    let o = m.run();
    (m, o)
}

#[test]
fn compiled_segments_change_nothing_a_run_shows() {
    let before = jit_compiled_segments();
    let mut whole_runs = 0;
    for path in kernel_files() {
        let bytes = std::fs::read(root().join(&path)).expect("kernel file exists");
        for mode in [Mode::PreVolta, Mode::Its] {
            let overrides = Overrides { mode: Some(mode), ..Default::default() };
            let Ok(compiled) = compile::compile(&path, &bytes, &overrides) else { continue };
            let what = format!("{path} {mode:?}");
            let (off, o1) = run(&compiled, DeviceJit::Off);
            let (jit, o2) = run(&compiled, DeviceJit::Eager);
            whole_runs += jit.ran_parallel() as u32;
            assert_eq!(o1, o2, "{what}");
            assert_eq!(off.steps, jit.steps, "{what}");
            for (a, b) in off.global.allocs.iter().zip(&jit.global.allocs) {
                assert!(a.data == b.data, "{what}: {} differs", a.name);
            }
            assert_eq!(off.metrics, jit.metrics, "{what}");
            assert_eq!(off.hazards, jit.hazards, "{what}");
            assert_eq!(report::json(&off, &o1), report::json(&jit, &o2), "{what}");
            assert_eq!(report::text(&off, &o1), report::text(&jit, &o2), "{what}");
        }
    }
    // The compiled path ran: most launches run whole, and their straight code has segments.
    assert!(whole_runs > 20, "only {whole_runs} launches ran whole");
    assert!(jit_compiled_segments() - before > 50, "{} segments compiled", jit_compiled_segments() - before);
}

/// Large launches (many blocks, partial warps at the edge, several waves of groups, the hot threshold
/// crossed mid-run) give the same result with hot segments compiled as interpreted.
#[test]
fn hot_segments_change_nothing_at_size() {
    let launches: [(&str, &[&str]); 5] = [
        ("kernels/reduce_neighbored.cu", &["n=131072"]),
        ("kernels/vec_add.cu", &["n=100003"]),
        ("kernels/grayscale.cu", &["width=300", "height=200"]),
        ("benches/kernels/sgemm_naive.cu", &["n=72"]),
        ("benches/kernels/sgemm_tiled.cu", &["n=64"]),
    ];
    for (path, args) in launches {
        for mode in [Mode::PreVolta, Mode::Its] {
            let bytes = std::fs::read(root().join(path)).expect("kernel file exists");
            let args = args.iter().map(|a| a.to_string()).collect();
            let overrides = Overrides { mode: Some(mode), args, ..Default::default() };
            let compiled = compile::compile(path, &bytes, &overrides).expect("compiles");
            let what = format!("{path} {mode:?}");
            let (off, o1) = run(&compiled, DeviceJit::Off);
            let (hot, o2) = run(&compiled, DeviceJit::Hot);
            assert!(hot.ran_parallel(), "{what}: not a whole run");
            assert_eq!(off.steps, hot.steps, "{what}");
            assert_eq!(off.metrics, hot.metrics, "{what}");
            assert_eq!(report::json(&off, &o1), report::json(&hot, &o2), "{what}");
            for (a, b) in off.global.allocs.iter().zip(&hot.global.allocs) {
                assert!(a.data == b.data, "{what}: {} differs", a.name);
            }
        }
    }
}

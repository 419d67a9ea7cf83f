//! `warpdbg run` and `warpdbg trace` through the real binary: the exit codes, the `run --json` report and the
//! `trace --jsonl` lines that interface.md fixes for course autograders.

mod common;

use common::{line_of, warpdbg};
use serde_json::Value;

fn json(args: &[&str]) -> (Value, Option<i32>) {
    let out = warpdbg(args);
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    (v, out.status.code())
}

#[test]
fn exit_codes_follow_the_outcome_for_run_and_trace() {
    for (file, extra, outcome, code) in [
        ("kernels/vec_add.cu", &[][..], "completed", 0),
        ("kernels/deadlock.cu", &["--mode", "pre-volta"][..], "completed", 0),
        ("tests/conformance/off_by_one.cu", &[][..], "fault", 1),
        ("tests/conformance/div_zero.cu", &[][..], "fault", 1),
        ("kernels/deadlock.cu", &[][..], "deadlock", 3),
        ("kernels/spin_lock.cu", &["--mode", "pre-volta"][..], "livelock", 3),
        ("tests/conformance/runaway.cu", &["--max-steps", "2000"][..], "step_limit", 4),
    ] {
        let mut args = vec!["run", file, "--json"];
        args.extend_from_slice(extra);
        let (report, status) = json(&args);
        assert_eq!((report["outcome"].as_str(), status), (Some(outcome), Some(code)), "{args:?}");
        let mut args = vec!["trace", file, "--jsonl"];
        args.extend_from_slice(extra);
        assert_eq!(warpdbg(&args).status.code(), Some(code), "{args:?}");
    }
    let missing = warpdbg(&["run", "no/such/file.cu"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read no/such/file.cu"));
    let bad = warpdbg(&["run", "tests/fixtures/bad/missing_paren.cu", "--json"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("missing_paren.cu:7:16"));
    let cap = warpdbg(&["run", "kernels/vec_add.cu", "--memory-cap", "1000"]);
    assert_eq!(cap.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&cap.stderr).contains("more than the cap of 1000 bytes"));
}

#[test]
fn run_json_has_every_field_of_the_interface() {
    let (r, _) = json(&["run", "kernels/deadlock.cu", "--json"]);
    for key in [
        "kernel",
        "mode",
        "grid",
        "block",
        "outcome",
        "explanation",
        "steps",
        "memory",
        "metrics",
        "hazards",
        "faults",
        "waits",
    ] {
        assert!(r.get(key).is_some(), "missing {key}");
    }
    for key in [
        "warps",
        "warp_instructions",
        "thread_instructions",
        "threads_per_instruction",
        "branches",
        "divergent_branches",
        "branch_efficiency",
        "divergent_warps",
        "max_stack_depth",
        "per_line",
    ] {
        assert!(r["metrics"].get(key).is_some(), "missing metrics.{key}");
    }
    assert_eq!((r["kernel"].as_str(), r["mode"].as_str()), (Some("evenOdd"), Some("its")));
    assert_eq!((r["grid"].clone(), r["block"].clone()), (serde_json::json!([1, 1, 1]), serde_json::json!([64, 1, 1])));
    assert_eq!(r["memory"]["in"].as_array().map(Vec::len), Some(64));
    let w = &r["waits"][0];
    for key in ["line", "kind", "threads", "message"] {
        assert!(w.get(key).is_some(), "missing waits.{key}");
    }
    let row = &r["metrics"]["per_line"][0];
    for key in ["line", "branches", "divergent_branches", "divergent_warps"] {
        assert!(row.get(key).is_some(), "missing per_line.{key}");
    }
    let (f, _) = json(&["run", "tests/conformance/off_by_one.cu", "--json"]);
    for key in ["kind", "line", "block", "thread", "address", "message"] {
        assert!(f["faults"][0].get(key).is_some(), "missing faults.{key}");
    }
    let (h, _) = json(&["run", "kernels/deadlock.cu", "--mode", "pre-volta", "--json"]);
    for key in ["kind", "line", "message"] {
        assert!(h["hazards"][0].get(key).is_some(), "missing hazards.{key}");
    }
}

fn trace_lines(args: &[&str]) -> Vec<Value> {
    let out = warpdbg(args);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

#[test]
fn trace_jsonl_lines_have_the_interface_fields() {
    let its = trace_lines(&["trace", "tests/conformance/fig49.cu", "--jsonl"]);
    let pv = trace_lines(&["trace", "tests/conformance/fig49.cu", "--jsonl", "--mode", "pre-volta"]);
    assert_eq!(
        its[4],
        serde_json::json!({"step": 5, "block": [0,0,0], "warp": 0, "line": 8, "pc": 4, "mask": "0x00ffffff"})
    );
    assert_eq!(
        pv[4],
        serde_json::json!({"step": 5, "block": [0,0,0], "warp": 0, "line": 8, "pc": 4, "mask": "0x00ffffff", "stack_depth": 3})
    );
    let steps: Vec<u64> = its.iter().map(|l| l["step"].as_u64().expect("step")).collect();
    assert_eq!(steps, (1..=its.len() as u64).collect::<Vec<_>>(), "steps count from 1 in issue order");
    let (r, _) = json(&["run", "tests/conformance/fig49.cu", "--json"]);
    assert_eq!(r["steps"].as_u64(), Some(its.len() as u64));
}

#[test]
fn trace_of_a_divergent_loop_shows_the_active_lanes_of_each_iteration() {
    let body = line_of("kernels/loop_divergence.cu", "sum += in[tid]");
    for mode in ["its", "pre-volta"] {
        let rows = trace_lines(&["trace", "kernels/loop_divergence.cu", "--jsonl", "--mode", mode]);
        let first_pc = rows.iter().filter(|r| r["line"] == body).map(|r| r["pc"].as_u64().expect("pc")).min();
        let lanes: Vec<u32> = rows
            .iter()
            .filter(|r| r["pc"].as_u64() == first_pc)
            .map(|r| u32::from_str_radix(r["mask"].as_str().expect("mask").trim_start_matches("0x"), 16).expect("hex"))
            .map(u32::count_ones)
            .collect();
        assert_eq!(lanes, vec![32, 32, 32, 32, 25, 18, 12, 6], "{mode}");
    }
}

#[test]
fn readable_report_names_outcome_metrics_and_memory() {
    let out = warpdbg(&["run", "kernels/vec_add.cu", "--arg", "n=100"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("kernel vecAdd (kernels/vec_add.cu), mode its, grid (2,1,1) x block (64,1,1)\n"),
        "{text}"
    );
    assert!(text.contains("outcome: completed after 64 steps"), "{text}");
    assert!(text.contains("metrics: 4 warps, 64 warp-instructions, 28.50 threads per instruction, 4 branches, 1 divergent (branch efficiency 75.00%), 1 divergent warps"), "{text}");
    assert!(text.contains("C = [0.0, 2.5, 5.0, 7.5, 10.0, 12.5,"), "{text}");
}

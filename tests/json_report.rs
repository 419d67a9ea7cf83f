//! The streamed `run --json` report: the same content as the report built in memory, every array on one
//! line, and `--memory changed|none` for tools that need less.

mod common;

use serde_json::{Map, Value, json};
use warpdbg::compile;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::{Config, Machine, MemoryDetail, report};

fn streamed(m: &Machine, outcome: &warpdbg::sim::Outcome, detail: MemoryDetail) -> String {
    let mut out = vec![];
    report::write_json(&mut out, m, outcome, detail, Map::new()).expect("writes to a Vec");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn the_streamed_report_equals_the_report_built_in_memory() {
    let mut files: Vec<String> = std::fs::read_dir(common::repo("kernels"))
        .expect("kernels/")
        .chain(std::fs::read_dir(common::repo("tests/conformance")).expect("tests/conformance/"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .map(|p| p.strip_prefix(common::repo("")).expect("in the repo").display().to_string())
        .collect();
    files.sort();
    assert!(files.len() > 50, "{files:?}");
    for file in &files {
        let compiled = common::compile(file, Mode::Its, &[]);
        let config = Config { max_steps: Some(200_000), ..Config::default() };
        let mut m = Machine::new(&compiled, &config).expect("launch fits");
        let outcome = m.run();
        let text = streamed(&m, &outcome, MemoryDetail::Full);
        let parsed: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}\n{text}"));
        assert_eq!(parsed, report::json(&m, &outcome), "{file}");
        // Each array is one line of the memory object.
        for a in &m.global.allocs {
            let start = format!("    \"{}\": [", a.name);
            let line = text.lines().find(|l| l.starts_with(&start)).unwrap_or_else(|| panic!("{file}: {}", a.name));
            assert!(line.trim_end_matches(',').ends_with(']'), "{file}: {line}");
        }
    }
}

const KERNEL: &str = "// @block 8\n\
// @arg a int[8] = i\n\
// @arg f float[4] = 1.5\n\
// @arg untouched int[3] = rand(0, 9)\n\
__global__ void k(int *a, float *f, int *untouched) {\n\
    int t = threadIdx.x;\n\
    if (t % 3 == 0) a[t] = -t;\n\
    if (t == 1) f[2] = 0.0f / 0.0f;\n\
    if (t == 2) f[3] = 0.1f;\n\
}\n";

fn run_kernel() -> (Machine, warpdbg::sim::Outcome) {
    let o = Overrides { mode: Some(Mode::Its), ..Overrides::default() };
    let c = compile::compile("k.cu", KERNEL.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"));
    let mut m = Machine::new(&c, &Config::default()).expect("launch fits");
    let outcome = m.run();
    (m, outcome)
}

#[test]
fn changed_memory_lists_the_elements_that_differ_from_their_launch_values() {
    let (m, outcome) = run_kernel();
    let v: Value = serde_json::from_str(&streamed(&m, &outcome, MemoryDetail::Changed)).expect("JSON");
    // a[0] = -0 = 0 is its launch value (i = 0), so it did not change; a[3] and a[6] did. NaN is null, as in the
    // full report; 0.1f widened to double.
    assert_eq!(
        v["memory"],
        json!({
            "a": {"len": 8, "changed": [[3, -3], [6, -6]]},
            "f": {"len": 4, "changed": [[2, null], [3, 0.10000000149011612]]},
            "untouched": {"len": 3, "changed": []},
        })
    );
    let full = report::json(&m, &outcome);
    assert_eq!(full["memory"]["f"], json!([1.5, 1.5, null, 0.10000000149011612]));
    // Everything else is the same report.
    let mut without = v.clone();
    without["memory"] = full["memory"].clone();
    assert_eq!(without, full);
}

#[test]
fn no_memory_leaves_an_empty_object_and_the_rest_of_the_report() {
    let (m, outcome) = run_kernel();
    let text = streamed(&m, &outcome, MemoryDetail::None);
    assert!(text.contains("\n  \"memory\": {},\n"), "{text}");
    let v: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(v["outcome"], "completed");
    assert_eq!(v["metrics"], report::json(&m, &outcome)["metrics"]);
}

#[test]
fn the_memory_flag_is_read_by_the_binary_and_needs_json() {
    let out = common::warpdbg(&["run", "kernels/vec_add.cu", "--json", "--memory", "changed"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mem = v["memory"].as_object().expect("memory");
    assert_eq!(mem.keys().collect::<Vec<_>>(), ["A", "B", "C"]);
    assert_eq!(mem["A"]["changed"], json!([]));
    let len = mem["C"]["len"].as_u64().expect("len");
    // C[i] = 0.5 i + 2 i: every element but C[0] = 0, its launch value, changed.
    let changed = mem["C"]["changed"].as_array().expect("changed");
    assert_eq!(changed.len() as u64, len - 1);
    assert_eq!(changed[0], json!([1, 2.5]));
    let out = common::warpdbg(&["run", "kernels/vec_add.cu", "--memory", "none"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--json"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = common::warpdbg(&["run", "kernels/vec_add.cu", "--json", "--memory", "some"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected full, changed or none"));
}

//! warpdbg against real hardware: every kernel of `kernels/` and `tests/conformance/` was run on an NVIDIA GPU
//! (`tests/conformance/record.sh`: the same launch and inputs, nvcc -O2 -arch=sm_90, Nsight Compute and
//! compute-sanitizer) and what the GPU did is kept in `tests/conformance/expected/NAME.json`. This test runs
//! warpdbg (ITS, the model of that GPU) on each and compares: outcome (a hang is a deadlock, livelock or step
//! limit), final memory exactly, sanitizer findings (memcheck faults at the same line and thread, racecheck
//! hazards as shared_race), and divergence, shared bank-conflict and memory counts, which must agree or carry a
//! written explanation that names Nsight's figure, with warpdbg's own figure recorded beside it and checked
//! (docs/conformance.md).

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use warpdbg::front::launch::Mode;
use warpdbg::sim::Config;

fn expected_files() -> Vec<(String, Value)> {
    let dir = common::repo("tests/conformance/expected");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .expect("expected/ exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let name = p.file_stem().expect("name").to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&p).expect("readable");
            (name, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// A float as the GPU stored it (f32), so `0.300000012` and `0.30000001192092896` compare equal.
fn same_value(hw: &Value, wd: &Value) -> bool {
    match (hw, wd) {
        (Value::Number(a), Value::Number(b)) if a.is_f64() || b.is_f64() => {
            let (a, b) = (a.as_f64().expect("number"), b.as_f64().expect("number"));
            (a as f32).to_bits() == (b as f32).to_bits()
        }
        _ => hw == wd,
    }
}

/// `in FILE.cu:LINE` and `by thread (x,y,z) in block (x,y,z)` from a compute-sanitizer report.
fn sanitizer_site(lines: &[Value]) -> Option<(u64, String)> {
    let text: Vec<&str> = lines.iter().filter_map(Value::as_str).collect();
    let line = text.iter().find_map(|l| l.rsplit_once(".cu:").and_then(|(_, n)| n.trim().parse().ok()))?;
    let who = text.iter().find_map(|l| l.split_once("by thread ").map(|(_, w)| w.trim().to_string()))?;
    Some((line, who))
}

/// A count as a figure in a note: `1520`, not `1520.0`.
fn figure(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { format!("{n}") }
}

/// Whether `note` says `LABEL N` for exactly the figure `n` (`Nsight 12` does not name 1 nor 120).
fn names(note: &str, label: &str, n: f64) -> bool {
    let want = format!("{label} {}", figure(n));
    note.match_indices(&want).any(|(i, m)| {
        let rest = &note[i + m.len()..];
        let digit = |s: &str| s.starts_with(|c: char| c.is_ascii_digit());
        !(digit(rest) || rest.strip_prefix('.').is_some_and(digit))
    })
}

/// The rule by which a count may differ from Nsight's: a note (under `note_key`) that names both figures,
/// `Nsight N` and `warpdbg M`, and says why, and warpdbg's figure recorded under `figure_key`, which warpdbg
/// must still produce. A note or a recorded figure where the counts agree is stale and fails too.
struct Excuse<'a> {
    note_key: &'a str,
    figure_key: &'a str,
}

impl Excuse<'_> {
    fn check(&self, name: &str, what: &str, nsight: f64, ours: f64, note: &Value, recorded: &Value) -> Vec<String> {
        let (n, o) = (figure(nsight), figure(ours));
        let (note_key, figure_key) = (self.note_key, self.figure_key);
        let mut bad = vec![];
        if !note.is_null() && !note.is_string() {
            bad.push(format!("{name}: {note_key} must be a string"));
        }
        let text = note.as_str().unwrap_or("");
        if nsight == ours {
            if !text.is_empty() || !recorded.is_null() {
                bad.push(format!("{name}: {what} agree ({n}) but {note_key} or {figure_key} says they differ"));
            }
            return bad;
        }
        if text.is_empty() {
            bad.push(format!("{name}: Nsight {n} {what}, warpdbg {o}, and no {note_key}"));
            return bad;
        }
        if !names(text, "Nsight", nsight) {
            bad.push(format!("{name}: {note_key} does not name Nsight's figure as `Nsight {n}`"));
        }
        if !names(text, "warpdbg", ours) {
            bad.push(format!("{name}: {note_key} does not name warpdbg's figure as `warpdbg {o}`"));
        }
        match recorded.as_f64() {
            None => bad.push(format!("{name}: {what} excused by {note_key} but no {figure_key} recorded")),
            Some(r) if r != ours => {
                bad.push(format!("{name}: warpdbg now counts {o} {what}, {figure_key} records {}", figure(r)))
            }
            Some(_) => {}
        }
        bad
    }
}

/// The memory counts compared: a name (the key of `memory_note` and `warpdbg_memory`), the `nsight_memory` keys
/// whose sum is Nsight's figure (collect.py's names for the metrics of docs/conformance.md), and where warpdbg's
/// figure lies in its `run --json` report.
const MEMORY_COUNTS: &[(&str, &[&str], [&str; 3])] = &[
    ("global_load_requests", &["global_ld_requests"], ["global_memory", "load", "requests"]),
    ("global_load_sectors", &["global_ld_sectors"], ["global_memory", "load", "sectors"]),
    ("global_store_requests", &["global_st_requests"], ["global_memory", "store", "requests"]),
    ("global_store_sectors", &["global_st_sectors"], ["global_memory", "store", "sectors"]),
    (
        "global_atomic_requests",
        &["global_atom_requests", "global_red_requests"],
        ["global_memory", "atomic", "requests"],
    ),
    ("shared_load_requests", &["shared_ld_requests"], ["shared_memory", "load", "requests"]),
    ("shared_load_wavefronts", &["shared_ld_wavefronts"], ["shared_memory", "load", "wavefronts"]),
    ("shared_store_requests", &["shared_st_requests"], ["shared_memory", "store", "requests"]),
    ("shared_store_wavefronts", &["shared_st_wavefronts"], ["shared_memory", "store", "wavefronts"]),
];

/// Compares the recorded `nsight_memory` with warpdbg's `global_memory` and `shared_memory`: each count equal, or
/// excused by its entry in `memory_note` (an object, count name -> note) with warpdbg's figure in
/// `warpdbg_memory` (count name -> figure). A count whose Nsight metrics were not all recorded (ncu rejected
/// one) is not compared.
fn compare_memory(name: &str, e: &Value, report: &Value) -> Vec<String> {
    let mut bad = vec![];
    let (notes, recorded) = (&e["memory_note"], &e["warpdbg_memory"]);
    for (key, v) in [("memory_note", notes), ("warpdbg_memory", recorded)] {
        if !v.is_null() && !v.is_object() {
            bad.push(format!("{name}: {key} must be an object keyed by count"));
        }
        for k in v.as_object().into_iter().flat_map(|o| o.keys()) {
            if !MEMORY_COUNTS.iter().any(|(c, _, _)| c == k) {
                bad.push(format!("{name}: {key}.{k} is no count the test compares"));
            }
        }
    }
    for (count, metrics, [a, b, c]) in MEMORY_COUNTS {
        let Some(nsight) = metrics.iter().map(|m| e["nsight_memory"][m].as_f64()).sum::<Option<f64>>() else {
            continue;
        };
        let Some(ours) = report[a][b][c].as_f64() else {
            bad.push(format!("{name}: warpdbg's report has no {a}.{b}.{c} ({count})"));
            continue;
        };
        let (note_key, figure_key) = (format!("memory_note.{count}"), format!("warpdbg_memory.{count}"));
        let excuse = Excuse { note_key: &note_key, figure_key: &figure_key };
        let what = count.replace('_', " ");
        bad.extend(excuse.check(name, &what, nsight, ours, &notes[count], &recorded[count]));
    }
    bad
}

/// Compares one kernel; returns what disagrees.
fn compare(name: &str, e: &Value) -> Vec<String> {
    let mut bad = vec![];
    let file = e["file"].as_str().expect("file");
    // A million steps is far more than any of these kernels issues when it finishes; the hangs stop there.
    let config = Config { max_steps: Some(1_000_000), ..Config::default() };
    let r = common::run_with(file, Mode::Its, &[], config);
    let wd = r.outcome().to_string();
    let hw = e["outcome"].as_str().expect("outcome");
    let memcheck = e["sanitizer"]["memcheck"]["errors"].as_u64().unwrap_or(0);
    let racecheck = e["sanitizer"]["racecheck"]["errors"].as_u64().unwrap_or(0);
    let synccheck = e["sanitizer"]["synccheck"]["errors"].as_u64().unwrap_or(0);
    // What warpdbg should say, from what the hardware and its sanitizer did.
    let want: &[&str] = match (hw, e["expect_outcome"].as_str()) {
        (_, Some(explained)) => {
            assert!(e["notes"].is_string(), "{name}: expect_outcome needs notes saying why");
            if explained == "fault" { &["fault"] } else { &["completed"] }
        }
        ("hang", None) => &["deadlock", "livelock", "step_limit"],
        ("fault", None) => &["fault"],
        ("completed", None) if memcheck > 0 => &["fault"],
        ("completed", None) => &["completed"],
        (other, None) => {
            bad.push(format!("{name}: the hardware run did not finish normally ({other})"));
            return bad;
        }
    };
    if !want.contains(&wd.as_str()) {
        bad.push(format!("{name}: hardware {hw} (memcheck {memcheck}), warpdbg {wd}: {}", r.explanation()));
    }
    // Faults at the same line, by the same thread, as memcheck says.
    if memcheck > 0 && wd == "fault" {
        let lines = e["sanitizer"]["memcheck"]["first"].as_array().cloned().unwrap_or_default();
        if let Some((line, who)) = sanitizer_site(&lines) {
            let f = &r.json["faults"][0];
            let t = |v: &Value| v.as_array().map(|a| a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","));
            let ours =
                format!("({}) in block ({})", t(&f["thread"]).unwrap_or_default(), t(&f["block"]).unwrap_or_default());
            if f["line"].as_u64() != Some(line) || ours != who {
                bad.push(format!("{name}: memcheck: line {line} {who}; warpdbg: line {} {ours}", f["line"]));
            }
        }
    }
    // Final memory, where the kernel completed on both.
    if hw == "completed" && wd == "completed" {
        let ignore: BTreeSet<&str> =
            e["ignore_memory"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        for (array, values) in e["memory"].as_object().expect("memory") {
            if ignore.contains(array.as_str()) {
                continue;
            }
            let ours = r.json["memory"][array].as_array().cloned().unwrap_or_default();
            let hw_values = values.as_array().expect("array");
            if ours.len() != hw_values.len() {
                bad.push(format!("{name}: {array} has {} elements, the GPU's {}", ours.len(), hw_values.len()));
                continue;
            }
            let wrong: Vec<String> = hw_values
                .iter()
                .zip(&ours)
                .enumerate()
                .filter(|(i, (h, o))| !ignore.contains(format!("{array}[{i}]").as_str()) && !same_value(h, o))
                .map(|(i, (h, o))| format!("{array}[{i}] GPU {h} warpdbg {o}"))
                .collect();
            if !wrong.is_empty() {
                bad.push(format!("{name}: {} differ: {}", wrong.len(), wrong[..wrong.len().min(4)].join("; ")));
            }
        }
    }
    // racecheck hazards <-> shared_race hazards; synccheck errors <-> a barrier hazard or a hang.
    let races = r.hazards().iter().filter(|(k, _)| k == "shared_race").count();
    if (racecheck > 0) != (races > 0) && e["expect_outcome"].is_null() {
        bad.push(format!("{name}: racecheck reported {racecheck}, warpdbg {races} shared_race hazards"));
    }
    if synccheck > 0 && r.hazards().is_empty() && wd == "completed" {
        bad.push(format!("{name}: synccheck reported {synccheck} errors, warpdbg nothing"));
    }
    // Divergence: Nsight's SASS count equals warpdbg's source count, or the file explains the difference.
    if let Some(div) = e["ncu"]["branch_targets_divergent"].as_f64() {
        let ours = r.metric("divergent_branches");
        let excuse = Excuse { note_key: "divergence_note", figure_key: "warpdbg_divergent_branches" };
        bad.extend(excuse.check(name, "divergent branches", div, ours, &e["divergence_note"], &e[excuse.figure_key]));
    }
    // Shared-memory bank conflicts: Nsight's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.
    if let (Some(ld), Some(st)) =
        (e["ncu"]["shared_bank_conflicts_ld"].as_f64(), e["ncu"]["shared_bank_conflicts_st"].as_f64())
    {
        let ours = r.json["shared_bank_conflicts"]["total"].as_f64().unwrap_or(0.0);
        let excuse = Excuse { note_key: "bank_note", figure_key: "warpdbg_bank_conflicts" };
        bad.extend(excuse.check(name, "shared bank conflicts", ld + st, ours, &e["bank_note"], &e[excuse.figure_key]));
    }
    // Global and shared memory counts, once both the recording and warpdbg's report have them.
    if e["nsight_memory"].is_object() && r.json["global_memory"].is_object() {
        bad.extend(compare_memory(name, e, &r.json));
    }
    bad
}

#[test]
fn every_kernel_agrees_with_the_recorded_hardware_run() {
    let files = expected_files();
    assert!(files.len() >= 40, "only {} kernels have hardware results", files.len());
    let bad: Vec<String> = files.iter().flat_map(|(name, e)| compare(name, e)).collect();
    assert!(bad.is_empty(), "{} disagreements:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn every_kernel_file_has_a_hardware_result_with_its_provenance() {
    let recorded: BTreeSet<String> =
        expected_files().iter().map(|(_, e)| e["file"].as_str().expect("file").to_string()).collect();
    for dir in ["kernels", "tests/conformance"] {
        for entry in std::fs::read_dir(common::repo(dir)).expect("dir") {
            let p = entry.expect("entry").path();
            if p.extension().is_some_and(|e| e == "cu") {
                let rel = format!("{dir}/{}", p.file_name().expect("name").to_string_lossy());
                assert!(recorded.contains(&rel), "{rel} has no hardware result: run tests/conformance/record.sh {rel}");
            }
        }
    }
    for (name, e) in expected_files() {
        let file = e["file"].as_str().expect("file");
        assert!(Path::new(&common::repo(file)).exists(), "{name}: {file} is gone");
        for key in ["gpu", "cuda", "date"] {
            assert!(e["recorded"][key].is_string(), "{name}: recorded.{key} missing");
        }
    }
}

#[test]
fn the_comparison_catches_a_wrong_result() {
    // The check itself must be able to fail: change one element of a recorded result and of an outcome.
    let (_, mut e) = expected_files().into_iter().find(|(n, _)| n == "vec_add").expect("vec_add recorded");
    e["memory"]["C"][7] = serde_json::json!(1.0);
    let bad = compare("vec_add", &e);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].contains("C[7] GPU 1.0 warpdbg 17.5"), "{bad:?}");
    e["outcome"] = serde_json::json!("hang");
    assert!(compare("vec_add", &e).iter().any(|b| b.contains("hardware hang")));
}

#[test]
fn an_excused_count_names_nsights_figure_and_records_warpdbgs() {
    let div = Excuse { note_key: "divergence_note", figure_key: "warpdbg_divergent_branches" };
    let check = |nsight: f64, ours: f64, note: Value, recorded: Value| {
        div.check("k", "divergent branches", nsight, ours, &note, &recorded)
    };
    let note = || serde_json::json!("Nsight 12 (nvcc predicates the if), warpdbg 16: the source if diverges");
    assert!(check(12.0, 16.0, note(), serde_json::json!(16)).is_empty());
    assert!(check(16.0, 16.0, Value::Null, Value::Null).is_empty());
    let only = |bad: Vec<String>, what: &str| {
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(bad[0].contains(what), "{bad:?}");
    };
    only(
        check(12.0, 16.0, Value::Null, Value::Null),
        "Nsight 12 divergent branches, warpdbg 16, and no divergence_note",
    );
    only(check(12.0, 16.0, note(), Value::Null), "no warpdbg_divergent_branches recorded");
    only(check(12.0, 17.0, serde_json::json!("Nsight 12, warpdbg 17"), serde_json::json!(16)), "warpdbg now counts 17");
    // The figures must be named exactly: not 1 nor 120 for 12, and warpdbg's too.
    only(check(1.0, 16.0, note(), serde_json::json!(16)), "does not name Nsight's figure as `Nsight 1`");
    only(check(120.0, 16.0, note(), serde_json::json!(16)), "`Nsight 120`");
    only(check(12.0, 15.0, note(), serde_json::json!(15)), "does not name warpdbg's figure as `warpdbg 15`");
    // A note or a recorded figure where the counts agree is stale.
    only(check(16.0, 16.0, note(), Value::Null), "agree (16)");
    only(check(16.0, 16.0, Value::Null, serde_json::json!(16)), "agree (16)");
    // Through the whole comparison: vec_add's Nsight 0 against warpdbg's 1 needs its recorded figure.
    let (_, mut e) = expected_files().into_iter().find(|(n, _)| n == "vec_add").expect("vec_add recorded");
    assert_eq!(e["warpdbg_divergent_branches"], serde_json::json!(1), "vec_add's excuse");
    e.as_object_mut().expect("object").remove("warpdbg_divergent_branches");
    only(compare("vec_add", &e), "vec_add: divergent branches excused by divergence_note but no warpdbg_divergent");
}

#[test]
fn the_memory_comparison_checks_each_count_and_its_excuse() {
    // A made-up recording and report (no recording has nsight_memory yet: docs/conformance.md).
    let mut report = serde_json::json!({
        "global_memory": {
            "load": {"requests": 8, "sectors": 32, "bytes": 1024},
            "store": {"requests": 4, "sectors": 16, "bytes": 512},
            "atomic": {"requests": 3, "sectors": 3, "bytes": 12},
            "per_line": []
        },
        "shared_memory": {"load": {"requests": 6, "wavefronts": 12}, "store": {"requests": 2, "wavefronts": 2}}
    });
    let mut e = serde_json::json!({"nsight_memory": {
        "global_ld_requests": 8.0, "global_ld_sectors": 32.0, "global_st_requests": 4.0, "global_st_sectors": 16.0,
        "global_atom_requests": 1.0, "global_atom_sectors": 1.0, "global_red_requests": 2.0, "global_red_sectors": 2.0,
        "shared_ld_requests": 6.0, "shared_ld_wavefronts": 12.0, "shared_st_requests": 2.0, "shared_st_wavefronts": 2.0
    }});
    // Every count equal (atomics: atom + red).
    assert_eq!(compare_memory("m", &e, &report), Vec::<String>::new());
    let only = |bad: Vec<String>, what: &str| {
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(bad[0].contains(what), "{bad:?}");
    };
    // A count that differs fails unless excused.
    e["nsight_memory"]["global_ld_sectors"] = serde_json::json!(64.0);
    only(compare_memory("m", &e, &report), "m: Nsight 64 global load sectors, warpdbg 32, and no memory_note.global");
    e["memory_note"] = serde_json::json!({"global_load_sectors": "Nsight 64 (made up), warpdbg 32: a made-up reason"});
    only(compare_memory("m", &e, &report), "no warpdbg_memory.global_load_sectors recorded");
    e["warpdbg_memory"] = serde_json::json!({"global_load_sectors": 32});
    assert_eq!(compare_memory("m", &e, &report), Vec::<String>::new());
    // warpdbg's recorded figure stays checked.
    report["global_memory"]["load"]["sectors"] = serde_json::json!(48);
    let bad = compare_memory("m", &e, &report);
    assert!(bad.iter().any(|b| b.contains("warpdbg now counts 48 global load sectors")), "{bad:?}");
    report["global_memory"]["load"]["sectors"] = serde_json::json!(32);
    // The note must name Nsight's figure.
    e["memory_note"]["global_load_sectors"] = serde_json::json!("Nsight 6, warpdbg 32: a made-up reason");
    only(compare_memory("m", &e, &report), "memory_note.global_load_sectors does not name Nsight's figure");
    // An excuse where the counts agree is stale; a key that names no count is a mistake.
    e["nsight_memory"]["global_ld_sectors"] = serde_json::json!(32.0);
    only(compare_memory("m", &e, &report), "global load sectors agree (32)");
    e["memory_note"] = serde_json::json!({"global_load_sector": "Nsight 64, warpdbg 32"});
    e.as_object_mut().expect("object").remove("warpdbg_memory");
    only(compare_memory("m", &e, &report), "memory_note.global_load_sector is no count the test compares");
    e.as_object_mut().expect("object").remove("memory_note");
    // Atomics count atom and red; a count whose metric ncu rejected is not compared.
    report["global_memory"]["atomic"]["requests"] = serde_json::json!(4);
    only(compare_memory("m", &e, &report), "Nsight 3 global atomic requests, warpdbg 4");
    e["nsight_memory"].as_object_mut().expect("object").remove("global_red_requests");
    assert_eq!(compare_memory("m", &e, &report), Vec::<String>::new());
    // A figure warpdbg's report lacks fails.
    report.as_object_mut().expect("object").remove("shared_memory");
    let bad = compare_memory("m", &e, &report);
    assert_eq!(bad.len(), 4, "{bad:?}");
    assert!(bad[0].contains("no shared_memory.load.requests"), "{bad:?}");
}

#[test]
fn the_host_program_embeds_warpdbgs_inputs_and_launch() {
    let out = common::warpdbg(&["host", "kernels/grayscale.cu"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    // The kernel file itself, then the launch with the file's grid and block and its scalar arguments.
    let source = std::fs::read_to_string(common::repo("kernels/grayscale.cu")).expect("kernel");
    assert!(text.contains(&source), "the kernel file is embedded verbatim");
    assert!(text.contains("cudaLaunchKernel((const void *)colorToGreyscaleConversion, dim3(5, 4, 1), dim3(16, 16, 1)"));
    assert!(text.contains("int p2 = (int)76ull; // width") && text.contains("int p3 = (int)62ull; // height"));
    // Pin's rand(0, 255) values, exactly those the simulator starts from.
    let c = common::compile("kernels/grayscale.cu", Mode::Its, &[]);
    let pin = common::initial_ints(&c, "Pin");
    let start = text.find("static const unsigned char init_Pin[14136] = {").expect("Pin's initialiser");
    let body = &text[start..];
    let values: Vec<i64> = body[body.find('{').expect("{") + 1..body.find('}').expect("}")]
        .split(',')
        .filter(|v| !v.trim().is_empty())
        .map(|v| v.trim().trim_end_matches('u').parse().expect("a number"))
        .collect();
    assert_eq!(values, pin);
    // Every array is copied back and written in `run --json`'s memory shape.
    assert!(text.contains(r#"fprintf(f, "\"Pout\": [");"#) && text.contains(r#"fprintf(f, ", \"Pin\": [");"#));
}

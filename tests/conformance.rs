//! warpdbg against real hardware: every kernel of `kernels/` and `tests/conformance/` was run on an NVIDIA GPU
//! (`tests/conformance/record.sh`: the same launch and inputs, nvcc -O2 -arch=sm_90, Nsight Compute and
//! compute-sanitizer) and what the GPU did is kept in `tests/conformance/expected/NAME.json`. This test runs
//! warpdbg (ITS, the model of that GPU) on each and compares: outcome (a hang is a deadlock, livelock or step
//! limit), final memory exactly, sanitizer findings (memcheck faults at the same line and thread, racecheck
//! hazards as shared_race), and divergence and shared bank-conflict counts, which must agree or carry a written
//! explanation.

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
        let note = e["divergence_note"].as_str().unwrap_or("");
        if div != ours && note.is_empty() {
            bad.push(format!("{name}: Nsight {div} divergent branches, warpdbg {ours}, and no divergence_note"));
        }
        if div == ours && !note.is_empty() {
            bad.push(format!("{name}: counts agree ({div}) but a divergence_note says they differ"));
        }
    }
    // Shared-memory bank conflicts: Nsight's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.
    if let (Some(ld), Some(st)) =
        (e["ncu"]["shared_bank_conflicts_ld"].as_f64(), e["ncu"]["shared_bank_conflicts_st"].as_f64())
    {
        let ours = r.json["shared_bank_conflicts"]["total"].as_f64().unwrap_or(0.0);
        if ld + st != ours && e["bank_note"].is_null() {
            bad.push(format!("{name}: Nsight {} shared bank conflicts, warpdbg {ours}, and no bank_note", ld + st));
        }
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

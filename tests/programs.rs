//! Whole programs (`tests/programs/*.cu`, homework-style `.cu` files with `main`), run with `warpdbg run` and
//! compared with what an H100 printed for them (`tests/programs/expected/`, recorded by
//! `tests/programs/record.sh`). A program's first or last lines may say:
//!
//! - `// args: A B`: its command-line arguments (on the GPU too);
//! - `// nvcc: FLAGS`: what else nvcc needs to build it on the GPU (`-rdc=true`; warpdbg ignores it);
//! - `// finding: TEXT`: a bug warpdbg must report (TEXT appears on its standard error); the program then
//!   stops there, so its standard output must be the start of the GPU's, and the exit status is warpdbg's
//!   (`// status: N`);
//!
//! - `// differs from line N: WHY`: a measured difference (docs/programs.md); standard output is compared on
//!   the lines before N only;
//! - `// not compared: WHY`: a program about warpdbg's own simulated device, with no GPU recording;
//! - `// heavy: WHY`: a program at textbook scale, checked only by an optimised build (`cargo test --release
//!   --test programs`, about a minute), skipped by a debug one;
//!
//! otherwise its standard output must equal the GPU's, lines that print a timing compared by shape (their
//! numbers masked), and its exit status must be the GPU's.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `// key: value` lines of a program (at its top, or at its end so that its line numbers stay those
/// other tests name).
fn header(text: &str, key: &str) -> Vec<String> {
    let tag = format!("// {key}:");
    text.lines().filter_map(|l| l.strip_prefix(&tag).map(|v| v.trim().to_string())).collect()
}

/// A line that prints how long something took: its numbers do not have to match.
fn shape(line: &str) -> String {
    let l = line.to_ascii_lowercase();
    if !["time", "elapsed", " ms", "msec", "sec", "gb/s", "bandwidth", "gflop"].iter().any(|w| l.contains(w)) {
        return line.to_string();
    }
    let mut out = String::new();
    let mut in_num = false;
    for c in line.chars() {
        let digit = c.is_ascii_digit() || (in_num && (c == '.' || c == 'e' || c == '-' || c == '+'));
        if digit && !in_num {
            out.push('#');
        }
        if !digit {
            out.push(c);
        }
        in_num = digit;
    }
    out
}

struct Outcome {
    stdout: String,
    stderr: String,
    status: i32,
}

fn run(program: &Path, args: &[String]) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpdbg"));
    cmd.arg("run").arg(program).current_dir(root());
    if !args.is_empty() {
        cmd.arg("--").args(args);
    }
    let out = cmd.output().expect("warpdbg runs");
    Outcome {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        status: out.status.code().unwrap_or(-1),
    }
}

#[test]
fn every_program_prints_what_the_gpu_printed() {
    let dir = root().join("tests/programs");
    let mut checked = 0;
    let mut failures = vec![];
    let mut entries: Vec<_> = std::fs::read_dir(&dir).expect("tests/programs").flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries.iter().filter(|p| p.extension().is_some_and(|e| e == "cu")) {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let expected = dir.join("expected").join(format!("{name}.stdout"));
        let text = std::fs::read_to_string(path).expect("program");
        if !header(&text, "not compared").is_empty() {
            continue;
        }
        // A program at textbook scale runs for minutes unoptimised: `cargo test --release` checks it.
        if cfg!(debug_assertions) && !header(&text, "heavy").is_empty() {
            continue;
        }
        let Ok(gpu_out) = std::fs::read_to_string(&expected) else {
            failures.push(format!("{name}: no GPU recording (run tests/programs/record.sh on a GPU machine)"));
            continue;
        };
        let gpu_status: i32 = std::fs::read_to_string(dir.join("expected").join(format!("{name}.status")))
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(-1);
        let args: Vec<String> =
            header(&text, "args").first().map(|a| a.split_whitespace().map(String::from).collect()).unwrap_or_default();
        let findings = header(&text, "finding");
        let mut r = run(path, &args);
        checked += 1;
        let mut gpu_out = gpu_out;
        if let Some(n) = text.lines().find_map(|l| l.strip_prefix("// differs from line ")) {
            let n: usize =
                n.split(':').next().and_then(|n| n.trim().parse().ok()).expect("// differs from line N: WHY");
            let keep = |s: &str| s.split_inclusive('\n').take(n - 1).collect::<String>();
            (r.stdout, gpu_out) = (keep(&r.stdout), keep(&gpu_out));
        }
        if findings.is_empty() {
            let (a, b): (Vec<_>, Vec<_>) =
                (r.stdout.lines().map(shape).collect(), gpu_out.lines().map(shape).collect());
            if a != b || r.stdout.ends_with('\n') != gpu_out.ends_with('\n') {
                failures.push(format!(
                    "{name}: stdout differs\n--- warpdbg\n{}--- GPU\n{gpu_out}--- stderr\n{}",
                    r.stdout, r.stderr
                ));
            }
            if r.status != gpu_status {
                failures.push(format!("{name}: exit status {} (GPU {gpu_status})\n{}", r.status, r.stderr));
            }
            continue;
        }
        if !gpu_out.starts_with(&r.stdout) {
            failures.push(format!(
                "{name}: stdout is not the start of the GPU's\n--- warpdbg\n{}--- GPU\n{gpu_out}",
                r.stdout
            ));
        }
        for f in &findings {
            if !r.stderr.contains(f.as_str()) {
                failures.push(format!("{name}: no finding `{f}` on stderr:\n{}", r.stderr));
            }
        }
        let want: i32 = header(&text, "status").first().and_then(|s| s.parse().ok()).unwrap_or(1);
        if r.status != want {
            failures.push(format!("{name}: exit status {} (want warpdbg's {want})\n{}", r.status, r.stderr));
        }
    }
    assert!(failures.is_empty(), "{} of {checked} programs:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(checked >= 5, "only {checked} programs have GPU recordings");
}

#[test]
fn timing_lines_are_compared_by_shape() {
    assert_eq!(shape("kernel time 0.0312 ms"), "kernel time # ms");
    assert_eq!(shape("elapsed 12 sec, 3.5e-3 GB/s"), "elapsed # sec, # GB/s");
    assert_eq!(shape("sum 517140"), "sum 517140");
}

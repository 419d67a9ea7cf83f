//! Diagnostics for bad input, one fixture file per case in `tests/fixtures/bad/`: the rendered text is pinned as
//! a snapshot (file:line:col, the source line, the caret), and `warpdbg check` is run on every fixture to see
//! that it prints the same text and exits with status 2 without panicking.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use warpdbg::compile;
use warpdbg::front::CompileError;
use warpdbg::front::launch::{Mode, Overrides};

/// Every fixture, with where its first diagnostic points (`line:col`) and how many diagnostics it gives.
const FIXTURES: &[(&str, &str, usize)] = &[
    ("bad_directive_values.cu", "2:10", 3),
    ("block_too_large.cu", "2:4", 1),
    ("break_outside_loop.cu", "6:9", 1),
    ("duplicate_arg.cu", "4:9", 1),
    ("empty.cu", "1:1", 1),
    ("garbage_bytes.cu", "5:27", 4),
    ("macro_bomb.cu", "46:24", 1),
    ("missing_arg.cu", "4:33", 1),
    ("missing_paren.cu", "7:16", 1),
    ("non_utf8.cu", "5:11", 1),
    ("pointer_to_int.cu", "6:13", 1),
    ("several_errors.cu", "2:10", 4),
    ("several_kernels.cu", "8:1", 1),
    ("too_deep.cu", "203:11", 1),
    ("undeclared_name.cu", "6:16", 1),
    ("unknown_directive.cu", "2:4", 1),
    ("unknown_kernel.cu", "2:12", 1),
    ("unknown_parameter.cu", "3:9", 1),
    ("unsupported_goto.cu", "6:18", 1),
    ("unsupported_local_array.cu", "5:10", 1),
    ("unsupported_recursion.cu", "3:1", 1),
    ("unsupported_struct.cu", "2:1", 1),
    ("unterminated_comment.cu", "4:27", 2),
    ("wrong_arg_element_type.cu", "2:13", 1),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture_path(file: &str) -> String {
    format!("tests/fixtures/bad/{file}")
}

fn compile_err(name: &str, bytes: &[u8], o: &Overrides) -> CompileError {
    match compile::compile(name, bytes, o) {
        Ok(c) => panic!("{name} compiled (launching {}), but it should not", c.launch.kernel),
        Err(e) => e,
    }
}

fn warpdbg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpdbg")).args(args).current_dir(root()).output().expect("warpdbg runs")
}

/// What `warpdbg check` prints for a file that does not compile: the diagnostics, then a summary line.
fn expected_stderr(e: &CompileError, path: &str) -> String {
    let n = e.diags.len();
    format!("{}error: could not compile {path}: {n} error{}\n", e.render(), if n == 1 { "" } else { "s" })
}

#[test]
fn every_fixture_is_listed() {
    let mut on_disk: Vec<String> = std::fs::read_dir(root().join("tests/fixtures/bad"))
        .expect("fixtures directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let listed: Vec<String> = FIXTURES.iter().map(|(f, ..)| f.to_string()).collect();
    assert_eq!(on_disk, listed, "FIXTURES must list every file in tests/fixtures/bad, in order");
}

#[test]
fn fixtures_render_as_pinned() {
    for &(file, at, count) in FIXTURES {
        let path = fixture_path(file);
        let bytes = std::fs::read(root().join(&path)).expect("fixture readable");
        let e = compile_err(&path, &bytes, &Overrides::default());
        let text = e.render();
        assert_eq!(e.diags.len(), count, "{path}: number of diagnostics\n{text}");
        // The first diagnostic is the first in the file, and the header names its place.
        assert!(text.starts_with("error["), "{path}:\n{text}");
        assert!(text.lines().nth(1).is_some_and(|l| l.ends_with(&format!("{path}:{at}"))), "{path}:\n{text}");
        assert!(!text.contains('\u{1b}'), "plain text, no colour: {path}");
        let stem = file.strip_suffix(".cu").expect(".cu");
        insta::assert_snapshot!(format!("bad_{stem}"), text);
    }
}

#[test]
fn check_exits_2_with_the_same_diagnostics_on_every_fixture() {
    for &(file, at, _) in FIXTURES {
        let path = fixture_path(file);
        let out = warpdbg(&["check", &path]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{path}: exit status; stderr:\n{stderr}");
        assert!(!stderr.contains("panicked"), "{path} panicked:\n{stderr}");
        assert!(stderr.contains(&format!("{path}:{at}")), "{path}: `{path}:{at}` not in\n{stderr}");
        assert!(out.stdout.is_empty(), "{path}: nothing on stdout");
        let bytes = std::fs::read(root().join(&path)).expect("fixture readable");
        let e = compile_err(&path, &bytes, &Overrides::default());
        assert_eq!(stderr, expected_stderr(&e, &path), "{path}: stderr is the rendered diagnostics");
    }
}

#[test]
fn check_accepts_every_seed_kernel() {
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(root().join("kernels"))
        .expect("kernels/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    kernels.sort();
    assert!(!kernels.is_empty());
    for k in kernels {
        let path = format!("kernels/{}", k.file_name().expect("name").to_string_lossy());
        let out = warpdbg(&["check", &path]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{path}: stderr:\n{stderr}");
        assert!(stdout.starts_with(&format!("ok: {path} launches ")), "{path}: {stdout}");
        assert!(stderr.is_empty(), "{path}: {stderr}");
        // With --ir the IR follows; it reports every branch's reconvergence point.
        let out = warpdbg(&["check", "--ir", &path]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0));
        assert!(stdout.contains("\nkernel ") && stdout.contains("bb0:"), "{path}: {stdout}");
        assert_eq!(stdout.matches("branch ").count(), stdout.matches("; reconverge at ").count(), "{path}");
    }
}

#[test]
fn the_fixtures_are_what_they_say() {
    let bytes = std::fs::read(root().join(fixture_path("non_utf8.cu"))).expect("fixture");
    assert!(std::str::from_utf8(&bytes).is_err(), "non_utf8.cu must hold a byte that is not UTF-8");
    let bytes = std::fs::read(root().join(fixture_path("empty.cu"))).expect("fixture");
    assert!(bytes.is_empty());
    let bytes = std::fs::read(root().join(fixture_path("garbage_bytes.cu"))).expect("fixture");
    assert!(bytes.contains(&1) && bytes.contains(&b'$') && bytes.contains(&b'`'));
}

#[test]
fn non_utf8_bytes_anywhere() {
    // A bad byte in code, and a truncated multi-byte sequence at the very end of the file.
    let e = compile_err("bytes.cu", b"__global__ void k()\n{\n    int x\xff = 1;\n}\n", &Overrides::default());
    insta::assert_snapshot!("bytes_in_code", e.render());
    let e = compile_err("tail.cu", b"__global__ void k() { }\n\xe2\x82", &Overrides::default());
    assert!(e.render().contains("tail.cu:2:1"), "{}", e.render());
}

#[test]
fn override_errors_point_into_the_flag() {
    let src = std::fs::read(root().join("kernels/vec_add.cu")).expect("vec_add.cu");
    let o = Overrides {
        grid: Some("0".into()),
        args: vec!["n=x".into(), "m=3".into()],
        mode: Some(Mode::PreVolta),
        ..Overrides::default()
    };
    let e = compile_err("kernels/vec_add.cu", &src, &o);
    insta::assert_snapshot!("override_errors", e.render());
    let out = warpdbg(&["check", "kernels/vec_add.cu", "--grid", "0"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("--grid 0:1:1"), "{stderr}");
}

/// A valid kernel file of about `bytes` bytes (device functions, then a kernel calling some), whose last
/// statement is `last`. Returns the text and the line `last` is on.
fn big_file(bytes: usize, last: &str) -> (String, u32) {
    let mut s = String::from("// @arg out int[256] = 0\n// @arg n = 256\n");
    let mut i = 0;
    while s.len() < bytes {
        s.push_str(&format!(
            "__device__ int f{i}(int x)\n{{\n    int y = x * {m} + {i};\n    if (y > 100) {{\n        y -= 100;\n    }}\n    \
             return y;\n}}\n\n",
            m = i % 7 + 1
        ));
        i += 1;
    }
    s.push_str("__global__ void k(int *out, int n)\n{\n    int tid = threadIdx.x;\n    int acc = f0(tid) + f1(tid);\n");
    let line = s.lines().count() as u32 + 1;
    s.push_str(&format!("    {last}\n}}\n"));
    (s, line)
}

#[test]
fn one_megabyte_with_one_error_at_the_end() {
    let (good, _) = big_file(1 << 20, "out[tid] = acc;");
    assert!(good.len() >= 1 << 20);
    let c = compile::compile("big.cu", good.as_bytes(), &Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.launch.kernel, "k");

    let (bad, line) = big_file(1 << 20, "out[tid] = acc + accc;");
    let start = Instant::now();
    let e = compile_err("big.cu", bad.as_bytes(), &Overrides::default());
    let took = start.elapsed();
    let text = e.render();
    assert_eq!(e.diags.len(), 1, "{text}");
    assert!(text.contains(&format!("big.cu:{line}:22")), "expected line {line}:\n{text}");
    // Generous for an unoptimised build on a slow CI machine; the release figure is in benches/README.md.
    assert!(took < Duration::from_secs(10), "1 MB took {took:?}");
    insta::assert_snapshot!("one_megabyte", text);

    // The binary reports it too, at the same place.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("one_megabyte.cu");
    std::fs::write(&file, &bad).expect("write temp file");
    let out = Command::new(env!("CARGO_BIN_EXE_warpdbg")).arg("check").arg(&file).output().expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("one_megabyte.cu:{line}:22")), "{stderr}");
    assert!(!stderr.contains("panicked"));
}

//! Runs the real binary, `warpdbg run NAME.cu`, in a fresh folder of its own with a given standard input: the
//! harness of tests whose programs read stdin or write files (`#[path = "common/in_folder.rs"] mod in_folder;`).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// `warpdbg run NAME.cu` on `src` in a fresh folder (named with `tag`), with `input` as its standard input:
/// (stdout, status).
pub fn run(tag: &str, name: &str, src: &str, input: &str) -> (String, i32) {
    let dir = std::env::temp_dir().join(format!("warpdbg-{tag}-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.cu"));
    std::fs::write(&file, src).expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpdbg"))
        .arg("run")
        .arg(&file)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("warpdbg runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input");
    let out = child.wait_with_output().expect("warpdbg ends");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.code().is_some(), "{}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
}

/// The path of the test program `tests/programs/NAME`.
pub fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs").join(name)
}

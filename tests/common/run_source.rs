//! `warpdbg run` of the real binary on a program given as source, written to a scratch file of its own: the
//! harness of the host-language tests that assert the binary's exact output, messages and status
//! (`#[path = "common/run_source.rs"] mod run_source;`).

use std::process::Command;

/// `warpdbg run NAME.cu -- ARGS` on `src`, in a scratch directory named for `tag` and `name`: (stdout,
/// stderr, status).
pub fn run_source(tag: &str, name: &str, src: &str, args: &[&str]) -> (String, String, i32) {
    let dir = std::env::temp_dir().join(format!("warpdbg-{tag}-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.cu"));
    std::fs::write(&file, src).expect("write");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpdbg"));
    cmd.arg("run").arg(&file);
    if !args.is_empty() {
        cmd.arg("--").args(args);
    }
    let out = cmd.current_dir(&dir).output().expect("warpdbg runs");
    let _ = std::fs::remove_dir_all(&dir);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

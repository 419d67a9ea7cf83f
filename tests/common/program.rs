//! Runs a whole program given as source (`warpdbg::program`), as `warpdbg run` does, and keeps what it
//! printed: the harness of the host-language tests (`#[path = "common/program.rs"] mod program_run;`).

use warpdbg::program::{self, RunOptions};

/// What a program printed, and its exit status.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub status: u8,
}

/// Compiles `src` (panicking with the diagnostics if it does not compile) and runs it with default options.
pub fn run(name: &str, src: &str) -> Run {
    let compiled = program::compile(name, src.as_bytes(), &Default::default())
        .unwrap_or_else(|e| panic!("{name} does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    Run { stdout: String::from_utf8_lossy(&out).into(), stderr: String::from_utf8_lossy(&err).into(), status: r.status }
}

/// Runs the test program `tests/programs/NAME.cu` (not every test file runs one of those).
#[allow(dead_code)]
pub fn program_file(name: &str) -> Run {
    let path = format!("{}/tests/programs/{name}.cu", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("test program");
    run(&format!("{name}.cu"), &src)
}

//! One whole program (host code and kernels) run as `warpdbg run` runs it, through the same library API
//! (`program::compile`, `program::run`), with limits small enough for fuzzing: shared by the cargo-fuzz target
//! `fuzz_targets/whole_program.rs` and the stable driver `tests/fuzz_programs.rs`.

use std::io::Write;

use warpdbg::front::launch::Overrides;
use warpdbg::program::{self, RunOptions};

/// What a run of fuzzed bytes came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Ran {
    /// The front end refused it (with at least one error diagnostic).
    Refused,
    /// It ran; warpdbg's exit status.
    Status(u8),
}

/// Drops output past 1 MiB: a fuzzed loop may print for as long as its steps last.
struct Capped(Vec<u8>);

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = (1usize << 20).saturating_sub(self.0.len());
        self.0.extend_from_slice(&buf[..buf.len().min(room)]);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Compiles `bytes` as a `.cu` program and runs it with 200,000 host steps, 2,000,000 device steps a launch and
/// 64 MiB of device memory (so 256 MiB of host memory). Panics only where warpdbg has a bug.
pub fn run_program(bytes: &[u8]) -> Ran {
    let compiled = match program::compile("fuzz.cu", bytes, &Overrides::default()) {
        Ok(c) => c,
        Err(e) => {
            assert!(!e.diags.is_empty(), "a refused program without a diagnostic");
            assert!(e.render().contains("error"));
            return Ran::Refused;
        }
    };
    let mut options = RunOptions { host_steps: 200_000, ..RunOptions::default() };
    options.config.max_steps = Some(2_000_000);
    options.config.memory_cap = 64 << 20;
    let (mut out, mut err) = (Capped(vec![]), Capped(vec![]));
    let r = program::run(&compiled, &options, &mut out, &mut err);
    Ran::Status(r.status)
}

//! A whole CUDA program's run: its host code on the host interpreter (`crate::host`), each launch on the
//! simulated SM, device memory persisting from launch to launch. `run` gives the program's exit status, or
//! warpdbg's when it found something (programs.md).

pub mod debug;
pub mod device;
pub mod host_program;

use std::io::Write;

use crate::front::program::{ProgramUnit, compile_unit};
use crate::front::{CompileError, diagnostic};
use crate::host::tree::HostProgram;
use crate::host::{HostEnd, interp::Interp, resolve};
use crate::launch::{Mode, Overrides};
use crate::sim::machine::Config;

pub use crate::front::program::is_program;

/// A program that passed the front end on both sides.
#[derive(Debug)]
pub struct Compiled {
    pub unit: ProgramUnit,
    pub host: HostProgram,
}

/// Compiles a whole program: the device side as for kernel files, the host side for the interpreter.
pub fn compile(name: &str, bytes: &[u8], overrides: &Overrides) -> Result<Compiled, CompileError> {
    let unit = compile_unit(name, bytes, overrides)?;
    match resolve::resolve(&unit.host, &unit.globals, &unit.program) {
        Ok(host) => Ok(Compiled { unit, host }),
        Err(mut diags) => {
            diags.sort_by_key(|d| (d.span.file.0, d.span.start));
            Err(CompileError { sources: unit.sources, diags })
        }
    }
}

/// Limits and choices of one program run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub mode: Mode,
    /// Each launch's limits.
    pub config: Config,
    /// Host statements (loop iterations and calls) before the host is stopped.
    pub host_steps: u64,
    /// `argv[1..]`.
    pub args: Vec<String>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { mode: Mode::Its, config: Config::default(), host_steps: 1 << 32, args: vec![] }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// The process exit status: the program's own when warpdbg found nothing, else warpdbg's.
    pub status: u8,
    pub end: HostEnd,
    pub launches: Vec<device::LaunchRecord>,
}

/// Runs `program` with its output on `out` and `err`; warpdbg's findings also go to `err`.
pub fn run(program: &Compiled, options: &RunOptions, out: &mut dyn Write, err: &mut dyn Write) -> RunResult {
    let unit = &program.unit;
    let source = unit.sources.get(unit.file);
    let mut report: Vec<u8> = vec![];
    let (end, launches, finding) = {
        let mut dev = device::SimDevice::new(
            &unit.program,
            &unit.sources,
            source.name.clone(),
            options.mode,
            options.config.clone(),
            &mut report,
        );
        let end = {
            let mut interp = Interp::new(&program.host, source, &mut dev, out, err, options.host_steps);
            interp.run_main(&options.args)
        };
        (end, std::mem::take(&mut dev.launches), dev.finding)
    };
    let _ = err.write_all(&report);
    let status = match &end {
        HostEnd::Exited(code) if finding == 0 => *code,
        HostEnd::Exited(_) => finding,
        HostEnd::Error(e) => {
            let _ = writeln!(err, "warpdbg: error: {e}");
            e.exit_status()
        }
        HostEnd::Stopped(code) => *code,
    };
    RunResult { status, end, launches }
}

/// Compiles and runs the program at `path` as `warpdbg run` does; the process exit status.
pub fn run_file(path: &std::path::Path, bytes: &[u8], overrides: &Overrides, options: &RunOptions) -> u8 {
    let compiled = match compile(&path.display().to_string(), bytes, overrides) {
        Ok(c) => c,
        Err(e) => {
            e.emit_stderr();
            let n = e.diags.len();
            eprintln!("error: could not compile {}: {n} error{}", path.display(), if n == 1 { "" } else { "s" });
            return 2;
        }
    };
    diagnostic::emit_stderr(&compiled.unit.sources, &compiled.unit.warnings);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut err = std::io::stderr();
    let r = run(&compiled, options, &mut out, &mut err);
    let _ = out.flush();
    r.status
}

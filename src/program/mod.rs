//! A whole CUDA program's run: its host code on the host interpreter (`crate::host`), each launch on the
//! simulated SM, device memory persisting from launch to launch. `run` gives the program's exit status, or
//! warpdbg's when it found something (programs.md), and prints warpdbg's findings on stderr or the `--json`
//! report.

pub mod device;
pub mod hints;
pub mod host_program;
pub mod report;
pub mod status;

use std::io::Write;

use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::launch::{Mode, Overrides};
use crate::front::program::{ProgramUnit, compile_unit};
use crate::front::source::Span;
use crate::front::{CompileError, diagnostic};
use crate::host::findings::{Finding, Leak};
use crate::host::resolve::ResolveError;
use crate::host::tree::HostProgram;
use crate::host::{HostEnd, JitMode, interp::Interp, resolve};
use crate::sim::{Config, MemoryDetail};

pub use crate::front::program::is_program;

/// A program that passed the front end on both sides.
#[derive(Debug)]
pub struct CompiledProgram {
    pub unit: ProgramUnit,
    pub host: HostProgram,
}

/// Compiles a whole program: the device side as for kernel files, the host side for the interpreter.
pub fn compile(name: &str, bytes: &[u8], overrides: &Overrides) -> Result<CompiledProgram, CompileError> {
    let first = compile_alone(name, bytes, overrides);
    // Helpers in a second file next to their header (`timer.h`, `timer.cpp`): one more try with them
    // (`front/companions.rs`), kept when it compiles.
    match first {
        Err(e) => {
            let companions = crate::front::companions::of(name, &e.sources);
            if companions.is_empty() {
                return Err(e);
            }
            compile_alone(name, &crate::front::companions::appended(bytes, &companions), overrides).map_err(|_| e)
        }
        ok => ok,
    }
}

/// [`compile`] of the one file.
fn compile_alone(name: &str, bytes: &[u8], overrides: &Overrides) -> Result<CompiledProgram, CompileError> {
    let mut unit = compile_unit(name, bytes, overrides, &[])?;
    let mut resolved = resolve::resolve(&unit.host, &unit.globals, &unit.program, (&unit.templates, &unit.text));
    // Kernel templates launched without explicit arguments: the device side compiles the instances the
    // host side deduced, and the host side resolves again (once: an instance cannot ask for another launch).
    if let Err(ResolveError::NeedsKernels(requests)) = resolved {
        unit = compile_unit(name, bytes, overrides, &requests)?;
        resolved = resolve::resolve(&unit.host, &unit.globals, &unit.program, (&unit.templates, &unit.text));
    }
    match resolved {
        Ok(host) => Ok(CompiledProgram { unit, host }),
        Err(e) => {
            let mut diags = match e {
                ResolveError::Diagnostics(d) => d,
                ResolveError::NeedsKernels(r) => r
                    .into_iter()
                    .map(|(instance, ..)| {
                        Diagnostic::new(ErrorCode::Name, Span::default(), format!("`{instance}` did not compile"))
                    })
                    .collect(),
            };
            diags.sort_by_key(|d| (d.span.file.0, d.span.start));
            Err(CompileError { sources: unit.sources, diags })
        }
    }
}

/// Limits and choices of one program run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub mode: Mode,
    /// Each launch's limits; `memory_cap` is also the device's memory.
    pub config: Config,
    /// Host statements (loop iterations and calls) before the host is stopped.
    pub host_steps: u64,
    /// `argv[1..]`.
    pub args: Vec<String>,
    /// Print the `--json` report (with this much of each launch's memory) instead of the program's output
    /// and the findings.
    pub json: Option<MemoryDetail>,
    /// When host loops become machine code.
    pub host_jit: JitMode,
    /// `--print` expressions: evaluated in the stopped warp of each launch that does not complete.
    pub print: Vec<String>,
}

impl Default for RunOptions {
    /// The defaults, with the host loops' compilation as `WARPDBG_HOST_JIT` asks (`off`, `eager`; hot loops
    /// when unset).
    fn default() -> Self {
        RunOptions {
            mode: Mode::Its,
            config: Config::default(),
            host_steps: 1 << 32,
            args: vec![],
            json: None,
            host_jit: JitMode::named(std::env::var("WARPDBG_HOST_JIT").ok().as_deref()),
            print: vec![],
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// The process exit status: the program's own when warpdbg found nothing, else warpdbg's.
    pub status: u8,
    pub end: HostEnd,
    pub launches: Vec<device::LaunchRecord>,
    /// API misuse warpdbg found.
    pub findings: Vec<Finding>,
    /// Device memory never freed.
    pub leaks: Vec<Leak>,
    /// The program's own status and warpdbg's, named apart.
    pub statuses: status::Statuses,
    /// Launches answered from the memo of repeated launches instead of run (`device/launch_memo.rs`).
    pub answered: usize,
}

/// Runs `program`: its output on `out` and `err` and warpdbg's findings on `err`, or (`options.json`) the
/// JSON report on `out`.
pub fn run(program: &CompiledProgram, options: &RunOptions, out: &mut dyn Write, err: &mut dyn Write) -> RunResult {
    let unit = &program.unit;
    let source = unit.sources.get(unit.file);
    let (mut out_buf, mut err_buf) = (vec![], vec![]);
    let (p_out, p_err): (&mut dyn Write, &mut dyn Write) =
        if options.json.is_some() { (&mut out_buf, &mut err_buf) } else { (out, err) };
    let mut dev = device::SimDevice::new(
        &unit.program,
        &unit.sources,
        source.name.clone(),
        options.mode,
        options.config.clone(),
        options.json,
    );
    dev.set_print(options.print.clone());
    let (end, rt, status) =
        run_host(program, &mut dev, p_out, p_err, options.host_steps, options.host_jit, &options.args);
    let launches = std::mem::take(&mut dev.launches);
    let answered = dev.answered();
    let statuses = status::Statuses::new(&end, status, status::finding_count(&launches, &rt.findings));
    match options.json {
        Some(_) => {
            let mut host_errors: Vec<report::HostErrorJson> = rt.findings.iter().map(report::finding_json).collect();
            let message = match &end {
                HostEnd::Error(e) => Some((e.kind(), e.line(), e.to_string())),
                _ => None,
            };
            if let Some((kind, line, message)) = &message {
                host_errors.push(report::HostErrorJson { kind, line: *line, message });
            }
            let r = report::ProgramReport {
                status,
                exit_status: match end {
                    HostEnd::Exited(code) => Some(code),
                    _ => None,
                },
                stdout: &out_buf,
                stderr: &err_buf,
                launches: launches.iter().filter_map(|l| l.json.as_deref()).collect(),
                host_errors,
                leaks: &rt.leaks,
                findings: statuses.findings,
            };
            let _ = r.write(out);
        }
        None => {
            let _ = err.write_all(findings_text(&launches, &rt.findings, &rt.leaks).as_bytes());
            if let HostEnd::Error(e) = &end {
                let _ = writeln!(err, "warpdbg: error: {e}");
            }
            // The process exits with warpdbg's status: say so where it is not the program's own.
            if statuses.differ() && statuses.program != Some(status) {
                let _ = writeln!(err, "warpdbg: {}", statuses.sentence());
            }
        }
    }
    RunResult { status, end, launches, findings: rt.findings, leaks: rt.leaks, statuses, answered }
}

/// Runs the host code of `program` from `main` on `dev` (at most `host_steps` statements, its loops compiled as
/// `host_jit` says): how it ended, the runtime's findings and leaks, and the exit status (the program's own
/// when warpdbg found nothing, else warpdbg's).
pub(crate) fn run_host(
    program: &CompiledProgram,
    dev: &mut device::SimDevice,
    out: &mut dyn Write,
    err: &mut dyn Write,
    host_steps: u64,
    host_jit: JitMode,
    args: &[String],
) -> (HostEnd, crate::host::cuda::Runtime, u8) {
    let source = program.unit.sources.get(program.unit.file);
    let (end, rt) = {
        let mut interp = Interp::new(&program.host, source, dev, out, err, host_steps, host_jit);
        let end = interp.run_main(args);
        if let HostEnd::Exited(_) = end {
            interp.finish();
        }
        (end, std::mem::take(&mut interp.rt))
    };
    let errors = rt.findings.iter().any(|f| f.kind.is_error());
    let finding = dev.finding.max(errors as u8);
    let status = match &end {
        HostEnd::Exited(code) if finding == 0 => *code,
        HostEnd::Exited(_) => finding,
        HostEnd::Error(e) => e.exit_status(),
        HostEnd::Stopped(code) => *code,
    };
    (end, rt, status)
}

/// warpdbg's stderr report: each launch, the findings in the order they happened, then the leaks.
pub fn findings_text(launches: &[device::LaunchRecord], findings: &[Finding], leaks: &[Leak]) -> String {
    let mut s = String::new();
    let mut next = findings.iter().peekable();
    let finding = |s: &mut String, f: &Finding| {
        let level = if f.kind.is_error() { "error" } else { "note" };
        s.push_str(&format!("warpdbg: {level}: {}.\n", f.message));
    };
    for l in launches {
        while let Some(f) = next.next_if(|f| f.after_launches < l.index) {
            finding(&mut s, f);
        }
        s.push_str(&l.text);
    }
    for f in next {
        finding(&mut s, f);
    }
    for l in leaks {
        s.push_str(&format!("warpdbg: leak: {}.\n", l.message()));
    }
    if !leaks.is_empty() {
        let bytes: u64 = leaks.iter().map(|l| l.bytes).sum();
        let n = leaks.len();
        s.push_str(&format!(
            "warpdbg: LEAK SUMMARY: {bytes} bytes leaked in {n} allocation{}\n",
            if n == 1 { "" } else { "s" }
        ));
    }
    s
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

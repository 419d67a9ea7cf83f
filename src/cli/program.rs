//! The commands on a whole program (a file with `main`): the debugger, `view`, `trace` and `why` stop at one
//! of its launches (`--launch K`, `--kernel NAME`, default the first) with the host code run up to it
//! (`crate::debug::program`).

use std::path::Path;

use super::args::LaunchArgs;
use super::exit::Exit;
use crate::debug::program::{ProgramDebug, Target};
use crate::debug::session::Session;
use crate::sim::Config;
use crate::tui::app::App;
use crate::tui::keymap::Keymap;
use crate::tui::theme::Theme;

/// The file's bytes when it is a whole program; None for a kernel file (or one that cannot be read: the
/// kernel-file path reports that).
pub fn read(path: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    crate::program::is_program(&bytes).then_some(bytes)
}

/// Compiles the program (diagnostics on stderr) and works out the run's options and the launch to stop at.
fn prepare(
    path: &Path,
    bytes: &[u8],
    launch: &LaunchArgs,
    program_args: &[String],
) -> Result<(crate::program::CompiledProgram, crate::program::RunOptions, Config, Target), Exit> {
    // `--kernel` picks a launch here, not the kernel of a launch the file describes.
    let overrides = crate::front::launch::Overrides { kernel: None, ..launch.overrides() };
    let compiled = crate::program::compile(&path.display().to_string(), bytes, &overrides).map_err(|e| {
        e.emit_stderr();
        let n = e.diags.len();
        eprintln!("error: could not compile {}: {n} error{}", path.display(), if n == 1 { "" } else { "s" });
        Exit::Usage
    })?;
    crate::front::diagnostic::emit_stderr(&compiled.unit.sources, &compiled.unit.warnings);
    let options = crate::program::RunOptions {
        mode: launch.mode.unwrap_or_default(),
        args: program_args.to_vec(),
        ..Default::default()
    };
    let config = Config { schedule_seed: launch.schedule_seed, ..super::base_config() };
    let target = match (launch.launch, &launch.kernel) {
        (Some(0), _) => {
            eprintln!("error: --launch counts from 1");
            return Err(Exit::Usage);
        }
        (Some(k), _) => Target::Index(k),
        (None, Some(name)) => Target::Kernel(name.clone()),
        (None, None) => Target::Index(1),
    };
    Ok((compiled, options, config, target))
}

/// The program stopped at its launch, with that launch's session.
pub fn session(
    path: &Path,
    bytes: &[u8],
    launch: &LaunchArgs,
    program_args: &[String],
) -> Result<(ProgramDebug, Session), Exit> {
    let (compiled, options, config, target) = prepare(path, bytes, launch, program_args)?;
    ProgramDebug::open(compiled, options, config, &target).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Usage
    })
}

/// The debugger's app on the program.
pub fn app(
    path: &Path,
    bytes: &[u8],
    launch: &LaunchArgs,
    program_args: &[String],
    keymap: Keymap,
    theme: Theme,
) -> Result<App, Exit> {
    let (compiled, options, config, target) = prepare(path, bytes, launch, program_args)?;
    crate::tui::program::open_app(compiled, options, config, &target, keymap, theme).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Usage
    })
}

/// `trace --launch K` on a program: one line per instruction of that launch.
pub fn trace(
    path: &Path,
    bytes: &[u8],
    launch: &LaunchArgs,
    program_args: &[String],
    jsonl: bool,
    config: Config,
) -> Exit {
    let (_program, s) = match session(path, bytes, launch, program_args) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut m = s.machine;
    if let Some(n) = config.max_steps {
        m.max_steps = n;
    }
    super::trace::trace_machine(m, jsonl)
}

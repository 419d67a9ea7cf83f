//! Reading what the command line names: kernel files (compiled, or launched on a machine), `--break`
//! specs, recordings, key bindings and themes. Each prints what is wrong on stderr and gives [`Exit::Usage`].

use std::path::Path;

use super::args::{LaunchArgs, UiArgs};
use super::exit::Exit;
use crate::compile::{self, Compiled};
use crate::front;
use crate::sim::{Config, DeviceJit, Machine, Tuning};
use crate::tui::keymap::Keymap;
use crate::tui::recording::Recording;
use crate::tui::theme::Theme;

/// Reads and compiles a kernel file, printing diagnostics on failure.
pub fn load(path: &Path, launch: &LaunchArgs) -> Result<Compiled, Exit> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return Err(Exit::Usage);
        }
    };
    let compiled = compile::compile(&path.display().to_string(), &bytes, &launch.overrides()).map_err(|e| {
        e.emit_stderr();
        let n = e.diags.len();
        eprintln!("error: could not compile {}: {n} error{}", path.display(), if n == 1 { "" } else { "s" });
        Exit::Usage
    })?;
    // Items the launched kernel does not reach, set aside for an unsupported construct.
    front::diagnostic::emit_stderr(&compiled.sources, &compiled.warnings);
    Ok(compiled)
}

pub(super) fn start(path: &Path, launch: &LaunchArgs, config: &Config) -> Result<Machine, Exit> {
    let compiled = load(path, launch)?;
    Machine::new(&compiled, config).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Usage
    })
}

/// Parses `--break` specs against a compiled kernel; prints the diagnostics of the first bad one.
pub fn parse_breaks(specs: &[String], compiled: &Compiled) -> Result<Vec<crate::debug::breakpoint::Breakpoint>, Exit> {
    specs
        .iter()
        .map(|s| {
            crate::debug::breakpoint::Breakpoint::parse(s, compiled).map_err(|e| {
                eprint!("{}", e.render());
                eprintln!("error: bad breakpoint `{s}`");
                Exit::Usage
            })
        })
        .collect()
}

pub(super) fn load_recording(path: &Path) -> Result<Recording, Exit> {
    let rec = Recording::load(path).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Usage
    })?;
    if rec.truncated {
        eprintln!(
            "warning: {}: the last line was cut off (the recorder stopped while writing it); ignored",
            path.display()
        );
    }
    if rec.end().is_none() {
        eprintln!("warning: {}: the recording has no end (warpdbg stopped while recording)", path.display());
    }
    Ok(rec)
}

/// The key bindings and theme `--keys` and `--theme` ask for (NO_COLOR honoured).
pub(super) fn keymap_and_theme(ui: &UiArgs) -> Result<(Keymap, Theme), Exit> {
    let keymap = match &ui.keys {
        Some(p) => std::fs::read_to_string(p).map_err(|e| e.to_string()).and_then(|t| Keymap::with_overrides(&t)),
        None => Ok(Keymap::default_map()),
    }
    .map_err(|e| {
        eprintln!("error: key bindings: {e}");
        Exit::Usage
    })?;
    let mut theme = Theme::load(ui.theme.as_deref().unwrap_or("dark")).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Usage
    })?;
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        theme = theme.monochrome();
    }
    Ok((keymap, theme))
}

pub(super) fn ui_theme(ui: &UiArgs) -> Result<Option<Theme>, Exit> {
    let Some(name) = &ui.theme else { return Ok(None) };
    let mut t = Theme::load(name).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Usage
    })?;
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        t = t.monochrome();
    }
    Ok(Some(t))
}

/// The simulator's configuration before a command's own settings, with its debug switches read from the
/// environment once, here: `WARPDBG_NO_AVX2` (the portable data path), `WARPDBG_PAR_DEBUG` (say why a whole
/// run on several cores was refused), `WARPDBG_JIT` (`1`: whole runs compile hot straight segments; `eager`:
/// every segment at its first issue; off otherwise), `WARPDBG_NO_SPIN_SKIP` (whole runs issue clock spins
/// one instruction at a time) and `WARPDBG_NO_LAUNCH_MEMO` (a program's repeated launches all run).
pub(crate) fn base_config() -> Config {
    let set = |name: &str| std::env::var_os(name).is_some();
    let tuning = Tuning {
        portable: set("WARPDBG_NO_AVX2"),
        explain_refusals: set("WARPDBG_PAR_DEBUG"),
        device_jit: DeviceJit::named(std::env::var("WARPDBG_JIT").ok().as_deref()),
        no_spin_skip: set("WARPDBG_NO_SPIN_SKIP"),
        no_launch_memo: set("WARPDBG_NO_LAUNCH_MEMO"),
    };
    Config { tuning, ..Config::default() }
}

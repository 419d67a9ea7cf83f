//! The command line (interface.md's commands and exit codes), as clap derive types plus dispatch.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};

use crate::compile::{self, Compiled};
use crate::debug::session::Session;
use crate::front;
use crate::front::launch::{Mode, Overrides};
use crate::ir::print::print_kernel;
use crate::sim::{Config, Machine, MemoryDetail, Outcome, Tuning, report};
use crate::tui::app::App;
use crate::tui::keymap::Keymap;
use crate::tui::theme::Theme;

mod program;

/// Process exit statuses fixed by interface.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// The kernel completed (hazards allowed), or the command succeeded.
    Ok = 0,
    /// A fault: out of bounds, division by zero, ...
    Fault = 1,
    /// Bad usage, or a kernel that does not compile.
    Usage = 2,
    /// Deadlock or livelock.
    Deadlock = 3,
    /// The step limit was reached.
    StepLimit = 4,
}

#[derive(Debug, Parser)]
#[command(
    name = "warpdbg",
    version,
    about = "A terminal debugger that makes SIMT execution visible",
    args_conflicts_with_subcommands = true,
    after_help = "Open a kernel in the debugger:  warpdbg kernels/deadlock.cu"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Kernel file to open in the interactive debugger.
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub launch: LaunchArgs,
    #[command(flatten)]
    pub ui: UiArgs,
    /// Record the session (every action, with notes) to this file (.wdbg) for `warpdbg replay` and `export`.
    #[arg(long, value_name = "SESSION")]
    pub record: Option<PathBuf>,
    /// Open the side-by-side comparison of pre-Volta and ITS (the `v` key).
    #[arg(long)]
    pub compare: bool,
    #[command(flatten)]
    pub teach: TeachArgs,
    /// A whole program's arguments (`argv[1..]`), after `--`.
    #[arg(last = true, value_name = "ARGS")]
    pub program_args: Vec<String>,
}

/// Breakpoints by spec and quiz mode, for the debugger.
#[derive(Debug, Args, Clone, Default)]
pub struct TeachArgs {
    /// Break on a SIMT event or a condition (repeatable): `line 28 if tid == 5 && sum > 3`, `divergence`,
    /// `reconvergence`, `barrier-mismatch`, `active < 16`, `write out[3]`.
    #[arg(long = "break", value_name = "SPEC", allow_hyphen_values = true)]
    pub breaks: Vec<String>,
    /// Quiz mode: stop before each divergent branch and before a deadlock (or, when FILE is a recorded
    /// session, at the instructor's quiz points) and ask for a prediction.
    #[arg(long)]
    pub quiz: bool,
    /// Save the quiz score (JSON: asked, right, every question) to this file.
    #[arg(long, value_name = "FILE", requires = "quiz")]
    pub quiz_score: Option<PathBuf>,
}

/// How the debugger looks and reacts.
#[derive(Debug, Args, Clone, Default)]
pub struct UiArgs {
    /// Colour theme: dark, light, high-contrast, colorblind, or a path to a RON theme file.
    #[arg(long, value_name = "NAME|PATH")]
    pub theme: Option<String>,
    /// Key bindings file (RON) that adds to or replaces the defaults.
    #[arg(long, value_name = "PATH")]
    pub keys: Option<PathBuf>,
}

/// Flags that override a kernel file's directives.
#[derive(Debug, Args, Clone, Default)]
pub struct LaunchArgs {
    /// Which __global__ function to launch (overrides `// @kernel`).
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// Grid size `X[,Y[,Z]]` (overrides `// @grid`); may name scalar arguments, e.g. `(n+511)/512`.
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    pub grid: Option<String>,
    /// Block size `X[,Y[,Z]]` (overrides `// @block`).
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true)]
    pub block: Option<String>,
    /// A kernel argument, `name=value` or `name=type[len]=init` (overrides its `// @arg`); repeatable.
    #[arg(long = "arg", value_name = "NAME=VALUE", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// Seed for `rand()` initialisers (overrides `// @seed`).
    #[arg(long, value_name = "N")]
    pub seed: Option<String>,
    /// Execution model (overrides `// @mode`; default its).
    #[arg(long, value_parser = parse_mode, value_name = "its|pre-volta")]
    pub mode: Option<Mode>,
    /// Bytes of dynamic shared memory per block, for `extern __shared__` arrays (overrides `// @shared`).
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    pub shared: Option<String>,
    /// Contents of a `__constant__` or `__device__` variable, as `cudaMemcpyToSymbol` would set them
    /// (`coef={1,2,3}` or `coef=rand(0,9)`; overrides `// @symbol`); repeatable.
    #[arg(long = "symbol", value_name = "NAME=INIT", allow_hyphen_values = true)]
    pub symbols: Vec<String>,
    /// A folder to search for `#include`d headers, after the including file's own (as nvcc's -I); repeatable.
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    pub include_dirs: Vec<String>,
    /// Schedule warps (and, in ITS, thread groups) from this seed instead of round-robin; reproducible.
    #[arg(long, value_name = "N")]
    pub schedule_seed: Option<u64>,
    /// A whole program (a file with `main`): debug its K-th launch (1-based; default the first, or the
    /// first launch of `--kernel NAME`), the host code run up to it.
    #[arg(long = "launch", value_name = "K")]
    pub launch: Option<usize>,
}

fn parse_memory_detail(s: &str) -> Result<MemoryDetail, String> {
    MemoryDetail::parse(s).ok_or_else(|| format!("unknown memory detail `{s}`: expected full, changed or none"))
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    Mode::parse(s).ok_or_else(|| format!("unknown execution model `{s}`: expected `its` or `pre-volta`"))
}

impl LaunchArgs {
    pub fn overrides(&self) -> Overrides {
        Overrides {
            kernel: self.kernel.clone(),
            grid: self.grid.clone(),
            block: self.block.clone(),
            args: self.args.clone(),
            seed: self.seed.clone(),
            mode: self.mode,
            shared: self.shared.clone(),
            symbols: self.symbols.clone(),
            include_dirs: self.include_dirs.clone(),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run to the end, a deadlock, a livelock, a fault or the step limit, and report.
    Run {
        file: PathBuf,
        #[command(flatten)]
        launch: LaunchArgs,
        /// Print the JSON report of interface.md.
        #[arg(long)]
        json: bool,
        /// How much of memory the JSON report shows: every element (full), each array's changed elements
        /// as [index, value] pairs (changed), or none.
        #[arg(long, value_name = "full|changed|none", value_parser = parse_memory_detail, default_value = "full", requires = "json")]
        memory: MemoryDetail,
        /// Stop after this many issued instructions (default: 10,000 per warp, at least 10 million).
        #[arg(long, value_name = "N")]
        max_steps: Option<u64>,
        /// Refuse launches whose arrays need more bytes than this.
        #[arg(long, value_name = "BYTES", default_value_t = 4 << 30)]
        memory_cap: u64,
        /// Print performance figures (wall time, instructions per second, peak memory) instead of the report.
        #[arg(long, conflicts_with = "json")]
        bench: bool,
        /// Run N seeded schedules and report the results that differ (races, schedule-dependent hangs).
        #[arg(long, value_name = "N", conflicts_with = "bench")]
        explore: Option<u64>,
        /// Stop at the first hit of a breakpoint spec (repeatable; see the README) and report where
        /// (`stopped_at` in the JSON report).
        #[arg(long = "break", value_name = "SPEC", allow_hyphen_values = true, conflicts_with_all = ["bench", "explore"])]
        breaks: Vec<String>,
        /// A whole program's arguments (`argv[1..]`), after `--`.
        #[arg(last = true, value_name = "ARGS")]
        program_args: Vec<String>,
    },
    /// Print one line per issued instruction.
    Trace {
        file: PathBuf,
        #[command(flatten)]
        launch: LaunchArgs,
        /// One JSON object per line.
        #[arg(long)]
        jsonl: bool,
        /// Stop after this many issued instructions.
        #[arg(long, value_name = "N")]
        max_steps: Option<u64>,
        /// A whole program's arguments (`argv[1..]`), after `--`.
        #[arg(last = true, value_name = "ARGS")]
        program_args: Vec<String>,
    },
    /// Front end only: print diagnostics, or "ok".
    Check {
        file: PathBuf,
        #[command(flatten)]
        launch: LaunchArgs,
        /// Also print the IR: blocks, branch targets and reconvergence points.
        #[arg(long)]
        ir: bool,
    },
    /// Print the debugger screen as text after N steps, exactly as the TUI draws it.
    View {
        file: PathBuf,
        #[command(flatten)]
        launch: LaunchArgs,
        #[command(flatten)]
        ui: UiArgs,
        /// Instructions to issue before drawing (a count, or `1e7`).
        #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_count)]
        steps: u64,
        /// Screen size (default 120x40).
        #[arg(long, value_name = "COLSxROWS", default_value = "120x40")]
        size: String,
        /// Print the side-by-side comparison of pre-Volta and ITS, each side N steps in.
        #[arg(long)]
        compare: bool,
        /// A whole program's arguments (`argv[1..]`), after `--`.
        #[arg(last = true, value_name = "ARGS")]
        program_args: Vec<String>,
    },
    /// Why is a lane inactive? Runs N steps, then names the branch that masked the lane and where it rejoins.
    Why {
        file: PathBuf,
        #[command(flatten)]
        launch: LaunchArgs,
        /// Instructions to issue first (a count, or `1e7`).
        #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_count)]
        steps: u64,
        /// The block, as its linear index (x + y*gridDim.x + ...).
        #[arg(long = "in-block", value_name = "N", default_value_t = 0)]
        in_block: u64,
        /// The warp within the block.
        #[arg(long, default_value_t = 0)]
        warp: u32,
        #[arg(long)]
        lane: u32,
        /// A whole program's arguments (`argv[1..]`), after `--`.
        #[arg(last = true, value_name = "ARGS")]
        program_args: Vec<String>,
    },
    /// Print a CUDA host program that runs the file's launch on a real GPU with exactly warpdbg's inputs and
    /// writes the final memory as JSON (for conformance checks on hardware).
    Host {
        file: PathBuf,
        #[command(flatten)]
        launch: LaunchArgs,
    },
    /// Replay a recorded session in the debugger.
    Replay {
        session: PathBuf,
        /// Playback speed: 2 is twice as fast as recorded.
        #[arg(long, default_value_t = 1.0)]
        speed: f64,
        #[command(flatten)]
        ui: UiArgs,
    },
    /// Export a recorded session as a web page, an asciicast, or text frames; or (`--playground`) the live
    /// debugger as one self-contained web page, with FILEs (sources, recordings) to pick from.
    Export {
        /// The recorded session; with `--playground`, any sources (`.cu`) and recordings (`.wdbg`) to bundle.
        #[arg(value_name = "SESSION | FILE")]
        inputs: Vec<PathBuf>,
        /// The playground: the debugger itself running in the page (WebAssembly inlined, no network).
        #[arg(long, value_name = "OUT")]
        playground: Option<PathBuf>,
        /// The playground's WebAssembly (default: the one `bash .ci/page` builds beside this binary).
        #[arg(long, value_name = "PATH", requires = "playground")]
        wasm: Option<PathBuf>,
        /// One self-contained HTML page with every frame.
        #[arg(long, value_name = "OUT")]
        html: Option<PathBuf>,
        /// asciicast v2 (asciinema).
        #[arg(long, value_name = "OUT")]
        cast: Option<PathBuf>,
        /// Every frame as plain text, separated by form feeds.
        #[arg(long, value_name = "OUT")]
        text: Option<PathBuf>,
        #[command(flatten)]
        ui: UiArgs,
    },
}

/// The simulator's configuration before a command's own settings, with its debug switches read from the
/// environment: `WARPDBG_NO_AVX2` (the portable data path) and `WARPDBG_PAR_DEBUG` (say why a whole run on
/// several cores was refused).
pub(crate) fn base_config() -> Config {
    let set = |name: &str| std::env::var_os(name).is_some();
    let tuning = Tuning { portable: set("WARPDBG_NO_AVX2"), explain_refusals: set("WARPDBG_PAR_DEBUG") };
    Config { tuning, ..Config::default() }
}

/// Runs a parsed command line; returns the process exit status. `warpdbg run` on a whole program (a file
/// with `main`) exits with the program's own status (programs.md); everything else with an [`Exit`].
pub fn run_status(cli: Cli) -> u8 {
    if let Some(Command::Run { file, launch, max_steps, memory_cap, program_args, json, memory, .. }) = &cli.command
        && let Ok(bytes) = std::fs::read(file)
        && crate::program::is_program(&bytes)
    {
        let options = crate::program::RunOptions {
            mode: launch.mode.unwrap_or_default(),
            config: Config { max_steps: *max_steps, memory_cap: *memory_cap, ..base_config() },
            args: program_args.clone(),
            json: json.then_some(*memory),
            ..Default::default()
        };
        return crate::program::run_file(file, &bytes, &launch.overrides(), &options);
    }
    run(cli) as u8
}

/// Runs a parsed command line; returns the exit status.
pub fn run(cli: Cli) -> Exit {
    match cli.command {
        Some(Command::Check { file, launch, ir }) => check(&file, &launch, ir),
        Some(Command::Run { file, launch, json, memory, max_steps, memory_cap, bench, explore, breaks, .. }) => {
            let json = json.then_some(memory);
            let config = Config { max_steps, memory_cap, schedule_seed: launch.schedule_seed, ..base_config() };
            match explore {
                Some(n) => explore_command(&file, &launch, json.is_some(), config, n),
                None if bench => bench_command(&file, &launch, config),
                None if !breaks.is_empty() => run_break_command(&file, &launch, json, config, &breaks),
                None => run_command(&file, &launch, json, config),
            }
        }
        Some(Command::Trace { file, launch, jsonl, max_steps, program_args }) => {
            let config = Config { max_steps, schedule_seed: launch.schedule_seed, ..base_config() };
            match program::read(&file) {
                Some(bytes) => program::trace(&file, &bytes, &launch, &program_args, jsonl, config),
                None => trace_command(&file, &launch, jsonl, config),
            }
        }
        Some(Command::View { file, launch, ui, steps, size, compare, program_args }) => {
            view_command(&file, &launch, &ui, steps, &size, compare, &program_args)
        }
        Some(Command::Why { file, launch, steps, in_block, warp, lane, program_args }) => {
            why_command(&file, &launch, steps, in_block, warp, lane, &program_args)
        }
        Some(Command::Host { file, launch }) => host_command(&file, &launch),
        Some(Command::Replay { session, speed, ui }) => replay_command(&session, speed, &ui),
        Some(Command::Export { inputs, playground: Some(out), wasm, ui, .. }) => {
            playground_command(&out, &inputs, wasm.as_deref(), &ui)
        }
        Some(Command::Export { inputs, html, cast, text, ui, .. }) => match inputs.as_slice() {
            [session] => export_command(session, html.as_deref(), cast.as_deref(), text.as_deref(), &ui),
            _ => {
                eprintln!("error: export takes one recorded session (or --playground OUT with any files)");
                Exit::Usage
            }
        },
        None => match cli.file {
            Some(file) => tui_command(
                &file,
                &cli.launch,
                &cli.ui,
                cli.record.as_deref(),
                cli.compare,
                &cli.teach,
                &cli.program_args,
            ),
            None => {
                eprintln!("usage: warpdbg FILE   (open a kernel in the debugger; `warpdbg --help` lists the commands)");
                Exit::Usage
            }
        },
    }
}

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

/// The header `--record` writes: the kernel file's text, the launch overrides, and the app's mode, theme,
/// breakpoints and terminal size.
pub fn recording_header(file: String, app: &App, launch: &LaunchArgs) -> crate::debug::recording::Header {
    crate::debug::recording::Header {
        format: crate::debug::recording::FORMAT.into(),
        version: crate::debug::recording::VERSION,
        warpdbg: env!("CARGO_PKG_VERSION").into(),
        file,
        source: app.session.compiled.source().text.clone(),
        kernel: launch.kernel.clone(),
        grid: launch.grid.clone(),
        block: launch.block.clone(),
        args: launch.args.clone(),
        seed: launch.seed.clone(),
        shared: launch.shared.clone(),
        symbols: launch.symbols.clone(),
        include_dirs: launch.include_dirs.clone(),
        mode: app.session.mode(),
        theme: app.theme.name.clone(),
        breakpoints: app.session.breakpoints.iter().copied().collect(),
        size: app.size,
        schedule_seed: launch.schedule_seed,
        launch: app.program.as_ref().and_then(|p| p.current.or(Some(p.launches.len()))),
        program_args: app.program.as_ref().map(|p| p.options.args.clone()).unwrap_or_default(),
    }
}

fn host_command(path: &Path, launch: &LaunchArgs) -> Exit {
    let compiled = match load(path, launch) {
        Ok(c) => c,
        Err(code) => return code,
    };
    match crate::program::host_program::generate(&compiled) {
        Ok(text) => {
            print!("{text}");
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Usage
        }
    }
}

fn check(path: &Path, launch: &LaunchArgs, ir: bool) -> Exit {
    let compiled = match load(path, launch) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut out = std::io::stdout().lock();
    let l = &compiled.launch;
    let _ = writeln!(
        out,
        "ok: {} launches {} with grid {} x block {} ({} warps), mode {}",
        path.display(),
        l.kernel,
        l.grid,
        l.block,
        l.grid.count() * l.warps_per_block(),
        l.mode
    );
    if ir {
        for k in compiled.all_kernels() {
            let _ = writeln!(out);
            let _ = write!(out, "{}", print_kernel(&k));
        }
    }
    Exit::Ok
}

/// The exit status for a final outcome (interface.md).
pub fn exit_for(outcome: &Outcome) -> Exit {
    match outcome {
        Outcome::Completed | Outcome::Paused => Exit::Ok,
        Outcome::Fault(_) => Exit::Fault,
        Outcome::Deadlock(_) | Outcome::Livelock(_) => Exit::Deadlock,
        Outcome::StepLimit => Exit::StepLimit,
    }
}

fn start(path: &Path, launch: &LaunchArgs, config: &Config) -> Result<Machine, Exit> {
    let compiled = load(path, launch)?;
    Machine::new(&compiled, config).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Usage
    })
}

/// Stdout with a large buffer: a textbook-sized report is hundreds of megabytes.
fn buffered_stdout() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock())
}

fn run_command(path: &Path, launch: &LaunchArgs, json: Option<MemoryDetail>, config: Config) -> Exit {
    let mut m = match start(path, launch, &config) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let outcome = m.run();
    let mut out = buffered_stdout();
    if let Some(detail) = json {
        // A closed pipe is not an error worth reporting.
        let _ = report::write_json(&mut out, &m, &outcome, detail, serde_json::Map::new());
        let _ = out.flush();
    } else {
        let _ = write!(out, "{}", report::text(&m, &outcome));
    }
    exit_for(&outcome)
}

fn trace_command(path: &Path, launch: &LaunchArgs, jsonl: bool, config: Config) -> Exit {
    match start(path, launch, &config) {
        Ok(m) => trace_machine(m, jsonl),
        Err(code) => code,
    }
}

/// Prints one line per instruction `m` issues, to its end.
fn trace_machine(mut m: Machine, jsonl: bool) -> Exit {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = false;
    let outcome = loop {
        let o = m.step_traced(1 << 16, &mut |i| {
            let line = if jsonl {
                let mut v = serde_json::json!({
                    "step": i.step, "block": i.block.as_array(), "warp": i.warp.0, "line": i.line, "pc": i.pc.0,
                    "mask": i.mask.hex(),
                });
                if let Some(d) = i.stack_depth {
                    v["stack_depth"] = d.into();
                }
                v.to_string()
            } else {
                format!(
                    "step {:>6}  block {}  warp {:>3}  line {:>4}  pc {:>4}  {} ({:>2} active){}",
                    i.step,
                    i.block,
                    i.warp.0,
                    i.line,
                    i.pc.0,
                    i.mask.bar(),
                    i.mask.count(),
                    i.stack_depth.map_or(String::new(), |d| format!("  stack {d}"))
                )
            };
            // A closed pipe (`| head`) is not an error worth a panic.
            failed |= writeln!(out, "{line}").is_err();
        });
        if o.is_final() || failed {
            break o;
        }
    };
    let _ = out.flush();
    drop(out);
    if !jsonl && !failed {
        eprintln!("outcome: {} after {} steps", outcome.name(), m.steps);
    }
    exit_for(&outcome)
}

/// Builds the TUI's state for a kernel file: session, keymap, theme (honouring NO_COLOR).
pub fn make_app(path: &Path, launch: &LaunchArgs, ui: &UiArgs) -> Result<App, Exit> {
    make_app_with_args(path, launch, ui, &[])
}

/// [`make_app`] for a kernel file or a whole program (run with `program_args`, stopped at its launch).
pub fn make_app_with_args(path: &Path, launch: &LaunchArgs, ui: &UiArgs, program_args: &[String]) -> Result<App, Exit> {
    let (keymap, theme) = keymap_and_theme(ui)?;
    if let Some(bytes) = program::read(path) {
        return program::app(path, &bytes, launch, program_args, keymap, theme);
    }
    let compiled = load(path, launch)?;
    let config = Config { schedule_seed: launch.schedule_seed, ..base_config() };
    let session = Session::new(compiled, config).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Usage
    })?;
    Ok(App::new(session, keymap, theme))
}

/// The key bindings and theme `--keys` and `--theme` ask for (NO_COLOR honoured).
fn keymap_and_theme(ui: &UiArgs) -> Result<(Keymap, Theme), Exit> {
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

fn needs_terminal() -> Result<(), Exit> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        Ok(())
    } else {
        eprintln!("error: the debugger needs a terminal; use `warpdbg view`, `run`, `trace` or `export` for text");
        Err(Exit::Usage)
    }
}

fn tui_command(
    path: &Path,
    launch: &LaunchArgs,
    ui: &UiArgs,
    record: Option<&Path>,
    compare: bool,
    teach: &TeachArgs,
    program_args: &[String],
) -> Exit {
    let mut app = match teach_app(path, launch, ui, teach, program_args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let quiz_score = app.quiz.as_ref().map(|q| q.score.clone());
    if compare {
        crate::tui::compare::toggle(&mut app);
    }
    if let Err(code) = needs_terminal() {
        return code;
    }
    let recorder = match record {
        None => None,
        Some(p) => {
            // The screen the recording starts on is the terminal's, not the default 80x24 (replay and export
            // draw the first frame at the header's size).
            if let Ok((c, r)) = crossterm::terminal::size()
                && c > 0
                && r > 0
            {
                app.size = (c, r);
            }
            let header = recording_header(path.display().to_string(), &app, launch);
            match crate::debug::recording::Recorder::create(p, &header) {
                Ok(r) => Some(r),
                Err(e) => {
                    eprintln!("error: cannot record to {}: {e}", p.display());
                    return Exit::Usage;
                }
            }
        }
    };
    match crate::tui::run(app, recorder) {
        Ok(()) => {
            if let Some(score) = quiz_score {
                let sc = score.lock().map(|s| s.clone()).unwrap_or_else(|e| e.into_inner().clone());
                println!("quiz: {}", sc.summary());
                if let Some(p) = &teach.quiz_score
                    && let Err(e) = sc.save(p)
                {
                    eprintln!("error: cannot save the quiz score to {}: {e}", p.display());
                }
            }
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: terminal: {e}");
            Exit::Usage
        }
    }
}

/// A count of instructions: digits, or `MeE` (`1e7`, `5.5e6`) when that is a whole number.
fn parse_count(s: &str) -> Result<u64, String> {
    if let Ok(n) = s.parse::<u64>() {
        return Ok(n);
    }
    let bad = || format!("`{s}` is not a count of instructions (e.g. 400 or 1e7)");
    let (m, e) = s.to_ascii_lowercase().split_once('e').map(|(m, e)| (m.to_string(), e.to_string())).ok_or_else(bad)?;
    let (m, e) = (m.parse::<f64>().map_err(|_| bad())?, e.parse::<i32>().map_err(|_| bad())?);
    let v = m * 10f64.powi(e);
    if !(0.0..=u64::MAX as f64).contains(&v) || v.fract() != 0.0 {
        return Err(bad());
    }
    Ok(v as u64)
}

fn parse_size(s: &str) -> Option<(u16, u16)> {
    let (c, r) = s.to_ascii_lowercase().split_once('x').map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))?;
    let (c, r) = (c.parse::<u16>().ok()?, r.parse::<u16>().ok()?);
    (c >= 1 && r >= 1 && c <= 1000 && r <= 1000).then_some((c, r))
}

fn view_command(
    path: &Path,
    launch: &LaunchArgs,
    ui: &UiArgs,
    steps: u64,
    size: &str,
    compare: bool,
    program_args: &[String],
) -> Exit {
    let Some((cols, rows)) = parse_size(size) else {
        eprintln!("error: --size must be COLSxROWS, e.g. 120x40 (1 to 1000 each), not `{size}`");
        return Exit::Usage;
    };
    let mut app = match make_app_with_args(path, launch, ui, program_args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    app.size = (cols, rows);
    if compare {
        crate::tui::compare::open_at(&mut app, steps);
        print!("{}", crate::tui::view::render_text(&app, cols, rows));
        return Exit::Ok;
    }
    if let Some(o) = app.session.run_to(steps) {
        app.stopped(&crate::debug::session::Stop::Finished(o));
    } else if steps > 0 {
        app.stopped(&crate::debug::session::Stop::Stepped);
    }
    app.fix_selection();
    app.follow_selected();
    crate::tui::update::keep_cursor_visible(&mut app);
    crate::tui::update::reveal_stuck_lines(&mut app);
    print!("{}", crate::tui::view::render_text(&app, cols, rows));
    Exit::Ok
}

/// Peak resident memory of this process in bytes (Linux), for `run --bench`.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn bench_command(path: &Path, launch: &LaunchArgs, config: Config) -> Exit {
    let t0 = std::time::Instant::now();
    let mut m = match start(path, launch, &config) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let setup = t0.elapsed();
    let t1 = std::time::Instant::now();
    let outcome = m.run();
    let run = t1.elapsed().as_secs_f64();
    let mt = &m.metrics;
    let l = &m.launch;
    println!("kernel            {} ({}), mode {}", l.kernel, m.file, l.mode);
    println!("launch            grid {} x block {}: {} warps", l.grid, l.block, mt.warps);
    println!("outcome           {} after {} steps", outcome.name(), m.steps);
    println!("setup             {:.3} s (compile, allocate, initialise)", setup.as_secs_f64());
    println!("simulation        {run:.3} s");
    println!("warp-instr/s      {:.2} M", mt.warp_instructions as f64 / run / 1e6);
    println!("thread-instr/s    {:.2} M", mt.thread_instructions as f64 / run / 1e6);
    let cores = if m.ran_parallel() { rayon::current_num_threads() } else { 1 };
    let how = if m.ran_parallel() { "blocks in parallel" } else { "sequential: the parallel rule does not hold" };
    println!("cores             {cores} ({how})");
    println!("per core          {:.2} M thread-instr/s", mt.thread_instructions as f64 / run / 1e6 / cores as f64);
    match peak_rss() {
        Some(b) => println!("peak memory       {:.1} MiB", b as f64 / (1 << 20) as f64),
        None => println!("peak memory       unknown (no /proc/self/status)"),
    }
    exit_for(&outcome)
}

fn load_recording(path: &Path) -> Result<crate::debug::recording::Recording, Exit> {
    let rec = crate::debug::recording::Recording::load(path).map_err(|e| {
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

fn ui_theme(ui: &UiArgs) -> Result<Option<Theme>, Exit> {
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

fn replay_command(path: &Path, speed: f64, ui: &UiArgs) -> Exit {
    let rec = match load_recording(path) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let theme = match ui_theme(ui) {
        Ok(t) => t,
        Err(code) => return code,
    };
    // Check that it starts before taking over the terminal.
    if let Err(e) = crate::tui::replay::start_app(&rec, Keymap::default_map(), theme.clone()) {
        // What start_app checks (the kernel source, the launch) is all in the header, line 1.
        eprintln!("error: {}:1: {e}", path.display());
        return Exit::Usage;
    }
    if let Err(code) = needs_terminal() {
        return code;
    }
    let make = || crate::tui::replay::start_app(&rec, Keymap::default_map(), theme.clone());
    match crate::tui::replay(rec.clone(), make, speed) {
        Ok(()) => Exit::Ok,
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Usage
        }
    }
}

/// `export --playground OUT [FILE ...]`: the live debugger as one web page.
fn playground_command(out: &Path, files: &[PathBuf], wasm: Option<&Path>, ui: &UiArgs) -> Exit {
    let theme = match ui_theme(ui) {
        Ok(t) => t.unwrap_or_else(Theme::default_dark),
        Err(code) => return code,
    };
    let page = crate::web::export::read_wasm(wasm)
        .and_then(|w| Ok((w, crate::web::export::read_files(files)?)))
        .and_then(|(w, f)| crate::web::export::playground(&w, &f, &theme));
    let page = match page {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Usage;
        }
    };
    // Written beside the target and renamed, so a failed export never leaves half a file.
    let tmp = out.with_extension("tmp-export");
    match std::fs::write(&tmp, page).and_then(|_| std::fs::rename(&tmp, out)) {
        Ok(()) => Exit::Ok,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", out.display());
            Exit::Usage
        }
    }
}

fn export_command(path: &Path, html: Option<&Path>, cast: Option<&Path>, text: Option<&Path>, ui: &UiArgs) -> Exit {
    if html.is_none() && cast.is_none() && text.is_none() {
        eprintln!("error: say what to export: --html OUT.html, --cast OUT.cast and/or --text OUT.txt");
        return Exit::Usage;
    }
    let rec = match load_recording(path) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let theme = match ui_theme(ui) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let frames = match crate::tui::replay::frames(&rec, theme.clone()) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {}:1: {e}", path.display());
            return Exit::Usage;
        }
    };
    let t = theme.unwrap_or_else(|| Theme::load(&rec.header.theme).unwrap_or_else(|_| Theme::default_dark()));
    let css = |c: ratatui::style::Color| match c {
        ratatui::style::Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        _ => "#000000".into(),
    };
    let write = |p: &Path, content: String| -> Result<(), Exit> {
        // Written beside the target and renamed, so a failed export never leaves half a file.
        let tmp = p.with_extension("tmp-export");
        std::fs::write(&tmp, content).and_then(|_| std::fs::rename(&tmp, p)).map_err(|e| {
            eprintln!("error: cannot write {}: {e}", p.display());
            Exit::Usage
        })
    };
    use crate::tui::export;
    if let Some(p) = html {
        let page = export::html(&rec, &frames, &css(t.background.0), &css(t.foreground.0));
        if let Err(code) = write(p, page) {
            return code;
        }
    }
    if let Some(p) = cast
        && let Err(code) = write(p, export::asciicast(&rec, &frames))
    {
        return code;
    }
    if let Some(p) = text {
        let all: Vec<String> = frames.iter().map(|(_, _, b)| export::frame_text(b)).collect();
        if let Err(code) = write(p, all.join("\u{c}\n")) {
            return code;
        }
    }
    eprintln!("exported {} frames", frames.len());
    Exit::Ok
}

/// Runs `n` seeded schedules (seeds 1..=n) next to the default one and groups the results.
fn explore_command(path: &Path, launch: &LaunchArgs, json: bool, config: Config, n: u64) -> Exit {
    let compiled = match load(path, launch) {
        Ok(c) => c,
        Err(code) => return code,
    };
    struct Result {
        seeds: Vec<Option<u64>>,
        outcome: String,
        memory: String,
        values: serde_json::Value,
    }
    let mut results: Vec<Result> = vec![];
    for seed in std::iter::once(None).chain((1..=n).map(Some)) {
        let mut m = match Machine::new(&compiled, &Config { schedule_seed: seed, ..config.clone() }) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::Usage;
            }
        };
        let outcome = m.run();
        let memory = crate::debug::recording::memory_check(&m);
        let key = (outcome.name().to_string(), memory.clone());
        match results.iter_mut().find(|r| (r.outcome.clone(), r.memory.clone()) == key) {
            Some(r) => r.seeds.push(seed),
            None => {
                let values = report::json(&m, &outcome)["memory"].clone();
                results.push(Result { seeds: vec![seed], outcome: key.0, memory, values })
            }
        }
    }
    let seed_text = |s: &Option<u64>| s.map_or("default".to_string(), |v| v.to_string());
    if json {
        let v: Vec<serde_json::Value> = results
            .iter()
            .map(|r| {
                serde_json::json!({
                    "seeds": r.seeds.iter().map(|s| s.map_or(serde_json::Value::Null, |v| v.into())).collect::<Vec<_>>(),
                    "outcome": r.outcome, "memory_checksum": r.memory, "memory": r.values,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "schedules": n + 1, "results": v })).unwrap_or_default()
        );
    } else {
        println!(
            "{} schedules (the default and seeds 1..={n}): {} distinct result{}",
            n + 1,
            results.len(),
            if results.len() == 1 { "" } else { "s" }
        );
        let base = &results[0].values;
        for (i, r) in results.iter().enumerate() {
            let seeds: Vec<String> = r.seeds.iter().take(12).map(seed_text).collect();
            let more = if r.seeds.len() > 12 { format!(" and {} more", r.seeds.len() - 12) } else { String::new() };
            println!("\nresult {}: {} (memory {}) with seeds {}{more}", i + 1, r.outcome, r.memory, seeds.join(", "));
            if i > 0 {
                // Where this result's memory differs from the default schedule's.
                if let (Some(a), Some(b)) = (base.as_object(), r.values.as_object()) {
                    for (name, va) in a {
                        let (Some(xa), Some(xb)) = (va.as_array(), b.get(name).and_then(|v| v.as_array())) else {
                            continue;
                        };
                        let diffs: Vec<String> = xa
                            .iter()
                            .zip(xb)
                            .enumerate()
                            .filter(|(_, (p, q))| p != q)
                            .take(8)
                            .map(|(k, (p, q))| format!("{name}[{k}] = {q} (default: {p})"))
                            .collect();
                        if !diffs.is_empty() {
                            println!("  {}", diffs.join(", "));
                        }
                    }
                }
                if let Some(Some(s)) = r.seeds.first() {
                    println!("  reproduce: warpdbg run {} --schedule-seed {s}", path.display());
                }
            }
        }
        if results.len() > 1 {
            println!("\nThe result depends on the schedule: a race, or a hang that only some interleavings reach.");
        }
    }
    Exit::Ok
}

fn why_command(
    path: &Path,
    launch: &LaunchArgs,
    steps: u64,
    block: u64,
    warp: u32,
    lane: u32,
    program_args: &[String],
) -> Exit {
    let config = Config { schedule_seed: launch.schedule_seed, ..base_config() };
    let program = program::read(path);
    let mut session = match &program {
        Some(bytes) => match program::session(path, bytes, launch, program_args) {
            Ok((_, s)) => s,
            Err(code) => return code,
        },
        None => {
            let compiled = match load(path, launch) {
                Ok(c) => c,
                Err(code) => return code,
            };
            match Session::new(compiled, config) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Exit::Usage;
                }
            }
        }
    };
    session.run_to(steps);
    match session.why_inactive(block, warp, lane) {
        Ok(w) => {
            println!("at step {}: {}", session.machine.steps, w.text);
            if let Some((_, step)) = w.branch {
                let at = match (&program, launch.launch) {
                    (Some(_), Some(k)) => format!(" --launch {k}"),
                    _ => String::new(),
                };
                println!("to see the branch about to run: warpdbg view {}{at} --steps {}", path.display(), step - 1);
            }
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Usage
        }
    }
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

/// The debugger's app with `--break` and `--quiz` applied. With `--quiz`, FILE may be a recorded session
/// (`.wdbg`): its kernel, launch and the instructor's quiz points.
fn teach_app(
    path: &Path,
    launch: &LaunchArgs,
    ui: &UiArgs,
    teach: &TeachArgs,
    program_args: &[String],
) -> Result<App, Exit> {
    use crate::debug::quiz::{Points, QuestionKind, Quiz};
    let recorded = teach.quiz && path.extension().is_some_and(|e| e == "wdbg");
    let mut points = Points { defaults: true, ..Points::default() };
    let mut app = if recorded {
        let rec = load_recording(path)?;
        let theme = ui_theme(ui)?;
        let app = crate::tui::replay::start_app(&rec, Keymap::default_map(), theme).map_err(|e| {
            eprintln!("error: {}:1: {e}", path.display());
            Exit::Usage
        })?;
        points.authored = rec
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                crate::debug::recording::EventKind::Quiz { question, steps } => {
                    QuestionKind::parse(question).map(|k| (*steps, k))
                }
                _ => None,
            })
            .collect();
        if points.authored.is_empty() {
            eprintln!("note: {} has no quiz points (`Q` while recording); using the default ones", path.display());
        } else {
            points.defaults = false;
        }
        app
    } else {
        make_app_with_args(path, launch, ui, program_args)?
    };
    for bp in parse_breaks(&teach.breaks, &app.session.compiled)? {
        app.session.add_breakpoint(bp);
    }
    if teach.quiz {
        let quiz = Quiz::new(&app.session, points, teach.quiz_score.clone());
        app.session.event_breakpoints.push(quiz.breakpoint());
        app.quiz = Some(quiz);
        app.message = Some((
            crate::tui::theme::BannerKind::Ok,
            "quiz mode: continue (c) or step (s); you will be asked to predict".into(),
        ));
        crate::tui::teach::after_stop(&mut app);
    }
    Ok(app)
}

/// `run --break SPEC...`: runs to the first breakpoint hit (or the end) and reports, with `stopped_at`.
fn run_break_command(
    path: &Path,
    launch: &LaunchArgs,
    json: Option<MemoryDetail>,
    config: Config,
    specs: &[String],
) -> Exit {
    use crate::debug::session::Stop;
    let compiled = match load(path, launch) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let breaks = match parse_breaks(specs, &compiled) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let mut session = match Session::new(compiled, config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Usage;
        }
    };
    for bp in breaks {
        session.add_breakpoint(bp);
    }
    let mut first = true;
    let stop = loop {
        if let Some(stop) = session.cont(crate::debug::session::CONTINUE_CHUNK, first) {
            break stop;
        }
        first = false;
    };
    let hit = match &stop {
        Stop::Hit(h) => Some(h.clone()),
        Stop::Breakpoint { line } => Some(crate::debug::breakpoint::line_hit(&mut session, *line)),
        _ => None,
    };
    let outcome = session.machine.outcome().cloned().unwrap_or(Outcome::Paused);
    let m = &session.machine;
    let mut out = buffered_stdout();
    if let Some(detail) = json {
        let mut extra = serde_json::Map::new();
        extra.insert("stopped_at".into(), hit.as_ref().map_or(serde_json::Value::Null, |h| serde_json::json!(h)));
        let _ = report::write_json(&mut out, m, &outcome, detail, extra);
        let _ = out.flush();
    } else {
        match &hit {
            Some(h) => {
                let _ = writeln!(out, "stopped at step {} (line {}): {}", h.step, h.line, h.message);
            }
            None => {
                let _ = writeln!(out, "no breakpoint was hit");
            }
        }
        let _ = write!(out, "{}", report::text(m, &outcome));
    }
    exit_for(&outcome)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }

    #[test]
    fn counts_take_digits_or_a_power_of_ten() {
        use super::parse_count;
        assert_eq!(parse_count("400"), Ok(400));
        assert_eq!(parse_count("1e7"), Ok(10_000_000));
        assert_eq!(parse_count("5.5E6"), Ok(5_500_000));
        assert!(parse_count("1.5e0").is_err());
        assert!(parse_count("-1e3").is_err());
        assert!(parse_count("1e400").is_err());
        assert!(parse_count("lots").is_err());
    }
}

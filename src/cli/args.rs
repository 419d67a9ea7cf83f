//! The command line as clap derive types: the commands, their flags, and the parsers of flag values.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::front::launch::{Mode, Overrides};
use crate::sim::MemoryDetail;

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
        /// Stop after this many issued instructions (default: 10,000 per warp, at least 10 million, or more
        /// where the launch's integer arguments ask for it: docs/programs.md).
        #[arg(long, value_name = "N")]
        max_steps: Option<u64>,
        /// Refuse launches whose arrays need more bytes than this (4 GiB by default). A whole program's
        /// device memory (80 GiB by default, an H100's) becomes this too, and its host may hold four times it.
        #[arg(long, value_name = "BYTES")]
        memory_cap: Option<u64>,
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
        /// Evaluate a CUDA expression in the 32 lanes of the warp the run stopped in (the faulting thread's,
        /// a breakpoint's, a stuck one's; repeatable): one line each, `printed` in the JSON report.
        #[arg(long = "print", value_name = "EXPR", allow_hyphen_values = true, conflicts_with_all = ["bench", "explore"])]
        prints: Vec<String>,
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
        /// Print only the metrics pane in one of its views, every row, COLS wide: `metrics` (divergence and
        /// memory efficiency per line), `banks` (K) or `coalescing` (C).
        #[arg(long, value_name = "VIEW", value_parser = ["metrics", "banks", "coalescing"])]
        pane: Option<String>,
        /// Watch a CUDA expression in the Lanes pane (repeatable), and print it after the screen in the 32 lanes
        /// of the selected warp, one line each.
        #[arg(long = "print", value_name = "EXPR", allow_hyphen_values = true)]
        prints: Vec<String>,
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
        /// A hand-out manifest (RON): the exercises the page lists first, each a file with a whole program's
        /// arguments and a recording to open it at, all optional but one of file and recording (docs/wasm.md).
        #[arg(long, value_name = "MANIFEST.ron", requires = "playground")]
        handout: Option<PathBuf>,
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

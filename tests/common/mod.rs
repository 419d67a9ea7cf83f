//! Shared helpers for the simulator tests: compile a kernel file, run it to the end, read the report.
#![allow(dead_code)] // each test binary uses a different subset

pub mod tmux;
pub mod ui;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use warpdbg::compile::{self, Compiled};

use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::ir::Ty;
use warpdbg::sim::{Config, GlobalMemory, Issue, Machine, Outcome, report};

/// A path relative to the repository root.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The `.cu` files of these folders of the repository, as `folder/name.cu`: each folder's in name order, the
/// folders in the order given.
pub fn cu_files(dirs: &[&str]) -> Vec<String> {
    let mut out = vec![];
    for dir in dirs {
        let mut files: Vec<String> = std::fs::read_dir(repo(dir))
            .expect("directory exists")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".cu"))
            .map(|n| format!("{dir}/{n}"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// Compiles a kernel file with `--arg`-style overrides (`"n=100"`) in `mode`.
pub fn compile(path: &str, mode: Mode, args: &[&str]) -> Compiled {
    compile_with(path, &overrides(mode, args))
}

/// Overrides for `mode` and `--arg`-style arguments; set `kernel`, `grid` or `block` on the result.
pub fn overrides(mode: Mode, args: &[&str]) -> Overrides {
    Overrides { args: args.iter().map(|s| s.to_string()).collect(), mode: Some(mode), ..Default::default() }
}

/// Compiles a kernel file with any command-line overrides.
pub fn compile_with(path: &str, overrides: &Overrides) -> Compiled {
    let bytes = std::fs::read(repo(path)).expect("kernel file exists");
    compile::compile(path, &bytes, overrides).unwrap_or_else(|e| panic!("{path} compiles:\n{e}"))
}

/// A finished run: the machine, how it ended and its `run --json` report.
pub struct Run {
    pub machine: Machine,
    pub outcome: Outcome,
    pub json: Value,
}

impl Run {
    /// Final contents of an array argument as integers.
    pub fn ints(&self, name: &str) -> Vec<i64> {
        self.json["memory"][name]
            .as_array()
            .unwrap_or_else(|| panic!("no array {name}"))
            .iter()
            .map(|v| v.as_i64().expect("integer element"))
            .collect()
    }

    /// Final contents of an array argument as floats.
    pub fn floats(&self, name: &str) -> Vec<f64> {
        self.json["memory"][name]
            .as_array()
            .unwrap_or_else(|| panic!("no array {name}"))
            .iter()
            .map(|v| v.as_f64().expect("number element"))
            .collect()
    }

    pub fn metric(&self, name: &str) -> f64 {
        self.json["metrics"][name].as_f64().unwrap_or_else(|| panic!("no metric {name}"))
    }

    /// The per-line metrics row of source line `line`.
    pub fn line(&self, line: u64) -> &Value {
        self.json["metrics"]["per_line"]
            .as_array()
            .expect("per_line")
            .iter()
            .find(|r| r["line"] == line)
            .unwrap_or_else(|| panic!("no per-line row for line {line}"))
    }

    pub fn outcome(&self) -> &str {
        self.json["outcome"].as_str().expect("outcome")
    }

    pub fn explanation(&self) -> &str {
        self.json["explanation"].as_str().unwrap_or("")
    }

    /// (kind, line) of every hazard.
    pub fn hazards(&self) -> Vec<(String, u64)> {
        self.json["hazards"]
            .as_array()
            .expect("hazards")
            .iter()
            .map(|h| (h["kind"].as_str().expect("kind").to_string(), h["line"].as_u64().expect("line")))
            .collect()
    }

    /// (line, kind, threads) of every wait.
    pub fn waits(&self) -> Vec<(u64, String, String)> {
        self.json["waits"]
            .as_array()
            .expect("waits")
            .iter()
            .map(|w| {
                (
                    w["line"].as_u64().expect("line"),
                    w["kind"].as_str().expect("kind").to_string(),
                    w["threads"].as_str().expect("threads").to_string(),
                )
            })
            .collect()
    }
}

/// Runs a kernel file to its final outcome.
pub fn run(path: &str, mode: Mode, args: &[&str]) -> Run {
    run_with(path, mode, args, Config::default())
}

pub fn run_with(path: &str, mode: Mode, args: &[&str], config: Config) -> Run {
    run_compiled(&compile(path, mode, args), config)
}

/// Runs a compiled kernel to its final outcome.
pub fn run_compiled(compiled: &Compiled, config: Config) -> Run {
    let mut machine = Machine::new(compiled, &config).expect("launch fits in memory");
    let outcome = machine.run();
    let json = report::json(&machine, &outcome);
    Run { machine, outcome, json }
}

/// Every instruction a run issues, in order.
pub fn trace(path: &str, mode: Mode, args: &[&str]) -> Vec<Issue> {
    let compiled = compile(path, mode, args);
    let mut machine = Machine::new(&compiled, &Config::default()).expect("launch fits in memory");
    let mut out = vec![];
    loop {
        if machine.step_traced(1 << 16, &mut |i| out.push(*i)).is_final() {
            return out;
        }
    }
}

/// An array argument's contents before the launch, as integers (the inputs the kernel reads).
pub fn initial_ints(compiled: &Compiled, name: &str) -> Vec<i64> {
    let (mem, _) = GlobalMemory::from_launch(&compiled.launch);
    let a = mem.find(name).unwrap_or_else(|| panic!("no array {name}"));
    assert!(!matches!(a.elem, Ty::F32 | Ty::F64 | Ty::Ptr), "{name} holds {:?}, not integers", a.elem);
    (0..a.len).map(|i| a.elem.int_value(a.element(i))).collect()
}

/// The source line (1-based) of the first code line (not a comment) of `path` that contains `text`.
pub fn line_of(path: &str, text: &str) -> u64 {
    let src = std::fs::read_to_string(repo(path)).expect("kernel file exists");
    src.lines()
        .position(|l| l.contains(text) && !l.trim_start().starts_with("//"))
        .unwrap_or_else(|| panic!("{text:?} not in {path}")) as u64
        + 1
}

/// Runs the real binary.
pub fn warpdbg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpdbg"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub const MODES: [Mode; 2] = [Mode::Its, Mode::PreVolta];

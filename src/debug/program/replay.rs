//! The thread-free way to run a program's host code ([`super::HostRun::Replay`]), for targets without threads
//! (the playground page, wasm32-unknown-unknown): each move runs the host code again from `main` on the
//! caller's thread, and stops it at the wanted launch by answering that launch's hook with "stop". Host
//! execution is deterministic (the same program, arguments and mode give the same output, steps and memory),
//! so every run arrives at the same state. Launches before the wanted one are not run again when their final
//! machine is cached: a launch's end is cached as the debugger leaves it, within [`CACHE_BUDGET`] bytes of
//! device memory, so moving forwards repeats the host code only, not the kernels.

use std::collections::BTreeMap;
use std::io::Write;

use super::{LaunchInfo, ProgramEnd, Target};
use crate::host::{HostEnd, HostVar, LaunchRequest};
use crate::program::device::{LaunchHook, SimDevice};
use crate::program::{CompiledProgram, RunOptions};
use crate::sim::{Machine, Outcome};

/// Device memory the cache of launch ends may hold.
pub const CACHE_BUDGET: u64 = 256 << 20;

/// A progress report during a run: the launch the host has reached, and the instructions its kernels issued
/// so far in this run (the page's progress line).
pub type Progress = Box<dyn FnMut(usize, u64)>;

/// The final machines (and outcomes) of launches, by launch index.
#[derive(Default)]
pub struct Cache {
    ends: BTreeMap<usize, (Machine, Outcome)>,
    bytes: u64,
    /// The end of the launch the debugger left last, kept whatever its size: the next run goes on from it.
    latest: Option<(usize, Machine, Outcome)>,
}

impl Cache {
    /// Keeps launch `k`'s end, unless that would pass the budget.
    pub fn keep(&mut self, k: usize, m: &Machine, o: &Outcome) {
        let size = machine_bytes(m);
        if self.ends.contains_key(&k) || self.bytes + size > CACHE_BUDGET {
            return;
        }
        self.bytes += size;
        self.ends.insert(k, (m.clone(), o.clone()));
    }

    /// Keeps launch `k`'s end as the latest (and within the budget, for good).
    pub fn keep_latest(&mut self, k: usize, m: &Machine, o: &Outcome) {
        self.keep(k, m, o);
        if !self.ends.contains_key(&k) {
            self.latest = Some((k, m.clone(), o.clone()));
        }
    }

    /// Launch `k`'s end, when kept.
    fn get(&self, k: usize) -> Option<(&Machine, &Outcome)> {
        match &self.latest {
            Some((l, m, o)) if *l == k => Some((m, o)),
            _ => self.ends.get(&k).map(|(m, o)| (m, o)),
        }
    }

    /// Forgets every launch (the mode changed: the launches differ).
    pub fn clear(&mut self) {
        self.ends.clear();
        self.bytes = 0;
        self.latest = None;
    }

    /// How many launch ends are kept.
    pub fn len(&self) -> usize {
        self.ends.len() + self.latest.is_some() as usize
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty() && self.latest.is_none()
    }
}

fn machine_bytes(m: &Machine) -> u64 {
    m.global.allocs.iter().map(|a| a.bytes()).sum::<u64>().max(1)
}

/// Where a run stopped.
pub struct Reached {
    /// Every launch made, in order; when the target was reached it is the last (with no outcome).
    pub launches: Vec<LaunchInfo>,
    /// The target launch's machine at step 0 and the host variables in scope there, when it was reached.
    pub at: Option<(Machine, Vec<HostVar>)>,
    /// How the program ended, when it did before the target.
    pub ended: Option<ProgramEnd>,
    /// The program's output up to the stop (standard output and error, interleaved).
    pub output: Vec<u8>,
    /// warpdbg's report lines (at the program's end).
    pub report: String,
}

/// What the hook records while the host runs.
struct State<'c> {
    target: Target,
    cache: Option<&'c Cache>,
    launches: Vec<LaunchInfo>,
    at: Option<(Machine, Vec<HostVar>)>,
    vars: Vec<HostVar>,
    /// The output's length when the target was reached (the host writes on as it unwinds).
    output_at: Option<usize>,
    steps: u64,
    progress: Option<&'c mut Progress>,
}

struct Hook<'s, 'c> {
    state: &'s mut State<'c>,
    output: &'s std::cell::RefCell<Vec<u8>>,
}

impl LaunchHook for Hook<'_, '_> {
    fn launch(
        &mut self,
        index: usize,
        req: &LaunchRequest,
        m: Machine,
        alloc_lines: &std::collections::HashMap<u64, u32>,
    ) -> Option<(Machine, Outcome)> {
        let s = &mut *self.state;
        let mut info = super::launch_info(index, req, &m, alloc_lines);
        if let Some(p) = s.progress.as_mut() {
            p(index, s.steps);
        }
        let here = match &s.target {
            Target::Index(k) => index >= *k,
            Target::Kernel(name) => info.kernel == *name,
        };
        if here {
            s.launches.push(info);
            s.at = Some((m, std::mem::take(&mut s.vars)));
            s.output_at = Some(self.output.borrow().len());
            return None;
        }
        let (m, o) = match s.cache.and_then(|c| c.get(index)) {
            Some((m, o)) => (m.clone(), o.clone()),
            None => {
                let mut m = m;
                let o = m.run();
                (m, o)
            }
        };
        s.steps += m.steps;
        info.outcome = Some(o.name());
        s.launches.push(info);
        Some((m, o))
    }

    fn host_vars(&mut self, vars: Vec<HostVar>) {
        self.state.vars = vars;
    }
}

/// A writer into a shared byte buffer (standard output and error interleaved).
struct Shared<'s>(&'s std::cell::RefCell<Vec<u8>>);

impl Write for Shared<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs the host code from `main` in `options.mode` up to `target` (launches before it from `cache`, else at
/// full speed) or to its end.
pub fn run(
    program: &CompiledProgram,
    options: &RunOptions,
    target: &Target,
    cache: Option<&Cache>,
    progress: Option<&mut Progress>,
) -> Reached {
    let unit = &program.unit;
    let source = unit.sources.get(unit.file);
    let output = std::cell::RefCell::new(Vec::new());
    let mut state = State {
        target: target.clone(),
        cache,
        launches: vec![],
        at: None,
        vars: vec![],
        output_at: None,
        steps: 0,
        progress,
    };
    let mut report = String::new();
    let end = {
        let mut dev = SimDevice::new(
            &unit.program,
            &unit.sources,
            source.name.clone(),
            options.mode,
            options.config.clone(),
            None,
        );
        dev.set_hook(Box::new(Hook { state: &mut state, output: &output }));
        let (mut o, mut e) = (Shared(&output), Shared(&output));
        let (end, rt, status) = crate::program::run_host(
            program,
            &mut dev,
            &mut o,
            &mut e,
            options.host_steps,
            options.host_jit,
            &options.args,
        );
        report.push_str(&crate::program::findings_text(&dev.launches, &rt.findings, &rt.leaks));
        let findings = crate::program::status::finding_count(&dev.launches, &rt.findings);
        ProgramEnd { status, end, findings }
    };
    let mut output = output.into_inner();
    if let Some(n) = state.output_at {
        output.truncate(n);
        return Reached { launches: state.launches, at: state.at, ended: None, output, report: String::new() };
    }
    if let HostEnd::Error(e) = &end.end {
        report.push_str(&format!("warpdbg: error: {e}\n"));
    }
    Reached { launches: state.launches, at: None, ended: Some(end), output, report }
}

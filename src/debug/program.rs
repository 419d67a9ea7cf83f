//! The debugger on a whole program: its host code runs up to a launch, and that launch is handed to a normal
//! debugging [`Session`]; when the session is done the host goes on to the next launch.
//!
//! The host interpreter (`crate::host::interp`) is a recursive tree walker that makes each launch from deep
//! inside its own call stack, so a stopped host cannot be saved and resumed as data. It runs instead on a
//! thread of its own (`thread.rs`): at each launch the device's launch hook sends the launch's machine (its
//! kernel, configuration and the program's whole device memory) here and waits; the machine comes back when
//! the debugger is done with it (at its end, after stepping, or run at full speed), and the host goes on.
//! Only one copy of device memory exists at any time (the one in the machine being debugged, plus the
//! snapshots its session keeps for time travel, within their budget), so a program with 64 MiB arrays and
//! many launches costs what one launch costs.
//!
//! Going back to an earlier launch (stepping back past a launch's start, a mode switch, the other model for
//! compare) starts the host again from `main` in a fresh runner and runs the launches before the wanted one
//! at full speed: host execution is deterministic, so it arrives at the same state. `docs/program-debug.md`
//! describes the choice.
//!
//! Where threads are not available (the playground page on wasm32-unknown-unknown) the same engine runs the host
//! code on the caller's thread instead ([`HostRun::Replay`], `replay.rs`): each move runs it again from `main`
//! and stops it at the wanted launch, with the launches before it taken from a cache of their ends.

use std::sync::Arc;

use crate::debug::breakpoint::{Breakpoint, Kind};
use crate::debug::session::Session;
use crate::front::launch::{Dim3, Mode};
use crate::host::{HostEnd, HostVar, LaunchRequest};
use crate::program::hints::HostAlloc;
use crate::program::status::Statuses;
use crate::program::{CompiledProgram, RunOptions};
use crate::sim::{Config, Fault, Machine, Outcome};

pub mod replay;
mod thread;

use thread::{FromHost, Runner};

/// Which launch to stop at.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The K-th launch (1-based).
    Index(usize),
    /// The first launch of this kernel.
    Kernel(String),
}

/// One launch of the program, as the launches list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchInfo {
    /// 1-based, in program order.
    pub index: usize,
    pub kernel: String,
    pub grid: Dim3,
    pub block: Dim3,
    /// Dynamic shared memory bytes.
    pub shared: u32,
    /// The line of the `<<<...>>>` (in device code for a grid launched there).
    pub host_line: u32,
    /// The launch whose device code launched this grid (dynamic parallelism).
    pub parent: Option<usize>,
    /// How it ended (`completed`, `fault`, ...); None while it is the one being debugged.
    pub outcome: Option<&'static str>,
    /// Its arguments' bits, in parameter order.
    pub args: Vec<u64>,
    /// The allocating line of each allocation host code had made, by base address.
    pub alloc_lines: Vec<(u64, u32)>,
}

impl LaunchInfo {
    /// The hint `warpdbg run` gives for a fault of this launch (`program::hints`), for the debugger's banner.
    pub fn fault_hint(&self, m: &Machine, sources: &crate::front::source::SourceMap, f: &Fault) -> Option<String> {
        let dim = |d: Dim3| [d.x, d.y, d.z];
        let req = LaunchRequest {
            index: self.index,
            kernel: self.kernel.clone(),
            grid: dim(self.grid),
            block: dim(self.block),
            shared: self.shared,
            args: self.args.clone(),
            line: self.host_line,
            parent: self.parent,
            // (Only the hint is asked for: it does not depend on how the launch was made.)
            cooperative: false,
        };
        let allocs: Vec<HostAlloc> = (m.global.allocs.iter())
            .filter_map(|a| {
                let line = self.alloc_lines.iter().find(|(base, _)| *base == a.base)?.1;
                Some(HostAlloc { alloc: a, line })
            })
            .collect();
        crate::program::hints::fault_hint(&m.kernel, sources, &req, f, &allocs)
    }

    /// `name<<<grid, block>>>` as the source would write it (dimensions of 1 left out).
    pub fn config(&self) -> String {
        let d = |d: Dim3| match (d.y, d.z) {
            (1, 1) => d.x.to_string(),
            (_, 1) => format!("({},{})", d.x, d.y),
            _ => format!("({},{},{})", d.x, d.y, d.z),
        };
        let shared = if self.shared > 0 { format!(", {}", self.shared) } else { String::new() };
        format!("{}<<<{}, {}{shared}>>>", self.kernel, d(self.grid), d(self.block))
    }
}

/// How the program ended.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramEnd {
    /// The process exit status `warpdbg run` gives: the program's own, or warpdbg's when it found something.
    pub status: u8,
    pub end: HostEnd,
    /// What warpdbg found that makes its status 1 (`crate::program::status::finding_count`).
    pub findings: usize,
}

impl ProgramEnd {
    /// The program's own status and warpdbg's, named apart (the title, the Program pane).
    pub fn statuses(&self) -> Statuses {
        Statuses::new(&self.end, self.status, self.findings)
    }

    /// One sentence: how the program ended and with what status.
    pub fn sentence(&self) -> String {
        match &self.end {
            HostEnd::Exited(_) => self.statuses().sentence(),
            HostEnd::Error(e) => format!("the host code stopped: {e} (status {})", self.status),
            HostEnd::Stopped(code) => {
                format!("the program was stopped by a launch that cannot finish (status {code})")
            }
        }
    }
}

/// Launch `index` as the launches list shows it, before it has run.
fn launch_info(
    index: usize,
    req: &LaunchRequest,
    m: &Machine,
    alloc_lines: &std::collections::HashMap<u64, u32>,
) -> LaunchInfo {
    LaunchInfo {
        index,
        kernel: req.kernel.clone(),
        grid: m.launch.grid,
        block: m.launch.block,
        shared: req.shared,
        host_line: req.line,
        parent: req.parent,
        outcome: None,
        args: req.args.clone(),
        // By address: a HashMap's order differs from run to run, and the thread and replay runs compare equal.
        alloc_lines: {
            let mut v: Vec<(u64, u32)> = alloc_lines.iter().map(|(a, l)| (*a, *l)).collect();
            v.sort_unstable();
            v
        },
    }
}

/// How the host code runs between launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostRun {
    /// On a thread of its own that waits at each launch: nothing is repeated going forwards (the terminal).
    Thread,
    /// On the caller's thread, run again from `main` up to each launch, the launches before it from a cache
    /// of their ends (`replay.rs`): for targets without threads (the playground page).
    Replay,
}

impl Default for HostRun {
    /// Threads where the target has them.
    fn default() -> Self {
        if cfg!(target_arch = "wasm32") { HostRun::Replay } else { HostRun::Thread }
    }
}

/// How a [`ProgramDebug`] runs the host code, and whom it tells how far a run has got.
#[derive(Default)]
pub struct HostOptions {
    pub run: HostRun,
    /// Called at each launch a replayed run reaches (the page's progress line).
    pub progress: Option<replay::Progress>,
}

/// Where [`ProgramDebug::advance`] arrived.
#[derive(Clone, Debug, PartialEq)]
pub enum Advance {
    /// At the start of this launch (1-based).
    Launch(usize),
    /// The program ended.
    Ended,
}

/// A whole program being debugged launch by launch. The [`Session`] of the current launch is the caller's
/// (the TUI keeps it like a kernel file's); the methods that move between launches replace it.
pub struct ProgramDebug {
    pub program: Arc<CompiledProgram>,
    /// Execution model, limits and arguments of the run.
    pub options: RunOptions,
    /// Each launch session's configuration (schedule seed, ...).
    pub config: Config,
    runner: Option<Runner>,
    host: HostOptions,
    /// Launch ends a replayed run takes instead of running them again.
    cache: replay::Cache,
    /// The launches made so far, in program order; while stopped at a launch it is the last.
    pub launches: Vec<LaunchInfo>,
    /// The launch being debugged (1-based), None once the program has ended.
    pub current: Option<usize>,
    /// The host variables in scope at the current launch.
    pub host_vars: Vec<HostVar>,
    /// The program's output (standard output and error) before the current launch, or all of it at the end.
    pub output: Vec<u8>,
    /// warpdbg's report lines so far (launch summaries, faults, hazards, host errors).
    pub report: String,
    /// How the program ended, once it has.
    pub ended: Option<ProgramEnd>,
}

impl ProgramDebug {
    /// Runs the program's host code up to `target` (launches before it at full speed) and returns the session
    /// of that launch at step 0. An error when the program ends before it (the message says how it ended).
    pub fn open(
        program: CompiledProgram,
        options: RunOptions,
        config: Config,
        target: &Target,
    ) -> Result<(ProgramDebug, Session), String> {
        Self::open_with(program, options, config, target, HostOptions::default())
    }

    /// [`ProgramDebug::open`] with the host code run as `host` says.
    pub fn open_with(
        program: CompiledProgram,
        options: RunOptions,
        config: Config,
        target: &Target,
        host: HostOptions,
    ) -> Result<(ProgramDebug, Session), String> {
        let mut p = ProgramDebug {
            program: Arc::new(program),
            options,
            config,
            runner: None,
            host,
            cache: replay::Cache::default(),
            launches: vec![],
            current: None,
            host_vars: vec![],
            output: vec![],
            report: String::new(),
            ended: None,
        };
        let session = p.run_to(target)?;
        Ok((p, session))
    }

    /// The program's file name as given.
    pub fn file(&self) -> &str {
        &self.program.unit.sources.get(self.program.unit.file).name
    }

    /// The launch being debugged.
    pub fn current_launch(&self) -> Option<&LaunchInfo> {
        self.launches.get(self.current?.checked_sub(1)?)
    }

    /// The program's output so far as text.
    pub fn output_text(&self) -> String {
        String::from_utf8_lossy(&self.output).into_owned()
    }

    fn session_for(&self, machine: Machine) -> Session {
        let unit = &self.program.unit;
        let compiled = crate::compile::Compiled {
            sources: unit.sources.clone(),
            file: unit.file,
            program: unit.program.clone(),
            launch: machine.launch.clone(),
            kernel: (*machine.kernel).clone(),
            warnings: vec![],
        };
        Session::from_machine(compiled, self.config.clone(), machine)
    }

    fn start_runner(&self, mode: Mode) -> Result<Runner, String> {
        let o = &self.options;
        Runner::start(self.program.clone(), mode, o.config.clone(), o.host_steps, o.host_jit, o.args.clone())
    }

    fn sync_output(&mut self) {
        if let Some(r) = &self.runner {
            self.output = r.output.contents();
            self.report = String::from_utf8_lossy(&r.report.contents()).into_owned();
        }
    }

    /// Starts the host from `main` again and stops at `target`.
    fn run_to(&mut self, target: &Target) -> Result<Session, String> {
        self.runner = None;
        self.launches.clear();
        self.current = None;
        self.ended = None;
        if self.host.run == HostRun::Replay {
            return self.replay_to(target);
        }
        let runner = self.start_runner(self.options.mode)?;
        self.runner = Some(runner);
        loop {
            let Some(runner) = &self.runner else { return Err("no program is running".into()) };
            match runner.next()? {
                FromHost::Launch { info, machine, vars } => {
                    let here = match target {
                        Target::Index(k) => info.index >= *k,
                        Target::Kernel(name) => info.kernel == *name,
                    };
                    self.launches.push(info);
                    if here {
                        return Ok(self.stop_at(*machine, vars));
                    }
                    let mut m = *machine;
                    let o = m.run();
                    if let Some(l) = self.launches.last_mut() {
                        l.outcome = Some(o.name());
                    }
                    runner.finish(m, o)?;
                }
                FromHost::Ended(end) => {
                    self.sync_output();
                    self.ended = Some(end.clone());
                    return Err(self.ended_before(target, &end));
                }
            }
        }
    }

    /// The program ended before `target`: how, with its output and host errors.
    fn ended_before(&self, target: &Target, end: &ProgramEnd) -> String {
        let made = self.launches.len();
        let what = match target {
            Target::Index(k) => format!("launch {k}"),
            Target::Kernel(name) => format!("a launch of `{name}`"),
        };
        let output = self.output_text();
        format!(
            "{} before {what}: it made {made} launch{}. {}{}",
            capitalise(&end.sentence()),
            if made == 1 { "" } else { "es" },
            if output.is_empty() { String::new() } else { format!("Its output:\n{output}") },
            self.report.lines().filter(|l| l.starts_with("warpdbg: error")).collect::<Vec<_>>().join("\n"),
        )
    }

    /// [`Self::run_to`] without a thread: the host runs from `main` on this thread up to `target`.
    fn replay_to(&mut self, target: &Target) -> Result<Session, String> {
        let stop = self.replay(target, self.options.mode, true);
        self.launches = stop.launches;
        self.output = stop.output;
        self.report = stop.report;
        match (stop.at, stop.ended) {
            (Some((m, vars)), _) => Ok(self.stop_at(m, vars)),
            (None, end) => {
                let end = end.ok_or("the program stopped without ending")?;
                self.ended = Some(end.clone());
                Err(self.ended_before(target, &end))
            }
        }
    }

    fn replay(&mut self, target: &Target, mode: Mode, cached: bool) -> replay::Reached {
        let options = RunOptions { mode, ..self.options.clone() };
        let cache = cached.then_some(&self.cache);
        replay::run(&self.program, &options, target, cache, self.host.progress.as_mut())
    }

    fn stop_at(&mut self, machine: Machine, vars: Vec<HostVar>) -> Session {
        self.current = Some(self.launches.len());
        self.host_vars = vars;
        self.sync_output();
        self.session_for(machine)
    }

    /// Finishes the current launch (at full speed from where `session` stands, if it has not ended), lets the
    /// host run on, and stops at the next launch, replacing `session` with its session (breakpoints kept), or
    /// at the program's end (`session` stays on the last launch's end).
    pub fn advance(&mut self, session: &mut Session) -> Result<Advance, String> {
        if self.ended.is_some() {
            return Ok(Advance::Ended);
        }
        let outcome = match session.machine.outcome() {
            Some(o) => o.clone(),
            None => {
                let o = session.machine.run();
                // Nothing can issue any more: the session's own record of the end.
                session.run_to(session.machine.steps);
                o
            }
        };
        if let Some(l) = self.current.and_then(|k| self.launches.get_mut(k - 1)) {
            l.outcome = Some(outcome.name());
        }
        if self.host.run == HostRun::Replay {
            return self.replay_advance(session, outcome);
        }
        let Some(runner) = &self.runner else { return Err("no program is running".into()) };
        runner.finish(session.machine.clone(), outcome)?;
        match runner.next()? {
            FromHost::Launch { info, machine, vars } => {
                self.launches.push(info);
                let mut next = self.stop_at(*machine, vars);
                carry_breakpoints(session, &mut next);
                *session = next;
                Ok(Advance::Launch(self.launches.len()))
            }
            FromHost::Ended(end) => {
                self.sync_output();
                self.current = None;
                self.ended = Some(end);
                Ok(Advance::Ended)
            }
        }
    }

    /// [`Self::advance`] without a thread: the current launch's end is cached and the host runs again from
    /// `main` to the next launch.
    fn replay_advance(&mut self, session: &mut Session, outcome: Outcome) -> Result<Advance, String> {
        let k = self.current.ok_or("no launch is being debugged")?;
        self.cache.keep_latest(k, &session.machine, &outcome);
        let launches = std::mem::take(&mut self.launches);
        let stop = self.replay(&Target::Index(k + 1), self.options.mode, true);
        self.output = stop.output;
        self.report = stop.report;
        self.launches = stop.launches;
        if self.launches.len() < k {
            // (The same host can only make the same launches: keep what was shown.)
            self.launches = launches;
        }
        match (stop.at, stop.ended) {
            (Some((m, vars)), _) => {
                let mut next = self.stop_at(m, vars);
                carry_breakpoints(session, &mut next);
                *session = next;
                Ok(Advance::Launch(self.launches.len()))
            }
            (None, end) => {
                self.current = None;
                self.ended = Some(end.ok_or("the program stopped without ending")?);
                Ok(Advance::Ended)
            }
        }
    }

    /// Goes to the start of launch `k` (an earlier one: the host runs again from `main`), replacing `session`
    /// (breakpoints kept).
    pub fn goto_launch(&mut self, k: usize, session: &mut Session) -> Result<(), String> {
        let mut next = self.run_to(&Target::Index(k.max(1)))?;
        carry_breakpoints(session, &mut next);
        *session = next;
        Ok(())
    }

    /// Switches the execution model: the program runs again in `mode` up to the same launch, whose session
    /// goes to the same step (or to where the other model stops first). After the program's end it runs to
    /// its end again.
    pub fn set_mode(&mut self, mode: Mode, session: &mut Session) -> Result<(), String> {
        let step = session.machine.steps;
        let at = self.current.unwrap_or(self.launches.len()).max(1);
        let was_ended = self.current.is_none();
        let old_mode = self.options.mode;
        self.options.mode = mode;
        if mode != old_mode {
            self.cache.clear();
        }
        if let Err(e) = self.goto_launch(at, session) {
            self.options.mode = old_mode;
            return Err(e);
        }
        if was_ended {
            session.machine.run();
            session.run_to(session.machine.steps);
            self.advance(session)?;
        } else {
            session.run_to(step);
        }
        Ok(())
    }

    /// The current launch's machine at its start in each model (pre-Volta first), for the side-by-side
    /// comparison: the other model's comes from running the program again in it, in a runner of its own.
    pub fn start_machines(&self, session: &Session) -> Result<[Machine; 2], String> {
        let k = self.current.ok_or("the program has ended: no launch to compare")?;
        let (_, mine) = session.history.before(0);
        let mine = mine.machine().clone();
        let mode = self.options.mode;
        let other_mode = if mode == Mode::Its { Mode::PreVolta } else { Mode::Its };
        if self.host.run == HostRun::Replay {
            let stop = replay::run(
                &self.program,
                &RunOptions { mode: other_mode, ..self.options.clone() },
                &Target::Index(k),
                None,
                None,
            );
            let Some((other, _)) = stop.at else {
                let end = stop.ended.map(|e| e.sentence()).unwrap_or_default();
                return Err(format!("in the other model {end} before launch {k}"));
            };
            return Ok(if mode == Mode::Its { [other, mine] } else { [mine, other] });
        }
        let runner = self.start_runner(other_mode)?;
        let other = loop {
            match runner.next()? {
                FromHost::Launch { info, machine, .. } if info.index == k => break *machine,
                FromHost::Launch { machine, .. } => {
                    let mut m = *machine;
                    let o = m.run();
                    runner.finish(m, o)?;
                }
                FromHost::Ended(end) => {
                    return Err(format!("in the other model {} before launch {k}", end.sentence()));
                }
            }
        };
        Ok(if mode == Mode::Its { [other, mine] } else { [mine, other] })
    }
}

/// Gives `next` (a new launch's session) the breakpoints of `old`: line breakpoints and break on divergence
/// as they are, specs parsed again against the new kernel (those that no longer parse are dropped).
pub fn carry_breakpoints(old: &Session, next: &mut Session) {
    next.breakpoints = old.breakpoints.clone();
    next.break_on_divergence = old.break_on_divergence;
    for bp in &old.event_breakpoints {
        match &bp.kind {
            Kind::Quiz { .. } => next.event_breakpoints.push(bp.clone()),
            _ => {
                if let Ok(b) = Breakpoint::parse(&bp.spec, &next.compiled) {
                    next.event_breakpoints.push(b);
                }
            }
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

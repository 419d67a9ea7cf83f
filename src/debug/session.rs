//! A debugging session: the compiled kernel, its machine, breakpoints and the stepping commands the TUI,
//! `warpdbg view` and replay share. UI-free; every command goes through [`Machine::step`].

use std::collections::BTreeSet;

use crate::compile::Compiled;
use crate::debug::breakpoint::{self, Breakpoint, Hit, Kind, Pending};
use crate::debug::history::History;
use crate::front::launch::Mode;
use crate::sim::{Config, Issue, LaunchError, Machine, Outcome};

/// Why a command stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// One instruction issued (or a source line finished).
    Stepped,
    /// A warp was about to run a line with a breakpoint.
    Breakpoint { line: u32 },
    /// A branch diverged (with break-on-divergence on).
    Divergence { line: u32 },
    /// An event breakpoint ([`crate::debug::breakpoint`]) stopped.
    Hit(Hit),
    /// The machine reached a final outcome.
    Finished(Outcome),
}

/// Steps one "continue" may take before the caller gets control back (to draw and read keys).
pub const CONTINUE_CHUNK: u64 = 20_000;

pub struct Session {
    pub compiled: Compiled,
    pub config: Config,
    pub machine: Machine,
    pub breakpoints: BTreeSet<u32>,
    pub break_on_divergence: bool,
    /// Breakpoints on SIMT events and conditional line breakpoints, checked by `cont`.
    pub event_breakpoints: Vec<Breakpoint>,
    /// The last instruction issued; `None` at step 0 and once the machine has its final outcome (nothing
    /// reads it then, and a whole run does not know which instruction the sequential schedule issued last).
    pub last_issue: Option<Issue>,
    /// Snapshots for stepping back.
    pub history: History<Snapshot>,
    /// The whole-run path was tried on this launch and mode and refused (it would be refused again).
    whole_refused: bool,
    /// Where the launch ends (its steps), once a whole run has found it: going to an earlier step does not
    /// try one.
    whole_end: Option<u64>,
}

/// What time travel restores: the machine (which keeps each warp's last issued line and lanes) and the last
/// issued instruction.
#[derive(Clone)]
pub struct Snapshot {
    machine: Machine,
    last_issue: Option<Issue>,
}

impl Snapshot {
    /// The machine as it was at this snapshot's step.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// Bytes this snapshot holds: the machine's clone.
    pub fn bytes(&self) -> u64 {
        self.machine.approx_bytes() + std::mem::size_of::<Snapshot>() as u64
    }
}

impl Session {
    pub fn new(compiled: Compiled, config: Config) -> Result<Session, LaunchError> {
        let machine = Machine::new(&compiled, &config)?;
        Ok(Session::from_machine(compiled, config, machine))
    }

    /// A session on a machine built elsewhere (a launch of a whole program, on the program's device memory:
    /// `crate::debug::program`); `compiled` gives its source and kernel.
    pub fn from_machine(compiled: Compiled, config: Config, machine: Machine) -> Session {
        let history = Session::fresh_history(&machine);
        Session {
            compiled,
            config,
            machine,
            breakpoints: BTreeSet::new(),
            break_on_divergence: false,
            event_breakpoints: vec![],
            last_issue: None,
            history,
            whole_refused: false,
            whole_end: None,
        }
    }

    fn fresh_history(machine: &Machine) -> History<Snapshot> {
        let snap = Snapshot { machine: machine.clone(), last_issue: None };
        let bytes = snap.bytes();
        History::new(snap, bytes, crate::debug::history::DEFAULT_BUDGET)
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot { machine: self.machine.clone(), last_issue: self.last_issue }
    }

    /// After stepping: the last instruction issued (if any did; none once the machine has its final outcome),
    /// and a snapshot if the history wants one at this step.
    fn note_issue(&mut self, issued: Option<Issue>) {
        if issued.is_some() {
            self.last_issue = issued;
        }
        if self.machine.outcome().is_some() {
            self.last_issue = None;
        }
        self.observe();
    }

    /// Takes a snapshot if the history wants one at this step.
    fn observe(&mut self) {
        if self.history.wants(self.machine.steps) {
            let snap = self.snapshot();
            self.history.observe(self.machine.steps, &snap, snap.bytes());
        }
    }

    /// Goes to `step` (forwards by running, backwards from the nearest snapshot), or to where the machine
    /// stops first. Breakpoints are not checked.
    pub fn goto(&mut self, step: u64) -> Option<Outcome> {
        self.travel_start(step);
        self.run_to(step)
    }

    /// Starts going to `step`: when it lies behind, restores the nearest snapshot at or before it. Then
    /// [`Session::travel_piece`] runs towards it a piece at a time (a front end draws progress between
    /// pieces); [`Session::goto`] is both at once.
    pub fn travel_start(&mut self, step: u64) {
        self.machine.abandon_whole_run();
        if step < self.machine.steps {
            let (_, snap) = self.history.before(step);
            self.machine = snap.machine;
            self.last_issue = snap.last_issue;
        }
    }

    /// Runs at most `budget` instructions towards `step` (after [`Session::travel_start`]): `Some` with the
    /// machine's outcome there (`None` inside: it can go on) once it has arrived or stopped, `None` while it
    /// is on its way.
    pub fn travel_piece(&mut self, step: u64, budget: u64) -> Option<Option<Outcome>> {
        let to = step.min(self.machine.steps.saturating_add(budget));
        let o = self.run_steps(to, u64::MAX, &crate::sim::Stops::default());
        if self.machine.steps >= step || self.machine.outcome().is_some() || o.is_some() {
            return Some(self.settle());
        }
        None
    }

    /// Steps back `n` instructions.
    pub fn step_back(&mut self, n: u64) {
        let target = self.machine.steps.saturating_sub(n);
        self.goto(target);
    }

    pub fn mode(&self) -> Mode {
        self.machine.mode()
    }

    /// Back to step 0 with the same kernel, inputs, mode and breakpoints.
    pub fn restart(&mut self) -> Result<(), LaunchError> {
        self.goto(0);
        Ok(())
    }

    /// Switches the execution model, keeping kernel, inputs and breakpoints, and re-runs to the same step
    /// (or to where the other model stops first).
    pub fn set_mode(&mut self, mode: Mode) -> Result<(), LaunchError> {
        let step = self.machine.steps;
        self.compiled.launch.mode = mode;
        self.machine = Machine::new(&self.compiled, &self.config)?;
        self.history = Session::fresh_history(&self.machine);
        self.last_issue = None;
        self.whole_refused = false;
        self.whole_end = None;
        self.run_to(step);
        Ok(())
    }

    /// Runs (no breakpoints) until `step` instructions have issued or the machine stops. From step 0 it
    /// first tries the whole run (`Machine::start_whole_run`), abandoned as soon as it has issued more than
    /// `step` instructions, and kept when the launch ends by then: the state single-stepping reaches.
    pub fn run_to(&mut self, step: u64) -> Option<Outcome> {
        if step > self.machine.steps && self.try_whole_run(step, u64::MAX).is_some() {
            return self.settle();
        }
        self.run_steps(step, u64::MAX, &crate::sim::Stops::default());
        self.settle()
    }

    /// The whole-run path from step 0 (nothing can stop the run): runs pieces of about `piece` instructions
    /// until the launch ends (`Some`, the machine at its end), or with a bounded `piece` for one piece
    /// (`None`, the run in progress). When the rule fails, or the run would go past step `limit` (judged from
    /// the first piece's instructions per block, or found on the way), the machine is back at step 0 and
    /// `None` returned.
    fn try_whole_run(&mut self, limit: u64, piece: u64) -> Option<Outcome> {
        use crate::sim::WholeProgress;
        if self.whole_refused || self.whole_end.is_some_and(|end| end > limit) || !self.machine.start_whole_run() {
            return None;
        }
        loop {
            // Unbounded: pieces of an eighth of the limit, so a run past it stops early.
            let size = if piece == u64::MAX { (limit / 8).clamp(1 << 16, 1 << 24) } else { piece };
            match self.machine.whole_run_piece(size) {
                WholeProgress::Done(o) => {
                    self.whole_end = Some(self.machine.steps);
                    if self.machine.steps > limit {
                        // Past the step asked for: back to step 0 (the snapshot there), to step from.
                        self.travel_start(0);
                        return None;
                    }
                    // (At a final outcome there is no last issue: `note_issue`.)
                    self.last_issue = None;
                    return Some(o);
                }
                WholeProgress::Running { blocks, of, steps } => {
                    let expected = (steps as u128 * of as u128 / blocks.max(1) as u128).min(u64::MAX as u128) as u64;
                    if steps > limit || expected > limit.saturating_add(limit / 2) {
                        self.machine.abandon_whole_run();
                        return None;
                    }
                    if piece != u64::MAX {
                        return None;
                    }
                }
                WholeProgress::Refused => {
                    self.whole_refused = true;
                    return None;
                }
            }
        }
    }

    /// Issues instructions until step `to`, a stop in `stops`, a final outcome, or `decisions` scheduling
    /// decisions (a `_sync` wait is one that issues nothing), taking the history's snapshots on the way; what
    /// stopped it (`None`: it reached `to` or used its decisions).
    fn run_steps(&mut self, to: u64, mut decisions: u64, stops: &crate::sim::Stops) -> Option<crate::sim::Halt> {
        use crate::sim::Halt;
        while self.machine.steps < to && decisions > 0 {
            // Up to the next snapshot (one scheduling decision issues at most one instruction).
            let iv = self.history.interval;
            let next = (self.machine.steps / iv + 1).saturating_mul(iv).min(to);
            let chunk = (next - self.machine.steps).min(decisions);
            decisions -= chunk;
            let mut last = None;
            let halt = self.machine.step_until(chunk, stops, &mut |i| last = Some(*i));
            self.note_issue(last);
            if halt != Halt::Budget {
                return Some(halt);
            }
        }
        None
    }

    /// Gives the machine its final outcome when nothing can issue from here (a deadlock, the end, the step
    /// limit), which the machine itself only finds on the next step. Without this a step had two states: the
    /// deadlock found when running past it, none when arriving by stepping or by going back and forward.
    fn settle(&mut self) -> Option<Outcome> {
        if self.machine.outcome().is_none()
            && (self.machine.steps >= self.machine.max_steps || self.machine.peek().is_none())
        {
            let steps = self.machine.steps;
            self.machine.step(1);
            debug_assert_eq!(self.machine.steps, steps, "settling issues nothing");
        }
        if self.machine.outcome().is_some() {
            self.last_issue = None;
        }
        self.machine.outcome().cloned()
    }

    fn step_one(&mut self) -> Stop {
        let mut issued = None;
        let o = self.machine.step_traced(1, &mut |i| issued = Some(*i));
        self.note_issue(issued);
        if o.is_final() { Stop::Finished(o) } else { Stop::Stepped }
    }

    fn machine_block_linear(&self, b: crate::front::launch::Dim3) -> u64 {
        b.linear_in(self.machine.launch.grid)
    }

    /// One instruction.
    pub fn step_instruction(&mut self) -> Stop {
        if let Some(o) = self.machine.outcome() {
            return Stop::Finished(o.clone());
        }
        match self.step_one() {
            Stop::Stepped => self.settle().map_or(Stop::Stepped, Stop::Finished),
            stop => stop,
        }
    }

    /// Runs until warp `warp` of block `block` (linear index) is about to run another source line, has
    /// finished, or the machine stops; at most `budget` instructions.
    pub fn step_line(&mut self, block: u64, warp: u32, budget: u64) -> Stop {
        let start = self.warp_next_line(block, warp);
        let mut moved = false;
        for _ in 0..budget {
            if let Some(o) = self.machine.outcome() {
                return Stop::Finished(o.clone());
            }
            if let Stop::Finished(o) = self.step_one() {
                return Stop::Finished(o);
            }
            if self.last_issue.is_some_and(|i| self.machine_block_linear(i.block) == block && i.warp.0 == warp) {
                moved = true;
            }
            let now = self.warp_next_line(block, warp);
            if moved && (now != start || now.is_none()) {
                break;
            }
        }
        self.settle().map_or(Stop::Stepped, Stop::Finished)
    }

    /// The line warp (block, warp) will run next, if it is resident and can issue.
    pub fn warp_next_line(&mut self, block: u64, warp: u32) -> Option<u32> {
        let kernel = self.machine.kernel.clone();
        let b = self.machine.blocks.iter_mut().find(|b| b.linear == block)?;
        let w = b.warps.get_mut(warp as usize)?;
        w.candidate().map(|(pc, _)| kernel.line(pc))
    }

    /// The line and lanes warp `warp` of the block in slot `slot` last issued with (`None` before its first
    /// issue): a breakpoint stops a warp arriving at its line, not the warp already there.
    pub fn last_issued(&self, slot: usize, warp: usize) -> Option<(u32, crate::sim::LaneMask)> {
        breakpoint::last_issued(&self.machine, slot, warp)
    }

    /// The breakpoint line the next instruction's warp is arriving at, if any: where a continue stops before
    /// issuing (replay asks this to stop where the recording stopped).
    pub fn breakpoint_ahead(&mut self) -> Option<u32> {
        if self.breakpoints.is_empty() {
            return None;
        }
        let (slot, w, pc, _) = self.machine.peek()?;
        let line = self.machine.kernel.line(pc);
        let last = self.last_issued(slot, w).map(|(l, _)| l);
        (self.breakpoints.contains(&line) && last != Some(line)).then_some(line)
    }

    /// Adds a parsed breakpoint: a plain `line N` joins [`Session::breakpoints`], the others are checked by
    /// `cont` as event breakpoints.
    pub fn add_breakpoint(&mut self, bp: Breakpoint) {
        match bp.kind {
            Kind::Line { line, cond: None } => {
                self.breakpoints.insert(line);
            }
            _ => self.event_breakpoints.push(bp),
        }
    }

    /// Nothing set can stop a continue before the end: no breakpoint of any kind, no break on divergence.
    pub fn nothing_can_stop(&self) -> bool {
        self.breakpoints.is_empty() && self.event_breakpoints.is_empty() && !self.break_on_divergence
    }

    /// A continue that takes the whole-run path (the machine's whole run on every core, in pieces) when it
    /// provably reaches the state single-stepping would: from step 0, with nothing set that could stop it,
    /// and the run's rule holding (`Machine::start_whole_run`). Otherwise, or when the rule fails, as
    /// [`Session::cont`]. Returns as `cont` does; `None` after each piece of about `budget` instructions
    /// ([`Session::whole_run_progress`] says how far a whole run is).
    pub fn cont_fast(&mut self, budget: u64, first: bool) -> Option<Stop> {
        let whole = self.machine.whole_run_active() || (self.machine.steps == 0 && self.nothing_can_stop());
        if whole {
            if let Some(o) = self.try_whole_run(u64::MAX, budget.max(1)) {
                return Some(Stop::Finished(o));
            }
            if self.machine.whole_run_active() {
                return None;
            }
        }
        self.cont(budget, first)
    }

    /// Blocks done, of all, while a whole run is in progress.
    pub fn whole_run_progress(&self) -> Option<(u64, u64)> {
        self.machine.whole_run_progress()
    }

    /// Stops a whole run in progress: the machine goes back to where it started (step 0).
    pub fn interrupt(&mut self) {
        self.machine.abandon_whole_run();
    }

    /// Continue: runs until a breakpoint, a divergence (if enabled), or a final outcome; `None` when
    /// `budget` instructions ran without stopping (call again to go on).
    pub fn cont(&mut self, budget: u64, first: bool) -> Option<Stop> {
        use crate::debug::breakpoint::{arrival_holds, conditional_line};
        use crate::sim::Halt;
        // Plain and conditional line breakpoints and divergence are checked inside the machine; the other
        // event breakpoints before and after every instruction.
        if !self.event_breakpoints.iter().all(|bp| conditional_line(bp).is_some()) {
            return self.cont_checked(budget, first);
        }
        if let Some(o) = self.machine.outcome() {
            return Some(Stop::Finished(o.clone()));
        }
        let mut left = budget;
        // The first instruction does not stop at a breakpoint: its warp is already there.
        if first && left > 0 {
            left -= 1;
            let before = self.machine.metrics.divergent_branches;
            if let Stop::Finished(o) = self.step_one() {
                return Some(Stop::Finished(o));
            }
            if self.break_on_divergence && self.machine.metrics.divergent_branches > before {
                return Some(Stop::Divergence { line: self.last_issue.map_or(0, |i| i.line) });
            }
        }
        let kernel = self.machine.kernel.clone();
        let plain = std::mem::take(&mut self.breakpoints);
        let conds = std::mem::take(&mut self.event_breakpoints);
        let filter = |b: &crate::sim::BlockState, warp: u32, pc: crate::ir::Pc, mask| {
            let line = kernel.line(pc);
            plain.contains(&line) || arrival_holds(&conds, line, b, warp, mask)
        };
        let lines = |l: u32| plain.contains(&l) || conds.iter().any(|bp| conditional_line(bp) == Some(l));
        let mut stops = crate::sim::Stops::new(&kernel, lines, self.break_on_divergence);
        if !conds.is_empty() {
            stops.filter = Some(&filter);
        }
        let halt = self.run_steps(u64::MAX, left, &stops);
        drop(stops);
        let stop = match halt {
            Some(Halt::Line(line)) => Some(Stop::Breakpoint { line }),
            Some(Halt::Divergence(line)) => Some(Stop::Divergence { line }),
            Some(Halt::Final(o)) => Some(Stop::Finished(o)),
            Some(Halt::Budget) | None => None,
        };
        self.breakpoints = plain;
        self.event_breakpoints = conds;
        // A conditional breakpoint's hit, described as the per-instruction check describes it.
        if let Some(Stop::Breakpoint { line }) = stop
            && !self.breakpoints.contains(&line)
            && let Err(hit) = before_issue(self, true)
        {
            return Some(Stop::Hit(hit));
        }
        stop
    }

    /// [`Session::cont`] with event breakpoints: checked before and after every instruction.
    fn cont_checked(&mut self, budget: u64, first: bool) -> Option<Stop> {
        for k in 0..budget {
            if let Some(o) = self.machine.outcome() {
                return Some(Stop::Finished(o.clone()));
            }
            // A breakpoint stops a warp arriving at the line, before it runs it (not the warp already there).
            let arriving = !(first && k == 0);
            if arriving && let Some(line) = self.breakpoint_ahead() {
                return Some(Stop::Breakpoint { line });
            }
            let pending = match before_issue(self, arriving) {
                Ok(p) => p,
                Err(hit) => return Some(Stop::Hit(hit)),
            };
            let before = self.machine.metrics.divergent_branches;
            if let Stop::Finished(o) = self.step_one() {
                return Some(Stop::Finished(o));
            }
            if self.break_on_divergence && self.machine.metrics.divergent_branches > before {
                let line = self.last_issue.map_or(0, |i| i.line);
                return Some(Stop::Divergence { line });
            }
            if let Some(p) = pending
                && let Some(hit) = after_issue(self, p)
            {
                return Some(Stop::Hit(hit));
            }
        }
        None
    }
}

/// The event breakpoints' check before `s`'s next instruction issues ([`breakpoint::before_issue`] on its
/// machine and breakpoints): a hit, or what [`after_issue`] needs. `arriving` is false for the first
/// instruction of a continue (the one it starts on does not stop it again).
pub fn before_issue(s: &mut Session, arriving: bool) -> Result<Option<Pending>, Hit> {
    breakpoint::before_issue(&mut s.machine, &s.event_breakpoints, arriving)
}

/// The event breakpoints' check after `s`'s instruction issued ([`breakpoint::after_issue`]).
pub fn after_issue(s: &Session, p: Pending) -> Option<Hit> {
    breakpoint::after_issue(&s.machine, &s.event_breakpoints, s.last_issue, p)
}

/// The answer to "why is this lane inactive?".
#[derive(Clone, Debug, PartialEq)]
pub struct WhyInactive {
    /// Thread index in the block.
    pub tid: u32,
    /// One paragraph for the student.
    pub text: String,
    /// The divergent branch that masked the lane: its line and the step it issued at (go to `step - 1` to
    /// see it about to run).
    pub branch: Option<(u32, u64)>,
    /// Where the lane's side reconverges with the rest of the warp (None: at the end of the kernel).
    pub reconverge_line: Option<u32>,
    /// The same answer as data, for displays that word it themselves.
    pub state: LaneState,
}

/// Where a lane stands, as [`Session::why_inactive`] found it.
#[derive(Clone, Debug, PartialEq)]
pub enum LaneState {
    /// Runs with its warp's next instruction, at `line`.
    Active { line: u32 },
    /// Has exited at `line`.
    Exited { line: u32 },
    /// Waits at `line` with no divergent branch masking it (e.g. a barrier).
    Waiting { line: u32 },
    /// Masked by a divergent branch: its kind (`` `if` ``, `loop condition`, ...), condition text, the
    /// variables of the condition for this thread then (`name=value`), which way the condition went for it, and
    /// the line it waits at now.
    Masked { kind: &'static str, condition: String, values: Vec<String>, taken: Option<bool>, waits_at: u32 },
}

impl Session {
    /// Explains why `lane` of warp `warp` in block `block` (linear index) does not run with its warp now.
    pub fn why_inactive(&mut self, block: u64, warp: u32, lane: u32) -> Result<WhyInactive, String> {
        use crate::sim::inspect;
        let kernel = self.machine.kernel.clone();
        let src = self.compiled.sources.get(self.compiled.file).clone();
        let b = self
            .machine
            .blocks
            .iter()
            .find(|b| b.linear == block)
            .ok_or_else(|| format!("block {block} is not resident now (it has finished or not started)"))?;
        let w = b.warps.get(warp as usize).ok_or_else(|| format!("block {block} has no warp {warp}"))?;
        let tid = warp * 32 + lane;
        let line_text = |l: u32| src.line_text(l).trim().to_string();
        if lane >= 32 || !w.exists.contains(lane) {
            return Err(format!("lane {lane} of warp {warp} is not a thread: the block has {} threads", b.threads));
        }
        let base = WhyInactive {
            tid,
            text: String::new(),
            branch: None,
            reconverge_line: None,
            state: LaneState::Waiting { line: 0 },
        };
        if !w.live.contains(lane) {
            let at = w.exited_at.get(lane).map(|pc| kernel.line(pc)).unwrap_or(0);
            return Ok(WhyInactive {
                text: format!("thread {tid} has exited: it finished at line {at} (`{}`).", line_text(at)),
                state: LaneState::Exited { line: at },
                ..base
            });
        }
        let summary = inspect::summarize(&self.machine, b, w);
        let now_line = w.lane_pc(lane).map(|pc| kernel.line(pc));
        if summary.state == inspect::WarpState::Stuck && w.live.contains(lane) {
            let line = now_line.unwrap_or(0);
            return Ok(WhyInactive {
                text: format!(
                    "thread {tid} waits at line {line} and can never go on: the kernel is stuck (the banner says why)."
                ),
                state: LaneState::Waiting { line },
                ..base
            });
        }
        if summary.active.contains(lane) && summary.state != inspect::WarpState::Barrier {
            return Ok(WhyInactive {
                text: format!(
                    "thread {tid} is active: it runs line {} with its warp's next instruction.",
                    now_line.unwrap_or(0)
                ),
                state: LaneState::Active { line: now_line.unwrap_or(0) },
                ..base
            });
        }
        let Some((branch_pc, step)) = w.masked_by.get(lane) else {
            return Ok(WhyInactive {
                text: format!(
                    "thread {tid} is waiting at line {} (no divergent branch masked it: the warp waits there as a \
                     whole, e.g. at a barrier).",
                    now_line.unwrap_or(0)
                ),
                state: LaneState::Waiting { line: now_line.unwrap_or(0) },
                ..base
            });
        };
        let crate::ir::Instr::Branch { cond, reconv, site, .. } = &kernel.instrs[branch_pc.0 as usize] else {
            return Err("internal: the recorded branch is not a branch".into());
        };
        let span = kernel.spans[branch_pc.0 as usize];
        let cond_text = src.slice(span).to_string();
        // Values at the moment the branch ran: go back to just before it, read, come back.
        let here = self.machine.steps;
        let saved = (self.machine.clone(), self.last_issue);
        self.goto(step.saturating_sub(1));
        let mut values = vec![];
        let mut taken = None;
        if let Some(bs) = self.machine.blocks.iter().find(|b| b.linear == block) {
            // The variables the condition mentions.
            let idents: Vec<&str> =
                cond_text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|s| !s.is_empty()).collect();
            // The variables in scope at the branch, named as in the source.
            for (r, n) in kernel.variables_at(branch_pc) {
                if idents.contains(&n) {
                    let ty = kernel.regs[r as usize].ty;
                    values.push(format!("{n}={}", crate::sim::alu::display(ty, bs.reg(r, tid))));
                }
            }
            if let crate::ir::Operand::Reg(c) = cond {
                taken = Some(bs.reg(c.0, tid) != 0);
            }
        }
        (self.machine, self.last_issue) = saved;
        debug_assert_eq!(self.machine.steps, here);
        let kind = match site.kind {
            crate::ir::BranchKind::Loop => "loop condition",
            crate::ir::BranchKind::Ternary => "`?:`",
            crate::ir::BranchKind::ShortCircuit => "`&&`/`||` operand",
            crate::ir::BranchKind::GroupSync => "`thread_group::sync` (block or tile)",
            crate::ir::BranchKind::If => "`if`",
        };
        let reconverge_line = (*reconv != crate::ir::Pc::EXIT).then(|| kernel.line(*reconv));
        let went = match taken {
            Some(true) => "true",
            Some(false) => "false",
            None => "?",
        };
        let text = format!(
            "thread {tid} is masked by the {kind} on line {} (`{cond_text}`), which diverged at step {step}: for \
             this thread the condition was {went}{}, so it took the other side than the threads running now. It \
             waits at line {} and rejoins them {}.",
            kernel.line(branch_pc),
            if values.is_empty() { String::new() } else { format!(" ({})", values.join(", ")) },
            now_line.unwrap_or(0),
            match reconverge_line {
                Some(l) => format!("at line {l} (`{}`), the branch's reconvergence point", line_text(l)),
                None => "only at the end of the kernel (the paths never reconverge)".to_string(),
            }
        );
        let state = LaneState::Masked { kind, condition: cond_text, values, taken, waits_at: now_line.unwrap_or(0) };
        Ok(WhyInactive { tid, text, branch: Some((kernel.line(branch_pc), step)), reconverge_line, state })
    }
}

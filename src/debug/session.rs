//! A debugging session: the compiled kernel, its machine, breakpoints and the stepping commands the TUI,
//! `warpdbg view` and replay share. UI-free; every command goes through [`Machine::step`].

use std::collections::{BTreeSet, HashMap};

use crate::debug::history::History;
use crate::front::Compiled;
use crate::launch::Mode;
use crate::sim::{Config, Issue, LaunchError, Machine, Outcome};

/// Per-warp bookkeeping keyed by (block linear index, warp), hashed with one multiply per word: the keys are
/// small integers and SipHash's resistance to chosen keys bought nothing but a quarter of every continue.
pub(crate) type WarpMap<V> = HashMap<(u64, u32), V, std::hash::BuildHasherDefault<WarpHasher>>;

/// The hasher of [`WarpMap`] (Fx-style: rotate, xor, multiply by an odd constant).
#[derive(Default)]
pub(crate) struct WarpHasher(u64);

impl std::hash::Hasher for WarpHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }
}

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
    Hit(crate::debug::breakpoint::Hit),
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
    /// The line each warp (block linear index, warp) last issued, so a breakpoint stops a warp arriving.
    pub(crate) last_line: WarpMap<u32>,
    /// The lanes each warp last issued with (reconvergence and mask-condition breakpoints).
    pub(crate) last_mask: WarpMap<crate::sim::LaneMask>,
    /// Breakpoints on SIMT events and conditional line breakpoints, checked by `cont`.
    pub event_breakpoints: Vec<crate::debug::breakpoint::Breakpoint>,
    pub last_issue: Option<Issue>,
    /// Snapshots for stepping back.
    pub history: History<Snapshot>,
}

/// What time travel restores: the machine and the session's per-warp bookkeeping.
#[derive(Clone)]
pub struct Snapshot {
    machine: Machine,
    last_line: WarpMap<u32>,
    last_mask: WarpMap<crate::sim::LaneMask>,
    last_issue: Option<Issue>,
}

impl Snapshot {
    /// The machine as it was at this snapshot's step.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// Bytes this snapshot holds: the machine's clone and the session's per-warp maps.
    pub fn bytes(&self) -> u64 {
        // A hash map entry: the key and value, and about one control byte per bucket.
        let entry = std::mem::size_of::<((u64, u32), u32)>() as u64 + 1;
        self.machine.approx_bytes()
            + (self.last_line.capacity() + self.last_mask.capacity()) as u64 * entry
            + std::mem::size_of::<Snapshot>() as u64
    }
}

impl Session {
    pub fn new(compiled: Compiled, config: Config) -> Result<Session, LaunchError> {
        let machine = Machine::new(&compiled, &config)?;
        Ok(Session::from_machine(compiled, config, machine))
    }

    /// A session on a machine built elsewhere (a launch of a whole program, on the program's device memory:
    /// `crate::program::debug`); `compiled` gives its source and kernel.
    pub fn from_machine(compiled: Compiled, config: Config, machine: Machine) -> Session {
        let history = Session::fresh_history(&machine);
        Session {
            compiled,
            config,
            machine,
            breakpoints: BTreeSet::new(),
            break_on_divergence: false,
            last_line: WarpMap::default(),
            last_mask: WarpMap::default(),
            event_breakpoints: vec![],
            last_issue: None,
            history,
        }
    }

    fn fresh_history(machine: &Machine) -> History<Snapshot> {
        let snap = Snapshot {
            machine: machine.clone(),
            last_line: WarpMap::default(),
            last_mask: WarpMap::default(),
            last_issue: None,
        };
        let bytes = snap.bytes();
        History::new(snap, bytes, crate::debug::history::DEFAULT_BUDGET)
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            machine: self.machine.clone(),
            last_line: self.last_line.clone(),
            last_mask: self.last_mask.clone(),
            last_issue: self.last_issue,
        }
    }

    /// Goes to `step` (forwards by running, backwards from the nearest snapshot), or to where the machine
    /// stops first. Breakpoints are not checked.
    pub fn goto(&mut self, step: u64) -> Option<Outcome> {
        if step < self.machine.steps {
            let (_, snap) = self.history.before(step);
            self.machine = snap.machine;
            self.last_line = snap.last_line;
            self.last_mask = snap.last_mask;
            self.last_issue = snap.last_issue;
        }
        self.run_to(step)
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
        self.last_line.clear();
        self.last_mask.clear();
        self.last_issue = None;
        self.run_to(step);
        Ok(())
    }

    /// Runs (no breakpoints) until `step` instructions have issued or the machine stops.
    pub fn run_to(&mut self, step: u64) -> Option<Outcome> {
        while self.machine.steps < step {
            if let Stop::Finished(o) = self.step_one() {
                return Some(o);
            }
        }
        self.settle()
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
        self.machine.outcome().cloned()
    }

    fn step_one(&mut self) -> Stop {
        let mut issued = None;
        let o = self.machine.step_traced(1, &mut |i| issued = Some(*i));
        if let Some(i) = issued {
            let linear = self.machine_block_linear(i.block);
            self.last_line.insert((linear, i.warp.0), i.line);
            self.last_mask.insert((linear, i.warp.0), i.mask);
            self.last_issue = Some(i);
        }
        if self.history.wants(self.machine.steps) {
            let snap = self.snapshot();
            self.history.observe(self.machine.steps, &snap, snap.bytes());
        }
        if o.is_final() { Stop::Finished(o) } else { Stop::Stepped }
    }

    fn machine_block_linear(&self, b: crate::launch::Dim3) -> u64 {
        let g = self.machine.launch.grid;
        b.x as u64 + g.x as u64 * (b.y as u64 + g.y as u64 * b.z as u64)
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

    /// The breakpoint line the next instruction's warp is arriving at, if any: where a continue stops before
    /// issuing (replay asks this to stop where the recording stopped).
    pub fn breakpoint_ahead(&mut self) -> Option<u32> {
        if self.breakpoints.is_empty() {
            return None;
        }
        let (slot, w, pc, _) = self.machine.peek()?;
        let line = self.machine.kernel.line(pc);
        let linear = self.machine.blocks[slot].linear;
        (self.breakpoints.contains(&line) && self.last_line.get(&(linear, w as u32)) != Some(&line)).then_some(line)
    }

    /// Adds a parsed breakpoint: a plain `line N` joins [`Session::breakpoints`], the others are checked by
    /// `cont` as event breakpoints.
    pub fn add_breakpoint(&mut self, bp: crate::debug::breakpoint::Breakpoint) {
        match bp.kind {
            crate::debug::breakpoint::Kind::Line { line, cond: None } => {
                self.breakpoints.insert(line);
            }
            _ => self.event_breakpoints.push(bp),
        }
    }

    /// Continue: runs until a breakpoint, a divergence (if enabled), or a final outcome; `None` when
    /// `budget` instructions ran without stopping (call again to go on).
    pub fn cont(&mut self, budget: u64, first: bool) -> Option<Stop> {
        for k in 0..budget {
            if let Some(o) = self.machine.outcome() {
                return Some(Stop::Finished(o.clone()));
            }
            // A breakpoint stops a warp arriving at the line, before it runs it (not the warp already there).
            let arriving = !(first && k == 0);
            if arriving && let Some(line) = self.breakpoint_ahead() {
                return Some(Stop::Breakpoint { line });
            }
            let pending = if self.event_breakpoints.is_empty() {
                None
            } else {
                match crate::debug::breakpoint::before_issue(self, arriving) {
                    Ok(p) => p,
                    Err(hit) => return Some(Stop::Hit(hit)),
                }
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
                && let Some(hit) = crate::debug::breakpoint::after_issue(self, p)
            {
                return Some(Stop::Hit(hit));
            }
        }
        None
    }
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
        let now_line = w.lane_pcs().into_iter().find(|(l, _)| *l == lane).map(|(_, pc)| kernel.line(pc));
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
        let saved = (self.machine.clone(), self.last_line.clone(), self.last_issue);
        let saved_masks = self.last_mask.clone();
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
        (self.machine, self.last_line, self.last_issue) = saved;
        self.last_mask = saved_masks;
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

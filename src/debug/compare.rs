//! Side by side: one kernel under both execution models, pre-Volta and ITS, advanced together, and the first
//! point where they differ. UI-free; the TUI's split view (`v`, `--compare`) and `warpdbg view --compare`
//! draw it.
//!
//! **Lockstep.** Until the models first differ, both sides are the same machine state after the same number
//! of instructions, so they are compared after every instruction: the first difference is exact to the
//! instruction. Stepping is by source line: [`Compare::step_line`] advances each side until the selected
//! warp is about to run another source line (as `n` does in the debugger), but never past the first
//! difference on the way to it, so a student lands exactly where the models part. After that each side goes
//! its own way, one source line of the selected warp per step.
//!
//! **A difference** (checked after every instruction, in this order): a resident warp's next source line or
//! active lanes (what the warps pane shows), or which blocks are resident; the warp each scheduler issues
//! next; a cell of global or shared memory; the outcome (one side stopped, or stopped differently).

use crate::compile::Compiled;
use crate::debug::session::{Session, Stop};
use crate::front::launch::Mode;
use crate::sim::inspect::{self, WarpState};
use crate::sim::{Config, LaneMask, LaunchError, Machine, Outcome, WaitKind, format_ranges};

/// Index of the pre-Volta side in every two-element array here.
pub const PRE_VOLTA: usize = 0;
/// Index of the ITS side.
pub const ITS: usize = 1;
/// The model of each side.
pub const MODES: [Mode; 2] = [Mode::PreVolta, Mode::Its];
/// How each side is named in sentences.
pub const NAMES: [&str; 2] = ["pre-Volta", "ITS"];

/// Instructions per side the analysis (first difference, how each side ends) runs at most.
pub const ANALYSIS_BUDGET: u64 = 2_000_000;

/// One warp as the warps pane shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpAt {
    /// The line it runs next (or waits at); `None` when it has exited.
    pub line: Option<u32>,
    /// The lanes that issue next (or wait at that line).
    pub active: LaneMask,
    pub state: WarpState,
}

/// What differs between the two sides.
#[derive(Clone, Debug, PartialEq)]
pub enum What {
    /// Warp `warp` of block `block` (linear index) runs another line or other lanes next; `None`: the block
    /// is not resident on that side.
    Warp { block: u64, warp: u32, sides: [Option<WarpAt>; 2] },
    /// Every warp looks the same, but the schedulers issue different warps next: (block, warp, line, lanes).
    NextIssue { sides: [Option<(u64, u32, u32, LaneMask)>; 2] },
    /// A memory cell differs: `array[index]` (a `__shared__` array is named `block B: name`), as each side
    /// prints it.
    Memory { array: String, index: u64, values: [String; 2] },
    /// One side has stopped and the other has not, or they stopped differently (the outcomes' names,
    /// `None` = still running).
    Outcome { sides: [Option<&'static str>; 2] },
}

/// The first point where the models differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Instructions each side had issued when the difference appeared (equal: the sides run in lockstep
    /// until they differ).
    pub steps: [u64; 2],
    pub what: What,
    /// One sentence for the student.
    pub text: String,
}

impl Difference {
    /// The source line each side is at where they differ (the differing warp's, or the issuing warp's).
    pub fn lines(&self) -> [Option<u32>; 2] {
        match &self.what {
            What::Warp { sides, .. } => sides.map(|s| s.and_then(|w| w.line)),
            What::NextIssue { sides } => sides.map(|s| s.map(|i| i.2)),
            _ => [None, None],
        }
    }
}

/// How one side ends (within [`ANALYSIS_BUDGET`]).
#[derive(Clone, Debug, PartialEq)]
pub struct End {
    /// Instructions issued when it stopped.
    pub steps: u64,
    /// `None`: still running when the budget ran out.
    pub outcome: Option<Outcome>,
    /// Hazards of the run: kind name and line, in order.
    pub hazards: Vec<(&'static str, u32)>,
    /// Every global array's cells as the memory pane prints them (at most 64 per array).
    pub memory: Vec<(String, u64, Vec<String>)>,
}

/// Both models, each a full debugging session, with the analysis of where they part and how they end.
pub struct Compare {
    /// `[pre-Volta, ITS]`.
    pub sides: [Session; 2],
    /// `None`: the models never differ (same schedule, same memory, same outcome).
    pub first: Option<Difference>,
    pub ends: [End; 2],
    /// One sentence: how each side ends, the side that fails first.
    pub verdict: String,
}

fn clone_compiled(c: &Compiled, mode: Mode) -> Compiled {
    let mut launch = c.launch.clone();
    launch.mode = mode;
    Compiled {
        sources: c.sources.clone(),
        file: c.file,
        program: c.program.clone(),
        launch,
        kernel: c.kernel.clone(),
        warnings: c.warnings.clone(),
    }
}

/// As the session does: a machine that cannot issue (or is at its step limit) gets its outcome now.
fn settle(m: &mut Machine) {
    if m.outcome().is_none() && (m.steps >= m.max_steps || m.peek().is_none()) {
        m.step(1);
    }
}

/// Advances one machine by one instruction (and settles); the issued instruction's (block linear, warp, pc).
fn step_machine(m: &mut Machine) -> Option<(u64, u32, crate::ir::Pc)> {
    if m.outcome().is_some() {
        return None;
    }
    let mut issued = None;
    m.step_traced(1, &mut |i| issued = Some(*i));
    settle(m);
    let g = m.launch.grid;
    issued.map(|i| (i.block.linear_in(g), i.warp.0, i.pc))
}

fn warp_at(m: &Machine, block: u64, warp: u32) -> Option<WarpAt> {
    let b = m.blocks.iter().find(|b| b.linear == block)?;
    let w = b.warps.get(warp as usize)?;
    let s = inspect::summarize(m, b, w);
    let line = if s.state == WarpState::Exited { None } else { s.pc.map(|pc| m.kernel.line(pc)) };
    Some(WarpAt { line, active: if line.is_some() { s.active } else { LaneMask::EMPTY }, state: s.state })
}

/// Warps compare by line and lanes; the state word differs between the models for the same thing (a
/// pre-Volta warp "diverged" is an ITS warp "ready" with other groups waiting), so it is not compared.
fn same_warp(a: Option<WarpAt>, b: Option<WarpAt>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.line == b.line && a.active == b.active,
        (None, None) => true,
        _ => false,
    }
}

/// The first difference between two machine states. `moved`: the warps to compare, as (block linear index,
/// warp; `None`: every warp of the block), or `None` for every warp; `memory`: compare memory too.
fn differ(m: &mut [Machine; 2], moved: Option<&[(u64, Option<u32>)]>, memory: bool) -> Option<What> {
    let resident: [Vec<u64>; 2] = [0, 1].map(|s| m[s].blocks.iter().map(|b| b.linear).collect());
    let check_all = moved.is_none() || resident[0] != resident[1];
    let mut to_check: Vec<(u64, Option<u32>)> = if check_all {
        let mut v: Vec<u64> = resident[0].iter().chain(&resident[1]).copied().collect();
        v.sort_unstable();
        v.dedup();
        v.into_iter().map(|b| (b, None)).collect()
    } else {
        moved.unwrap_or_default().to_vec()
    };
    to_check.dedup();
    for (block, only) in to_check {
        let nwarps = [0, 1]
            .map(|s| m[s].blocks.iter().find(|b| b.linear == block).map_or(0, |b| b.warps.len() as u32))
            .into_iter()
            .max()
            .unwrap_or(0);
        let warps = match only {
            Some(w) => w..w + 1,
            None => 0..nwarps.max(1),
        };
        for warp in warps {
            let sides = [warp_at(&m[0], block, warp), warp_at(&m[1], block, warp)];
            if !same_warp(sides[0], sides[1]) {
                return Some(What::Warp { block, warp, sides });
            }
        }
    }
    let next = [0, 1].map(|s| {
        let linear: Vec<u64> = m[s].blocks.iter().map(|b| b.linear).collect();
        let kernel = m[s].kernel.clone();
        m[s].peek().map(|(slot, w, pc, mask)| (linear[slot], w as u32, kernel.line(pc), mask))
    });
    if next[0] != next[1] {
        return Some(What::NextIssue { sides: next });
    }
    if memory && let Some(w) = memory_difference(m) {
        return Some(w);
    }
    let outcomes = [0, 1].map(|s| m[s].outcome().map(Outcome::name));
    if outcomes[0] != outcomes[1] {
        return Some(What::Outcome { sides: outcomes });
    }
    None
}

fn memory_difference(m: &[Machine; 2]) -> Option<What> {
    for (a, b) in m[0].global.allocs.iter().zip(&m[1].global.allocs) {
        if a.data != b.data
            && let Some(i) = (0..a.len).find(|&i| a.element(i) != b.element(i))
        {
            let values = [a, b].map(|x| crate::sim::alu::display(x.elem, x.element(i)));
            return Some(What::Memory { array: a.name.clone(), index: i, values });
        }
    }
    for ba in &m[0].blocks {
        let Some(bb) = m[1].blocks.iter().find(|b| b.linear == ba.linear) else { continue };
        if ba.shared == bb.shared {
            continue;
        }
        for (name, off, bytes, ty) in &m[0].layout.arrays {
            let size = ty.size();
            for i in 0..(bytes / size) {
                let at = (off + i * size) as usize;
                let [va, vb] = [&ba.shared, &bb.shared].map(|s| crate::sim::shared_load(s, at, size));
                if va != vb {
                    return Some(What::Memory {
                        array: format!("block {} {name}", ba.idx),
                        index: i as u64,
                        values: [va, vb].map(|v| crate::sim::alu::display(*ty, v)),
                    });
                }
            }
        }
    }
    None
}

/// Whether issuing the instruction at `pc` can change other warps of the block than the one issuing it: a
/// barrier (its release), or an exit (a barrier may have been waiting for those threads). Every other
/// instruction changes its own warp's state and memory only.
fn moves_others(m: &Machine, pc: crate::ir::Pc) -> bool {
    matches!(m.kernel.instrs.get(pc.0 as usize), Some(crate::ir::Instr::SyncThreads { .. } | crate::ir::Instr::Exit))
}

fn writes_memory(m: &Machine, pc: crate::ir::Pc) -> bool {
    matches!(m.kernel.instrs.get(pc.0 as usize), Some(crate::ir::Instr::Store { .. } | crate::ir::Instr::Atomic { .. }))
}

fn end_of(m: &Machine) -> End {
    let mut hazards: Vec<(&'static str, u32)> = m.hazards.iter().map(|h| (h.kind.name(), h.line)).collect();
    hazards.dedup();
    let memory = m
        .global
        .allocs
        .iter()
        .map(|a| {
            (
                a.name.clone(),
                a.len,
                (0..a.len.min(64)).map(|i| crate::sim::alu::display(a.elem, a.element(i))).collect(),
            )
        })
        .collect();
    End { steps: m.steps, outcome: m.outcome().cloned(), hazards, memory }
}

/// Runs both models from the start: the first difference (if any) and how each side ends.
pub fn analyse(
    compiled: &Compiled,
    config: &Config,
    budget: u64,
) -> Result<(Option<Difference>, [End; 2]), LaunchError> {
    let m = [
        Machine::new(&clone_compiled(compiled, Mode::PreVolta), config)?,
        Machine::new(&clone_compiled(compiled, Mode::Its), config)?,
    ];
    Ok(analyse_machines(m, budget))
}

/// [`analyse`] from two machines at their start (pre-Volta first), e.g. a program's launch in each model.
pub fn analyse_machines(mut m: [Machine; 2], budget: u64) -> (Option<Difference>, [End; 2]) {
    for side in &mut m {
        settle(side);
    }
    let mut first = None;
    let mut dirty: Option<Vec<(u64, Option<u32>)>> = None;
    let mut memory = true;
    loop {
        if let Some(what) = differ(&mut m, dirty.as_deref(), memory) {
            let steps = [m[0].steps, m[1].steps];
            let text = difference_text(steps[0], &what);
            first = Some(Difference { steps, what, text });
            break;
        }
        if (m[0].outcome().is_some() && m[1].outcome().is_some()) || m[0].steps.max(m[1].steps) >= budget {
            break;
        }
        let issued = [step_machine(&mut m[0]), step_machine(&mut m[1])];
        memory = issued.iter().enumerate().any(|(s, i)| i.is_some_and(|(_, _, pc)| writes_memory(&m[s], pc)));
        // Only the warp that issued changed, unless its instruction can release or wake others (a barrier, a
        // warp sync, an exit that a barrier was waiting for): then every warp of its block.
        dirty = Some(
            issued
                .iter()
                .enumerate()
                .filter_map(|(s, i)| i.map(|(b, w, pc)| (b, (!moves_others(&m[s], pc)).then_some(w))))
                .collect(),
        );
    }
    // Both stopped the same way at the same step: only the final memory can still differ.
    if first.is_none()
        && m[0].outcome().is_some()
        && let Some(what) = memory_difference(&m)
    {
        let steps = [m[0].steps, m[1].steps];
        let text = difference_text(steps[0], &what);
        first = Some(Difference { steps, what, text });
    }
    for side in &mut m {
        while side.outcome().is_none() && side.steps < budget {
            let left = budget - side.steps;
            side.step(left.min(1 << 16));
            settle(side);
        }
    }
    (first, [end_of(&m[0]), end_of(&m[1])])
}

fn lanes_phrase(mask: LaneMask) -> String {
    let v: Vec<u32> = mask.iter().collect();
    format!("{} {}", if v.len() == 1 { "lane" } else { "lanes" }, format_ranges(&v))
}

fn warp_phrase(w: Option<WarpAt>) -> String {
    match w {
        None => "the block is not resident".into(),
        Some(WarpAt { line: None, .. }) => "the warp has exited".into(),
        Some(WarpAt { line: Some(l), active, state }) => {
            let verb = match state {
                WarpState::Barrier => "wait at the barrier on",
                WarpState::Waiting => "wait on",
                WarpState::Stuck => "are stuck on",
                _ => "run",
            };
            let lanes = lanes_phrase(active);
            let verb = if active.count() == 1 && verb == "run" { "runs" } else { verb };
            format!("{lanes} {verb} line {l} next")
        }
    }
}

/// The sentence for a difference found after `step` instructions.
pub fn difference_text(step: u64, what: &What) -> String {
    match what {
        What::Warp { block, warp, sides } => format!(
            "After step {step} the models part at warp {warp} of block {block}: under {} {}, under {} {}.",
            NAMES[0],
            warp_phrase(sides[0]),
            NAMES[1],
            warp_phrase(sides[1])
        ),
        What::NextIssue { sides } => {
            let side = |s: &Option<(u64, u32, u32, LaneMask)>| match s {
                Some((b, w, l, m)) => format!("warp {w} of block {b} ({} on line {l})", lanes_phrase(*m)),
                None => "nothing".into(),
            };
            format!(
                "After step {step} the schedulers part: {} issues {} next, {} issues {}.",
                NAMES[0],
                side(&sides[0]),
                NAMES[1],
                side(&sides[1])
            )
        }
        What::Memory { array, index, values } => format!(
            "After step {step} memory differs: {array}[{index}] is {} under {} and {} under {}.",
            values[0], NAMES[0], values[1], NAMES[1]
        ),
        What::Outcome { sides } => {
            let side = |s: Option<&str>| s.map_or("is still running".to_string(), |n| format!("stops: {n}"));
            format!("After step {step} {} {}, while {} {}.", NAMES[0], side(sides[0]), NAMES[1], side(sides[1]))
        }
    }
}

fn and_list(v: &[u32]) -> String {
    let s: Vec<String> = v.iter().map(u32::to_string).collect();
    match s.len() {
        0 => String::new(),
        1 => s[0].clone(),
        n => format!("{} and {}", s[..n - 1].join(", "), s[n - 1]),
    }
}

fn lines_of(v: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut l: Vec<u32> = v.collect();
    l.sort_unstable();
    l.dedup();
    l
}

/// How one side ends, as a predicate: "livelocks at step 23552 (...)".
fn end_phrase(end: &End, other: &End) -> String {
    let s = end.steps;
    match &end.outcome {
        None => format!("is still running after {s} steps"),
        Some(Outcome::Completed) => {
            let mut out = format!("completes at step {s}");
            let mut kinds: Vec<&str> = end.hazards.iter().map(|h| h.0).collect();
            kinds.sort_unstable();
            kinds.dedup();
            for k in kinds {
                let lines = lines_of(end.hazards.iter().filter(|h| h.0 == k).map(|h| h.1));
                let noun = if lines.len() == 1 { "line" } else { "lines" };
                out.push_str(&format!(" with a {} hazard on {noun} {}", k.replace('_', "-"), and_list(&lines)));
            }
            // Small arrays that end differently: the result the student looks for (counter = 32).
            let small: Vec<String> = end
                .memory
                .iter()
                .zip(&other.memory)
                .filter(|(a, b)| a.1 <= 4 && a.2 != b.2)
                .map(|(a, _)| format!("{} = {}", a.0, a.2.join(", ")))
                .collect();
            if !small.is_empty() {
                out.push_str(&format!(", leaving {}", small.join(", ")));
            }
            out
        }
        Some(Outcome::Deadlock(st)) => {
            let barriers = lines_of(st.waits.iter().filter(|w| w.kind == WaitKind::Barrier).map(|w| w.line));
            let others = lines_of(st.waits.iter().filter(|w| w.kind != WaitKind::Barrier).map(|w| w.line));
            let mut parts = vec![];
            if !barriers.is_empty() {
                let (what, noun) =
                    if barriers.len() == 1 { ("the barrier", "line") } else { ("the barriers", "lines") };
                parts.push(format!("{what} on {noun} {}", and_list(&barriers)));
            }
            if !others.is_empty() {
                parts.push(format!("line{} {}", if others.len() == 1 { "" } else { "s" }, and_list(&others)));
            }
            format!("deadlocks at step {s}, its threads waiting at {}", parts.join(" and "))
        }
        Some(Outcome::Livelock(st)) => {
            let spin = st.waits.iter().find(|w| w.kind == WaitKind::Spin);
            match spin {
                Some(w) => format!(
                    "livelocks at step {s} (SIMT-induced deadlock: threads {} spin on line {} forever)",
                    w.threads(),
                    w.line
                ),
                None => format!("livelocks at step {s}"),
            }
        }
        Some(Outcome::Fault(f)) => format!("faults on line {} at step {s}", f.line),
        Some(Outcome::StepLimit) => format!("reaches the step limit at step {s}"),
        Some(Outcome::Paused) => format!("pauses at step {s}"),
    }
}

/// One sentence on how the two sides end; the side that does not complete comes first.
pub fn verdict(ends: &[End; 2]) -> String {
    let completed = |e: &End| matches!(e.outcome, Some(Outcome::Completed));
    let same = ends[0].outcome.as_ref().map(Outcome::name) == ends[1].outcome.as_ref().map(Outcome::name)
        && ends[0].steps == ends[1].steps
        && ends[0].memory == ends[1].memory;
    if same {
        return format!("Both models end the same way: each {}.", end_phrase(&ends[0], &ends[1]));
    }
    let (a, b) = if completed(&ends[0]) && !completed(&ends[1]) { (ITS, PRE_VOLTA) } else { (PRE_VOLTA, ITS) };
    format!("{} {}, while {} {}.", NAMES[a], end_phrase(&ends[a], &ends[b]), NAMES[b], end_phrase(&ends[b], &ends[a]))
}

impl Compare {
    /// Both sessions at step 0, and the analysis (which runs both models to their ends, at most
    /// [`ANALYSIS_BUDGET`] instructions each).
    pub fn new(compiled: &Compiled, config: &Config) -> Result<Compare, LaunchError> {
        Compare::with_budget(compiled, config, ANALYSIS_BUDGET)
    }

    pub fn with_budget(compiled: &Compiled, config: &Config, budget: u64) -> Result<Compare, LaunchError> {
        let (first, ends) = analyse(compiled, config, budget)?;
        let sides = [
            Session::new(clone_compiled(compiled, Mode::PreVolta), config.clone())?,
            Session::new(clone_compiled(compiled, Mode::Its), config.clone())?,
        ];
        Ok(Compare::assemble(sides, first, ends))
    }

    /// Both sides from machines built elsewhere at their start (pre-Volta first): a whole program's launch,
    /// whose device memory the program's host code made in each model (`crate::debug::program`).
    pub fn from_machines(compiled: &Compiled, config: &Config, start: [Machine; 2]) -> Compare {
        let sides = [
            Session::from_machine(clone_compiled(compiled, Mode::PreVolta), config.clone(), start[0].clone()),
            Session::from_machine(clone_compiled(compiled, Mode::Its), config.clone(), start[1].clone()),
        ];
        let (first, ends) = analyse_machines(start, ANALYSIS_BUDGET);
        Compare::assemble(sides, first, ends)
    }

    fn assemble(sides: [Session; 2], first: Option<Difference>, ends: [End; 2]) -> Compare {
        let verdict = verdict(&ends);
        let mut c = Compare { sides, first, ends, verdict };
        for s in &mut c.sides {
            s.run_to(0);
        }
        c
    }

    /// Instructions issued on each side.
    pub fn steps(&self) -> [u64; 2] {
        [self.sides[0].machine.steps, self.sides[1].machine.steps]
    }

    /// True when both sides stand exactly where the models first differ.
    pub fn at_difference(&self) -> bool {
        self.first.as_ref().is_some_and(|d| d.steps == self.steps())
    }

    /// Instructions `side` may take before reaching the first difference (`None`: nothing to stop at).
    fn room(&self, side: usize) -> Option<u64> {
        let d = self.first.as_ref()?;
        let at = self.sides[side].machine.steps;
        (at < d.steps[side]).then(|| d.steps[side] - at)
    }

    /// Each side to `step` (back or forward), or to where it stops first.
    pub fn goto(&mut self, step: u64) {
        for s in &mut self.sides {
            s.goto(step);
        }
    }

    /// One instruction on each side that has not stopped.
    pub fn step_instruction(&mut self) -> [Stop; 2] {
        [self.sides[0].step_instruction(), self.sides[1].step_instruction()]
    }

    /// Back one instruction on each side.
    pub fn step_back(&mut self) {
        for s in &mut self.sides {
            s.step_back(1);
        }
    }

    /// Lockstep by source line: each side runs until warp `warp` of block `block` is about to run another
    /// source line (or has finished, or the side stops), at most `budget` instructions, and never past the
    /// first difference when it lies ahead.
    pub fn step_line(&mut self, block: u64, warp: u32, budget: u64) -> [Stop; 2] {
        let caps = [0, 1].map(|s| self.room(s).map_or(budget, |r| r.min(budget)));
        let mut stops = [Stop::Stepped, Stop::Stepped];
        for s in 0..2 {
            stops[s] = self.sides[s].step_line(block, warp, caps[s]);
        }
        stops
    }

    /// Continue: to the first difference when it lies ahead, else each side to its end (as analysed).
    pub fn cont(&mut self) {
        if let Some(d) = self.first.clone()
            && (0..2).any(|s| self.room(s).is_some())
        {
            for s in 0..2 {
                if self.room(s).is_some() {
                    self.sides[s].run_to(d.steps[s]);
                }
            }
            return;
        }
        for s in 0..2 {
            let end = &self.ends[s];
            // The outcome may be found on the step after the last instruction issued.
            let target = if end.outcome.is_some() { end.steps + 1 } else { end.steps };
            if self.sides[s].machine.steps < target {
                self.sides[s].run_to(target);
            }
        }
    }

    /// Back to step 0 on both sides.
    pub fn restart(&mut self) {
        self.goto(0);
    }

    /// Warp (block, warp) on each side, as the warps pane shows it.
    pub fn warp(&self, block: u64, warp: u32) -> [Option<WarpAt>; 2] {
        [warp_at(&self.sides[0].machine, block, warp), warp_at(&self.sides[1].machine, block, warp)]
    }

    /// Whether warp (block, warp) differs between the sides now.
    pub fn warp_differs(&self, block: u64, warp: u32) -> bool {
        let w = self.warp(block, warp);
        !same_warp(w[0], w[1])
    }

    /// Every warp resident on either side, in (block, warp) order.
    pub fn warp_list(&self) -> Vec<(u64, u32)> {
        let mut v: Vec<(u64, u32)> = self
            .sides
            .iter()
            .flat_map(|s| s.machine.blocks.iter().flat_map(|b| (0..b.warps.len() as u32).map(move |w| (b.linear, w))))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

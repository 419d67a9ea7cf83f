//! The TUI's state: the session plus what the user is looking at. Drawing reads it; only `update` writes it.

use std::collections::HashMap;

use super::keymap::Keymap;
use super::theme::{BannerKind, Theme};
use crate::debug::session::{Session, Stop, WhyInactive};
use crate::sim::Outcome;

/// The panes, in focus order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    Source,
    Warps,
    Detail,
    Memory,
    Metrics,
    /// A whole program's launches, host variables and output (only when the file is a program).
    Program,
    /// Expressions across the selected warp's lanes (`:p`, `:w`, `x`), in the Memory pane's place.
    Lanes,
}

impl Pane {
    pub const ORDER: [Pane; 6] = [Pane::Source, Pane::Warps, Pane::Detail, Pane::Memory, Pane::Program, Pane::Metrics];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Source => "Source",
            Pane::Warps => "Warps",
            Pane::Detail => "Warp detail",
            Pane::Memory => "Memory",
            Pane::Metrics => "Metrics",
            Pane::Program => "Program",
            Pane::Lanes => "Lanes",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    Help,
    /// A one-line text prompt (`:` go to step, `a` note).
    Prompt {
        kind: PromptKind,
        text: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    Goto,
    Note,
    /// A breakpoint spec.
    Break,
    /// The answer to a quiz question.
    Quiz,
    /// The kind of question of a quiz point being marked.
    QuizPoint,
    /// Text to find in the source (`/`).
    Search,
    /// A source line number to move the cursor to.
    Line,
}

impl PromptKind {
    pub fn label(self) -> &'static str {
        match self {
            PromptKind::Goto => "go to step N, or p EXPR (print), w EXPR (watch), d N: ",
            PromptKind::Note => "note: ",
            PromptKind::Break => "break on: ",
            PromptKind::Quiz => "your answer: ",
            PromptKind::QuizPoint => "quiz here, ask for (m)ask, (r)econvergence or (d)eadlock: ",
            PromptKind::Search => "search source: ",
            PromptKind::Line => "go to line: ",
        }
    }
}

/// Identity of a warp across steps: block linear index and warp index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WarpRef {
    pub block: u64,
    pub warp: u32,
}

/// Milliseconds on a clock that only moves forward: the front end's (a running continue draws a frame when a
/// frame's worth of time has passed).
pub type Clock = fn() -> f64;

/// The terminal's clock.
#[cfg(feature = "native")]
pub fn monotonic_ms() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// No clock (a build without `native` whose front end set none): every piece of a continue is a frame's worth.
#[cfg(not(feature = "native"))]
pub fn monotonic_ms() -> f64 {
    static TICKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    // Each reading is a frame later than the one before.
    TICKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) as f64 * 1000.0
}

pub struct App {
    pub session: Session,
    /// The front end's clock ([`monotonic_ms`] unless a web page sets its own).
    pub clock: Clock,
    pub keymap: Keymap,
    pub theme: Theme,
    pub focus: Pane,
    pub overlay: Option<Overlay>,
    /// Source cursor (1-based line).
    pub cursor: u32,
    /// First source line shown.
    pub source_top: u32,
    pub selected: Option<WarpRef>,
    /// The selection the warps pane last scrolled to (it follows a new selection, not every frame).
    pub warps_followed: Option<WarpRef>,
    /// Scroll offsets of the list panes.
    pub scroll: HashMap<&'static str, usize>,
    /// A `continue` in progress (the event loop runs it in chunks).
    pub running: bool,
    pub first_chunk: bool,
    /// While `running`: going to this step (a step back that re-executes a long stretch from a snapshot)
    /// rather than a continue.
    pub travel: Option<u64>,
    /// While `travel`ing: the state the step back started from (machine and last issue), put back when the
    /// user interrupts it, so an interrupted step back leaves the session where it was.
    pub travel_origin: Option<Box<(crate::sim::Machine, Option<crate::sim::Issue>)>>,
    /// The source pane's horizontal scroll (columns of each line hidden on the left: `H` / `L`).
    pub source_left: usize,
    /// The Program pane's horizontal scroll (columns hidden on the left), while it has the focus `H` / `L`
    /// move it instead of the source's.
    pub program_left: usize,
    /// The last text searched for in the source (`/`), which an empty search repeats.
    pub search: Option<String>,
    /// Rows the banner is scrolled down by (a long stop explanation: the banner-scroll key).
    pub banner_scroll: usize,
    /// Why the last command stopped, for the status line.
    pub message: Option<(BannerKind, String)>,
    /// Global memory before the last command, to highlight what changed (first cells of each array).
    pub before: Vec<Vec<u64>>,
    pub size: (u16, u16),
    pub quit: bool,
    /// The latest instructor's note and the step it belongs to.
    pub note: Option<(u64, String)>,
    /// Events for the session recording, drained by the event loop (update itself does no I/O).
    pub outbox: Vec<crate::tui::recording::EventKind>,
    /// Replay: a warning when the recording no longer matches the simulation.
    pub replay_warning: Option<String>,
    /// Replay: the player's status line (shown instead of the key hints).
    pub replay_status: Option<String>,
    /// Quiz mode (`--quiz`): the quiz in progress.
    pub quiz: Option<crate::debug::quiz::Quiz>,
    /// The side-by-side comparison of pre-Volta and ITS (`v`, `--compare`), drawn instead of the panes.
    pub compare: Option<crate::debug::compare::Compare>,
    /// The lane selected in the selected warp (`>` / `<`), None until one is picked.
    pub lane: Option<u32>,
    /// Why the selected lane is (in)active, and the state it was worked out for (see [`App::refresh_why`]).
    pub why: Option<(WhyKey, Result<WhyInactive, String>)>,
    /// The metrics pane shows shared-memory bank conflicts instead of divergence (`K`).
    pub bank_view: bool,
    /// The metrics pane shows global-memory coalescing instead (`C`); never together with `bank_view`.
    pub coalescing_view: bool,
    /// A whole program (a file with `main`): its launches, host state and output; `session` is the launch
    /// being debugged.
    pub program: Option<crate::debug::program::ProgramDebug>,
    /// The Lanes pane: expressions shown across the lanes of the selected warp (`:p`, `:w`, `x`).
    pub lanes: Lanes,
    /// A `:` command's bad expression: the prompt column of the caret and the message.
    pub prompt_error: Option<(usize, String)>,
}

/// What the Lanes pane shows. Expressions are kept as written and read against the kernel on screen (a
/// program's launches run different kernels).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lanes {
    /// The pane is open (in the memory pane's place).
    pub open: bool,
    /// Every warp of the selected block, one row each, instead of the selected warp's 32 lanes.
    pub all_warps: bool,
    /// The last `:p EXPR`, shown first.
    pub printed: Option<String>,
    /// `:w EXPR`, in the order they were added.
    pub watches: Vec<String>,
}

impl Lanes {
    /// The expressions shown, with their labels (`p` for the printed one, then the watches by number).
    pub fn shown(&self) -> Vec<(String, &str)> {
        let printed = self.printed.iter().map(|e| ("p".to_string(), e.as_str()));
        printed.chain(self.watches.iter().enumerate().map(|(i, e)| (format!("{}", i + 1), e.as_str()))).collect()
    }
}

/// What a why-inactive answer depends on: step, mode, warp and lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WhyKey {
    pub steps: u64,
    pub its: bool,
    pub warp: WarpRef,
    pub lane: u32,
}

/// Cells of each array remembered for change highlighting.
pub const REMEMBERED_CELLS: u64 = 4096;

impl App {
    pub fn new(session: Session, keymap: Keymap, theme: Theme) -> App {
        let mut app = App {
            session,
            clock: monotonic_ms,
            keymap,
            theme,
            focus: Pane::Source,
            overlay: None,
            cursor: 1,
            source_top: 1,
            selected: None,
            warps_followed: None,
            scroll: HashMap::new(),
            running: false,
            first_chunk: false,
            travel: None,
            travel_origin: None,
            source_left: 0,
            program_left: 0,
            search: None,
            banner_scroll: 0,
            message: None,
            before: vec![],
            size: (80, 24),
            quit: false,
            note: None,
            outbox: vec![],
            replay_warning: None,
            replay_status: None,
            quiz: None,
            compare: None,
            lane: None,
            why: None,
            bank_view: false,
            coalescing_view: false,
            program: None,
            lanes: Lanes::default(),
            prompt_error: None,
        };
        app.remember_memory();
        app.fix_selection();
        app.follow_selected();
        app
    }

    pub fn source_lines(&self) -> Vec<&str> {
        self.session.compiled.source().text.lines().collect()
    }

    /// Resident warps in display order.
    pub fn warp_list(&self) -> Vec<WarpRef> {
        self.session
            .machine
            .blocks
            .iter()
            .flat_map(|b| (0..b.warps.len() as u32).map(move |w| WarpRef { block: b.linear, warp: w }))
            .collect()
    }

    /// The panes in focus order as they are on screen: the program pane only for programs, the Lanes pane in
    /// the Memory pane's place while it is open.
    pub fn pane_order(&self) -> Vec<Pane> {
        Pane::ORDER
            .into_iter()
            .filter(|p| *p != Pane::Program || self.program.is_some())
            .map(|p| if p == Pane::Memory && self.lanes.open { Pane::Lanes } else { p })
            .collect()
    }

    /// Keeps the selection on a resident warp (blocks retire).
    pub fn fix_selection(&mut self) {
        let list = self.warp_list();
        if self.selected.is_none_or(|s| !list.contains(&s)) {
            self.selected = list.first().copied();
        }
    }

    pub fn remember_memory(&mut self) {
        self.before = self
            .session
            .machine
            .global
            .allocs
            .iter()
            .map(|a| (0..a.len.min(REMEMBERED_CELLS)).map(|i| a.element(i)).collect())
            .collect();
    }

    /// The line the selected warp runs next (or waits at).
    pub fn selected_line(&mut self) -> Option<u32> {
        let s = self.selected?;
        let m = &self.session.machine;
        let b = m.blocks.iter().find(|b| b.linear == s.block)?;
        let w = b.warps.get(s.warp as usize)?;
        crate::sim::inspect::summarize(m, b, w).pc.map(|pc| m.kernel.line(pc))
    }

    /// Moves the source cursor to the selected warp's line (after a step).
    pub fn follow_selected(&mut self) {
        if let Some(l) = self.selected_line() {
            self.cursor = l;
        }
    }

    /// The why-inactive key of the current state, if a lane is selected.
    pub fn why_key(&self) -> Option<WhyKey> {
        Some(WhyKey {
            steps: self.session.machine.steps,
            its: self.session.mode() == crate::front::launch::Mode::Its,
            warp: self.selected?,
            lane: self.lane?,
        })
    }

    /// The why-inactive answer for the selected lane, if it is up to date (drawing reads it).
    pub fn current_why(&self) -> Option<&Result<WhyInactive, String>> {
        let key = self.why_key()?;
        self.why.as_ref().filter(|(k, _)| *k == key).map(|(_, w)| w)
    }

    /// Works out why the selected lane is (in)active when the state changed since the last answer (asking the
    /// session may travel in time and back, so drawing cannot do it).
    pub fn refresh_why(&mut self) {
        let Some(key) = self.why_key() else {
            self.why = None;
            return;
        };
        if self.why.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let answer = self.session.why_inactive(key.warp.block, key.warp.warp, key.lane);
        self.why = Some((key, answer));
    }

    pub fn scroll_of(&self, pane: &'static str) -> usize {
        self.scroll.get(pane).copied().unwrap_or(0)
    }

    /// Queues a recorded action (name, and the step count and checksum after it).
    pub fn record_action(&mut self, name: &str) {
        let m = &self.session.machine;
        self.outbox.push(crate::tui::recording::EventKind::Action {
            name: name.to_string(),
            steps: m.steps,
            check: crate::debug::checksum::state_check(m),
        });
    }

    /// Runs the session from where it stands to instruction `step` and shows it stopped there, as
    /// `warpdbg view --steps K` prints it and a page link's `step=` opens it.
    pub fn run_to_step(&mut self, step: u64) {
        if let Some(o) = self.session.run_to(step) {
            self.stopped(&Stop::Finished(o));
        } else if step > 0 {
            self.stopped(&Stop::Stepped);
        }
        self.fix_selection();
        self.follow_selected();
    }

    /// Selects the thread a stop is about (the faulting one, the one a breakpoint's condition holds for, a
    /// waiting one of the first stuck block), so the detail pane shows its values, and sets the status
    /// message.
    pub fn stopped(&mut self, stop: &Stop) {
        if let Some(f) = crate::debug::focus::of_stop(&mut self.session.machine, stop)
            && f.slot(&self.session.machine).is_some()
        {
            self.selected = Some(WarpRef { block: f.block, warp: f.warp });
            self.lane = Some(f.lane);
            if matches!(stop, Stop::Finished(_)) {
                self.follow_selected();
            }
        }
        self.stop_message(stop);
    }

    /// The selected thread: (block slot, warp, lane). The lane is the selected one, else the warp's first
    /// that issues next (or its first live one).
    pub fn selected_thread(&self) -> Option<(usize, u32, u32)> {
        let s = self.selected?;
        let m = &self.session.machine;
        let slot = m.blocks.iter().position(|b| b.linear == s.block)?;
        let w = m.blocks[slot].warps.get(s.warp as usize)?;
        let lane = match self.lane {
            Some(l) => l,
            None => crate::sim::inspect::summarize(m, &m.blocks[slot], w).active.lowest().or(w.live.lowest())?,
        };
        Some((slot, s.warp, lane))
    }

    /// The status message for a stop.
    fn stop_message(&mut self, stop: &Stop) {
        // A new stop has its own explanation: the banner starts at its top.
        self.banner_scroll = 0;
        self.message = Some(match stop {
            Stop::Stepped => (BannerKind::Ok, format!("step {}", self.session.machine.steps)),
            Stop::Breakpoint { line } => (BannerKind::Warn, format!("breakpoint at line {line}")),
            Stop::Divergence { line } => (BannerKind::Warn, format!("a warp diverged at line {line}")),
            Stop::Hit(h) => (BannerKind::Warn, h.message.clone()),
            Stop::Finished(o) => match o {
                Outcome::Completed => (BannerKind::Ok, "kernel completed".to_string()),
                Outcome::Fault(f) => (BannerKind::Error, format!("FAULT: {}", f.sentence)),
                Outcome::Deadlock(_) => (BannerKind::Error, "DEADLOCK: no thread can issue".to_string()),
                Outcome::Livelock(_) => (BannerKind::Error, "LIVELOCK: the state repeats forever".to_string()),
                Outcome::StepLimit => (BannerKind::Error, "step limit reached".to_string()),
                Outcome::Paused => (BannerKind::Ok, "paused".to_string()),
            },
        });
    }
}

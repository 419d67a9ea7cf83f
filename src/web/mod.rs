//! The web page's entry points: compile a kernel from a source string (headers from memory), step it, and
//! draw it as text. No threads, files or clocks, so it builds for `wasm32-unknown-unknown` without the
//! `native` feature (docs/wasm.md). [`WebSession`] is the small API (text views); [`Playground`] is the
//! terminal's whole debugger for the playground page (`warpdbg export --playground`), which `page.rs`
//! exports to the page's JavaScript when built for wasm32.

#[cfg(feature = "native")]
pub mod export;
mod files;
#[cfg(feature = "native")]
pub mod handout;
#[cfg(all(target_arch = "wasm32", feature = "page"))]
mod page;
pub mod playground;
pub mod style;
pub mod text;

pub use files::Files;
pub use playground::Playground;

use crate::compile::{self, Compiled};
use crate::debug::session::{CONTINUE_CHUNK, Session, Stop};
use crate::front::launch::{Mode, Overrides};
use crate::sim::Config;

/// Options a page may set before compiling (the terminal's launch flags).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Pre-Volta or independent thread scheduling; `None`: the file's `// @mode`, else the default.
    pub mode: Option<Mode>,
    /// `NAME=EXPR` launch arguments, as `--arg` takes them.
    pub args: Vec<String>,
    /// A seeded schedule instead of round-robin.
    pub schedule_seed: Option<u64>,
}

/// A kernel compiled from a page and the session stepping it.
pub struct WebSession {
    session: Session,
    /// The last [`WebSession::cont`] ran out of its chunk: the next one goes on (without stopping where it
    /// stands, which a fresh continue does not do either).
    continuing: bool,
}

impl WebSession {
    /// Compiles `source` (named `name`, e.g. `kernel.cu`) with its quoted `#include`s read from `files`, and
    /// launches it. The error is the diagnostics as plain text, as the terminal prints them without colour.
    pub fn compile(name: &str, source: &str, files: &Files, options: &Options) -> Result<WebSession, String> {
        let overrides = Overrides { mode: options.mode, args: options.args.clone(), ..Overrides::default() };
        let compiled: Compiled =
            compile::compile_with(name, source.as_bytes(), &overrides, files).map_err(|e| e.to_string())?;
        let config = Config { schedule_seed: options.schedule_seed, ..Config::default() };
        let session = Session::new(compiled, config).map_err(|e| format!("error: {e}"))?;
        Ok(WebSession { session, continuing: false })
    }

    /// Issues one instruction; says why it stopped.
    pub fn step(&mut self) -> String {
        self.continuing = false;
        describe(&self.session.step_instruction())
    }

    /// Goes back `n` instructions (from the session's snapshots).
    pub fn step_back(&mut self, n: u64) {
        self.continuing = false;
        self.session.step_back(n);
    }

    /// Continues to a breakpoint or the end, at most [`CONTINUE_CHUNK`] instructions per call (a page calls
    /// again from its next animation frame); `None` when the chunk ran out without stopping.
    pub fn cont(&mut self) -> Option<String> {
        let stop = self.session.cont(CONTINUE_CHUNK, !self.continuing);
        self.continuing = stop.is_none();
        stop.map(|s| describe(&s))
    }

    /// Sets or clears a breakpoint on source line `line`.
    pub fn toggle_breakpoint(&mut self, line: u32) {
        if !self.session.breakpoints.remove(&line) {
            self.session.breakpoints.insert(line);
        }
    }

    /// Instructions issued so far.
    pub fn steps(&self) -> u64 {
        self.session.machine.steps
    }

    /// Whether the run has reached its final outcome.
    pub fn finished(&self) -> bool {
        self.session.machine.outcome().is_some()
    }

    /// The session drawn as text ([`text::render`]).
    pub fn render_text(&self) -> String {
        text::render(&self.session)
    }

    /// The report `warpdbg run` prints, once the run has finished.
    pub fn report(&self) -> Option<String> {
        let m = &self.session.machine;
        m.outcome().map(|o| crate::sim::report::text(m, o))
    }

    /// The session underneath, for views that draw more than text.
    pub fn session(&self) -> &Session {
        &self.session
    }
}

/// A stop in a word or two: `stepped`, `breakpoint at line 12`, `completed`.
fn describe(stop: &Stop) -> String {
    match stop {
        Stop::Stepped => "stepped".into(),
        Stop::Breakpoint { line } => format!("breakpoint at line {line}"),
        Stop::Divergence { line } => format!("divergence at line {line}"),
        Stop::Hit(h) => format!("{} breakpoint `{}` at line {}", h.kind, h.spec, h.line),
        Stop::Finished(o) => o.name().into(),
    }
}

#[cfg(test)]
mod tests;

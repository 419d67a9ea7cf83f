//! The playground page's debugger: the terminal's [`App`] (the same keymap, themes, `update` and `view`),
//! driven by the page's keys, clicks and animation frames, and drawn into the same ratatui `Buffer`, which
//! the page shows as HTML ([`crate::tui::view::html`]). `page.rs` exports it to the page's JavaScript; every
//! method here is plain Rust, tested natively.

use crate::compile;
use crate::debug::session::Session;
use crate::front::launch::{Mode, Overrides};
use crate::sim::Config;
use crate::tui::app::{App, Clock, Overlay};
use crate::tui::input::{Key, Mouse, MouseButton};
use crate::tui::keymap::Keymap;
use crate::tui::recording::Recording;
use crate::tui::theme::Theme;
use crate::tui::{scroll, update, view};

use super::files::Files;

/// What the page shows: the debugger, or a whole program's output (programs run to their end in the page:
/// the debugger on programs runs the host code on a thread of its own, which a page does not have).
enum Shown {
    Nothing,
    Debugger(Box<App>),
    Output(String),
}

/// The page's debugger and what it last opened.
pub struct Playground {
    shown: Shown,
    /// What was opened last (name, source, mode), for `q`, which starts it again.
    opened: Option<(String, String, Option<Mode>)>,
    files: Files,
    theme: Theme,
    clock: Option<Clock>,
}

impl Default for Playground {
    fn default() -> Self {
        Playground {
            shown: Shown::Nothing,
            opened: None,
            files: Files::new(),
            theme: Theme::default_dark(),
            clock: None,
        }
    }
}

/// What a key did, for the page: whether a continue is running (call [`Playground::tick`] each frame) and
/// whether the user quit (the page starts the session again and moves the focus to the editor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyResult {
    Idle,
    Running,
    Quit,
}

impl Playground {
    pub fn new() -> Playground {
        Playground::default()
    }

    /// The page's clock (milliseconds), which paces a running continue.
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = Some(clock);
        if let Shown::Debugger(app) = &mut self.shown {
            app.clock = clock;
        }
    }

    /// Headers the source may `#include` (by name).
    pub fn set_files(&mut self, files: Files) {
        self.files = files;
    }

    /// Opens `source` (named `name`): a kernel file in the debugger, at step 0; a whole program runs to its
    /// end and its output is shown. The error is the diagnostics as the terminal prints them (line, source
    /// line, caret).
    pub fn open(&mut self, name: &str, source: &str, mode: Option<Mode>) -> Result<(), String> {
        self.opened = Some((name.to_string(), source.to_string(), mode));
        self.shown = Shown::Nothing;
        if crate::program::is_program(source.as_bytes()) {
            self.shown = Shown::Output(run_program(name, source, mode)?);
            return Ok(());
        }
        let overrides = Overrides { mode, ..Overrides::default() };
        let compiled =
            compile::compile_with(name, source.as_bytes(), &overrides, &self.files).map_err(|e| e.render())?;
        let session = Session::new(compiled, Config::default()).map_err(|e| format!("error: {e}"))?;
        let app = App::new(session, Keymap::default_map(), self.theme.clone());
        self.show(app);
        Ok(())
    }

    /// Opens a recording (`warpdbg --record`'s file) at its end, with every recorded event applied, and hands
    /// it over live: the keys go on from where the instructor stopped.
    pub fn open_recording(&mut self, bytes: &[u8]) -> Result<(), String> {
        let rec = Recording::parse(bytes, std::path::Path::new("recording.wdbg")).map_err(|e| e.to_string())?;
        if crate::program::is_program(rec.header.source.as_bytes()) {
            return Err("this recording debugs a whole program; the page debugs kernel files".into());
        }
        let mut app = crate::tui::replay::start_app(&rec, Keymap::default_map(), Some(self.theme.clone()))?;
        for (i, e) in rec.events.iter().enumerate() {
            crate::tui::replay::apply_event(&mut app, e, i);
        }
        app.quit = false;
        app.outbox.clear();
        self.opened = Some((rec.header.file.clone(), rec.header.source.clone(), Some(rec.header.mode)));
        self.show(app);
        Ok(())
    }

    fn show(&mut self, mut app: App) {
        if let Some(c) = self.clock {
            app.clock = c;
        }
        scroll::keep_cursor_visible(&mut app);
        self.shown = Shown::Debugger(Box::new(app));
    }

    /// A key pressed, written as keymap files write keys (`s`, `S`, `ctrl-c`, `shift-tab`, `pagedown`,
    /// `f5`): a prompt takes it as text, else the keymap's action runs, as in the terminal. Unknown keys do
    /// nothing.
    pub fn key(&mut self, key: &str) -> KeyResult {
        let Shown::Debugger(app) = &mut self.shown else { return KeyResult::Idle };
        let Some(k) = Key::parse(key) else { return KeyResult::Idle };
        if matches!(app.overlay, Some(Overlay::Prompt { .. })) {
            update::prompt_key(app, k);
        } else if let Some(a) = app.keymap.action(&k) {
            update::update(app, a);
        }
        self.after_input()
    }

    /// A click (button 0 left, 1 another) or a wheel turn (2 up, 3 down) at a screen cell.
    pub fn mouse(&mut self, button: u32, col: u16, row: u16) -> KeyResult {
        let Shown::Debugger(app) = &mut self.shown else { return KeyResult::Idle };
        let button = match button {
            0 => MouseButton::Left,
            2 => MouseButton::ScrollUp,
            3 => MouseButton::ScrollDown,
            _ => MouseButton::Other,
        };
        update::mouse(app, Mouse { button, col, row });
        self.after_input()
    }

    /// What the terminal's loop does after each event: a frame's worth of a running continue, the cursor
    /// kept in view; `q` starts the file again.
    fn after_input(&mut self) -> KeyResult {
        let Shown::Debugger(app) = &mut self.shown else { return KeyResult::Idle };
        update::tick(app);
        scroll::keep_cursor_visible(app);
        app.outbox.clear();
        if app.quit {
            if let Some((name, source, mode)) = self.opened.clone() {
                // (It opened before, so it opens again.)
                let _ = self.open(&name, &source, mode);
            }
            return KeyResult::Quit;
        }
        if app.running { KeyResult::Running } else { KeyResult::Idle }
    }

    /// One animation frame of a running continue (a frame's worth of time by the page's clock).
    pub fn tick(&mut self) -> KeyResult {
        self.after_input()
    }

    /// The screen at `cols` x `rows` as HTML rows of styled spans (a program's output as plain text).
    pub fn html(&mut self, cols: u16, rows: u16) -> String {
        match &mut self.shown {
            Shown::Debugger(app) => {
                app.size = (cols, rows);
                scroll::keep_cursor_visible(app);
                crate::tui::view::html::frame_html(&view::render_buffer(app, cols, rows))
            }
            Shown::Output(text) => {
                let mut out = String::new();
                crate::tui::view::html::escape_html(text, &mut out);
                out
            }
            Shown::Nothing => String::new(),
        }
    }

    /// The same screen as plain text (what `warpdbg view` prints at that size).
    pub fn text(&mut self, cols: u16, rows: u16) -> String {
        match &mut self.shown {
            Shown::Debugger(app) => {
                app.size = (cols, rows);
                scroll::keep_cursor_visible(app);
                view::buffer_text(&view::render_buffer(app, cols, rows))
            }
            Shown::Output(text) => text.clone(),
            Shown::Nothing => String::new(),
        }
    }

    /// Runs the open kernel to step `step` (from a link's `step=`): the screen `warpdbg view --steps K`
    /// prints, so a link lands where the instructor was.
    pub fn goto(&mut self, step: u64) {
        let Shown::Debugger(app) = &mut self.shown else { return };
        app.running = false;
        if let Some(o) = app.session.run_to(step) {
            app.stopped(&crate::debug::session::Stop::Finished(o));
        } else if step > 0 {
            app.stopped(&crate::debug::session::Stop::Stepped);
        }
        app.fix_selection();
        app.follow_selected();
        scroll::keep_cursor_visible(app);
        scroll::reveal_stuck_lines(app);
        app.refresh_why();
    }

    /// Instructions issued so far in the debugger (0 when none is open).
    pub fn steps(&self) -> u64 {
        match &self.shown {
            Shown::Debugger(app) => app.session.machine.steps,
            _ => 0,
        }
    }
}

/// A whole program run to its end, as `warpdbg run` prints it: the program's output, then warpdbg's findings
/// and the exit status.
fn run_program(name: &str, source: &str, mode: Option<Mode>) -> Result<String, String> {
    let overrides = Overrides { mode, ..Overrides::default() };
    let program = crate::program::compile(name, source.as_bytes(), &overrides).map_err(|e| e.render())?;
    let options = crate::program::RunOptions { mode: mode.unwrap_or_default(), ..Default::default() };
    let (mut out, mut err) = (vec![], vec![]);
    let result = crate::program::run(&program, &options, &mut out, &mut err);
    let mut text = String::from_utf8_lossy(&out).into_owned();
    text.push_str(&String::from_utf8_lossy(&err));
    // The program's own status, and warpdbg's when it found something (they differ then).
    text.push_str(&format!("\n[{}]\n", result.statuses.sentence()));
    Ok(text)
}

#[cfg(test)]
mod tests;

//! The playground page's debugger: the terminal's [`App`] (the same keymap, themes, `update` and `view`),
//! driven by the page's keys, clicks and animation frames, and drawn into the same ratatui `Buffer`, which
//! the page shows as HTML ([`crate::tui::view::html`]). `page.rs` exports it to the page's JavaScript; every
//! method here is plain Rust, tested natively.

use crate::compile;
use crate::debug::program::{HostOptions, HostRun, Target};
use crate::debug::session::Session;
use crate::front::launch::{Mode, Overrides};
use crate::program::RunOptions;
use crate::sim::Config;
use crate::tui::action::Action;
use crate::tui::app::{App, Clock, Overlay};
use crate::tui::input::{Key, Mouse, MouseButton};
use crate::tui::keymap::Keymap;
use crate::tui::program::open_app_with;
use crate::tui::recording::Recording;
use crate::tui::theme::Theme;
use crate::tui::{scroll, update, view};

use super::files::Files;

/// What the page shows: the debugger (on a kernel file or a whole program), or what a program that made no
/// launch printed and how it ended.
enum Shown {
    Nothing,
    Debugger(Box<App>),
    /// The output, and the first of its rows (wrapped at the screen's width) on screen: the movement keys
    /// and the wheel scroll it.
    Output {
        text: String,
        top: usize,
    },
}

/// The page's debugger and what it last opened.
pub struct Playground {
    shown: Shown,
    /// What was opened last (name, source, mode), for `q`, which starts it again.
    opened: Option<(String, String, Option<Mode>)>,
    files: Files,
    theme: Theme,
    clock: Option<Clock>,
    /// The screen's size at the last frame drawn: a file opened next is scrolled for it, as `warpdbg view`
    /// at that size is.
    size: Option<(u16, u16)>,
    /// A whole program's `argv[1..]`.
    args: Vec<String>,
    /// The launch a program opens at (1 unless the page goes back to where it was).
    start_launch: usize,
    /// Told the launch a program's host run has reached and the steps its kernels issued (the progress line).
    progress: Option<fn(usize, u64)>,
}

impl Default for Playground {
    fn default() -> Self {
        Playground {
            shown: Shown::Nothing,
            opened: None,
            files: Files::new(),
            theme: Theme::default_dark(),
            clock: None,
            size: None,
            args: vec![],
            start_launch: 1,
            progress: None,
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

/// The actions that run an interrupted program again ([`Playground::reruns`]).
const RERUN: [Action; 2] = [Action::Activate, Action::Restart];

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

    /// A whole program's arguments (`argv[1..]`), as a shell would split `line`: words apart at spaces, quotes
    /// ('...' or "...") keeping spaces in one. They apply from the next [`Playground::open`].
    pub fn set_args(&mut self, line: &str) {
        self.args = split_args(line);
    }

    /// The launch the next [`Playground::open`] of a whole program stops at (at least 1).
    pub fn set_launch(&mut self, k: usize) {
        self.start_launch = k.max(1);
    }

    /// Whether `key` (as keymap files write keys) runs a whole program again from `main` after the page
    /// interrupted its host code before the first launch: the keys bound to what starts a run in the terminal,
    /// `Activate` (Enter) and `Restart` (r), taken from the keymap like every other key.
    pub fn reruns(key: &str) -> bool {
        Key::parse(key).and_then(|k| Keymap::default_map().action(&k)).is_some_and(|a| RERUN.contains(&a))
    }

    /// The keys [`Playground::reruns`] accepts, as the help overlay names them ("Enter or r"), for the page's
    /// interrupted-state text.
    pub fn rerun_keys() -> String {
        let map = Keymap::default_map();
        let keys: Vec<String> = RERUN.iter().filter_map(|a| map.first_key(*a)).collect();
        keys.join(" or ")
    }

    /// Who hears how far a program's host run has got (launch, steps).
    pub fn set_progress(&mut self, progress: fn(usize, u64)) {
        self.progress = Some(progress);
    }

    /// Opens `source` (named `name`) in the debugger: a kernel file at step 0; a whole program at its first
    /// launch with the host code run up to it, as the terminal debugs it (`N`, `P` and the Program pane; the
    /// host runs without threads, `debug::program::HostRun::Replay`). A program that ends before its first
    /// launch shows its output and how it ended. The error is the diagnostics as the terminal prints them
    /// (line, source line, caret).
    pub fn open(&mut self, name: &str, source: &str, mode: Option<Mode>) -> Result<(), String> {
        self.opened = Some((name.to_string(), source.to_string(), mode));
        self.shown = Shown::Nothing;
        if crate::program::is_program(source.as_bytes()) {
            return self.open_program(name, source, mode);
        }
        let overrides = Overrides { mode, ..Overrides::default() };
        let compiled =
            compile::compile_with(name, source.as_bytes(), &overrides, &self.files).map_err(|e| e.render())?;
        let session = Session::new(compiled, Config::default()).map_err(|e| format!("error: {e}"))?;
        let app = App::new(session, Keymap::default_map(), self.theme.clone());
        self.show(app);
        Ok(())
    }

    /// Opens a recording (`warpdbg --record`'s file, of a kernel file or a whole program) at its end, with
    /// every recorded event applied, and hands it over live: the keys go on from where the instructor stopped.
    pub fn open_recording(&mut self, bytes: &[u8]) -> Result<(), String> {
        let rec = Recording::parse(bytes, std::path::Path::new("recording.wdbg")).map_err(|e| e.to_string())?;
        // A whole program's recording runs its host code again up to each launch it visits (on wasm32 without
        // threads: `HostRun::Replay`, the default there), so the page opens it in its worker.
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

    fn open_program(&mut self, name: &str, source: &str, mode: Option<Mode>) -> Result<(), String> {
        let overrides = Overrides { mode, ..Overrides::default() };
        let program = crate::program::compile(name, source.as_bytes(), &overrides).map_err(|e| e.render())?;
        let options = RunOptions { mode: mode.unwrap_or_default(), args: self.args.clone(), ..Default::default() };
        let progress = self.progress.map(|f| Box::new(f) as crate::debug::program::replay::Progress);
        let host = HostOptions { run: HostRun::Replay, progress };
        let keymap = Keymap::default_map();
        let target = Target::Index(self.start_launch);
        match open_app_with(program, options, Config::default(), &target, keymap, self.theme.clone(), host) {
            Ok(app) => self.show(app),
            Err(e) => self.shown = Shown::Output { text: e, top: 0 },
        }
        Ok(())
    }

    fn show(&mut self, mut app: App) {
        if let Some(c) = self.clock {
            app.clock = c;
        }
        if let Some(size) = self.size {
            app.size = size;
        }
        scroll::keep_cursor_visible(&mut app);
        self.shown = Shown::Debugger(Box::new(app));
    }

    /// A key pressed, written as keymap files write keys (`s`, `S`, `ctrl-c`, `shift-tab`, `pagedown`,
    /// `f5`): a prompt takes it as text, else the keymap's action runs, as in the terminal. Unknown keys do
    /// nothing.
    pub fn key(&mut self, key: &str) -> KeyResult {
        let Some(k) = Key::parse(key) else { return KeyResult::Idle };
        if let Shown::Output { .. } = self.shown {
            if let Some(a) = Keymap::default_map().action(&k) {
                self.scroll_output(a);
            }
            return KeyResult::Idle;
        }
        let Shown::Debugger(app) = &mut self.shown else { return KeyResult::Idle };
        if matches!(app.overlay, Some(Overlay::Prompt { .. })) {
            update::prompt_key(app, k);
        } else if let Some(a) = app.keymap.action(&k) {
            update::update(app, a);
        }
        self.after_input()
    }

    /// A click (button 0 left, 1 another) or a wheel turn (2 up, 3 down) at a screen cell.
    pub fn mouse(&mut self, button: u32, col: u16, row: u16) -> KeyResult {
        if let Shown::Output { .. } = self.shown {
            for _ in 0..3 {
                match button {
                    2 => self.scroll_output(Action::Up),
                    3 => self.scroll_output(Action::Down),
                    _ => {}
                }
            }
            return KeyResult::Idle;
        }
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

    /// The movement keys on a program's output (a program that made no launch): a row, half a screen, or to
    /// either end, as they scroll the debugger's panes.
    fn scroll_output(&mut self, action: Action) {
        let (cols, rows) = self.size.unwrap_or((80, 24));
        let Shown::Output { text, top } = &mut self.shown else { return };
        // The last row is the hint when the output does not fit.
        let n = wrap(text, cols as usize).len();
        let max = if n > rows as usize { n - (rows as usize).saturating_sub(1).max(1) } else { 0 };
        let page = (rows as usize / 2).max(1);
        *top = match action {
            Action::Up => top.saturating_sub(1),
            Action::Down => *top + 1,
            Action::PageUp => top.saturating_sub(page),
            Action::PageDown => *top + page,
            Action::Top => 0,
            Action::Bottom => max,
            _ => *top,
        }
        .min(max);
    }

    /// What the terminal's loop does after each event: a frame's worth of a running continue, the cursor
    /// kept in view; `q` starts the file again.
    fn after_input(&mut self) -> KeyResult {
        let Shown::Debugger(app) = &mut self.shown else { return KeyResult::Idle };
        update::tick(app);
        // `t` chose another theme: files opened next keep it.
        if app.theme != self.theme {
            self.theme = app.theme.clone();
        }
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
        self.size = Some((cols, rows));
        match &mut self.shown {
            Shown::Debugger(app) => {
                app.size = (cols, rows);
                scroll::keep_cursor_visible(app);
                crate::tui::view::html::frame_html(&view::render_buffer(app, cols, rows))
            }
            Shown::Output { text, top } => {
                let mut out = String::new();
                crate::tui::view::html::escape_html(&output_rows(text, *top, cols, rows), &mut out);
                out
            }
            Shown::Nothing => String::new(),
        }
    }

    /// The same screen as plain text (what `warpdbg view` prints at that size).
    pub fn text(&mut self, cols: u16, rows: u16) -> String {
        self.size = Some((cols, rows));
        match &mut self.shown {
            Shown::Debugger(app) => {
                app.size = (cols, rows);
                scroll::keep_cursor_visible(app);
                view::buffer_text(&view::render_buffer(app, cols, rows))
            }
            Shown::Output { text, top } => output_rows(text, *top, cols, rows),
            Shown::Nothing => String::new(),
        }
    }

    /// The theme the page opens files in: a built-in theme's name, or a theme file's RON text (as `warpdbg
    /// export --playground --theme` carries it); the debugger on screen takes it at once.
    pub fn set_theme(&mut self, name_or_ron: &str) -> Result<(), String> {
        self.theme = match crate::tui::theme::BUILTIN.iter().find(|(n, _)| *n == name_or_ron) {
            Some((_, text)) => Theme::parse(text, name_or_ron)?,
            None => Theme::parse(name_or_ron, "of the page")?,
        };
        if let Shown::Debugger(app) = &mut self.shown {
            app.theme = self.theme.clone();
        }
        Ok(())
    }

    /// The page's colours for the theme on screen (CSS custom properties: [`super::style::theme_vars`]).
    pub fn theme_vars(&self) -> String {
        match &self.shown {
            Shown::Debugger(app) => super::style::theme_vars(&app.theme),
            _ => super::style::theme_vars(&self.theme),
        }
    }

    /// The launch being debugged (1-based) when a program is open and at a launch, else 0.
    pub fn launch(&self) -> usize {
        match &self.shown {
            Shown::Debugger(app) => app.program.as_ref().and_then(|p| p.current).unwrap_or(0),
            _ => 0,
        }
    }

    /// Runs the open kernel to step `step` (from a link's `step=`): the screen `warpdbg view --steps K`
    /// prints, so a link lands where the instructor was.
    pub fn goto(&mut self, step: u64) {
        let Shown::Debugger(app) = &mut self.shown else { return };
        app.running = false;
        app.run_to_step(step);
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

/// A program's output wrapped at `cols` (a long line goes on in the next row, so nothing is cut): after its
/// last space that fits, else (one long word) at the width.
fn wrap(text: &str, cols: usize) -> Vec<String> {
    let cols = cols.max(1);
    let mut rows = vec![];
    for line in text.lines() {
        let mut rest: Vec<char> = line.chars().collect();
        while rest.len() > cols {
            let cut = rest[..=cols].iter().rposition(|c| *c == ' ').filter(|&i| i > 0).unwrap_or(cols);
            rows.push(rest[..cut].iter().collect::<String>());
            let skip = usize::from(rest.get(cut) == Some(&' '));
            rest.drain(..cut + skip);
        }
        rows.push(rest.into_iter().collect());
    }
    rows
}

/// The rows of the output on a screen of `cols` x `rows` from row `top` on; when it does not all fit, the
/// last row says which rows show and that the movement keys scroll.
fn output_rows(text: &str, top: usize, cols: u16, rows: u16) -> String {
    let all = wrap(text, cols as usize);
    let rows = rows as usize;
    let lines = |rows: &[String]| rows.iter().map(|r| format!("{r}\n")).collect::<String>();
    if all.len() <= rows {
        return lines(&all);
    }
    let shown = rows.saturating_sub(1).max(1);
    let top = top.min(all.len().saturating_sub(shown));
    let mut out: Vec<String> = all[top..(top + shown).min(all.len())].to_vec();
    let hint =
        format!("-- rows {}-{} of {} (the movement keys and the wheel scroll) --", top + 1, top + out.len(), all.len());
    out.push(hint.chars().take(cols as usize).collect());
    lines(&out)
}

/// `line` split as a shell splits arguments: at spaces, except inside '...' or "..." (the quotes dropped).
pub(crate) fn split_args(line: &str) -> Vec<String> {
    let (mut args, mut word, mut quote, mut any) = (vec![], String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    args.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        args.push(word);
    }
    args
}

#[cfg(test)]
mod tests;

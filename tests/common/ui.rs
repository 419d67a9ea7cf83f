//! The TUI as the event loop drives it, for tests: an [`App`] fed keys (key -> keymap -> action -> update, then
//! the continue ticks, then `keep_cursor_visible`) and drawn by the real drawing code into a ratatui
//! `TestBackend`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use warpdbg::cli::LaunchArgs;
use warpdbg::debug::session::Session;
use warpdbg::sim::Config;
use warpdbg::sim::inspect::{self, WarpState};
use warpdbg::tui::app::{App, Overlay};
use warpdbg::tui::input::Mouse;
use warpdbg::tui::keymap::{Key, KeyCodeRepr, Keymap};
use warpdbg::tui::theme::Theme;
use warpdbg::tui::{scroll, update, view};

/// The app `warpdbg FILE --arg ...` builds, in a given theme (built here rather than through `make_app`, so a
/// `NO_COLOR` in the test environment cannot change the colour assertions).
pub fn new_app(file: &str, args: &[&str], theme: &str) -> App {
    let launch = LaunchArgs { args: args.iter().map(|s| s.to_string()).collect(), ..Default::default() };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let compiled = warpdbg::cli::load(&path, &launch).unwrap_or_else(|_| panic!("{file} compiles"));
    let session = Session::new(compiled, Config::default()).expect("launch fits");
    App::new(session, Keymap::default_map(), Theme::load(theme).expect("built-in theme"))
}

/// The app `warpdbg PROGRAM [--launch K] [-- ARGS]` builds on a whole program (a file with `main`).
pub fn program_app(file: &str, launch: usize, args: &[&str]) -> App {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|_| panic!("{file} exists"));
    let program = warpdbg::program::compile(file, &bytes, &Default::default()).expect("the program compiles");
    let options =
        warpdbg::program::RunOptions { args: args.iter().map(|s| s.to_string()).collect(), ..Default::default() };
    let target = warpdbg::debug::program::Target::Index(launch);
    let theme = Theme::load("dark").expect("built-in theme");
    warpdbg::tui::program::open_app(program, options, Config::default(), &target, Keymap::default_map(), theme)
        .expect("the program reaches the launch")
}

/// An app on a terminal of a fixed size, driven like `tui::event_loop`.
pub struct Tui {
    pub app: App,
    pub terminal: Terminal<TestBackend>,
}

impl Tui {
    pub fn open(file: &str, args: &[&str], cols: u16, rows: u16) -> Tui {
        Tui::open_themed(file, args, "dark", cols, rows)
    }

    pub fn open_themed(file: &str, args: &[&str], theme: &str, cols: u16, rows: u16) -> Tui {
        Tui::with_app(new_app(file, args, theme), cols, rows)
    }

    /// The debugger on a whole program, at its first launch.
    pub fn open_program(file: &str, cols: u16, rows: u16) -> Tui {
        Tui::with_app(program_app(file, 1, &[]), cols, rows)
    }

    pub fn with_app(mut app: App, cols: u16, rows: u16) -> Tui {
        let terminal = Terminal::new(TestBackend::new(cols, rows)).expect("test terminal");
        // The event loop's start: the terminal's size, then the cursor kept in view, then the first frame.
        app.size = (cols, rows);
        scroll::keep_cursor_visible(&mut app);
        let mut t = Tui { app, terminal };
        t.draw();
        t
    }

    pub fn draw(&mut self) {
        let app = &self.app;
        self.terminal.draw(|f| view::draw(f, app)).expect("draw");
    }

    /// One key press, as the event loop handles it, then the continue (if one started) run to its stop, as
    /// the loop's ticks would with no further key, and a frame drawn.
    pub fn press(&mut self, key: &str) {
        let k = Key::from_event(&key_event(key)).unwrap_or_else(|| panic!("key `{key}`"));
        if matches!(self.app.overlay, Some(Overlay::Prompt { .. })) {
            update::prompt_key(&mut self.app, k);
        } else if let Some(a) = self.app.keymap.action(&k) {
            update::update(&mut self.app, a);
        }
        update::tick(&mut self.app);
        scroll::keep_cursor_visible(&mut self.app);
        self.draw();
        while self.app.running {
            update::tick(&mut self.app);
            scroll::keep_cursor_visible(&mut self.app);
            self.draw();
        }
    }

    pub fn press_all(&mut self, keys: &[&str]) {
        for k in keys {
            self.press(k);
        }
    }

    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.press(&c.to_string());
        }
    }

    pub fn click(&mut self, col: u16, row: u16) {
        let ev = MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: col,
            row,
            modifiers: KeyModifiers::NONE,
        };
        update::mouse(&mut self.app, Mouse::from_event(&ev).expect("a click"));
        scroll::keep_cursor_visible(&mut self.app);
        self.draw();
    }

    pub fn buffer(&self) -> &Buffer {
        self.terminal.backend().buffer()
    }

    pub fn text(&self) -> String {
        view::buffer_text(self.buffer())
    }

    pub fn steps(&self) -> u64 {
        self.app.session.machine.steps
    }

    pub fn selected_state(&self) -> WarpState {
        let s = self.app.selected.expect("a warp is selected");
        let m = &self.app.session.machine;
        let b = m.blocks.iter().find(|b| b.linear == s.block).expect("resident block");
        inspect::summarize(m, b, &b.warps[s.warp as usize]).state
    }

    /// The first row whose text contains `needle` and the column (in cells) where it starts.
    pub fn find(&self, needle: &str) -> Option<(u16, u16)> {
        let b = self.buffer();
        for y in 0..b.area.height {
            let row: Vec<&str> = (0..b.area.width).map(|x| b[(x, y)].symbol()).collect();
            let joined = row.concat();
            if let Some(byte) = joined.find(needle) {
                // Every symbol warpdbg draws is one cell wide.
                let col = joined[..byte].chars().count() as u16;
                return Some((y, col));
            }
        }
        None
    }
}

/// A key written as in keymap files (`s`, `?`, `esc`, `shift-tab`, `ctrl-c`, `f5`) as crossterm reports it.
pub fn key_event(key: &str) -> KeyEvent {
    let k = Key::parse(key).unwrap_or_else(|| panic!("key `{key}`"));
    let code = match k.code {
        KeyCodeRepr::Char(c) => KeyCode::Char(c),
        KeyCodeRepr::F(n) => KeyCode::F(n),
        KeyCodeRepr::Enter => KeyCode::Enter,
        KeyCodeRepr::Esc => KeyCode::Esc,
        KeyCodeRepr::Tab => KeyCode::Tab,
        KeyCodeRepr::BackTab => KeyCode::BackTab,
        KeyCodeRepr::Up => KeyCode::Up,
        KeyCodeRepr::Down => KeyCode::Down,
        KeyCodeRepr::Left => KeyCode::Left,
        KeyCodeRepr::Right => KeyCode::Right,
        KeyCodeRepr::PageUp => KeyCode::PageUp,
        KeyCodeRepr::PageDown => KeyCode::PageDown,
        KeyCodeRepr::Home => KeyCode::Home,
        KeyCodeRepr::End => KeyCode::End,
        KeyCodeRepr::Backspace => KeyCode::Backspace,
    };
    let mut mods = KeyModifiers::NONE;
    if k.ctrl {
        mods |= KeyModifiers::CONTROL;
    }
    if k.alt {
        mods |= KeyModifiers::ALT;
    }
    // Terminals report upper-case letters and BackTab with SHIFT; the keymap must ignore it.
    if matches!(code, KeyCode::Char(c) if c.is_ascii_uppercase()) || code == KeyCode::BackTab {
        mods |= KeyModifiers::SHIFT;
    }
    KeyEvent::new(code, mods)
}

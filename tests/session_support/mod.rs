//! Helpers shared by the recording / replay / export tests: scratch directories, required external tools,
//! and recordings made headlessly through the library exactly as the TUI's event loop makes them.
#![allow(dead_code)] // each test binary uses a different subset

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use warpdbg::debug::checksum::{memory_check, state_check};
use warpdbg::debug::session::Session;
use warpdbg::sim::Config;
use warpdbg::tui::action::Action;
use warpdbg::tui::app::App;
use warpdbg::tui::keymap::Keymap;
use warpdbg::tui::recording::{EventKind, Header, Recorder};
use warpdbg::tui::theme::Theme;
use warpdbg::tui::{scroll, update};

/// A path relative to the repository root.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A fresh, empty directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "sessions-{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Is an external tool installed? When it is not: fail under CI (`.ci/test` installs it), skip otherwise.
pub fn require_tool(program: &str, version_arg: &str) -> bool {
    let ok = std::process::Command::new(program)
        .arg(version_arg)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        let msg = format!("`{program}` is not installed (`.ci/test` installs it: apt-get install {program})");
        if std::env::var_os("CI").is_some() {
            panic!("{msg}; CI is set, so this test must not be skipped");
        }
        eprintln!("SKIPPED: {msg}");
    }
    ok
}

/// What a headless recording does: a debugger action, a note typed at the `a` prompt, or a `:` command.
#[derive(Clone, Debug)]
pub enum Input {
    Act(Action),
    Note(&'static str),
    Command(&'static str),
}

/// The header `warpdbg FILE --record` writes for a kernel file with no overrides.
pub fn header_for(kernel: &str, app: &App) -> Header {
    warpdbg::cli::recording_header(kernel.into(), app, &warpdbg::cli::LaunchArgs::default())
}

/// The debugger on a kernel file (path relative to the repository), as `warpdbg FILE` opens it.
pub fn app_for(kernel: &str) -> App {
    let bytes = std::fs::read(repo(kernel)).expect("kernel file");
    let compiled = warpdbg::compile::compile(kernel, &bytes, &Default::default()).expect("kernel compiles");
    let session = Session::new(compiled, Config::default()).expect("launch");
    App::new(session, Keymap::default_map(), Theme::default_dark())
}

/// Records `inputs` on `kernel` to `out` through the library, the way the TUI's event loop does it: a resize
/// first, each input's queued events appended and flushed, then the end. Returns the final app.
pub fn record_headless(kernel: &str, inputs: &[Input], out: &Path) -> App {
    let mut app = app_for(kernel);
    app.size = (120, 40);
    let header = header_for(kernel, &app);
    record_app(app, &header, inputs, out)
}

/// Records `inputs` on an app already open (a kernel file's or a whole program's) to `out` with `header`
/// (made at the recording's size, 120 x 40), as [`record_headless`] does. Returns the final app.
pub fn record_app(mut app: App, header: &Header, inputs: &[Input], out: &Path) -> App {
    app.size = (120, 40);
    let mut rec = Recorder::create(out, header).expect("create recording");
    rec.write(EventKind::Resize { cols: 120, rows: 40 }).unwrap();
    scroll::keep_cursor_visible(&mut app);
    for input in inputs {
        match input {
            Input::Act(a) => update::update(&mut app, *a),
            Input::Note(text) | Input::Command(text) => {
                let prompt = if matches!(input, Input::Note(_)) { Action::Note } else { Action::Goto };
                update::update(&mut app, prompt);
                for c in text.chars() {
                    update::prompt_key(&mut app, key(crossterm::event::KeyCode::Char(c)));
                }
                update::prompt_key(&mut app, key(crossterm::event::KeyCode::Enter));
            }
        }
        update::finish_running(&mut app);
        scroll::keep_cursor_visible(&mut app);
        for e in app.outbox.drain(..) {
            rec.write(e).unwrap();
        }
    }
    let m = &app.session.machine;
    rec.write(EventKind::End { steps: m.steps, check: state_check(m), memory: memory_check(m) }).unwrap();
    app
}

fn key(code: crossterm::event::KeyCode) -> warpdbg::tui::input::Key {
    let e = crossterm::event::KeyEvent::new(code, crossterm::event::KeyModifiers::NONE);
    warpdbg::tui::input::Key::from_event(&e).expect("a key bindings can name")
}

/// A typical short session on `kernels/deadlock.cu`: steps, a step back, a breakpoint, continue, a note, a
/// mode switch, continue to the deadlock.
pub fn typical_inputs() -> Vec<Input> {
    use Action::*;
    let mut v = vec![Input::Act(Step), Input::Act(Step), Input::Act(Step), Input::Act(StepBack)];
    v.push(Input::Act(Top));
    v.extend(std::iter::repeat_n(Input::Act(Down), 27)); // cursor to line 28, the even threads' barrier
    v.extend([
        Input::Act(ToggleBreakpoint),
        Input::Act(Continue),
        Input::Note("the even threads wait here"),
        Input::Act(SwitchMode),
        Input::Act(Step),
        Input::Act(Continue),
        Input::Act(Continue),
    ]);
    v
}

/// The plain-text frames `warpdbg export --text` wrote (form feed + newline between frames).
pub fn split_text_frames(text: &str) -> Vec<String> {
    text.split("\u{c}\n").map(|s| s.to_string()).collect()
}

/// A frame's lines with trailing blanks removed (terminals and browsers drop them).
pub fn norm(frame: &str) -> Vec<String> {
    let mut lines: Vec<String> = frame.lines().map(|l| l.trim_end().to_string()).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

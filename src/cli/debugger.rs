//! The interactive debugger from the command line: its app (a kernel file or a whole program, with `--break`
//! and `--quiz`), the terminal, and `--record`'s header.

use std::io;
use std::path::Path;
use std::time::Duration;

use crossterm::event::{Event, KeyEventKind};

use super::args::{LaunchArgs, TeachArgs, UiArgs};
use super::exit::Exit;
use super::load::{base_config, keymap_and_theme, load, load_recording, parse_breaks, ui_theme};
use super::program;
use crate::debug::session::Session;
use crate::sim::Config;
use crate::tui::app::App;
use crate::tui::keymap::Keymap;

/// Builds the TUI's state for a kernel file: session, keymap, theme (honouring NO_COLOR).
pub fn make_app(path: &Path, launch: &LaunchArgs, ui: &UiArgs) -> Result<App, Exit> {
    make_app_with_args(path, launch, ui, &[])
}

/// [`make_app`] for a kernel file or a whole program (run with `program_args`, stopped at its launch).
pub fn make_app_with_args(path: &Path, launch: &LaunchArgs, ui: &UiArgs, program_args: &[String]) -> Result<App, Exit> {
    let (keymap, theme) = keymap_and_theme(ui)?;
    if let Some(bytes) = program::read(path) {
        return program::app(path, &bytes, launch, program_args, keymap, theme);
    }
    let compiled = load(path, launch)?;
    let config = Config { schedule_seed: launch.schedule_seed, ..base_config() };
    let session = Session::new(compiled, config).map_err(|e| {
        eprintln!("error: {e}");
        Exit::Usage
    })?;
    Ok(App::new(session, keymap, theme))
}

/// The interactive commands' check that standard output is a terminal, with the text commands as the way out.
pub(super) fn needs_terminal() -> Result<(), Exit> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        Ok(())
    } else {
        eprintln!("error: the debugger needs a terminal; use `warpdbg view`, `run`, `trace` or `export` for text");
        Err(Exit::Usage)
    }
}

/// `warpdbg FILE`: the interactive debugger (comparison open with `--compare`, recording with `--record`),
/// then the quiz score if it ran one.
pub(super) fn tui_command(
    path: &Path,
    launch: &LaunchArgs,
    ui: &UiArgs,
    record: Option<&Path>,
    compare: bool,
    teach: &TeachArgs,
    program_args: &[String],
) -> Exit {
    let test_panic = std::env::var_os(TEST_PANIC).is_some();
    let mut app = match teach_app(path, launch, ui, teach, program_args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let quiz_score = app.quiz.as_ref().map(|q| q.score.clone());
    if compare {
        crate::tui::compare::toggle(&mut app);
    }
    if let Err(code) = needs_terminal() {
        return code;
    }
    let recorder = match record {
        None => None,
        Some(p) => {
            // The screen the recording starts on is the terminal's, not the default 80x24 (replay and export
            // draw the first frame at the header's size).
            if let Ok((c, r)) = crossterm::terminal::size()
                && c > 0
                && r > 0
            {
                app.size = (c, r);
            }
            let header = recording_header(path.display().to_string(), &app, launch);
            match crate::tui::recording::Recorder::create(p, &header) {
                Ok(r) => Some(r),
                Err(e) => {
                    eprintln!("error: cannot record to {}: {e}", p.display());
                    return Exit::Usage;
                }
            }
        }
    };
    match crate::tui::run_with_events(app, recorder, events(test_panic)) {
        Ok(()) => {
            if let Some(score) = quiz_score {
                let sc = score.lock().map(|s| s.clone()).unwrap_or_else(|e| e.into_inner().clone());
                println!("quiz: {}", sc.summary());
                if let Some(p) = &teach.quiz_score
                    && let Err(e) = sc.save(p)
                {
                    eprintln!("error: cannot save the quiz score to {}: {e}", p.display());
                }
            }
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: terminal: {e}");
            Exit::Usage
        }
    }
}

/// Set (to anything) in the environment, the debugger panics on the first key it reads, with the screen up:
/// the end-to-end test (tests/tui_e2e.rs) checks that the real binary restores the terminal after a panic.
/// An environment variable, read once at start-up, rather than a flag: it is no command of the user's and
/// stays out of `--help`; and it wraps the terminal's event reader here rather than sitting in the key loop.
const TEST_PANIC: &str = "WARPDBG_TEST_PANIC";

/// The debugger's events: the terminal's, panicking at the first key when `test_panic` ([`TEST_PANIC`]).
fn events(test_panic: bool) -> impl FnMut(Duration) -> io::Result<Option<Event>> {
    move |wait| {
        let e = crate::tui::read_event(wait)?;
        if test_panic && matches!(&e, Some(Event::Key(k)) if k.kind != KeyEventKind::Release) {
            panic!("{TEST_PANIC} is set: panicking on the first key, as asked");
        }
        Ok(e)
    }
}

/// The debugger's app with `--break` and `--quiz` applied. With `--quiz`, FILE may be a recorded session
/// (`.wdbg`): its kernel, launch and the instructor's quiz points.
fn teach_app(
    path: &Path,
    launch: &LaunchArgs,
    ui: &UiArgs,
    teach: &TeachArgs,
    program_args: &[String],
) -> Result<App, Exit> {
    use crate::debug::quiz::{Points, QuestionKind, Quiz};
    let recorded = teach.quiz && path.extension().is_some_and(|e| e == "wdbg");
    let mut points = Points { defaults: true, ..Points::default() };
    let mut app = if recorded {
        let rec = load_recording(path)?;
        let theme = ui_theme(ui)?;
        let app = crate::tui::replay::start_app(&rec, Keymap::default_map(), theme).map_err(|e| {
            eprintln!("error: {}:1: {e}", path.display());
            Exit::Usage
        })?;
        points.authored = rec
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                crate::tui::recording::EventKind::Quiz { question, steps } => {
                    QuestionKind::parse(question).map(|k| (*steps, k))
                }
                _ => None,
            })
            .collect();
        if points.authored.is_empty() {
            eprintln!("note: {} has no quiz points (`Q` while recording); using the default ones", path.display());
        } else {
            points.defaults = false;
        }
        app
    } else {
        make_app_with_args(path, launch, ui, program_args)?
    };
    for bp in parse_breaks(&teach.breaks, &app.session.compiled)? {
        app.session.add_breakpoint(bp);
    }
    if teach.quiz {
        let quiz = Quiz::new(&app.session, points, teach.quiz_score.clone());
        app.session.event_breakpoints.push(quiz.breakpoint());
        app.quiz = Some(quiz);
        app.message = Some((
            crate::tui::theme::BannerKind::Ok,
            "quiz mode: continue (c) or step (s); you will be asked to predict".into(),
        ));
        crate::tui::teach::after_stop(&mut app);
    }
    Ok(app)
}

/// The header `--record` writes: the kernel file's text, the launch overrides, and the app's mode, theme,
/// breakpoints and terminal size.
pub fn recording_header(file: String, app: &App, launch: &LaunchArgs) -> crate::tui::recording::Header {
    crate::tui::recording::Header {
        format: crate::tui::recording::FORMAT.into(),
        version: crate::tui::recording::VERSION,
        warpdbg: env!("CARGO_PKG_VERSION").into(),
        file,
        source: app.session.compiled.source().text.clone(),
        kernel: launch.kernel.clone(),
        grid: launch.grid.clone(),
        block: launch.block.clone(),
        args: launch.args.clone(),
        seed: launch.seed.clone(),
        shared: launch.shared.clone(),
        symbols: launch.symbols.clone(),
        include_dirs: launch.include_dirs.clone(),
        mode: app.session.mode(),
        theme: app.theme.name.clone(),
        breakpoints: app.session.breakpoints.iter().copied().collect(),
        size: app.size,
        schedule_seed: launch.schedule_seed,
        launch: app.program.as_ref().and_then(|p| p.current.or(Some(p.launches.len()))),
        program_args: app.program.as_ref().map(|p| p.options.args.clone()).unwrap_or_default(),
    }
}

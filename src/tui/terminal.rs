//! The terminal: raw mode, the alternate screen, mouse capture and their restoration on every exit path, and the
//! event loops of the debugger and of replay (crossterm's events converted to [`super::input`]'s).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind};
use crossterm::execute;

use super::app::{self, App};
use super::input::{Key, Mouse};
use super::{scroll, update, view};

/// Restores the terminal when dropped: on return, on error, and (via the panic hook) on panic.
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Whether the terminal has been restored since the debugger set it up: restoring twice would leave the
/// alternate screen twice, and the second time the terminal moves the cursor back to where the debugger started,
/// so the shell's prompt would overwrite a panic report.
static RESTORED: AtomicBool = AtomicBool::new(true);

fn restore_terminal() {
    if RESTORED.swap(true, Ordering::SeqCst) {
        return;
    }
    let _ = execute!(io::stdout(), DisableMouseCapture, crossterm::cursor::Show);
    ratatui::restore();
}

/// Sets up the terminal (raw mode, alternate screen, mouse, restore on every exit path) and runs `body`.
fn with_terminal(body: impl FnOnce(&mut ratatui::DefaultTerminal, &AtomicBool) -> io::Result<()>) -> io::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    // SIGTERM ends the session cleanly (the loop restores the terminal). SIGHUP keeps its default action,
    // ending the process at once: the terminal is gone, so there is nothing to restore, a recording is
    // flushed event by event anyway, and reading the hung-up terminal would only spin (crossterm's poll
    // keeps reading its end of file).
    signal_hook::flag::register(signal_hook::consts::SIGTERM, stop.clone())?;
    // On a panic: restore the terminal (mouse capture off, cursor shown, main screen), then let the hook
    // installed before (color-eyre's report) print. ratatui::init's own hook, which restores without the
    // mouse and cursor, is replaced.
    let report = std::panic::take_hook();
    let mut terminal = ratatui::init();
    RESTORED.store(false, Ordering::SeqCst);
    drop(std::panic::take_hook());
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        report(info);
    }));
    let _guard = TerminalGuard;
    execute!(io::stdout(), EnableMouseCapture)?;
    body(&mut terminal, &stop)
}

/// Runs the interactive debugger until the user quits (or SIGTERM arrives), recording if asked.
pub fn run(app: App, recorder: Option<crate::tui::recording::Recorder>) -> io::Result<()> {
    run_with_events(app, recorder, read_event)
}

/// The terminal's next event, waiting at most `wait`; `None` when none came.
pub fn read_event(wait: Duration) -> io::Result<Option<Event>> {
    if event::poll(wait)? { event::read().map(Some) } else { Ok(None) }
}

/// [`run`], reading the events from `events` (waiting at most the given time, as [`read_event`] does): the
/// terminal's, or the caller's wrapper around them.
pub fn run_with_events(
    app: App,
    recorder: Option<crate::tui::recording::Recorder>,
    events: impl FnMut(Duration) -> io::Result<Option<Event>>,
) -> io::Result<()> {
    with_terminal(|terminal, stop| event_loop(terminal, stop, app, recorder, events))
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    stop: &AtomicBool,
    mut app: App,
    mut recorder: Option<crate::tui::recording::Recorder>,
    mut events: impl FnMut(Duration) -> io::Result<Option<Event>>,
) -> io::Result<()> {
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    app.outbox.clear();
    if let Some(r) = recorder.as_mut() {
        r.write(crate::tui::recording::EventKind::Resize { cols: size.width, rows: size.height })?;
    }
    scroll::keep_cursor_visible(&mut app);
    loop {
        terminal.draw(|f| view::draw(f, &app))?;
        if app.quit || stop.load(Ordering::Relaxed) {
            break;
        }
        let wait = if app.running { Duration::ZERO } else { Duration::from_millis(200) };
        if let Some(e) = events(wait)? {
            match e {
                Event::Key(k) if k.kind != KeyEventKind::Release => {
                    let Some(k) = Key::from_event(&k) else { continue };
                    if matches!(app.overlay, Some(app::Overlay::Prompt { .. })) {
                        update::prompt_key(&mut app, k);
                    } else if let Some(a) = app.keymap.action(&k) {
                        update::update(&mut app, a);
                    }
                }
                Event::Mouse(m) => {
                    if let Some(m) = Mouse::from_event(&m) {
                        update::mouse(&mut app, m)
                    }
                }
                Event::Resize(w, h) => {
                    app.size = (w, h);
                    app.outbox.push(crate::tui::recording::EventKind::Resize { cols: w, rows: h });
                }
                _ => {}
            }
        }
        update::tick(&mut app);
        scroll::keep_cursor_visible(&mut app);
        for e in app.outbox.drain(..) {
            if let Some(r) = recorder.as_mut() {
                r.write(e)?;
            }
        }
    }
    if let Some(r) = recorder.as_mut() {
        let m = &app.session.machine;
        r.write(crate::tui::recording::EventKind::End {
            steps: m.steps,
            check: crate::debug::checksum::state_check(m),
            memory: crate::debug::checksum::memory_check(m),
        })?;
    }
    Ok(())
}

/// Plays a recording: Space pauses, Left/Right step through events, +/- change the speed, `e` lets the viewer
/// take over (any debugger key) and `R` returns to the recording where it was.
pub fn replay(
    rec: crate::tui::recording::Recording,
    make: impl Fn() -> Result<App, String>,
    speed: f64,
) -> io::Result<()> {
    let build = |upto: usize| -> Result<App, String> {
        let mut app = make()?;
        for (i, e) in rec.events.iter().enumerate().take(upto) {
            super::replay::apply_event(&mut app, e, i);
        }
        app.quit = false;
        Ok(app)
    };
    let mut app = build(0).map_err(io::Error::other)?;
    with_terminal(|terminal, stop| {
        let (mut pos, mut playing, mut exploring, mut speed) = (0usize, true, false, speed.max(0.01));
        let mut last = std::time::Instant::now();
        let n = rec.events.len();
        loop {
            app.replay_status = Some(if exploring {
                format!("EXPLORING from event {pos}/{n}: debugger keys work; R returns to the recording")
            } else {
                format!(
                    "REPLAY event {pos}/{n} x{speed} {}: Space pause, Left/Right step, +/- speed, e explore, q quit",
                    if playing && pos < n { "playing" } else { "paused" }
                )
            });
            let size = terminal.size()?;
            app.size = (size.width, size.height);
            scroll::keep_cursor_visible(&mut app);
            terminal.draw(|f| view::draw(f, &app))?;
            if app.quit || stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            if event::poll(Duration::from_millis(50))? {
                if let Event::Key(k) = event::read()? {
                    if k.kind == KeyEventKind::Release {
                        continue;
                    }
                    use crossterm::event::KeyCode;
                    let ctrl_c =
                        k.code == KeyCode::Char('c') && k.modifiers.contains(crossterm::event::KeyModifiers::CONTROL);
                    if exploring {
                        if k.code == KeyCode::Char('R') {
                            app = build(pos).map_err(io::Error::other)?;
                            exploring = false;
                        } else if let Some(k) = Key::from_event(&k) {
                            if matches!(app.overlay, Some(app::Overlay::Prompt { .. })) {
                                update::prompt_key(&mut app, k);
                            } else if let Some(a) = app.keymap.action(&k) {
                                update::update(&mut app, a);
                            }
                        }
                    } else {
                        match k.code {
                            KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                            _ if ctrl_c => return Ok(()),
                            KeyCode::Char(' ') => playing = !playing,
                            KeyCode::Right | KeyCode::Char('l') if pos < n => {
                                super::replay::apply_event(&mut app, &rec.events[pos], pos);
                                app.quit = false;
                                pos += 1;
                                playing = false;
                            }
                            KeyCode::Left | KeyCode::Char('h') if pos > 0 => {
                                pos -= 1;
                                app = build(pos).map_err(io::Error::other)?;
                                playing = false;
                            }
                            KeyCode::Char('+') => speed = (speed * 2.0).min(64.0),
                            KeyCode::Char('-') => speed = (speed / 2.0).max(1.0 / 64.0),
                            KeyCode::Char('e') | KeyCode::Enter => {
                                exploring = true;
                                playing = false;
                            }
                            _ => {}
                        }
                    }
                }
                last = std::time::Instant::now();
            }
            if exploring {
                update::tick(&mut app);
                app.outbox.clear();
            } else if playing && pos < n {
                let prev_t = if pos == 0 { 0 } else { rec.events[pos - 1].t };
                let due = Duration::from_millis(((rec.events[pos].t.saturating_sub(prev_t)) as f64 / speed) as u64);
                if last.elapsed() >= due.min(Duration::from_secs(5)) {
                    super::replay::apply_event(&mut app, &rec.events[pos], pos);
                    app.quit = false;
                    pos += 1;
                    last = std::time::Instant::now();
                }
            }
        }
    })
}

//! The terminal UI: a thin layer over the session. Input maps to an [`action::Action`], `update` changes the
//! [`app::App`], `view` draws it. Nothing here reaches into the simulator's internals except to read them.

pub mod action;
pub mod app;
pub mod keymap;
pub mod theme;
pub mod update;
pub mod view;

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind};
use crossterm::execute;

use app::App;

/// Restores the terminal when dropped: on return, on error, and (via the panic hook) on panic.
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

fn restore_terminal() {
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
}

/// Runs the interactive debugger until the user quits (or SIGTERM/SIGHUP arrives).
pub fn run(mut app: App) -> io::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        signal_hook::flag::register(sig, stop.clone())?;
    }
    // ratatui::init installs a panic hook that restores the screen; ours also turns mouse capture off first.
    let mut terminal = ratatui::init();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(io::stdout(), DisableMouseCapture);
        previous(info);
    }));
    let _guard = TerminalGuard;
    execute!(io::stdout(), EnableMouseCapture)?;
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    update::keep_cursor_visible(&mut app);
    loop {
        terminal.draw(|f| view::draw(f, &app))?;
        if app.quit || stop.load(Ordering::Relaxed) {
            break;
        }
        let wait = if app.running { Duration::ZERO } else { Duration::from_millis(200) };
        if event::poll(wait)? {
            match event::read()? {
                Event::Key(k) if k.kind != KeyEventKind::Release => {
                    if let Some(a) = app.keymap.action(&k) {
                        update::update(&mut app, a);
                    }
                }
                Event::Mouse(m) => update::mouse(&mut app, m),
                Event::Resize(w, h) => app.size = (w, h),
                _ => {}
            }
        }
        update::tick(&mut app);
        update::keep_cursor_visible(&mut app);
    }
    Ok(())
}

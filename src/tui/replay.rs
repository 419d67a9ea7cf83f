//! Replaying a recorded session: rebuild the debugger from the recording's header, then apply its events in
//! order. Used by `warpdbg replay` (interactive) and `warpdbg export` (headless, frame by frame).

use ratatui::buffer::Buffer;

use super::action::Action;
use super::app::App;
use super::keymap::Keymap;
use super::theme::{BannerKind, Theme};
use super::{scroll, update};
use crate::debug::checksum::{memory_check, state_check};
use crate::debug::session::Session;
use crate::sim::Config;
use crate::tui::recording::{Event, EventKind, Recording};

/// The debugger as it was when the recording started.
pub fn start_app(rec: &Recording, keymap: Keymap, theme: Option<Theme>) -> Result<App, String> {
    let h = &rec.header;
    let config = Config { schedule_seed: h.schedule_seed, ..Config::default() };
    let theme = match theme {
        Some(t) => t,
        None => Theme::load(&h.theme).unwrap_or_else(|_| Theme::default_dark()),
    };
    let mut app = if crate::program::is_program(h.source.as_bytes()) {
        // A whole program: its host code runs again up to the launch the recording starts at.
        let overrides = crate::front::launch::Overrides { kernel: None, ..h.overrides() };
        let program = crate::program::compile(&h.file, h.source.as_bytes(), &overrides)
            .map_err(|e| format!("the recorded program no longer compiles:\n{}", e.render()))?;
        let options = crate::program::RunOptions { mode: h.mode, args: h.program_args.clone(), ..Default::default() };
        let target = crate::debug::program::Target::Index(h.launch.unwrap_or(1));
        super::program::open_app(program, options, config, &target, keymap, theme)?
    } else {
        let compiled = crate::compile::compile(&h.file, h.source.as_bytes(), &h.overrides())
            .map_err(|e| format!("the recorded kernel no longer compiles:\n{}", e.render()))?;
        let session = Session::new(compiled, config).map_err(|e| e.to_string())?;
        App::new(session, keymap, theme)
    };
    app.size = crate::tui::recording::clamp_size(h.size);
    app.session.breakpoints.extend(h.breakpoints.iter().copied());
    scroll::keep_cursor_visible(&mut app);
    Ok(app)
}

/// Applies one event; returns a warning when the simulation no longer matches what was recorded.
pub fn apply_event(app: &mut App, e: &Event, index: usize) -> Option<String> {
    let mismatch = |app: &App, steps: u64, check: &str| -> Option<String> {
        let m = &app.session.machine;
        (m.steps != steps || state_check(m) != check).then(|| {
            format!(
                "this recording no longer matches the simulation: at event {index} it reached step {steps}, warpdbg \
                 {} now reaches step {} (replaying anyway)",
                env!("CARGO_PKG_VERSION"),
                m.steps
            )
        })
    };
    let warning = match &e.kind {
        EventKind::Action { name, steps, check } => {
            match name.as_str() {
                "Continue" => {
                    update::update(app, Action::Continue);
                    // Stop where the recording stopped (the user may have interrupted the run).
                    while app.running {
                        let left = steps.saturating_sub(app.session.machine.steps);
                        // At the recorded step: a machine that cannot issue has stopped there (deadlock, end);
                        // one that could go on was interrupted by the user.
                        // One that arrives at a breakpoint stopped there (a continue checks breakpoints before
                        // issuing, so the bounded run above ends just short of finding it): one more bounded tick
                        // finds it without issuing.
                        if left == 0
                            && (app.session.machine.peek().is_none()
                                || (!app.first_chunk && app.session.breakpoint_ahead().is_some()))
                        {
                            update::tick_bounded(app, 1);
                            continue;
                        }
                        if left == 0 {
                            app.running = false;
                            app.message =
                                Some((BannerKind::Warn, format!("interrupted at step {}", app.session.machine.steps)));
                            break;
                        }
                        update::tick_bounded(app, left);
                    }
                }
                "Goto" => update::goto_step(app, *steps),
                other => match serde_json::from_value::<Action>(serde_json::Value::String(other.to_string())) {
                    Ok(a) => {
                        update::update(app, a);
                        // A long step back runs in pieces in the debugger; replay goes all the way at once.
                        if app.travel.is_some() {
                            update::finish_running(app);
                        }
                    }
                    Err(_) => app.message = Some((BannerKind::Warn, format!("unknown recorded action `{other}`"))),
                },
            }
            mismatch(app, *steps, check)
        }
        EventKind::Note { text } => {
            update::add_note(app, text);
            None
        }
        EventKind::Resize { cols, rows } => {
            app.size = crate::tui::recording::clamp_size((*cols, *rows));
            None
        }
        EventKind::Mouse { button, col, row } => {
            let button = super::input::MouseButton::from_name(button);
            update::mouse(app, super::input::Mouse { button, col: *col, row: *row });
            None
        }
        EventKind::Quiz { question, steps } => {
            app.message = Some((BannerKind::Warn, format!("quiz point at step {steps}: {question}")));
            None
        }
        EventKind::Command { text } => {
            super::ask::command(app, text);
            // Replaying records nothing.
            app.outbox.retain(|e| !matches!(e, EventKind::Command { .. }));
            None
        }
        EventKind::Breakpoint { spec } => {
            match crate::debug::breakpoint::Breakpoint::parse(spec, &app.session.compiled) {
                Ok(bp) => {
                    app.session.add_breakpoint(bp);
                    None
                }
                Err(e) => Some(format!("recorded breakpoint `{spec}` no longer parses: {}", e.short())),
            }
        }
        EventKind::End { steps, check, memory } => mismatch(app, *steps, check).or_else(|| {
            (memory_check(&app.session.machine) != *memory)
                .then(|| "this recording's final memory differs from what warpdbg computes now".to_string())
        }),
    };
    app.outbox.clear();
    scroll::keep_cursor_visible(app);
    if let Some(w) = &warning {
        app.replay_warning.get_or_insert_with(|| w.clone());
    }
    warning
}

/// The screen before the first event and after each event: (time in ms, event index or None, buffer).
pub fn frames(rec: &Recording, theme: Option<Theme>) -> Result<Vec<(u64, Option<usize>, Buffer)>, String> {
    let mut app = start_app(rec, Keymap::default_map(), theme)?;
    let mut out = vec![];
    let (c, r) = app.size;
    out.push((0, None, super::view::render_buffer(&app, c, r)));
    for (i, e) in rec.events.iter().enumerate() {
        apply_event(&mut app, e, i);
        if app.quit {
            break;
        }
        let (c, r) = app.size;
        out.push((e.t, Some(i), super::view::render_buffer(&app, c, r)));
    }
    Ok(out)
}

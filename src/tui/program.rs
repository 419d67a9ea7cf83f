//! The debugger's commands on a whole program (`crate::debug::program`): the next launch (`c` at a kernel's
//! end, `N` from anywhere), the previous one (`P`, or stepping back past a launch's start), and the mode switch
//! and comparison, which run the program again in the other model up to the same launch.

use super::app::App;
use super::theme::BannerKind;
use crate::debug::program::Advance;
use crate::front::launch::Mode;

/// Whether the debugger is on a whole program.
pub fn is_program(app: &App) -> bool {
    app.program.is_some()
}

/// After the session was replaced by another launch's: selection, memory highlights and cursor start afresh.
fn fresh_view(app: &mut App) {
    app.selected = None;
    app.lane = None;
    app.why = None;
    app.remember_memory();
    app.fix_selection();
    app.follow_selected();
    // The kernel's signature at the top of the source pane (the cursor, on its first line, stays in view).
    let s = &app.session;
    if let Some(p) = s.machine.kernel.params.first()
        && p.span.file == s.compiled.file
    {
        let line = s.compiled.source().line_of(p.span.start);
        if line <= app.cursor {
            app.source_top = line.saturating_sub(1).max(1);
        }
    }
    super::scroll::keep_cursor_visible(app);
    super::scroll::reveal_stuck_lines(app);
    renew_quiz(app);
}

/// A quiz goes on in the new launch: its questions are asked afresh there (steps count from 0 again), where
/// this launch would deadlock is worked out again, and the score carries on.
fn renew_quiz(app: &mut App) {
    let Some(q) = app.quiz.as_mut() else { return };
    q.asked.clear();
    q.queue.clear();
    q.current = None;
    q.lines.clear();
    q.over = false;
    q.points.deadlock_at = None;
    if q.points.defaults {
        let mut ahead = app.session.machine.clone();
        if let crate::sim::Outcome::Deadlock(_) = ahead.run() {
            q.points.deadlock_at = ahead.steps.checked_sub(1);
        }
    }
    let bp = q.breakpoint();
    app.session.event_breakpoints.retain(|b| !matches!(b.kind, crate::debug::breakpoint::Kind::Quiz { .. }));
    app.session.event_breakpoints.push(bp);
}

/// The status line after arriving at a launch.
fn arrived(app: &mut App, verb: &str) {
    let Some(p) = &app.program else { return };
    app.message = Some(match (p.current_launch(), &p.ended) {
        (Some(l), _) => (BannerKind::Ok, format!("{verb} launch {}: {} at line {}", l.index, l.config(), l.host_line)),
        (None, Some(end)) => (
            if end.status == 0 { BannerKind::Ok } else { BannerKind::Error },
            format!("program ended: {}", end.sentence()),
        ),
        (None, None) => (BannerKind::Warn, "no launch".into()),
    });
}

/// Finishes the current launch (at full speed if it has not ended) and stops at the next launch, or at the
/// program's end.
pub fn next_launch(app: &mut App) {
    let Some(p) = app.program.as_mut() else {
        app.message = Some((BannerKind::Warn, "not a program: N and P move between a program's launches".into()));
        return;
    };
    if p.ended.is_some() {
        arrived(app, "at");
        return;
    }
    app.message = Some((BannerKind::Warn, "running the host code to the next launch...".into()));
    match p.advance(&mut app.session) {
        Ok(Advance::Launch(_)) => {
            fresh_view(app);
            arrived(app, "at");
        }
        Ok(Advance::Ended) => {
            app.remember_memory();
            arrived(app, "at");
        }
        Err(e) => app.message = Some((BannerKind::Error, e)),
    }
}

/// Goes to the start of the previous launch (the host code runs again from `main` up to it).
pub fn prev_launch(app: &mut App) {
    let Some(p) = app.program.as_mut() else {
        app.message = Some((BannerKind::Warn, "not a program: N and P move between a program's launches".into()));
        return;
    };
    let shown = p.current.unwrap_or(p.launches.len());
    // After the end, the session still shows the last launch: P goes to its start first.
    let to = if p.current.is_none() { shown } else { shown.saturating_sub(1) };
    if to == 0 {
        app.message = Some((BannerKind::Warn, "this is the program's first launch".into()));
        return;
    }
    go_to_launch(app, to, "back at");
}

/// Goes to the start of launch `k`.
pub fn go_to_launch(app: &mut App, k: usize, verb: &str) {
    let Some(p) = app.program.as_mut() else { return };
    match p.goto_launch(k, &mut app.session) {
        Ok(()) => {
            fresh_view(app);
            arrived(app, verb);
        }
        Err(e) => app.message = Some((BannerKind::Error, e)),
    }
}

/// Step back at a launch's step 0: the previous launch's start. True when it handled the key.
pub fn step_back_across(app: &mut App) -> bool {
    let Some(p) = &app.program else { return false };
    if app.session.machine.steps > 0 {
        return false;
    }
    if p.current.is_some_and(|k| k > 1) {
        prev_launch(app);
    } else {
        app.message = Some((BannerKind::Ok, "at the start of the program's first launch".into()));
    }
    true
}

/// `c` at a kernel's end on a program runs the host to the next launch. True when it handled the key.
pub fn continue_at_end(app: &mut App) -> bool {
    if app.program.is_none() || app.session.machine.outcome().is_none() {
        return false;
    }
    next_launch(app);
    true
}

/// The mode switch on a program: the program runs again in the other model up to the same launch and step.
pub fn switch_mode(app: &mut App, to: Mode) {
    let Some(p) = app.program.as_mut() else { return };
    match p.set_mode(to, &mut app.session) {
        Ok(()) => {
            app.fix_selection();
            app.follow_selected();
            let note = match app.session.machine.outcome() {
                Some(o) => format!(", where it stops: {}", o.name()),
                None => String::new(),
            };
            app.message =
                Some((BannerKind::Ok, format!("mode {} at step {}{note}", to.name(), app.session.machine.steps)));
            super::scroll::reveal_stuck_lines(app);
        }
        Err(e) => app.message = Some((BannerKind::Error, e)),
    }
}

/// The debugger's app on a whole program, stopped at `target` (the host code run up to it).
pub fn open_app(
    program: crate::program::CompiledProgram,
    options: crate::program::RunOptions,
    config: crate::sim::Config,
    target: &crate::debug::program::Target,
    keymap: super::keymap::Keymap,
    theme: super::theme::Theme,
) -> Result<App, String> {
    let host = crate::debug::program::HostOptions::default();
    open_app_with(program, options, config, target, keymap, theme, host)
}

/// [`open_app`] with the host code run as `host` says (the page: on its own thread, with progress reports).
pub fn open_app_with(
    program: crate::program::CompiledProgram,
    options: crate::program::RunOptions,
    config: crate::sim::Config,
    target: &crate::debug::program::Target,
    keymap: super::keymap::Keymap,
    theme: super::theme::Theme,
    host: crate::debug::program::HostOptions,
) -> Result<App, String> {
    let (p, session) = crate::debug::program::ProgramDebug::open_with(program, options, config, target, host)?;
    let mut app = App::new(session, keymap, theme);
    app.program = Some(p);
    // The app was built without the program pane: follow and scroll again with it.
    fresh_view(&mut app);
    arrived(&mut app, "at");
    Ok(app)
}

//! A continue or a long step back in progress: the event loop's ticks run it a frame's worth at a time
//! (a whole run on every core when nothing could stop it earlier), any key interrupts it (a step back then
//! puts back the state it started from), and where it stops is selected and explained.

use super::action::Action;
use super::app::{App, WarpRef};
use super::scroll;
use super::theme::BannerKind;
use crate::debug::session::{CONTINUE_CHUNK, Stop};

/// Stops the continue or long step back in progress. An interrupted step back puts back the state it started
/// from (stopping somewhere in between would leave the user far from both where they were and where they
/// meant to go); a whole run in progress is abandoned (the machine is back where the continue started).
pub(super) fn interrupt(app: &mut App) {
    app.running = false;
    if app.travel.take().is_some() {
        if let Some(origin) = app.travel_origin.take() {
            let (machine, last_issue) = *origin;
            app.session.machine = machine;
            app.session.last_issue = last_issue;
        }
        app.message =
            Some((BannerKind::Warn, format!("stopped going back: still at step {}", app.session.machine.steps)));
        app.fix_selection();
        app.record_action("Goto");
        return;
    }
    app.session.interrupt();
    app.message = Some((BannerKind::Warn, format!("interrupted at step {}", app.session.machine.steps)));
    app.record_action("Continue");
}

/// Starts going back to `target` in pieces (the event loop's ticks run them, with progress) when that
/// re-executes a long stretch (after a whole run, from step 0), keeping the state it starts from in case the
/// user interrupts it; false (nothing done) for a short or a forward trip, which the caller makes at once.
pub(super) fn start_travel(app: &mut App, target: u64) -> bool {
    let steps = app.session.machine.steps;
    if target >= steps || target - app.session.history.step_before(target) <= TRAVEL_AT_ONCE {
        return false;
    }
    app.travel_origin = Some(Box::new((app.session.machine.clone(), app.session.last_issue)));
    app.session.travel_start(target);
    app.travel = Some(target);
    app.running = true;
    app.message = Some((BannerKind::Warn, travel_text(app, target, None)));
    true
}

/// The footer's text while going back: where to, where it is, and the keys that go further or stop.
fn travel_text(app: &App, target: u64, at: Option<u64>) -> String {
    let at = at.map_or(String::new(), |s| format!(" at step {s}"));
    let again = app.keymap.first_key(Action::StepBack).map_or(String::new(), |k| format!("{k}: one more, "));
    format!("going back to step {target}...{at} ({again}any key stops)")
}

/// A step back pressed while a long one travels: the target moves one more step back (from a snapshot at or
/// before it when the re-execution has already passed it).
pub(super) fn extend_travel(app: &mut App, target: u64) {
    let target = target.saturating_sub(1);
    if target < app.session.machine.steps {
        app.session.travel_start(target);
    }
    app.travel = Some(target);
    app.message = Some((BannerKind::Warn, travel_text(app, target, None)));
}

/// A frame's worth of a running `continue` (or of a long step back); the event loop calls it between frames.
pub fn tick(app: &mut App) {
    if !app.running {
        return;
    }
    if let Some(target) = app.travel {
        return travel_tick(app, target);
    }
    // Pieces of a frame's worth of time, not a fixed count: a launch of many warps, or a debug build, would
    // otherwise make each frame of a running continue as slow as its chunk. From step 0 with nothing set
    // that could stop it, the continue is the machine's whole run (on every core, in pieces of blocks).
    let start = (app.clock)();
    loop {
        let first = app.first_chunk;
        app.first_chunk = false;
        if let Some(stop) = app.session.cont_fast(CONTINUE_PIECE, first) {
            app.running = false;
            after_run(app, &stop);
            app.record_action("Continue");
            return;
        }
        if (app.clock)() - start >= FRAME_BUDGET_MS {
            break;
        }
    }
    let text = match app.session.whole_run_progress() {
        Some((done, of)) => format!("running (whole run, every core)... block {done} of {of} (any key interrupts)"),
        None => format!("running... step {} (any key interrupts)", app.session.machine.steps),
    };
    app.message = Some((BannerKind::Warn, text));
}

/// A frame's worth of a long step back: re-executing from the snapshot towards `target`.
fn travel_tick(app: &mut App, target: u64) {
    let start = (app.clock)();
    loop {
        if let Some(outcome) = app.session.travel_piece(target, TRAVEL_PIECE) {
            app.running = false;
            app.travel = None;
            app.travel_origin = None;
            arrived(app, outcome, "back to step");
            app.record_action("Goto");
            return;
        }
        if (app.clock)() - start >= FRAME_BUDGET_MS {
            break;
        }
    }
    let at = app.session.machine.steps;
    app.message = Some((BannerKind::Warn, travel_text(app, target, Some(at))));
}

/// A trip in time arrived: the selection kept on a resident warp and followed, and the outcome there
/// explained (or `{what} N` when there is none yet).
pub(super) fn arrived(app: &mut App, outcome: Option<crate::sim::Outcome>, what: &str) {
    app.fix_selection();
    app.follow_selected();
    match outcome {
        Some(o) => {
            app.stopped(&Stop::Finished(o));
            scroll::reveal_stuck_lines(app);
        }
        None => app.message = Some((BannerKind::Ok, format!("{what} {}", app.session.machine.steps))),
    }
}

/// Instructions per piece of a running continue; pieces run until [`FRAME_BUDGET_MS`] has passed.
const CONTINUE_PIECE: u64 = 2_000;
/// Instructions per piece of a long step back.
const TRAVEL_PIECE: u64 = 20_000;
/// A step back that re-executes at most this many instructions happens at once; a longer one in pieces.
const TRAVEL_AT_ONCE: u64 = 200_000;
/// Time a running continue may take before the next frame is drawn (keys are read between frames).
const FRAME_BUDGET_MS: f64 = 12.0;

/// Like [`tick`], but issues at most `max` instructions (replay stops where the recording stopped).
pub fn tick_bounded(app: &mut App, max: u64) {
    if !app.running {
        return;
    }
    let first = app.first_chunk;
    app.first_chunk = false;
    if let Some(stop) = app.session.cont(CONTINUE_CHUNK.min(max), first) {
        app.running = false;
        after_run(app, &stop);
        app.record_action("Continue");
    }
}

/// Runs a `continue` to its end (for `warpdbg view` and tests).
pub fn finish_running(app: &mut App) {
    while app.running {
        tick(app);
    }
}

/// Where a continue, a step or a line step stopped: select what it is about, say why, reveal it.
pub(super) fn after_run(app: &mut App, stop: &Stop) {
    match stop {
        // Select the warp that stopped: the one arriving at the breakpoint, or the one that diverged.
        Stop::Breakpoint { line } => {
            if let Some((slot, w, _, _)) = app.session.machine.peek() {
                let block = app.session.machine.blocks[slot].linear;
                app.selected = Some(WarpRef { block, warp: w as u32 });
            }
            app.cursor = *line;
        }
        Stop::Hit(h) => {
            app.selected = Some(WarpRef { block: h.block, warp: h.warp });
            app.cursor = h.line;
        }
        Stop::Divergence { line } => {
            if let Some(i) = app.session.last_issue {
                let block = i.block.linear_in(app.session.machine.launch.grid);
                app.selected = Some(WarpRef { block, warp: i.warp.0 });
            }
            app.cursor = *line;
        }
        _ => {}
    }
    app.fix_selection();
    if !matches!(stop, Stop::Breakpoint { .. } | Stop::Divergence { .. } | Stop::Hit(_)) {
        app.follow_selected();
    }
    app.stopped(stop);
    scroll::reveal_stuck_lines(app);
    super::teach::after_stop(app);
}

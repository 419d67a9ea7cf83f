//! The `:` command line and the Lanes pane: `:N` goes to step N, `:p EXPR` prints a CUDA expression in the
//! selected thread (and shows it across its warp's lanes), `:w EXPR` watches one (re-evaluated at every
//! step), `:d N` deletes watch N (`:d` all of them); `x` opens the Lanes pane, `A` switches it between the
//! selected warp's lanes and every warp of the block.

use super::app::{App, Overlay, Pane, PromptKind};
use super::theme::BannerKind;
use crate::sim::expr::{Expression, Thread};

/// A `:` command other than a step number (which the caller handles).
pub fn command(app: &mut App, text: &str) {
    let (verb, rest) = match text.split_once(char::is_whitespace) {
        Some((v, r)) => (v, r.trim()),
        None => (text, ""),
    };
    match verb {
        "p" | "print" => print(app, text, rest),
        "w" | "watch" => watch(app, text, rest),
        "d" | "delete" => delete(app, rest),
        _ => {
            let msg = format!("`:{text}`: type a step number, p EXPR (print), w EXPR (watch) or d N (delete a watch)");
            app.message = Some((BannerKind::Error, msg));
        }
    }
}

/// Parses `expr` against the kernel on screen; on an error, reopens the prompt on the command with a caret
/// under the column at fault.
fn parse(app: &mut App, command: &str, expr: &str) -> Option<Expression> {
    if expr.is_empty() {
        app.message = Some((BannerKind::Error, format!("`:{command}` needs an expression, e.g. `:p threadIdx.x`")));
        return None;
    }
    match Expression::parse(expr, &app.session.machine.kernel) {
        Ok(e) => Some(e),
        Err(err) => {
            let d = &err.diags[0];
            let (_, col) = err.sources.get(d.span.file).line_col(d.span.start);
            let at = command.len() - expr.len() + col as usize - 1;
            app.prompt_error = Some((at, d.message.clone()));
            app.overlay = Some(Overlay::Prompt { kind: PromptKind::Goto, text: command.to_string() });
            app.message = Some((BannerKind::Error, format!("bad expression: {}", err.short())));
            None
        }
    }
}

fn print(app: &mut App, command: &str, expr: &str) {
    let Some(e) = parse(app, command, expr) else { return };
    let m = &app.session.machine;
    let shown = match app.selected_thread() {
        Some((slot, warp, lane)) => {
            let b = &m.blocks[slot];
            let t = b.thread_idx(warp * 32 + lane, m.launch.block);
            let v = e.show(m, Thread { slot, tid: warp * 32 + lane });
            format!(
                "{} = {v}   (thread ({},{},{}) of block {}, lane {lane} of warp {warp})",
                e.text, t.x, t.y, t.z, b.idx
            )
        }
        None => format!("{}: no thread is selected", e.text),
    };
    app.message = Some((BannerKind::Ok, shown));
    app.lanes.printed = Some(e.text);
    open(app);
    app.outbox.push(crate::tui::recording::EventKind::Command { text: command.to_string() });
}

fn watch(app: &mut App, command: &str, expr: &str) {
    let Some(e) = parse(app, command, expr) else { return };
    app.lanes.watches.push(e.text.clone());
    let n = app.lanes.watches.len();
    app.message = Some((BannerKind::Ok, format!("watching `{}` (watch {n}; `:d {n}` removes it)", e.text)));
    open(app);
    app.outbox.push(crate::tui::recording::EventKind::Command { text: command.to_string() });
}

fn delete(app: &mut App, which: &str) {
    let lanes = &mut app.lanes;
    let msg = if which.is_empty() {
        let n = lanes.watches.len();
        lanes.watches.clear();
        lanes.printed = None;
        (BannerKind::Ok, format!("{n} watch{} deleted", if n == 1 { "" } else { "es" }))
    } else {
        match which.parse::<usize>() {
            Ok(n) if (1..=lanes.watches.len()).contains(&n) => {
                let e = lanes.watches.remove(n - 1);
                (BannerKind::Ok, format!("watch {n} (`{e}`) deleted"))
            }
            _ => (BannerKind::Error, format!("no watch `{which}`: there are {}", lanes.watches.len())),
        }
    };
    app.message = Some(msg);
    app.outbox.push(crate::tui::recording::EventKind::Command { text: format!("d {which}").trim().to_string() });
}

/// Opens the Lanes pane (in the Memory pane's place), focused if Memory was.
fn open(app: &mut App) {
    app.lanes.open = true;
    if app.focus == Pane::Memory {
        app.focus = Pane::Lanes;
    }
}

/// `x`: opens or closes the Lanes pane.
pub fn toggle_lanes(app: &mut App) {
    if app.lanes.open {
        app.lanes.open = false;
        if app.focus == Pane::Lanes {
            app.focus = Pane::Memory;
        }
        return;
    }
    open(app);
    if app.lanes.shown().is_empty() {
        let msg = "Lanes: `:p EXPR` prints an expression across the selected warp's lanes, `:w EXPR` watches one";
        app.message = Some((BannerKind::Ok, msg.to_string()));
    }
}

/// `A`: the Lanes pane shows every warp of the block, or the selected warp's lanes.
pub fn toggle_all_warps(app: &mut App) {
    app.lanes.all_warps = !app.lanes.all_warps;
    open(app);
}

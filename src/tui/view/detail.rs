//! The selected warp in depth: SIMT-stack entries (pre-Volta) or thread groups by PC (ITS), barrier
//! arrivals, and the variables of the selected thread (the selected lane, else the first that runs next).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Wrap;

use super::warps::lane_bar;
use super::{pane_block, paragraph};
use crate::sim::format_ranges;
use crate::sim::inspect::{self, NoteKind};
use crate::tui::app::{App, Pane};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let m = &app.session.machine;
    let k = &m.kernel;
    let mut out: Vec<Line> = vec![];
    let sel = app.selected.and_then(|s| m.blocks.iter().find(|b| b.linear == s.block).map(|b| (b, s.warp)));
    let title = match sel {
        Some((b, w)) => format!("block {} warp {w}", b.idx),
        None => String::new(),
    };
    if let Some((b, wi)) = sel {
        let w = &b.warps[wi as usize];
        why_lines(app, wi, &mut out);
        // Variables of the selected thread (the selected lane, else the first that runs next).
        if let Some((_, _, lane)) = app.selected_thread() {
            let tid = wi * 32 + lane;
            let pc = w.lane_pc(lane);
            let vars = pc.map(|pc| inspect::variables(m, b, tid, pc)).unwrap_or_default();
            let text: Vec<String> = vars.iter().map(|(n, v)| format!("{n}={v}")).collect();
            out.push(Line::from(vec![
                Span::styled(format!("thread {tid}: "), t.fg(t.title)),
                Span::styled(text.join("  "), t.fg(t.foreground)),
            ]));
        }
        let lanes = |mask: crate::sim::LaneMask| {
            let v: Vec<u32> = mask.iter().collect();
            format_ranges(&v)
        };
        // Barrier arrivals in the block (before the model's detail: at a deadlock they are the point).
        if let Some(text) = inspect::barrier_arrivals(k, b) {
            out.push(Line::styled(text, t.fg(t.builtin)));
        }
        let detail = inspect::detail(k, w);
        out.push(Line::styled(detail.heading, t.dim()));
        for row in detail.rows {
            let style = if row.current { t.fg(t.warp_marker).add_modifier(Modifier::BOLD) } else { t.fg(t.foreground) };
            out.push(Line::styled(row.text, style));
            let mut spans = vec![Span::raw("    ")];
            spans.extend(lane_bar(t, row.lanes, w.live, 32));
            mark_lane(&mut spans, app.lane);
            spans.push(Span::styled(format!(" {}", lanes(row.lanes)), t.dim()));
            out.push(Line::from(spans));
        }
        for note in detail.notes {
            let color = match note.kind {
                NoteKind::Barrier => t.builtin,
                NoteKind::Reconvergence => t.reconvergence,
            };
            out.push(Line::styled(note.text, t.fg(color)));
        }
    } else {
        out.push(Line::styled("no warp is resident", t.dim()));
    }
    let skip = app.scroll_of(Pane::Detail.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    frame.render_widget(
        paragraph(out, pane_block(app, Pane::Detail, title), Style::default()).wrap(Wrap { trim: false }),
        area,
    );
}

/// Highlights the selected lane's cell in a lane bar (`spans`: a 4-blank indent, then the 32 lanes).
fn mark_lane(spans: &mut [Span], lane: Option<u32>) {
    if let Some(s) = lane.and_then(|l| spans.get_mut(1 + l as usize)) {
        s.style = s.style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
    }
}

/// The selected lane and why it is (in)active: the session's answer, in a few short rows.
fn why_lines(app: &App, warp: u32, out: &mut Vec<Line>) {
    use crate::debug::session::LaneState;
    let t = &app.theme;
    let Some(lane) = app.lane else { return };
    let head = Span::styled(format!("lane {lane} (thread {}): ", warp * 32 + lane), t.fg(t.title));
    let row = |text: String, style: Style| Line::styled(format!("  {text}"), style);
    let why = match app.current_why() {
        Some(Ok(w)) => w,
        Some(Err(e)) => {
            out.push(Line::from(vec![head, Span::styled(e.clone(), t.dim())]));
            return;
        }
        None => {
            out.push(Line::from(vec![head, Span::styled("…", t.dim())]));
            return;
        }
    };
    match &why.state {
        LaneState::Active { line } => {
            out.push(Line::from(vec![head, Span::styled("active", t.fg(t.active_lane))]));
            out.push(row(format!("runs line {line} with its warp's next instruction"), t.fg(t.foreground)));
        }
        LaneState::Exited { line } => {
            out.push(Line::from(vec![head, Span::styled("exited", t.dim())]));
            out.push(row(format!("it finished at line {line}"), t.fg(t.foreground)));
        }
        LaneState::Waiting { line } => {
            out.push(Line::from(vec![head, Span::styled("waiting", t.fg(t.builtin))]));
            let stuck = matches!(
                app.session.machine.outcome(),
                Some(crate::sim::Outcome::Deadlock(_) | crate::sim::Outcome::Livelock(_))
            );
            let why = if stuck {
                format!("at line {line}, for good: the kernel is stuck (the banner says why)")
            } else {
                format!("at line {line} with its warp (no divergent branch masked it)")
            };
            out.push(row(why, t.fg(t.foreground)));
        }
        LaneState::Masked { kind, condition, values, taken, waits_at } => {
            out.push(Line::from(vec![head, Span::styled("inactive", t.fg(t.inactive_lane))]));
            let line = why.branch.map_or(0, |(l, _)| l);
            out.push(row(format!("masked by the {kind} on line {line} (`{condition}`)"), t.fg(t.reconvergence)));
            let went = match taken {
                Some(true) => "true",
                Some(false) => "false",
                None => "?",
            };
            let vals = if values.is_empty() { String::new() } else { format!(" ({})", values.join(", ")) };
            out.push(row(format!("it was {went} for this thread{vals}; waits at line {waits_at}"), t.fg(t.foreground)));
            let rejoin = match why.reconverge_line {
                Some(l) => format!("rejoins at line {l}"),
                None => "rejoins only at the end of the kernel".to_string(),
            };
            let jump = match (why.branch, jump_key(app)) {
                (Some((_, step)), Some(k)) => format!(" · {k}: back to step {}", step.saturating_sub(1)),
                _ => String::new(),
            };
            out.push(row(format!("{rejoin}{jump}"), t.fg(t.reconvergence)));
        }
    }
}

/// The first key bound to the jump to the masking branch.
fn jump_key(app: &App) -> Option<String> {
    let keys = app.keymap.by_action().into_iter().find(|(a, _)| *a == crate::tui::action::Action::JumpToBranch)?;
    keys.1.first().cloned()
}

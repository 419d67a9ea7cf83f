//! The Lanes pane: each `:p` / `:w` expression in every lane of the selected warp (a small table, masked
//! lanes marked `·`, exited ones `×`, the selected lane reversed), or with `A` in every warp of the block,
//! one row per warp on a scale from the block's lowest value (`▁`) to its highest (`█`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{pane_block, paragraph};
use crate::sim::Machine;
use crate::sim::expr::{Expression, LaneState, LaneValue, Thread, across_block, across_warp};
use crate::tui::app::{App, Pane};
use crate::tui::theme::Theme;

/// Widest a value is shown in the table (longer ones end in `…`).
const MAX_CELL: usize = 10;
/// The scale of the table of all warps, lowest to highest.
const SCALE: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let m = &app.session.machine;
    let mut out: Vec<Line> = vec![];
    let sel = app.selected_thread();
    let title = match sel {
        Some((slot, warp, lane)) if !app.lanes.all_warps => {
            format!("block {} warp {warp} · lane {lane}", m.blocks[slot].idx)
        }
        Some((slot, warp, _)) => format!("block {} · all warps (warp {warp} >)", m.blocks[slot].idx),
        None => String::new(),
    };
    let shown = app.lanes.shown();
    if shown.is_empty() {
        out.push(Line::styled(":p EXPR prints an expression across the warp's lanes; :w EXPR watches one", t.dim()));
        out.push(Line::styled("e.g. :p i   :w in[i - 1]   :w tile[ty][tx]   :p threadIdx.x % 2 == 0", t.dim()));
    }
    let width = area.width.saturating_sub(2) as usize;
    for (label, text) in shown {
        let head = Span::styled(format!("{label:>2} "), t.fg(t.title));
        let e = match Expression::parse(text, &m.kernel) {
            Ok(e) => e,
            Err(err) => {
                out.push(Line::from(vec![head, Span::styled(format!("{text}: {}", err.short()), t.fg(t.error_fg))]));
                continue;
            }
        };
        let Some((slot, warp, lane)) = sel else {
            out.push(Line::from(vec![head, Span::styled(format!("{text}: no warp is resident"), t.dim())]));
            continue;
        };
        // Each lane is evaluated once: the table's rows, and the selected lane's value from them.
        let rows = if app.lanes.all_warps { across_block(&e, m, slot) } else { vec![across_warp(&e, m, slot, warp)] };
        let row = rows.get(if app.lanes.all_warps { warp as usize } else { 0 });
        let value = row
            .and_then(|r| r.get(lane as usize)?.show(m, slot))
            .unwrap_or_else(|| e.show(m, Thread { slot, tid: warp * 32 + lane }));
        out.push(Line::from(vec![
            head,
            Span::styled(e.text.clone(), t.fg(t.foreground).add_modifier(Modifier::BOLD)),
            Span::styled(format!(" = {value}"), t.fg(t.foreground)),
            Span::styled(format!("  (lane {lane})"), t.dim()),
        ]));
        if app.lanes.all_warps {
            block_rows(t, &rows, warp, &mut out);
        } else if let Some(row) = row {
            warp_rows(t, m, slot, row, lane, width, &mut out);
        }
    }
    let skip = app.scroll_of(Pane::Lanes.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    frame.render_widget(paragraph(out, pane_block(app, Pane::Lanes, title), Style::default()), area);
}

/// The text of one lane's cell (without its marker).
fn cell_text(m: &Machine, slot: usize, lv: &LaneValue) -> String {
    match &lv.value {
        None => String::new(),
        Some(Ok(v)) => v.display(m, slot),
        Some(Err(_)) => "?".to_string(),
    }
}

fn clip(s: &str, w: usize) -> String {
    if s.chars().count() <= w { s.to_string() } else { format!("{}…", s.chars().take(w - 1).collect::<String>()) }
}

/// The warp's 32 lanes, as many per row as fit (8, 4 or 2), each row labelled by its first lane.
fn warp_rows(
    t: &Theme,
    m: &Machine,
    slot: usize,
    lanes: &[LaneValue],
    selected: u32,
    width: usize,
    out: &mut Vec<Line<'static>>,
) {
    let texts: Vec<String> = lanes.iter().map(|lv| cell_text(m, slot, lv)).collect();
    let cell = texts.iter().map(|s| s.chars().count()).max().unwrap_or(1).clamp(3, MAX_CELL) + 1;
    let per_row = [8usize, 4, 2].into_iter().find(|n| 6 + n * (cell + 1) <= width).unwrap_or(1);
    for row in lanes.chunks(per_row) {
        let first = row[0].lane;
        let mut spans = vec![Span::styled(format!("{:>5} ", format!("{first}:")), t.dim())];
        for lv in row {
            let text = clip(&texts[lv.lane as usize], cell - 1);
            let (mark, style) = match (&lv.state, &lv.value) {
                (_, Some(Err(_))) => ("", t.fg(t.error_fg)),
                (LaneState::Active, _) => ("", t.fg(t.active_lane)),
                (LaneState::Inactive, _) => ("·", t.fg(t.inactive_lane)),
                (LaneState::Exited, _) => ("×", t.fg(t.exited_lane)),
                (LaneState::Absent, _) => ("", t.dim()),
            };
            let style =
                if lv.lane == selected { style.add_modifier(Modifier::REVERSED | Modifier::BOLD) } else { style };
            spans.push(Span::styled(format!("{:>w$}", format!("{mark}{text}"), w = cell), style));
            spans.push(Span::raw(" "));
        }
        out.push(Line::from(spans));
    }
    let errors: Vec<&String> = lanes.iter().filter_map(|lv| lv.value.as_ref()?.as_ref().err()).collect();
    if let Some(e) = errors.first() {
        out.push(Line::styled(format!("      ? {e}"), t.fg(t.error_fg)));
    }
}

/// Every warp of the block: one row of 32 cells on the block's scale, then the warp's lowest..highest.
fn block_rows(t: &Theme, rows: &[Vec<LaneValue>], selected: u32, out: &mut Vec<Line<'static>>) {
    let numbers: Vec<f64> = rows
        .iter()
        .flatten()
        .filter(|lv| matches!(lv.state, LaneState::Active | LaneState::Inactive))
        .filter_map(|lv| lv.value.as_ref()?.as_ref().ok()?.number())
        .filter(|v| v.is_finite())
        .collect();
    let lo = numbers.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = numbers.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if numbers.is_empty() {
        out.push(Line::styled("      (no numbers to scale: the table of all warps shows numbers)", t.dim()));
        return;
    }
    let show = |v: f64| if v.fract() == 0.0 && v.abs() < 1e15 { format!("{v:.0}") } else { format!("{v:.4}") };
    out.push(Line::styled(
        format!("      {} {} … {} {}   · masked  × exited  ? no value", SCALE[0], show(lo), SCALE[7], show(hi)),
        t.dim(),
    ));
    for (w, row) in rows.iter().enumerate() {
        let marker = if w as u32 == selected { ">" } else { " " };
        let mut spans = vec![Span::styled(format!("{marker}{:>4} ", format!("w{w}")), t.fg(t.title))];
        let mut vals: Vec<f64> = vec![];
        for lv in row {
            let num = lv.value.as_ref().and_then(|v| v.as_ref().ok()).and_then(|v| v.number());
            let (ch, style) = match (lv.state, num) {
                (LaneState::Absent, _) => (' ', t.dim()),
                (LaneState::Exited, _) => ('×', t.fg(t.exited_lane)),
                (state, Some(v)) if v.is_finite() => {
                    vals.push(v);
                    let k = if hi > lo { (((v - lo) / (hi - lo)) * 7.0).round() as usize } else { 7 };
                    let c = if state == LaneState::Inactive { '·' } else { SCALE[k.min(7)] };
                    (c, t.fg(if state == LaneState::Active { t.number } else { t.inactive_lane }))
                }
                _ => ('?', t.fg(t.error_fg)),
            };
            spans.push(Span::styled(ch.to_string(), style));
        }
        let range = match (vals.iter().copied().reduce(f64::min), vals.iter().copied().reduce(f64::max)) {
            (Some(a), Some(b)) if a == b => format!(" {}", show(a)),
            (Some(a), Some(b)) => format!(" {}..{}", show(a), show(b)),
            _ => String::new(),
        };
        spans.push(Span::styled(range, t.dim()));
        out.push(Line::from(spans));
    }
}

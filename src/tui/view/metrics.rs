//! The metrics pane: Nsight-style divergence figures for the run so far, and per-line branch counts.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{pane_block, paragraph};
use crate::sim::format_ranges;
use crate::sim::inspect::bank_matrix;
use crate::tui::app::{App, Pane};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    if app.bank_view {
        return draw_banks(frame, area, app);
    }
    let t = &app.theme;
    let mt = &app.session.machine.metrics;
    let kv = |k: &str, v: String| {
        Line::from(vec![Span::styled(format!("{k:<18}"), t.dim()), Span::styled(v, t.fg(t.foreground))])
    };
    let mut out = vec![
        kv("branch efficiency", format!("{:.2}%", mt.branch_efficiency())),
        kv("branches", format!("{} ({} divergent)", mt.branches, mt.divergent_branches)),
        kv("divergent warps", format!("{} of {}", mt.divergent_warps, mt.warps)),
        kv("threads / instr", format!("{:.2}", mt.threads_per_instruction())),
        kv("warp instructions", mt.warp_instructions.to_string()),
    ];
    if app.session.mode() == crate::front::launch::Mode::PreVolta {
        out.push(kv("max stack depth", mt.max_stack_depth.to_string()));
    }
    out.push(Line::styled(
        format!("{:>5} {:>9} {:>9} {:>7}", "line", "branches", "divergent", "warps"),
        t.dim().add_modifier(Modifier::UNDERLINED),
    ));
    for l in mt.per_line.values().filter(|l| l.branches > 0) {
        let style = if l.divergent_branches > 0 { t.fg(t.reconvergence) } else { t.fg(t.foreground) };
        out.push(Line::styled(
            format!("{:>5} {:>9} {:>9} {:>7}", l.line, l.branches, l.divergent_branches, l.divergent_warps),
            style,
        ));
    }
    let skip = app.scroll_of(Pane::Metrics.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    frame.render_widget(paragraph(out, pane_block(app, Pane::Metrics, String::new()), Style::default()), area);
}

/// The shared-memory bank view (`K`): per line with shared accesses, Nsight's figures; then the lane-to-bank
/// matrix of the latest access on the source cursor's line (or, when it has none, on the worst line).
fn draw_banks(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let banks = &app.session.machine.metrics.banks;
    let head = t.dim().add_modifier(Modifier::UNDERLINED);
    let mut out = vec![Line::styled(
        format!("{:>5} {:>8} {:>10} {:>9} {:>6}", "line", "accesses", "wavefronts", "conflicts", "worst"),
        head,
    )];
    for l in banks.per_line.values() {
        let style = if l.conflicts > 0 { t.fg(t.reconvergence) } else { t.fg(t.foreground) };
        out.push(Line::styled(
            format!(
                "{:>5} {:>8} {:>10} {:>9} {:>6}",
                l.line,
                l.accesses,
                l.wavefronts,
                l.conflicts,
                format!("{}-way", l.max_ways)
            ),
            style,
        ));
    }
    let shown = match banks.per_line.get(&app.cursor) {
        Some(l) => Some((l, "cursor")),
        None => banks.per_line.values().max_by_key(|l| (l.conflicts, std::cmp::Reverse(l.line))).map(|l| (l, "worst")),
    };
    match shown {
        None => out.push(Line::styled("no shared-memory accesses yet", t.dim())),
        Some((l, why)) => {
            let matrix = bank_matrix(&l.last);
            let ways = matrix.iter().map(|b| b.words.len()).max().unwrap_or(0).max(1);
            out.push(Line::styled(
                format!("line {} ({why}), its last access: {ways}-way", l.line),
                t.fg(t.title).add_modifier(Modifier::BOLD),
            ));
            out.push(Line::styled(format!("{:>5} {:>5}  {}", "bank", "words", "lanes"), head));
            for b in matrix.iter().filter(|b| !b.lanes.is_empty()) {
                let style = if b.words.len() > 1 { t.fg(t.reconvergence) } else { t.fg(t.foreground) };
                out.push(Line::styled(
                    format!("{:>5} {:>5}  {}", b.bank, b.words.len(), format_ranges(&b.lanes)),
                    style,
                ));
            }
        }
    }
    let skip = app.scroll_of(Pane::Metrics.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    let title = format!("shared banks ({} conflicts)", banks.total_conflicts());
    frame.render_widget(paragraph(out, pane_block(app, Pane::Metrics, title), Style::default()), area);
}

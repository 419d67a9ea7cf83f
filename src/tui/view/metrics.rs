//! The metrics pane: Nsight-style divergence figures for the run so far, and per-line branch counts.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{pane_block, paragraph};
use crate::tui::app::{App, Pane};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
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
    if app.session.mode() == crate::launch::Mode::PreVolta {
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

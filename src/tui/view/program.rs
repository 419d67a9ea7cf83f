//! The program pane (whole programs only): the launches so far with how each ended, the host variables in
//! scope at the current launch, and the program's output so far (all of it, with the exit status, at the end).
//! It scrolls down (the movement keys while it has the focus, the wheel) and sideways (`ScrollLeft` /
//! `ScrollRight` while it has the focus), so all of a long-printing program's output can be read.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{clip, pane_block, paragraph};
use crate::tui::app::{App, Pane};
use crate::tui::theme::BannerKind;

/// The pane's lines, before scrolling.
pub fn lines(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme;
    let Some(p) = &app.program else { return vec![] };
    let head = |s: &str| Line::styled(s.to_string(), t.fg(t.title).add_modifier(Modifier::BOLD));
    let mut out = vec![head("launches")];
    for l in &p.launches {
        let here = p.current == Some(l.index);
        let (mark, style) = match l.outcome {
            _ if here => ("▶", t.fg(t.title).add_modifier(Modifier::BOLD)),
            Some("completed") | None => (" ", t.fg(t.foreground)),
            Some(_) => ("!", t.fg(t.breakpoint)),
        };
        let end = match l.outcome {
            _ if here => "now".to_string(),
            Some(o) => o.to_string(),
            None => String::new(),
        };
        out.push(Line::from(vec![
            Span::styled(format!("{mark}{:>2} ", l.index), style),
            // A grid launched from device code hangs under the launch that made it.
            Span::styled(if l.parent.is_some() { format!("↳{}", l.config()) } else { l.config() }, style),
            Span::styled(format!(" L{} {end}", l.host_line), t.dim()),
        ]));
    }
    if let Some(end) = &p.ended {
        let kind = if end.status == 0 { BannerKind::Ok } else { BannerKind::Error };
        for l in end.statuses().lines() {
            out.push(Line::styled(format!(" {l}"), t.banner(kind)));
        }
    }
    let output = p.output_text();
    out.push(head(if p.ended.is_some() { "output" } else { "output so far" }));
    if output.is_empty() {
        out.push(Line::styled(" (nothing yet)", t.dim()));
    }
    for l in output.lines() {
        out.push(Line::styled(format!(" {l}"), t.fg(t.foreground)));
    }
    if p.current.is_some() && !p.host_vars.is_empty() {
        out.push(head("host variables"));
        let w = p.host_vars.iter().map(|v| v.name.chars().count()).max().unwrap_or(0).min(16);
        for v in &p.host_vars {
            out.push(Line::from(vec![
                Span::styled(format!(" {:<w$} ", v.name), t.fg(t.builtin)),
                Span::styled(v.value.clone(), t.fg(t.foreground)),
            ]));
        }
    }
    out
}

/// Rows of lines the pane at `area` shows at once (inside its border).
pub fn rows(area: Rect) -> usize {
    area.height.saturating_sub(2) as usize
}

/// Columns of text the pane at `area` shows per line (inside its border).
pub fn text_width(area: Rect) -> usize {
    area.width.saturating_sub(2) as usize
}

/// The furthest the pane at `area` scrolls down: its last line on its last row.
pub fn max_scroll(app: &App, area: Rect) -> usize {
    lines(app).len().saturating_sub(rows(area))
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    if area.width == 0 || area.height == 0 {
        return;
    }
    let t = &app.theme;
    let out = lines(app);
    let (total, rows, width) = (out.len(), rows(area), text_width(area));
    let skip = app.scroll_of(Pane::Program.title()).min(total.saturating_sub(rows));
    // Long lines (a program's output) are cut at the pane's edge with a `…`, and scroll sideways.
    let out: Vec<Line> =
        out.into_iter().skip(skip).take(rows).map(|l| clip::window_line(l, app.program_left, width, t)).collect();
    let mut extra = match &app.program {
        Some(p) => match (p.current, &p.ended) {
            (Some(k), _) => format!("launch {k}"),
            (None, Some(e)) => match e.statuses().program {
                Some(code) if e.statuses().differ() => format!("exited {code} · findings"),
                Some(code) => format!("exited {code}"),
                None => format!("stopped · exit {}", e.status),
            },
            _ => String::new(),
        },
        None => String::new(),
    };
    // What does not fit is said in the title: from which column, scrolled sideways, and which lines show
    // (the rest scroll into view), briefly: the pane is narrow.
    let sep = |e: &String| if e.is_empty() { "" } else { " · " };
    if app.program_left > 0 {
        extra = format!("{extra}{}col {}", sep(&extra), app.program_left + 1);
    }
    if total > rows && rows > 0 {
        extra = format!("{extra}{}lines {}-{}/{total}", sep(&extra), skip + 1, (skip + rows).min(total));
    }
    frame.render_widget(paragraph(out, pane_block(app, Pane::Program, extra), Style::default()), area);
}

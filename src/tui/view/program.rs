//! The program pane (whole programs only): the launches so far with how each ended, the host variables in
//! scope at the current launch, and the program's output so far (all of it, with the exit status, at the end).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{pane_block, paragraph};
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

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    if area.width == 0 || area.height == 0 {
        return;
    }
    let out = lines(app);
    let skip = app.scroll_of(Pane::Program.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    let extra = match &app.program {
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
    frame.render_widget(paragraph(out, pane_block(app, Pane::Program, extra), Style::default()), area);
}

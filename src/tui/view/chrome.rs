//! Title bar, outcome banner, key-hint footer and the help overlay.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};

use crate::sim::Outcome;
use crate::tui::app::App;
use crate::tui::theme::BannerKind;

pub fn title(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let m = &app.session.machine;
    let l = &m.launch;
    let file = std::path::Path::new(&m.file).file_name().map_or(m.file.clone(), |f| f.to_string_lossy().into_owned());
    let mode = match l.mode {
        crate::launch::Mode::Its => "ITS (Volta+)",
        crate::launch::Mode::PreVolta => "pre-Volta (SIMT stack)",
    };
    let (state, kind) = match m.outcome() {
        None if app.running => ("running".to_string(), BannerKind::Warn),
        None => ("paused".to_string(), BannerKind::Ok),
        Some(Outcome::Completed) => ("completed".to_string(), BannerKind::Ok),
        Some(o) => (o.name().to_uppercase(), BannerKind::Error),
    };
    let mut spans = vec![
        Span::styled(" warpdbg ", t.banner(BannerKind::Ok)),
        Span::raw(" "),
        Span::styled(file, t.fg(t.title).add_modifier(Modifier::BOLD)),
        Span::raw("  "),
        Span::styled(format!("{}<<<{}, {}>>>", l.kernel, show_dim(l.grid), show_dim(l.block)), t.fg(t.foreground)),
        Span::raw("  "),
        Span::styled(format!("mode {mode}"), t.fg(t.builtin)),
        Span::raw("  "),
        Span::styled(format!("step {}", m.steps), t.fg(t.foreground)),
        Span::raw("  "),
        Span::styled(format!(" {state} "), t.banner(kind)),
    ];
    if !app.session.breakpoints.is_empty() {
        spans.push(Span::styled(format!("  ● {}", app.session.breakpoints.len()), t.fg(t.breakpoint)));
    }
    if app.session.break_on_divergence {
        spans.push(Span::styled("  ⑂ break on divergence", t.fg(t.reconvergence)));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn show_dim(d: crate::launch::Dim3) -> String {
    match (d.y, d.z) {
        (1, 1) => d.x.to_string(),
        (_, 1) => format!("({},{})", d.x, d.y),
        _ => format!("({},{},{})", d.x, d.y, d.z),
    }
}

/// The banner's text: the full explanation of a deadlock, livelock or fault; hazards of a finished run.
pub fn banner_lines(app: &App) -> Vec<(BannerKind, String)> {
    let m = &app.session.machine;
    let mut out = vec![];
    if let Some(w) = &app.replay_warning {
        out.push((BannerKind::Warn, w.clone()));
    }
    if let Some((step, text)) = &app.note {
        out.push((BannerKind::Warn, format!("note (step {step}): {text}")));
    }
    match m.outcome() {
        Some(Outcome::Deadlock(s)) | Some(Outcome::Livelock(s)) => {
            out.extend(s.explanation.lines().map(|l| (BannerKind::Error, l.to_string())));
        }
        Some(Outcome::Fault(f)) => {
            out.extend(f.report.lines().map(|l| (BannerKind::Error, l.to_string())));
            out.push((BannerKind::Error, f.sentence.clone()));
        }
        Some(Outcome::StepLimit) => out.push((BannerKind::Error, crate::sim::report::step_limit_text(m))),
        _ => {}
    }
    for h in &m.hazards {
        let times = if h.count > 1 { format!(" ({} times)", h.count) } else { String::new() };
        out.push((BannerKind::Warn, format!("hazard{times}: {}", h.message)));
    }
    out
}

pub fn banner(frame: &mut Frame, area: Rect, app: &App) {
    if area.height == 0 {
        return;
    }
    let lines = banner_lines(app);
    let kind = if lines.iter().any(|(k, _)| *k == BannerKind::Error) { BannerKind::Error } else { BannerKind::Warn };
    let t = &app.theme;
    let text: Vec<Line> = lines.into_iter().map(|(_, l)| Line::raw(l)).collect();
    let title = match app.session.machine.outcome() {
        Some(Outcome::Deadlock(_)) => " DEADLOCK ",
        Some(Outcome::Livelock(_)) => " LIVELOCK ",
        Some(Outcome::Fault(_)) => " FAULT ",
        Some(Outcome::StepLimit) => " STEP LIMIT ",
        _ if app.note.is_some() || app.replay_warning.is_some() => " NOTE ",
        _ => " HAZARD ",
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Thick)
        .border_style(t.banner(kind))
        .title(Span::styled(title, t.banner(kind)));
    frame.render_widget(Paragraph::new(text).block(block).wrap(Wrap { trim: false }).style(t.base()), area);
}

pub fn footer(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let mut spans = vec![];
    if let Some((kind, msg)) = &app.message {
        spans.push(Span::styled(format!(" {msg} "), t.banner(*kind)));
        spans.push(Span::raw("  "));
    }
    if let Some(status) = &app.replay_status {
        spans.push(Span::styled(format!(" {status} "), t.banner(BannerKind::Warn)));
        frame.render_widget(Paragraph::new(Line::from(spans)), area);
        return;
    }
    let hints = [
        (crate::tui::action::Action::Step, "step"),
        (crate::tui::action::Action::StepLine, "line"),
        (crate::tui::action::Action::Continue, "continue"),
        (crate::tui::action::Action::ToggleBreakpoint, "break"),
        (crate::tui::action::Action::SwitchMode, "mode"),
        (crate::tui::action::Action::Help, "help"),
        (crate::tui::action::Action::Quit, "quit"),
    ];
    let by = app.keymap.by_action();
    for (a, label) in hints {
        if let Some((_, keys)) = by.iter().find(|(x, _)| *x == a) {
            spans.push(Span::styled(keys[0].clone(), t.fg(t.title).add_modifier(Modifier::BOLD)));
            spans.push(Span::styled(format!(" {label}  "), t.dim()));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

pub fn help(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let rows = app.keymap.by_action();
    let w = 72.min(area.width.saturating_sub(2));
    let h = (rows.len() as u16 + 6).min(area.height.saturating_sub(1));
    let r = Rect::new(area.x + (area.width.saturating_sub(w)) / 2, area.y + (area.height.saturating_sub(h)) / 2, w, h);
    let mut lines = vec![
        Line::styled("Keys (Esc or ? closes; mouse: click a line = breakpoint, click a warp = select)", t.dim()),
        Line::raw(""),
    ];
    for (a, keys) in rows {
        lines.push(Line::from(vec![
            Span::styled(format!("{:>22}  ", keys.join(" ")), t.fg(t.title).add_modifier(Modifier::BOLD)),
            Span::styled(a.describe(), t.fg(t.foreground)),
        ]));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Double)
        .border_style(t.border(true))
        .title(Span::styled(" Help ", t.fg(t.title)))
        .title_alignment(Alignment::Center);
    frame.render_widget(Clear, r);
    frame.render_widget(Paragraph::new(lines).block(block).style(t.base()), r);
}

/// The one-line prompt (go to step, note) over the footer.
pub fn prompt(frame: &mut Frame, area: Rect, app: &App, label: &str, text: &str) {
    let t = &app.theme;
    let line = Line::from(vec![
        Span::styled(format!(" {label}"), t.banner(BannerKind::Warn)),
        Span::styled(format!(" {text}█"), t.fg(t.foreground)),
        Span::styled("   Enter: ok  Esc: cancel", t.dim()),
    ]);
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(line).style(t.base()), area);
}

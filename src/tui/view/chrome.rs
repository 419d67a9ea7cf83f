//! Title bar, outcome banner, key-hint footer and the help overlay.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph};

use crate::sim::Outcome;
use crate::tui::app::App;
use crate::tui::theme::BannerKind;

pub fn title(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let m = &app.session.machine;
    let l = &m.launch;
    let file = std::path::Path::new(&m.file).file_name().map_or(m.file.clone(), |f| f.to_string_lossy().into_owned());
    let (mode, short_mode) = match l.mode {
        crate::front::launch::Mode::Its => ("ITS (Volta+)", "ITS"),
        crate::front::launch::Mode::PreVolta => ("pre-Volta (SIMT stack)", "pre-Volta"),
    };
    let ended = app.program.as_ref().and_then(|p| p.ended.as_ref());
    let (state, kind) = match m.outcome() {
        // The program's own status and warpdbg's, named apart when warpdbg found something.
        _ if let Some(e) = ended => {
            (e.statuses().title(), if e.status == 0 { BannerKind::Ok } else { BannerKind::Error })
        }
        None if app.running => ("running".to_string(), BannerKind::Warn),
        None => ("paused".to_string(), BannerKind::Ok),
        Some(Outcome::Completed) => ("completed".to_string(), BannerKind::Ok),
        Some(o) => (o.name().to_uppercase(), BannerKind::Error),
    };
    let mut launch = format!("{}<<<{}, {}>>>", l.kernel, show_dim(l.grid), show_dim(l.block));
    // A program's launch: its index and the host line that made it.
    if let Some(info) = app.program.as_ref().and_then(|p| p.current_launch().or(p.launches.last())) {
        let from = info.parent.map_or(String::new(), |p| format!(" (from launch {p})"));
        launch = format!("launch {}{from} {} at {file}:{}", info.index, info.config(), info.host_line);
    }
    // On a narrow screen the state (DEADLOCK, FAULT, ...) matters more than the long names: shorten the mode,
    // then drop the launch, then the file name, before the state is cut off.
    let spans_for = |level: u8| {
        let mut spans = vec![Span::styled(" warpdbg ", t.banner(BannerKind::Ok)), Span::raw(" ")];
        // A program's launch names its file (file:line).
        if level < 3 && (app.program.is_none() || level >= 2) {
            spans.push(Span::styled(file.clone(), t.fg(t.title).add_modifier(Modifier::BOLD)));
            spans.push(Span::raw("  "));
        }
        if level < 2 {
            spans.push(Span::styled(launch.clone(), t.fg(t.foreground)));
            spans.push(Span::raw("  "));
        }
        let mode = if level == 0 { format!("mode {mode}") } else { short_mode.to_string() };
        spans.push(Span::styled(mode, t.fg(t.builtin)));
        spans.push(Span::raw("  "));
        spans.push(Span::styled(format!("step {}", m.steps), t.fg(t.foreground)));
        spans.push(Span::raw("  "));
        spans.push(Span::styled(format!(" {state} "), t.banner(kind)));
        spans
    };
    let mut level = 0;
    let mut spans = spans_for(level);
    while level < 3 && Line::from(spans.clone()).width() > area.width as usize {
        level += 1;
        spans = spans_for(level);
    }
    if !app.session.breakpoints.is_empty() {
        spans.push(Span::styled(format!("  ● {}", app.session.breakpoints.len()), t.fg(t.breakpoint)));
    }
    if app.session.break_on_divergence {
        spans.push(Span::styled("  ⑂ break on divergence", t.fg(t.reconvergence)));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn show_dim(d: crate::front::launch::Dim3) -> String {
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
    out.extend(crate::tui::teach::banner_lines(app).into_iter().map(|l| (BannerKind::Warn, l)));
    match m.outcome() {
        Some(Outcome::Deadlock(s)) | Some(Outcome::Livelock(s)) => {
            out.extend(s.explanation.lines().map(|l| (BannerKind::Error, l.to_string())));
        }
        Some(Outcome::Fault(f)) => {
            out.extend(f.report.lines().map(|l| (BannerKind::Error, l.to_string())));
            out.push((BannerKind::Error, f.sentence.clone()));
            // A program's launch: the hint `warpdbg run` gives, when the evidence names the fix.
            let hint = app.program.as_ref().and_then(|p| p.current_launch()?.fault_hint(m, &p.program.unit.sources, f));
            if let Some(h) = hint {
                out.push((BannerKind::Error, format!("Hint: {h}")));
            }
        }
        Some(Outcome::StepLimit) => out.push((BannerKind::Error, crate::sim::report::step_limit_text(m))),
        _ => {}
    }
    if let Some(end) = app.program.as_ref().and_then(|p| p.ended.as_ref()) {
        let kind = if end.status == 0 { BannerKind::Ok } else { BannerKind::Error };
        let mut text = end.sentence();
        if let Some(f) = text.get_mut(0..1) {
            f.make_ascii_uppercase();
        }
        out.push((kind, format!("{text}. Its output is in the Program pane; P goes back to the last launch.")));
    }
    for h in &m.hazards {
        let times = if h.count > 1 { format!(" ({} times)", h.count) } else { String::new() };
        out.push((BannerKind::Warn, format!("hazard{times}: {}", h.message)));
    }
    out
}

/// The banner's lines word-wrapped to `width` columns (words longer than a row are split), so its height is
/// known before drawing and nothing of the explanation is lost to an unseen wrap.
pub fn wrap_banner(lines: &[(BannerKind, String)], width: u16) -> Vec<String> {
    let width = width.max(1) as usize;
    let mut out = vec![];
    for (_, text) in lines {
        let mut row: Vec<char> = vec![];
        for word in text.split(' ') {
            let mut word: Vec<char> = word.chars().collect();
            if !row.is_empty() && row.len() + 1 + word.len() <= width {
                row.push(' ');
                row.append(&mut word);
                continue;
            }
            if !row.is_empty() {
                out.push(row.drain(..).collect());
            }
            while word.len() > width {
                out.push(word.drain(..width).collect());
            }
            row = word;
        }
        out.push(row.into_iter().collect());
    }
    out
}

/// What the banner shows on `area`: its rows, the largest scroll offset (0 when all fits) and how many rows
/// one scroll moves. When the text does not fit, the lines that start with "Fix:" stay on screen (at the
/// bottom, each once), the rest scrolls ([`App::banner_scroll`]), and the last row says where it is and which
/// key scrolls.
fn banner_view(app: &App, area: Rect) -> (Vec<String>, usize, usize) {
    let lines = banner_lines(app);
    let width = area.width.saturating_sub(2);
    let fits = area.height.saturating_sub(2) as usize;
    let all = wrap_banner(&lines, width);
    if all.len() <= fits || fits < 3 {
        return (all, 0, 0);
    }
    let is_fix = |(_, l): &&(BannerKind, String)| l.trim_start().starts_with("Fix:");
    let mut fix: Vec<(BannerKind, String)> = vec![];
    for l in lines.iter().filter(is_fix) {
        if !fix.iter().any(|(_, f)| *f == l.1) {
            fix.push(l.clone());
        }
    }
    let body: Vec<(BannerKind, String)> = lines.iter().filter(|l| !is_fix(l)).cloned().collect();
    let mut fix_rows = wrap_banner(&fix, width);
    // At least one row of the rest, and the row that says there is more.
    fix_rows.truncate(fits - 2);
    let page = fits - 1 - fix_rows.len();
    let body_rows = wrap_banner(&body, width);
    let max = body_rows.len().saturating_sub(page);
    let top = app.banner_scroll.min(max);
    let shown = (top + page).min(body_rows.len());
    let mut rows: Vec<String> = body_rows[top..shown].to_vec();
    rows.extend(fix_rows);
    let key = app.keymap.first_key(crate::tui::action::Action::ScrollBanner);
    let how = match (key, top >= max) {
        (None, _) => "(a taller window shows them all)".to_string(),
        (Some(k), false) => format!("{k} scrolls"),
        (Some(k), true) => format!("{k} goes back to the top"),
    };
    let more = body_rows.len() - shown;
    let status = if more > 0 {
        format!("… {more} more line{}: {how} (lines {}-{shown} of {})", plural(more), top + 1, body_rows.len())
    } else {
        format!("… lines {}-{shown} of {}: {how}", top + 1, body_rows.len())
    };
    rows.push(status);
    (rows, max, page)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// How far the banner on `area` scrolls (its largest offset, 0 when all fits) and by how much at a time.
pub fn banner_scroll_range(app: &App, area: Rect) -> (usize, usize) {
    let (_, max, page) = banner_view(app, area);
    (max, page)
}

pub fn banner(frame: &mut Frame, area: Rect, app: &App) {
    if area.height == 0 {
        return;
    }
    let lines = banner_lines(app);
    let kind = if lines.iter().any(|(k, _)| *k == BannerKind::Error) { BannerKind::Error } else { BannerKind::Warn };
    let t = &app.theme;
    let (rows, _, _) = banner_view(app, area);
    let text: Vec<Line> = rows.into_iter().map(Line::raw).collect();
    let title = match app.session.machine.outcome() {
        Some(Outcome::Deadlock(_)) => " DEADLOCK ",
        Some(Outcome::Livelock(_)) => " LIVELOCK ",
        Some(Outcome::Fault(_)) => " FAULT ",
        Some(Outcome::StepLimit) => " STEP LIMIT ",
        _ if app.program.as_ref().is_some_and(|p| p.ended.is_some()) => " PROGRAM ENDED ",
        _ if app.quiz.as_ref().is_some_and(|q| !q.lines.is_empty()) => " QUIZ ",
        _ if app.note.is_some() || app.replay_warning.is_some() => " NOTE ",
        _ => " HAZARD ",
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Thick)
        .border_style(t.banner(kind))
        .title(Span::styled(title, t.banner(kind)));
    frame.render_widget(Paragraph::new(text).block(block).style(t.base()), area);
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
    let mut hints = hints.to_vec();
    if app.program.is_some() {
        hints.insert(3, (crate::tui::action::Action::NextLaunch, "next launch"));
    }
    spans.extend(key_hints(app, &hints));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The footer's hints: each action's first key (from the keymap, so a user's bindings show) and a label.
pub fn key_hints(app: &App, hints: &[(crate::tui::action::Action, &str)]) -> Vec<Span<'static>> {
    let t = &app.theme;
    let by = app.keymap.by_action();
    let mut spans = vec![];
    for (a, label) in hints {
        if let Some((_, keys)) = by.iter().find(|(x, _)| x == a) {
            spans.push(Span::styled(keys[0].clone(), t.fg(t.title).add_modifier(Modifier::BOLD)));
            spans.push(Span::styled(format!(" {label}  "), t.dim()));
        }
    }
    spans
}

/// The help overlay's text: two header lines, then one row per action (keys, description).
pub fn help_lines(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme;
    let rows = app.keymap.by_action();
    let keys_w = rows.iter().map(|(_, k)| k.join(" ").chars().count()).max().unwrap_or(0);
    let mut lines = vec![
        Line::styled("Keys. Esc or ? closes; j/k, PgUp/PgDn scroll this list.", t.dim()),
        Line::styled("Mouse: click a line = breakpoint, click a warp = select, wheel scrolls.", t.dim()),
    ];
    for (a, keys) in rows {
        lines.push(Line::from(vec![
            Span::styled(format!("{:>keys_w$}  ", keys.join(" ")), t.fg(t.title).add_modifier(Modifier::BOLD)),
            Span::styled(a.describe(), t.fg(t.foreground)),
        ]));
    }
    lines
}

/// Where the help overlay goes on a screen `area`: as wide as its longest line, as tall as its text, both
/// within the screen.
pub fn help_area(area: Rect, lines: &[Line]) -> Rect {
    let content_w = lines.iter().map(Line::width).max().unwrap_or(0) as u16;
    let w = content_w.saturating_add(2).min(area.width);
    let h = (lines.len() as u16).saturating_add(2).min(area.height);
    Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h)
}

/// The help overlay's largest scroll offset on a screen `area` (0 when every line fits).
pub fn help_max_scroll(app: &App, area: Rect) -> usize {
    let lines = help_lines(app);
    let r = help_area(area, &lines);
    lines.len().saturating_sub(r.height.saturating_sub(2) as usize)
}

pub fn help(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let lines = help_lines(app);
    let r = help_area(area, &lines);
    let max = help_max_scroll(app, area);
    let skip = app.scroll_of(HELP_SCROLL).min(max);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Double)
        .border_style(t.border(true))
        .title(Span::styled(" Help ", t.fg(t.title)))
        .title_alignment(Alignment::Center);
    if max > 0 {
        // The list does not fit: say where we are and that it scrolls.
        let shown = r.height.saturating_sub(2) as usize;
        let more = format!(
            " {}-{} of {}{} ",
            skip + 1,
            (skip + shown).min(lines.len()),
            lines.len(),
            if skip < max { ", j/↓ for more" } else { "" }
        );
        block = block.title_bottom(Line::styled(more, t.fg(t.title)).right_aligned());
    }
    let lines: Vec<Line> = lines.into_iter().skip(skip).collect();
    frame.render_widget(Clear, r);
    frame.render_widget(Paragraph::new(lines).block(block).style(t.base()), r);
}

/// The scroll-offset key of the help overlay in [`App::scroll`].
pub const HELP_SCROLL: &str = "Help";

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

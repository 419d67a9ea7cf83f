//! The side-by-side comparison: pre-Volta on the left, ITS on the right, each with its source (the followed
//! warp's line), its warps and how it stands (outcome, waits, hazards, memory); rows that differ between the
//! sides are marked `≠`, and a banner names the first difference and how each side ends.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph};

use super::chrome::{help, wrap_banner};
use super::source::highlight;
use super::warps::lane_bar;
use crate::debug::compare::{Compare, NAMES};
use crate::debug::session::Session;
use crate::sim::{Machine, Outcome, inspect, threads_phrase};
use crate::tui::app::{App, Overlay};
use crate::tui::theme::{BannerKind, Theme};

/// Where everything goes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CompareAreas {
    pub title: Rect,
    pub source: [Rect; 2],
    pub warps: [Rect; 2],
    pub state: [Rect; 2],
    pub banner: Rect,
    pub footer: Rect,
}

/// Title row; two columns of source over warps over state; the banner; the footer.
pub fn layout(area: Rect, banner: u16, warps: u16, state: u16) -> CompareAreas {
    let banner = banner.min(area.height.saturating_sub(2) / 3);
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(1), Constraint::Min(0), Constraint::Length(banner), Constraint::Length(1)])
        .split(area);
    let body = rows[1];
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
        .split(body);
    let quarter = body.height / 4;
    let warps = warps.min(quarter.max(3.min(body.height / 3)));
    let state = state.min((body.height / 3).max(3.min(body.height / 3)));
    let mut a = CompareAreas { title: rows[0], banner: rows[2], footer: rows[3], ..Default::default() };
    for s in 0..2 {
        let parts = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Min(0), Constraint::Length(warps), Constraint::Length(state)])
            .split(cols[s]);
        a.source[s] = parts[0];
        a.warps[s] = parts[1];
        a.state[s] = parts[2];
    }
    a
}

fn outcome_word(m: &Machine) -> (String, BannerKind) {
    match m.outcome() {
        None => ("paused".into(), BannerKind::Ok),
        Some(Outcome::Completed) => ("completed".into(), BannerKind::Ok),
        Some(o) => (o.name().to_uppercase(), BannerKind::Error),
    }
}

fn pane<'a>(t: &Theme, title: String) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(t.border(false))
        .title(Line::styled(title, t.fg(t.title)))
}

/// The banner's lines: the first difference, then the verdict.
pub fn banner_lines(c: &Compare) -> Vec<(BannerKind, String)> {
    let mut out = vec![];
    match &c.first {
        Some(d) => {
            let here = if c.at_difference() {
                " Both sides are here."
            } else if c.steps().iter().zip(d.steps).all(|(a, b)| *a < b) {
                " (continue goes there)"
            } else {
                ""
            };
            out.push((BannerKind::Warn, format!("{}{here}", d.text)));
        }
        None => out.push((
            BannerKind::Ok,
            "No difference: both models issue the same instructions with the same lanes and write the same memory."
                .into(),
        )),
    }
    let kind = if c.ends.iter().all(|e| matches!(e.outcome, Some(Outcome::Completed))) {
        BannerKind::Ok
    } else {
        BannerKind::Error
    };
    out.push((kind, c.verdict.clone()));
    out
}

/// Rows the banner wants at `width` columns.
pub fn banner_height(c: &Compare, width: u16) -> u16 {
    (wrap_banner(&banner_lines(c), width.saturating_sub(2)).len() as u16).saturating_add(2)
}

/// Lines of one side's state pane (before wrapping), with the other side for memory differences.
fn state_lines<'a>(t: &Theme, c: &Compare, side: usize, width: usize) -> Vec<Line<'a>> {
    let m = &c.sides[side].machine;
    let other = &c.sides[1 - side].machine;
    let mut out = vec![];
    let (word, kind) = outcome_word(m);
    out.push(Line::from(vec![
        Span::styled(format!(" {word} "), t.banner(kind)),
        Span::styled(format!(" at step {}", m.steps), t.fg(t.foreground)),
    ]));
    if m.outcome().is_none() {
        let end = &c.ends[side];
        let how = end.outcome.as_ref().map_or("still running", Outcome::name);
        out.push(Line::styled(format!(" ends: {how} at step {}", end.steps), t.dim()));
    }
    if let Some(Outcome::Deadlock(s) | Outcome::Livelock(s)) = m.outcome() {
        for w in &s.waits {
            out.push(Line::styled(
                format!(" {}: {} at line {}", threads_phrase(&w.tids), w.kind.name().replace('_', " "), w.line),
                t.fg(t.breakpoint),
            ));
        }
    }
    if let Some(Outcome::Fault(f)) = m.outcome() {
        out.push(Line::styled(format!(" {}", f.sentence), t.fg(t.breakpoint)));
    }
    for h in &m.hazards {
        out.push(Line::styled(format!(" hazard: {} on line {}", h.kind.name(), h.line), t.fg(t.reconvergence)));
    }
    for (ai, a) in m.global.allocs.iter().enumerate() {
        let differs_any = other.global.allocs.get(ai).is_some_and(|b| b.data != a.data);
        let label = format!("{}[{}]: ", a.name, a.len);
        let mut used = label.chars().count() + 1;
        let mut spans = vec![
            if differs_any { Span::styled("≠", t.banner(BannerKind::Warn)) } else { Span::raw(" ") },
            Span::styled(label, t.fg(t.title).add_modifier(Modifier::BOLD)),
        ];
        for i in 0..a.len.min(256) {
            let v = a.element(i);
            let cell = format!("{} ", crate::sim::alu::display(a.elem, v));
            if used + cell.len() > width {
                break;
            }
            used += cell.len();
            let differs = other.global.allocs.get(ai).is_some_and(|b| i < b.len && b.element(i) != v);
            let style = if differs {
                t.fg(t.changed).add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
            } else {
                t.fg(t.foreground)
            };
            spans.push(Span::styled(cell, style));
        }
        out.push(Line::from(spans));
    }
    out
}

/// The followed warp: the selection, or the first warp on either side.
fn followed(app: &App, c: &Compare) -> Option<(u64, u32)> {
    let list = c.warp_list();
    match app.selected {
        Some(s) if list.contains(&(s.block, s.warp)) => Some((s.block, s.warp)),
        _ => list.first().copied(),
    }
}

/// The lines a side's source pane must show: the followed warp's line, then the lines threads wait on.
fn wanted_lines(app: &App, c: &Compare, side: usize) -> Vec<u32> {
    let m = &c.sides[side].machine;
    let mut v: Vec<u32> =
        followed(app, c).and_then(|(b, w)| c.warp(b, w)[side]).and_then(|w| w.line).into_iter().collect();
    match m.outcome() {
        Some(Outcome::Deadlock(s)) | Some(Outcome::Livelock(s)) => v.extend(s.waits.iter().map(|w| w.line)),
        Some(Outcome::Fault(f)) => v.push(f.line),
        _ => {}
    }
    v
}

/// The first source line both panes show (the same, so the sides' rows line up): the lines both sides want
/// centred where they fit, the first wanted ones where they do not.
fn source_top(app: &App, c: &Compare, rows: u32) -> u32 {
    let n = c.sides[0].compiled.source().text.lines().count() as u32;
    let wanted: Vec<u32> = (0..2).flat_map(|s| wanted_lines(app, c, s)).collect();
    let (Some(&lo), Some(&hi)) = (wanted.iter().min(), wanted.iter().max()) else { return 1 };
    let mid = if hi - lo < rows { (lo + hi) / 2 } else { lo + rows / 2 };
    mid.saturating_sub(rows / 2).min((n + 1).saturating_sub(rows)).max(1)
}

fn draw_source(frame: &mut Frame, area: Rect, app: &App, c: &Compare, side: usize) {
    let t = &app.theme;
    let s: &Session = &c.sides[side];
    let m = &s.machine;
    let lines: Vec<&str> = s.compiled.source().text.lines().collect();
    let fw = followed(app, c);
    let warp = fw.map(|(b, w)| c.warp(b, w));
    let sel_line = warp.and_then(|w| w[side]).and_then(|w| w.line);
    let differs = fw.is_some_and(|(b, w)| c.warp_differs(b, w));
    let waits: Vec<u32> = match m.outcome() {
        Some(Outcome::Deadlock(s)) | Some(Outcome::Livelock(s)) => s.waits.iter().map(|w| w.line).collect(),
        Some(Outcome::Fault(f)) => vec![f.line],
        _ => vec![],
    };
    let per_line = inspect::warps_per_line(m);
    let rows = area.height.saturating_sub(2) as u32;
    let n = lines.len() as u32;
    let top = source_top(app, c, rows).min(n.max(1));
    let digits = lines.len().max(1).to_string().len();
    let mut in_comment = false;
    for l in lines.iter().take(top as usize - 1) {
        let _ = highlight(l, t, &mut in_comment);
    }
    let mut out = vec![];
    for (i, text) in lines.iter().enumerate().skip(top as usize - 1).take(rows as usize) {
        let ln = i as u32 + 1;
        let here = Some(ln) == sel_line;
        let marker = match (here, differs) {
            (true, true) => Span::styled("≠", t.banner(BannerKind::Warn)),
            (true, false) => Span::styled("▶", t.fg(t.warp_marker).add_modifier(Modifier::BOLD)),
            _ => Span::raw(" "),
        };
        let count = match per_line.get(&ln) {
            Some(k) => Span::styled(format!("{:>2}w", k.min(&99)), t.fg(t.warp_marker)),
            None => Span::raw("   "),
        };
        let num = Span::styled(format!("{ln:>digits$} "), if here { t.fg(t.warp_marker) } else { t.dim() });
        let mut spans = vec![num, marker, count, Span::styled(" │ ", t.dim())];
        spans.extend(highlight(text, t, &mut in_comment));
        let mut line = Line::from(spans);
        if waits.contains(&ln) {
            line = line.style(t.wait_line());
        } else if here && differs {
            line = line.style(t.cursor_line());
        }
        out.push(line);
    }
    let (word, _) = outcome_word(m);
    let model = if side == 0 { "pre-Volta (SIMT stack)" } else { "ITS (Volta+)" };
    let title = format!(" {model} · step {} · {word} ", m.steps);
    frame.render_widget(Paragraph::new(out).block(pane(t, title)).style(Style::default()), area);
}

fn draw_warps(frame: &mut Frame, area: Rect, app: &App, c: &Compare, side: usize) {
    let t = &app.theme;
    let m = &c.sides[side].machine;
    let inner_w = area.width.saturating_sub(2) as usize;
    let list = c.warp_list();
    let bar_w = if inner_w >= 1 + 4 + 3 + 9 + 5 + 32 { 32 } else { 16 };
    let mut out = vec![Line::styled(
        format!(
            " {:<4}{:>2} {:<8} {:>4} {}",
            "blk",
            "w",
            "state",
            "line",
            if bar_w == 32 { "lanes 0-31" } else { "lanes (2/cell)" }
        ),
        t.dim().add_modifier(Modifier::UNDERLINED),
    )];
    let rows = area.height.saturating_sub(3) as usize;
    let fw = followed(app, c);
    let sel = fw.and_then(|f| list.iter().position(|w| *w == f)).unwrap_or(0);
    let first = sel.saturating_sub(rows.saturating_sub(1));
    for &(block, warp) in list.iter().skip(first).take(rows) {
        let at = c.warp(block, warp)[side];
        let differs = c.warp_differs(block, warp);
        let mark = if differs { Span::styled("≠", t.banner(BannerKind::Warn)) } else { Span::raw(" ") };
        let mut spans = vec![mark, Span::styled(format!("{block:<4}{warp:>2} "), t.fg(t.foreground))];
        match (at, m.blocks.iter().find(|b| b.linear == block)) {
            (Some(a), Some(b)) => {
                let line = a.line.map_or("-".to_string(), |l| l.to_string());
                spans.push(Span::styled(format!("{:<8} ", a.state.name()), t.fg(t.builtin)));
                spans.push(Span::styled(format!("{line:>4} "), t.fg(t.foreground)));
                let live = b.warps.get(warp as usize).map_or(a.active, |w| w.live);
                spans.extend(lane_bar(t, a.active, live, bar_w));
            }
            _ => spans.push(Span::styled("not resident", t.dim())),
        }
        let mut l = Line::from(spans);
        if Some((block, warp)) == fw {
            l = l.style(t.selected().add_modifier(Modifier::BOLD));
        }
        out.push(l);
    }
    let title = format!(" Warps · {} ", NAMES[side]);
    frame.render_widget(Paragraph::new(out).block(pane(t, title)), area);
}

fn draw_state(frame: &mut Frame, area: Rect, app: &App, c: &Compare, side: usize) {
    let t = &app.theme;
    let lines = state_lines(t, c, side, area.width.saturating_sub(2) as usize);
    let title = format!(" {} · outcome and memory ", NAMES[side]);
    frame.render_widget(Paragraph::new(lines).block(pane(t, title)).wrap(ratatui::widgets::Wrap { trim: false }), area);
}

fn draw_title(frame: &mut Frame, area: Rect, app: &App, c: &Compare) {
    let t = &app.theme;
    let m = &c.sides[0].machine;
    let l = &m.launch;
    let file = std::path::Path::new(&m.file).file_name().map_or(m.file.clone(), |f| f.to_string_lossy().into_owned());
    let mut spans = vec![
        Span::styled(" warpdbg ", t.banner(BannerKind::Ok)),
        Span::raw(" "),
        Span::styled(" COMPARE ", t.banner(BannerKind::Warn)),
        Span::raw(" "),
        Span::styled(file, t.fg(t.title).add_modifier(Modifier::BOLD)),
        Span::raw("  "),
    ];
    if let Some((b, w)) = followed(app, c) {
        spans.push(Span::styled(format!("following warp {w} of block {b}  "), t.fg(t.builtin)));
    }
    spans.push(Span::styled(format!("{}<<<{}, {}>>>", l.kernel, l.grid.x, l.block.x), t.fg(t.foreground)));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_banner(frame: &mut Frame, area: Rect, app: &App, c: &Compare) {
    if area.height == 0 {
        return;
    }
    let t = &app.theme;
    let lines = banner_lines(c);
    let kind = if lines.iter().any(|(k, _)| *k == BannerKind::Error) { BannerKind::Error } else { BannerKind::Warn };
    let mut rows = wrap_banner(&lines, area.width.saturating_sub(2));
    let fits = area.height.saturating_sub(2) as usize;
    if rows.len() > fits && fits >= 2 {
        let more = rows.len() - fits + 1;
        rows.truncate(fits - 1);
        rows.push(format!("… {more} more line{}", if more == 1 { "" } else { "s" }));
    }
    let title = match &c.first {
        Some(d) => format!(" FIRST DIFFERENCE · after step {} ", d.steps[0]),
        None => " NO DIFFERENCE ".to_string(),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Thick)
        .border_style(t.banner(kind))
        .title(Span::styled(title, t.banner(kind)));
    let text: Vec<Line> = rows.into_iter().map(Line::raw).collect();
    frame.render_widget(Paragraph::new(text).block(block).style(t.base()), area);
}

fn draw_footer(frame: &mut Frame, area: Rect, app: &App) {
    use crate::tui::action::Action;
    let t = &app.theme;
    let mut spans = vec![];
    if let Some((kind, msg)) = &app.message {
        spans.push(Span::styled(format!(" {msg} "), t.banner(*kind)));
        spans.push(Span::raw("  "));
    }
    let hints = [
        (Action::StepLine, "line (both)"),
        (Action::Step, "step"),
        (Action::Continue, "to the difference / the end"),
        (Action::NextWarp, "warp"),
        (Action::Compare, "close"),
        (Action::Help, "help"),
        (Action::Quit, "quit"),
    ];
    spans.extend(super::chrome::key_hints(app, &hints));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let Some(c) = app.compare.as_ref() else { return };
    let warps = (c.warp_list().len() as u16).saturating_add(3);
    let state_w = area.width / 2;
    let state_rows = (0..2).map(|s| state_lines(&app.theme, c, s, state_w.saturating_sub(2) as usize).len()).max();
    let state = (state_rows.unwrap_or(1) as u16).saturating_add(2);
    let a = layout(area, banner_height(c, area.width), warps, state);
    draw_title(frame, a.title, app, c);
    for s in 0..2 {
        draw_source(frame, a.source[s], app, c, s);
        draw_warps(frame, a.warps[s], app, c, s);
        draw_state(frame, a.state[s], app, c, s);
    }
    draw_banner(frame, a.banner, app, c);
    draw_footer(frame, a.footer, app);
    if app.overlay == Some(Overlay::Help) {
        help(frame, area, app);
    }
}

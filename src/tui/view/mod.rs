//! Drawing: reads the [`App`] and never changes it. `render_text` draws into an off-screen buffer, which is
//! what `warpdbg view` prints, so the headless output is exactly the TUI's screen.

pub mod chrome;
pub mod clip;
pub mod coalescing;
pub mod compare;
pub mod detail;
pub mod html;
pub mod lanes;
pub mod layout;
pub mod memory;
pub mod metrics;
pub mod program;
pub mod source;
pub mod warps;

use ratatui::Frame;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::app::{App, Pane};
use crate::sim::Outcome;

/// Rows the outcome banner wants on a screen `width` columns wide (0 when there is nothing to announce): its
/// text wrapped to the width, plus the border, at most 12 (the layout may give it less).
pub fn banner_height(app: &App, width: u16) -> u16 {
    let lines = chrome::banner_lines(app);
    if lines.is_empty() {
        return 0;
    }
    let rows = chrome::wrap_banner(&lines, width.saturating_sub(2)).len();
    (rows.min(10) as u16) + 2
}

pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    frame.buffer_mut().set_style(area, app.theme.base());
    if app.compare.is_some() {
        compare::draw(frame, area, app);
        return;
    }
    let areas = areas(app, area);
    chrome::title(frame, areas.title, app);
    source::draw(frame, areas.source, app);
    warps::draw(frame, areas.warps, app);
    detail::draw(frame, areas.detail, app);
    if app.lanes.open {
        lanes::draw(frame, areas.memory, app);
    } else {
        memory::draw(frame, areas.memory, app);
    }
    if app.coalescing_view {
        coalescing::draw(frame, areas.metrics, app);
    } else {
        metrics::draw(frame, areas.metrics, app);
    }
    if app.program.is_some() {
        program::draw(frame, areas.program, app);
    }
    chrome::banner(frame, areas.banner, app);
    chrome::footer(frame, areas.footer, app);
    match &app.overlay {
        Some(super::app::Overlay::Help) => chrome::help(frame, area, app),
        Some(super::app::Overlay::Prompt { kind, text }) => {
            chrome::prompt(frame, areas.footer, app, kind.label(), text);
            if let Some((col, message)) = &app.prompt_error {
                prompt_caret(frame, areas.footer, app, kind.label().len() + 2 + col, message);
            }
        }
        None => {}
    }
}

/// A caret on the row above the prompt, under the column of a bad expression, with the message.
fn prompt_caret(frame: &mut Frame, footer: Rect, app: &App, col: usize, message: &str) {
    if footer.y == 0 {
        return;
    }
    let row = Rect { y: footer.y - 1, height: 1, ..footer };
    let text = format!("{}^ {message}", " ".repeat(col));
    frame.render_widget(ratatui::widgets::Clear, row);
    frame.render_widget(Paragraph::new(Line::styled(text, app.theme.banner(super::theme::BannerKind::Error))), row);
}

/// Where each pane goes on `area` for this app (with the program pane when a program is open).
pub fn areas(app: &App, area: Rect) -> layout::Areas {
    layout::layout_with(area, banner_height(app, area.width), app.program.is_some())
}

/// A pane's frame: rounded border, highlighted when focused.
pub fn pane_block<'a>(app: &App, pane: Pane, extra: String) -> Block<'a> {
    let focused = app.focus == pane;
    let title = if extra.is_empty() { format!(" {} ", pane.title()) } else { format!(" {} · {extra} ", pane.title()) };
    Block::default()
        .borders(Borders::ALL)
        .border_type(ratatui::widgets::BorderType::Rounded)
        .border_style(app.theme.border(focused))
        .title(Line::styled(title, app.theme.fg(app.theme.title)))
}

/// Lines in a bordered pane, clipped.
pub fn paragraph<'a>(lines: Vec<Line<'a>>, block: Block<'a>, style: Style) -> Paragraph<'a> {
    Paragraph::new(lines).block(block).style(style)
}

/// The screen as text, `cols` x `rows`, exactly as the TUI draws it (no colours).
pub fn render_text(app: &App, cols: u16, rows: u16) -> String {
    let buffer = render_buffer(app, cols, rows);
    buffer_text(&buffer)
}

pub fn render_buffer(app: &App, cols: u16, rows: u16) -> Buffer {
    let backend = TestBackend::new(cols, rows);
    let mut terminal = Terminal::new(backend).expect("an in-memory terminal cannot fail");
    terminal.draw(|f| draw(f, app)).expect("drawing into memory cannot fail");
    terminal.backend().buffer().clone()
}

pub fn buffer_text(buffer: &Buffer) -> String {
    let area: Rect = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let cell = &buffer[(x, y)];
            let sym = cell.symbol();
            line.push_str(sym);
            skip = unicode_width(sym).saturating_sub(1);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn unicode_width(s: &str) -> usize {
    // Every symbol warpdbg draws is one column wide; wide characters could only come from kernel source.
    s.chars().count().clamp(1, 2)
}

/// The metrics pane in its current view as text: its title, then every row (none scrolled off or clipped at
/// the bottom), `width` columns wide; what `warpdbg view --pane` prints.
pub fn pane_text(app: &App, width: usize) -> String {
    let (extra, lines) = if app.coalescing_view { coalescing::lines(app, width) } else { metrics::lines(app, width) };
    let title = if extra.is_empty() {
        Pane::Metrics.title().to_string()
    } else {
        format!("{} · {extra}", Pane::Metrics.title())
    };
    let mut out = format!("{title}\n");
    for l in lines {
        let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// The outcome if the run has ended.
pub fn final_outcome(app: &App) -> Option<&Outcome> {
    app.session.machine.outcome()
}

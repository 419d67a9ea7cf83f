//! The memory pane: every `@arg` array and the selected block's shared arrays; cells changed by the last
//! command are highlighted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{pane_block, paragraph};
use crate::sim::alu::display;
use crate::sim::shared_load;
use crate::tui::app::{App, Pane};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let m = &app.session.machine;
    let width = area.width.saturating_sub(2) as usize;
    let mut out: Vec<Line> = vec![];
    for (ai, a) in m.global.allocs.iter().enumerate() {
        out.push(Line::styled(
            format!("{} {}[{}]", a.name, a.elem.name(), a.len),
            t.fg(t.title).add_modifier(Modifier::BOLD),
        ));
        let before = app.before.get(ai);
        let mut spans: Vec<Span> = vec![];
        let mut used = 0;
        for i in 0..a.len.min(crate::tui::app::REMEMBERED_CELLS) {
            let v = a.element(i);
            let text = format!("{} ", display(a.elem, v));
            if used + text.len() > width {
                out.push(Line::from(std::mem::take(&mut spans)));
                used = 0;
                if out.len() > 400 {
                    break;
                }
            }
            used += text.len();
            let changed = before.and_then(|b| b.get(i as usize)).is_some_and(|old| *old != v);
            let style = if changed {
                t.fg(t.changed).add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
            } else {
                t.fg(t.foreground)
            };
            spans.push(Span::styled(text, style));
        }
        if !spans.is_empty() {
            out.push(Line::from(spans));
        }
    }
    // The selected block's shared memory.
    if let Some(b) = app.selected.and_then(|s| m.blocks.iter().find(|b| b.linear == s.block)) {
        for (name, off, bytes, ty) in &m.layout.arrays {
            out.push(Line::styled(
                format!("__shared__ {name} {}[{}] (block {})", ty.name(), bytes / ty.size(), b.idx),
                t.fg(t.builtin).add_modifier(Modifier::BOLD),
            ));
            let mut text = String::new();
            for i in 0..(bytes / ty.size()).min(1024) {
                let v = shared_load(&b.shared, (off + i * ty.size()) as usize, ty.size());
                let cell = format!("{} ", display(*ty, v));
                if text.len() + cell.len() > width {
                    out.push(Line::styled(std::mem::take(&mut text), t.fg(t.foreground)));
                }
                text.push_str(&cell);
            }
            if !text.is_empty() {
                out.push(Line::styled(text, t.fg(t.foreground)));
            }
        }
    }
    let skip = app.scroll_of(Pane::Memory.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    frame.render_widget(paragraph(out, pane_block(app, Pane::Memory, String::new()), Style::default()), area);
}

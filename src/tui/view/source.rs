//! The source pane: line numbers, syntax colours, breakpoints, the cursor, where warps are, the selected
//! warp's reconvergence line, and the lines threads wait on when the kernel is stuck.

use std::collections::BTreeSet;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::clip::window;
use super::{pane_block, paragraph};
use crate::sim::Outcome;
use crate::sim::inspect;
use crate::tui::app::{App, Pane};
use crate::tui::theme::Theme;

const KEYWORDS: [&str; 18] = [
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "return",
    "__global__",
    "__device__",
    "__shared__",
    "const",
    "volatile",
    "static",
    "__restrict__",
    "inline",
    "__forceinline__",
    "extern",
];
const TYPES: [&str; 9] = ["int", "unsigned", "float", "double", "bool", "char", "void", "uint32_t", "int32_t"];

fn is_builtin(w: &str) -> bool {
    matches!(w, "threadIdx" | "blockIdx" | "blockDim" | "gridDim" | "warpSize" | "printf" | "true" | "false")
        || w.starts_with("__sync")
        || w.starts_with("__shfl")
        || w.starts_with("__threadfence")
        || w.starts_with("atomic")
        || w.ends_with("_sync")
        || w == "__activemask"
}

/// Splits one line into coloured spans; `in_comment` carries `/* */` across lines.
pub fn highlight<'a>(text: &'a str, t: &Theme, in_comment: &mut bool) -> Vec<Span<'a>> {
    let mut out = vec![];
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if *in_comment {
            match text[i..].find("*/") {
                Some(e) => {
                    i += e + 2;
                    *in_comment = false;
                }
                None => i = b.len(),
            }
            out.push(Span::styled(&text[start..i], t.fg(t.comment)));
            continue;
        }
        let c = b[i];
        if text[i..].starts_with("//") {
            out.push(Span::styled(&text[i..], t.fg(t.comment).add_modifier(Modifier::ITALIC)));
            break;
        } else if text[i..].starts_with("/*") {
            *in_comment = true;
            i += 2;
            continue;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.push(Span::styled(&text[start..i], t.fg(t.string)));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
            out.push(Span::styled(&text[start..i], t.fg(t.number)));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let w = &text[start..i];
            let style = if KEYWORDS.contains(&w) {
                t.fg(t.keyword).add_modifier(Modifier::BOLD)
            } else if TYPES.contains(&w) {
                t.fg(t.type_name)
            } else if is_builtin(w) {
                t.fg(t.builtin)
            } else {
                t.fg(t.foreground)
            };
            out.push(Span::styled(w, style));
        } else if c == b'#' && text[..i].trim().is_empty() {
            out.push(Span::styled(&text[i..], t.fg(t.keyword)));
            break;
        } else {
            let ch_len = text[i..].chars().next().map_or(1, char::len_utf8);
            i += ch_len;
            out.push(Span::styled(&text[start..i], t.fg(t.foreground)));
        }
    }
    out
}

/// Columns before a line's text: breakpoint, number, marker, warp count and the separator.
fn prefix_width(lines: usize) -> usize {
    lines.max(1).to_string().len() + 10
}

/// Columns of source text the pane at `area` shows per line (inside its border, after the prefix).
pub fn text_width(app: &App, area: Rect) -> usize {
    (area.width.saturating_sub(2) as usize).saturating_sub(prefix_width(app.source_lines().len()))
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let m = &app.session.machine;
    let lines = app.source_lines();
    let per_line = inspect::warps_per_line(m);
    let selected = app.selected.and_then(|s| {
        m.blocks.iter().find(|b| b.linear == s.block).and_then(|b| b.warps.get(s.warp as usize).map(|w| (b, w)))
    });
    let (sel_line, reconv_line) = match selected {
        Some((b, w)) => {
            let s = inspect::summarize(m, b, w);
            (s.pc.map(|pc| m.kernel.line(pc)), inspect::reconvergence(w).map(|pc| m.kernel.line(pc)))
        }
        None => (None, None),
    };
    let waits: BTreeSet<u32> = match m.outcome() {
        Some(Outcome::Deadlock(s)) | Some(Outcome::Livelock(s)) => s.waits.iter().map(|w| w.line).collect(),
        Some(Outcome::Fault(f)) => [f.line].into(),
        _ => BTreeSet::new(),
    };
    let inner_h = area.height.saturating_sub(2) as usize;
    let top = app.source_top.max(1) as usize;
    let digits = lines.len().max(1).to_string().len();
    let width = text_width(app, area);
    let mut in_comment = false;
    // Comment state must account for the lines scrolled past.
    for l in lines.iter().take(top - 1) {
        let _ = highlight(l, t, &mut in_comment);
    }
    let mut out = vec![];
    for (i, text) in lines.iter().enumerate().skip(top - 1).take(inner_h) {
        let n = i as u32 + 1;
        let bp =
            if app.session.breakpoints.contains(&n) { Span::styled("●", t.fg(t.breakpoint)) } else { Span::raw(" ") };
        let num =
            Span::styled(format!("{n:>digits$} "), if Some(n) == sel_line { t.fg(t.warp_marker) } else { t.dim() });
        let marker = if Some(n) == sel_line {
            Span::styled("▶", t.fg(t.warp_marker).add_modifier(Modifier::BOLD))
        } else if Some(n) == reconv_line {
            Span::styled("⤓", t.fg(t.reconvergence).add_modifier(Modifier::BOLD))
        } else {
            Span::raw(" ")
        };
        let count = match per_line.get(&n) {
            Some(c) => Span::styled(format!("{:>3}w", c.min(&999)), t.fg(t.warp_marker)),
            None => Span::raw("    "),
        };
        let mut spans = vec![bp, num, marker, count, Span::styled(" │ ", t.dim())];
        spans.extend(window(highlight(text, t, &mut in_comment), app.source_left, width, t));
        let mut line = Line::from(spans);
        if waits.contains(&n) {
            line = line.style(t.wait_line());
        } else if n == app.cursor {
            line = line.style(t.cursor_line());
        }
        out.push(line);
    }
    let mut extra = match reconv_line {
        Some(r) => format!("⤓ reconverges at {r}"),
        None => String::new(),
    };
    if app.source_left > 0 {
        // Scrolled sideways: say from which column, so the view is not mistaken for the code.
        let sep = if extra.is_empty() { "" } else { " · " };
        extra = format!("{extra}{sep}from column {}", app.source_left + 1);
    }
    frame.render_widget(paragraph(out, pane_block(app, Pane::Source, extra), Style::default()), area);
}

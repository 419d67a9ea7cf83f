//! Long lines in a pane that does not wrap (the source, the Program pane): the part a pane shows from a
//! column on, with a dim `…` at each edge where the line goes on, so a cut line is never mistaken for a
//! short one. The panes scroll sideways with the keymap's `ScrollLeft` / `ScrollRight`
//! (`tui::navigate::scroll_sideways`).

use ratatui::text::{Line, Span};

use crate::tui::theme::Theme;

/// Characters in a line (every glyph warpdbg draws is one column wide).
pub fn width(line: &Line) -> usize {
    line.spans.iter().map(|s| s.content.chars().count()).sum()
}

/// The part of a line (as spans) the pane shows in `width` columns: from character `left` on, with a dim `…`
/// in the first column when characters before it are scrolled off and in the last when the line goes on.
pub fn window<'a>(spans: Vec<Span<'a>>, left: usize, width: usize, t: &Theme) -> Vec<Span<'a>> {
    let total: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    if width == 0 || (left == 0 && total <= width) {
        return spans;
    }
    let cut_left = left > 0 && total > 0;
    // The columns the text itself keeps, after room for the markers: it starts at character `left`, right
    // after the left marker, so the pane's "from column" is exact.
    let avail = width.saturating_sub(usize::from(cut_left));
    let cut_right = total > left + avail;
    let from = left;
    let keep = avail.saturating_sub(usize::from(cut_right));
    let mut out = vec![];
    if cut_left {
        out.push(Span::styled("…", t.dim()));
    }
    let mut pos = 0;
    for s in spans {
        let n = s.content.chars().count();
        let (a, b) = (from.max(pos), (from + keep).min(pos + n));
        if a < b {
            let text: String = s.content.chars().skip(a - pos).take(b - a).collect();
            out.push(Span::styled(text, s.style));
        }
        pos += n;
    }
    if cut_right {
        let shown: usize = out.iter().map(|s| s.content.chars().count()).sum();
        out.push(Span::raw(" ".repeat(width.saturating_sub(shown + 1))));
        out.push(Span::styled("…", t.dim()));
    }
    out
}

/// [`window`] of a whole line, keeping its own style (a line styled as one, e.g. a banner colour).
pub fn window_line<'a>(line: Line<'a>, left: usize, width: usize, t: &Theme) -> Line<'a> {
    let style = line.style;
    Line::from(window(line.spans, left, width, t)).style(style)
}

//! Finding one's way in the source and the banner: search (`/`), go to a line, horizontal scroll of long
//! source lines (and of the Program pane's), and scrolling a long stop explanation. `update` calls these; they change only the view's
//! state (cursor, scroll offsets, the status message), never the session.

use ratatui::layout::Rect;

use super::action::Action;
use super::app::{App, Pane};
use super::theme::BannerKind;
use super::view;

/// Columns one press of the horizontal scroll keys moves the source by.
pub const SCROLL_COLUMNS: usize = 8;

/// Moves the source cursor to the next line after it that contains `text` (wrapping past the end); an empty
/// `text` repeats the last search. Says "not found" when no line has it.
pub fn search(app: &mut App, text: &str) {
    let text = if text.is_empty() {
        match &app.search {
            Some(t) => t.clone(),
            None => {
                let key = app.keymap.first_key(Action::Search).unwrap_or_else(|| "/".into());
                app.message = Some((BannerKind::Warn, format!("nothing searched for yet: {key} asks for text")));
                return;
            }
        }
    } else {
        text.to_string()
    };
    app.search = Some(text.clone());
    let lines = app.source_lines();
    let n = lines.len();
    let from = app.cursor as usize; // 1-based cursor: index of the line after it
    let found = (0..n).map(|k| (from + k) % n.max(1)).find(|&i| lines[i].contains(&text));
    let Some(i) = found else {
        app.message = Some((BannerKind::Error, format!("`{text}` not found in the source")));
        return;
    };
    let col = lines[i].find(&text).map_or(0, |b| lines[i][..b].chars().count());
    let wrapped = i < from;
    app.cursor = i as u32 + 1;
    app.focus = Pane::Source;
    reveal_column(app, col, text.chars().count());
    let again = app.keymap.first_key(Action::SearchNext).map_or(String::new(), |k| format!("; {k} finds the next"));
    let wrap = if wrapped { " (from the top)" } else { "" };
    app.message = Some((BannerKind::Ok, format!("`{text}` on line {}{wrap}{again}", app.cursor)));
}

/// The `go to line` prompt's answer: moves the source cursor to that line.
pub fn goto_line(app: &mut App, text: &str) {
    let n = app.source_lines().len();
    match text.parse::<usize>() {
        Ok(l) if (1..=n).contains(&l) => {
            app.cursor = l as u32;
            app.focus = Pane::Source;
            app.message = Some((BannerKind::Ok, format!("line {l}")));
        }
        _ => app.message = Some((BannerKind::Error, format!("no line `{text}`: the source has lines 1 to {n}"))),
    }
}

/// The source pane's width for text (inside its border, after the line numbers and markers).
fn text_width(app: &App) -> usize {
    let areas = view::areas(app, Rect::new(0, 0, app.size.0, app.size.1));
    view::source::text_width(app, areas.source)
}

/// Scrolls the source horizontally so columns `col .. col + len` of the lines are visible.
fn reveal_column(app: &mut App, col: usize, len: usize) {
    let width = text_width(app).max(1);
    if col < app.source_left {
        app.source_left = col.saturating_sub(SCROLL_COLUMNS) / SCROLL_COLUMNS * SCROLL_COLUMNS;
    } else if col + len > app.source_left + width {
        let want = (col + len).saturating_sub(width) + 1;
        app.source_left = want.div_ceil(SCROLL_COLUMNS) * SCROLL_COLUMNS;
    }
}

/// `ScrollLeft` (`dir` < 0) / `ScrollRight`: the Program pane's lines while it has the focus, else the
/// source's.
pub fn scroll_sideways(app: &mut App, dir: i32) {
    if app.focus == Pane::Program && app.program.is_some() {
        scroll_program(app, dir);
    } else {
        scroll_source(app, dir);
    }
}

/// Scrolls the Program pane's long lines (a program's output) left or right, [`SCROLL_COLUMNS`] at a time,
/// no further than shows the end of its longest line.
fn scroll_program(app: &mut App, dir: i32) {
    let area = view::areas(app, Rect::new(0, 0, app.size.0, app.size.1)).program;
    let longest = view::program::lines(app).iter().map(view::clip::width).max().unwrap_or(0);
    let max = longest.saturating_sub(view::program::text_width(area).saturating_sub(1));
    if max == 0 {
        app.program_left = 0;
        app.message = Some((BannerKind::Ok, "every line of the Program pane fits it".into()));
        return;
    }
    app.program_left = step_columns(app.program_left, dir, max);
    app.message = Some((BannerKind::Ok, format!("Program pane from column {}", app.program_left + 1)));
}

/// `left` moved [`SCROLL_COLUMNS`] left (`dir` < 0) or right, at most to the multiple that shows column `max`.
fn step_columns(left: usize, dir: i32, max: usize) -> usize {
    if dir < 0 {
        left.saturating_sub(SCROLL_COLUMNS)
    } else {
        (left + SCROLL_COLUMNS).min(max.div_ceil(SCROLL_COLUMNS) * SCROLL_COLUMNS)
    }
}

/// Scrolls long source lines left (`dir` < 0) or right, [`SCROLL_COLUMNS`] at a time, no further than shows
/// the end of the longest line.
fn scroll_source(app: &mut App, dir: i32) {
    let longest = app.source_lines().iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let max = longest.saturating_sub(text_width(app).saturating_sub(1));
    if max == 0 {
        app.source_left = 0;
        app.message = Some((BannerKind::Ok, "every source line fits the pane".into()));
        return;
    }
    app.source_left = step_columns(app.source_left, dir, max);
    app.message = Some((BannerKind::Ok, format!("source from column {}", app.source_left + 1)));
}

/// Scrolls the banner's long explanation down by what it shows at once; after its end, back to the top.
pub fn scroll_banner(app: &mut App) {
    let area = view::areas(app, Rect::new(0, 0, app.size.0, app.size.1)).banner;
    let (max, page) = view::chrome::banner_scroll_range(app, area);
    if max == 0 {
        app.banner_scroll = 0;
        let what = if area.height == 0 { "the banner is empty" } else { "the banner shows all it has to say" };
        app.message = Some((BannerKind::Ok, what.into()));
        return;
    }
    app.banner_scroll = if app.banner_scroll >= max { 0 } else { (app.banner_scroll + page.max(1)).min(max) };
}

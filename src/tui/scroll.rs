//! Keeping what matters on screen: the source scrolled to the cursor (and, when the kernel is stuck or
//! faulted, to the lines it waits on), the warps list to the selected warp, the help within its length. Every
//! front end calls [`keep_cursor_visible`] after each event; `update` and the program commands call
//! [`reveal_stuck_lines`] after a run stops. It sits below both so neither imports the other for it.

use ratatui::layout::Rect;

use super::app::{App, Pane};
use super::view;
use super::view::chrome::{HELP_SCROLL, help_max_scroll};

/// When the kernel is stuck (deadlock, livelock) or faulted, scrolls the source so the lines threads wait on
/// (or the faulting line) are on screen together with the cursor, where they fit: the highlight is useless
/// on a line scrolled out of view.
pub fn reveal_stuck_lines(app: &mut App) {
    use crate::sim::Outcome;
    let lines: Vec<u32> = match app.session.machine.outcome() {
        Some(Outcome::Deadlock(s)) | Some(Outcome::Livelock(s)) => s.waits.iter().map(|w| w.line).collect(),
        Some(Outcome::Fault(f)) => vec![f.line],
        _ => return,
    };
    let (Some(lo), Some(hi)) = (lines.iter().chain([&app.cursor]).min(), lines.iter().chain([&app.cursor]).max())
    else {
        return;
    };
    let areas = view::areas(app, Rect::new(0, 0, app.size.0, app.size.1));
    let rows = areas.source.height.saturating_sub(2).max(1) as u32;
    if hi - lo < rows {
        if *lo < app.source_top {
            app.source_top = *lo;
        } else if *hi >= app.source_top + rows {
            app.source_top = hi + 1 - rows;
        }
    }
    keep_cursor_visible(app);
}

/// Scrolls the source so the cursor stays visible (and the pane full: no blank rows after the last line while
/// earlier lines are hidden), and the warps list to a newly selected warp. The event loop calls it after every
/// event, so a resize or a selection made by any command is followed.
pub fn keep_cursor_visible(app: &mut App) {
    let areas = view::areas(app, Rect::new(0, 0, app.size.0, app.size.1));
    let rows = areas.source.height.saturating_sub(2).max(1) as u32;
    if app.cursor < app.source_top {
        app.source_top = app.cursor;
    } else if app.cursor >= app.source_top + rows {
        app.source_top = app.cursor + 1 - rows;
    }
    let n = app.source_lines().len() as u32;
    app.source_top = app.source_top.min((n + 1).saturating_sub(rows)).max(1);
    // The warps pane follows the selection when it changes; the wheel may scroll it away afterwards.
    if app.selected != app.warps_followed {
        app.warps_followed = app.selected;
        let list = app.warp_list();
        let rows = view::warps::list_rows(areas.warps);
        if let Some(i) = app.selected.and_then(|s| list.iter().position(|w| *w == s)) {
            let first = app.scroll_of(Pane::Warps.title());
            if i < first {
                app.scroll.insert(Pane::Warps.title(), i);
            } else if rows > 0 && i >= first + rows {
                app.scroll.insert(Pane::Warps.title(), i + 1 - rows);
            }
        }
    }
    let first = view::warps::first_row(app, areas.warps);
    app.scroll.insert(Pane::Warps.title(), first);
    let help = help_max_scroll(app, Rect::new(0, 0, app.size.0, app.size.1));
    if app.scroll_of(HELP_SCROLL) > help {
        app.scroll.insert(HELP_SCROLL, help);
    }
    app.refresh_why();
}

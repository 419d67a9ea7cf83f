//! The warps pane: every resident warp with its state, line, 32-lane active mask and stack depth.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{pane_block, paragraph};
use crate::sim::inspect::{self, WarpState};
use crate::sim::{LaneMask, Outcome};
use crate::tui::app::{App, Pane, WarpRef};
use crate::tui::theme::{LaneLook, Theme};

/// The 32 lanes as cells: active, inactive (live but not issuing) or gone (exited / not in the block).
pub fn lane_bar<'a>(t: &Theme, active: LaneMask, live: LaneMask, width: usize) -> Vec<Span<'a>> {
    let per = if width >= 32 { 1 } else { 2 };
    let mut spans = vec![];
    for cell in 0..(32 / per) {
        let lanes: Vec<u32> = (0..per as u32).map(|k| cell as u32 * per as u32 + k).collect();
        let look = if lanes.iter().any(|l| active.contains(*l)) {
            LaneLook::Active
        } else if lanes.iter().any(|l| live.contains(*l)) {
            LaneLook::Inactive
        } else {
            LaneLook::Gone
        };
        let (ch, style) = t.lane(look);
        spans.push(Span::styled(ch.to_string(), style));
    }
    spans
}

fn state_style(t: &Theme, s: WarpState) -> Style {
    match s {
        WarpState::Ready => t.fg(t.active_lane),
        WarpState::Diverged => t.fg(t.reconvergence),
        WarpState::Barrier | WarpState::Waiting => t.fg(t.builtin),
        WarpState::Exited => t.dim(),
        WarpState::Stuck => t.fg(t.breakpoint).add_modifier(Modifier::BOLD),
    }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let m = &app.session.machine;
    let inner_w = area.width.saturating_sub(2) as usize;
    let list = app.warp_list();
    let label = |b: &crate::sim::machine::BlockState| {
        if m.launch.grid.y == 1 && m.launch.grid.z == 1 { b.idx.x.to_string() } else { b.idx.to_string() }
    };
    let blk_w = m.blocks.iter().map(|b| label(b).len()).max().unwrap_or(0).max(3);
    let pre_volta = m.mode() == crate::launch::Mode::PreVolta;
    let fixed = blk_w + 1 + 2 + 1 + 8 + 1 + 4 + 1 + if pre_volta { 3 } else { 0 };
    let bar_w = if inner_w >= fixed + 32 { 32 } else { 16 };
    let mut out = vec![Line::styled(
        format!(
            "{:<blk_w$} {:>2} {:<8} {:>4} {:<bar_w$}{}",
            "blk",
            "w",
            "state",
            "line",
            if bar_w == 32 { "lanes 0-31" } else { "lanes (2/cell)" },
            if pre_volta { " stk" } else { "" }
        ),
        t.dim().add_modifier(Modifier::UNDERLINED),
    )];
    let sel_idx = app.selected.and_then(|s| list.iter().position(|w| *w == s)).unwrap_or(0);
    let rows = area.height.saturating_sub(3) as usize;
    // Keep the selection in view: the scroll offset follows it.
    let mut first = app.scroll_of(Pane::Warps.title()).min(list.len().saturating_sub(1));
    if sel_idx < first {
        first = sel_idx;
    } else if rows > 0 && sel_idx >= first + rows {
        first = sel_idx + 1 - rows;
    }
    for wr in list.iter().skip(first).take(rows) {
        let Some(b) = m.blocks.iter().find(|b| b.linear == wr.block) else { continue };
        let w = &b.warps[wr.warp as usize];
        let s = inspect::summarize(m, b, w);
        let line = s.pc.map_or("-".to_string(), |pc| m.kernel.line(pc).to_string());
        let blk = label(b);
        let mut spans = vec![
            Span::styled(format!("{blk:<blk_w$} {:>2} ", wr.warp), t.fg(t.foreground)),
            Span::styled(format!("{:<8} ", s.state.name()), state_style(t, s.state)),
            Span::styled(format!("{line:>4} "), t.fg(t.foreground)),
        ];
        spans.extend(lane_bar(t, s.active, s.live, bar_w));
        if let Some(d) = s.depth {
            spans.push(Span::styled(format!(" {d:>3}"), t.fg(t.foreground)));
        }
        let mut l = Line::from(spans);
        if Some(*wr) == app.selected.map(|s| WarpRef { block: s.block, warp: s.warp }) {
            l = l.style(t.selected().add_modifier(Modifier::BOLD));
        }
        out.push(l);
    }
    let done = m.total_blocks - m.blocks.len() as u64;
    let mut extra = format!("{} resident", list.len());
    if done > 0 {
        extra.push_str(&format!(", {done} blocks finished or queued"));
    }
    if let Some(Outcome::Deadlock(_)) = m.outcome() {
        extra.push_str(" · deadlocked");
    }
    frame.render_widget(paragraph(out, pane_block(app, Pane::Warps, extra), Style::default()), area);
}

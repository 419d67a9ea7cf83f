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

/// The 32 lanes as cells: active, inactive (live but not issuing) or gone (exited / not in the block). When
/// narrower than 32, a cell holds two lanes, and a pair with only one active lane is drawn half full (`▌` the
/// lower lane, `▐` the upper), so a diverged warp never looks fully active.
pub fn lane_bar<'a>(t: &Theme, active: LaneMask, live: LaneMask, width: usize) -> Vec<Span<'a>> {
    let look = |l: u32| {
        if active.contains(l) {
            LaneLook::Active
        } else if live.contains(l) {
            LaneLook::Inactive
        } else {
            LaneLook::Gone
        }
    };
    let mut spans = vec![];
    if width >= 32 {
        for l in 0..32 {
            let (ch, style) = t.lane(look(l));
            spans.push(Span::styled(ch.to_string(), style));
        }
        return spans;
    }
    for cell in 0..16 {
        let (lo, hi) = (look(2 * cell), look(2 * cell + 1));
        let (ch, style) = match (lo, hi) {
            (LaneLook::Active, LaneLook::Active) => t.lane(LaneLook::Active),
            (LaneLook::Active, _) => ('▌', t.lane(LaneLook::Active).1),
            (_, LaneLook::Active) => ('▐', t.lane(LaneLook::Active).1),
            (LaneLook::Inactive, _) | (_, LaneLook::Inactive) => t.lane(LaneLook::Inactive),
            _ => t.lane(LaneLook::Gone),
        };
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

/// Rows of warps the pane shows in `area` (inside the border, under the header).
pub fn list_rows(area: Rect) -> usize {
    area.height.saturating_sub(3) as usize
}

/// The first warp the pane shows in `area`: the scroll offset, clamped so the list fills the pane. Mouse
/// hit-testing uses the same number, so a click selects the warp drawn under it.
pub fn first_row(app: &App, area: Rect) -> usize {
    let n = app.warp_list().len();
    app.scroll_of(Pane::Warps.title()).min(n.saturating_sub(list_rows(area).max(1)))
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let m = &app.session.machine;
    let inner_w = area.width.saturating_sub(2) as usize;
    let list = app.warp_list();
    let label = |b: &crate::sim::BlockState| {
        if m.launch.grid.y == 1 && m.launch.grid.z == 1 { b.idx.x.to_string() } else { b.idx.to_string() }
    };
    let blk_w = m.blocks.iter().map(|b| label(b).len()).max().unwrap_or(0).max(3);
    let pre_volta = m.mode() == crate::front::launch::Mode::PreVolta;
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
    let rows = list_rows(area);
    // `update` scrolls the list to a new selection (and the wheel scrolls it); drawing only clamps.
    let first = first_row(app, area);
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
        extra.push_str(&format!(", {done} block{} finished or queued", if done == 1 { "" } else { "s" }));
    }
    if let Some(Outcome::Deadlock(_)) = m.outcome() {
        extra.push_str(" · deadlocked");
    }
    frame.render_widget(paragraph(out, pane_block(app, Pane::Warps, extra), Style::default()), area);
}

//! Where each pane goes, as a pure function of the screen size (shared by drawing and mouse hit-testing).

use ratatui::layout::{Constraint, Direction, Layout, Position, Rect};

use crate::tui::app::Pane;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Areas {
    pub title: Rect,
    pub source: Rect,
    pub warps: Rect,
    pub detail: Rect,
    pub memory: Rect,
    pub metrics: Rect,
    /// A whole program's pane (launches, host variables, output); empty for a kernel file.
    pub program: Rect,
    pub banner: Rect,
    pub footer: Rect,
}

impl Areas {
    pub fn pane(&self, p: Pane) -> Rect {
        match p {
            Pane::Source => self.source,
            Pane::Warps => self.warps,
            Pane::Detail => self.detail,
            Pane::Memory | Pane::Lanes => self.memory,
            Pane::Metrics => self.metrics,
            Pane::Program => self.program,
        }
    }

    pub fn pane_at(&self, at: Position) -> Option<(Pane, Rect)> {
        Pane::ORDER.iter().map(|p| (*p, self.pane(*p))).find(|(_, r)| r.contains(at))
    }
}

/// Title row, body (source | warps over detail), memory | metrics row, banner, footer.
pub fn layout(area: Rect, banner: u16) -> Areas {
    layout_with(area, banner, false)
}

/// [`layout`], with a program pane between memory and metrics when `program` (a whole program is open).
pub fn layout_with(area: Rect, banner: u16, program: bool) -> Areas {
    let banner = banner.min(area.height.saturating_sub(6) / 2);
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(1), Constraint::Min(0), Constraint::Length(banner), Constraint::Length(1)])
        .split(area);
    let body = rows[1];
    let bottom_h = if program {
        (body.height * 4 / 10).clamp(4.min(body.height / 2), 18)
    } else {
        (body.height * 3 / 10).clamp(4.min(body.height / 2), 14)
    };
    let body_rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(0), Constraint::Length(bottom_h)])
        .split(body);
    let left_pct = if area.width >= 140 { 52 } else { 50 };
    let top = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(left_pct), Constraint::Percentage(100 - left_pct)])
        .split(body_rows[0]);
    let right = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
        .split(top[1]);
    let split: &[Constraint] = if program {
        &[Constraint::Percentage(36), Constraint::Percentage(40), Constraint::Percentage(24)]
    } else {
        &[Constraint::Percentage(60), Constraint::Percentage(40)]
    };
    let bottom = Layout::default().direction(Direction::Horizontal).constraints(split).split(body_rows[1]);
    let (program, metrics) = if program { (bottom[1], bottom[2]) } else { (Rect::default(), bottom[1]) };
    Areas {
        title: rows[0],
        source: top[0],
        warps: right[0],
        detail: right[1],
        memory: bottom[0],
        metrics,
        program,
        banner: rows[2],
        footer: rows[3],
    }
}

//! The selected warp in depth: SIMT-stack entries (pre-Volta) or thread groups by PC (ITS), barrier
//! arrivals, and the variables of its first active thread.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Wrap;

use super::warps::lane_bar;
use super::{pane_block, paragraph};
use crate::ir::Pc;
use crate::sim::inspect;
use crate::sim::lane_mask::format_ranges;
use crate::sim::warp::WarpModel;
use crate::tui::app::{App, Pane};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let m = &app.session.machine;
    let k = &m.kernel;
    let line_of = |pc: Pc| if pc == Pc::EXIT { "exit".to_string() } else { format!("L{}", k.line(pc)) };
    let mut out: Vec<Line> = vec![];
    let sel = app.selected.and_then(|s| m.blocks.iter().find(|b| b.linear == s.block).map(|b| (b, s.warp)));
    let title = match sel {
        Some((b, w)) => format!("block {} warp {w}", b.idx),
        None => String::new(),
    };
    if let Some((b, wi)) = sel {
        let w = &b.warps[wi as usize];
        let lanes = |mask: crate::sim::LaneMask| {
            let v: Vec<u32> = mask.iter().collect();
            format_ranges(&v)
        };
        match &w.model {
            WarpModel::PreVolta { stack, at_barrier } => {
                out.push(Line::styled("SIMT stack (top first): pc, reconvergence pc, mask", t.dim()));
                for (i, e) in stack.entries.iter().enumerate().rev() {
                    let top = i + 1 == stack.entries.len();
                    let rpc = if e.rpc == Pc::EXIT {
                        "exit".to_string()
                    } else {
                        format!("{} ({})", e.rpc.0, line_of(e.rpc))
                    };
                    out.push(Line::styled(
                        format!("{}#{i}  pc {} ({})  rpc {rpc}", if top { "▶ " } else { "  " }, e.pc.0, line_of(e.pc)),
                        if top { t.fg(t.warp_marker).add_modifier(Modifier::BOLD) } else { t.fg(t.foreground) },
                    ));
                    let mut spans = vec![Span::raw("    ")];
                    spans.extend(lane_bar(t, e.mask, w.live, 32));
                    spans.push(Span::styled(format!(" {}", lanes(e.mask)), t.dim()));
                    out.push(Line::from(spans));
                }
                if let Some(pc) = at_barrier {
                    out.push(Line::styled(
                        format!("waiting at the __syncthreads() on line {}", k.line(*pc)),
                        t.fg(t.builtin),
                    ));
                }
            }
            WarpModel::Its(its) => {
                out.push(Line::styled("Threads by PC (ITS: every thread has its own PC)", t.dim()));
                for (pc, mask, what) in inspect::thread_groups(w) {
                    out.push(Line::styled(format!("  {} pc {}: {what}", line_of(pc), pc.0), t.fg(t.foreground)));
                    let mut spans = vec![Span::raw("    ")];
                    spans.extend(lane_bar(t, mask, w.live, 32));
                    spans.push(Span::styled(format!(" {}", lanes(mask)), t.dim()));
                    out.push(Line::from(spans));
                }
                for cb in &its.barriers {
                    out.push(Line::styled(
                        format!(
                            "  convergence barrier: lanes {} reconverge at {} (branch at {})",
                            lanes(cb.members),
                            line_of(cb.reconv),
                            line_of(cb.branch)
                        ),
                        t.fg(t.reconvergence),
                    ));
                }
            }
        }
        // Barrier arrivals in the block.
        let arrived: u32 = b.warps.iter().map(|w| w.at_barrier().count()).sum();
        let live: u32 = b.warps.iter().map(|w| w.live.count()).sum();
        if arrived > 0 {
            out.push(Line::styled(format!("block barrier: {arrived} of {live} live threads arrived"), t.fg(t.builtin)));
        }
        // Variables of the first thread that runs next (or the first live one).
        let s = inspect::summarize(m, b, w);
        if let Some(lane) = s.active.lowest().or(w.live.lowest()) {
            let tid = wi * 32 + lane;
            let vars = inspect::variables(k, b, tid);
            let text: Vec<String> = vars.iter().map(|(n, v)| format!("{n}={v}")).collect();
            out.push(Line::from(vec![
                Span::styled(format!("thread {tid}: "), t.fg(t.title)),
                Span::styled(text.join("  "), t.fg(t.foreground)),
            ]));
        }
    } else {
        out.push(Line::styled("no warp is resident", t.dim()));
    }
    let skip = app.scroll_of(Pane::Detail.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    frame.render_widget(
        paragraph(out, pane_block(app, Pane::Detail, title), Style::default()).wrap(Wrap { trim: false }),
        area,
    );
}

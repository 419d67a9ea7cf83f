//! The metrics pane: Nsight-style divergence figures for the run so far (with the global-memory efficiency
//! of loads and stores once there are requests), and per line its branch counts and memory efficiency.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{pane_block, paragraph};
use crate::sim::format_ranges;
use crate::sim::inspect::bank_matrix;
use crate::sim::traffic::Requests;
use crate::tui::app::{App, Pane};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let (title, out) = lines(app, area.width.saturating_sub(2) as usize);
    let skip = app.scroll_of(Pane::Metrics.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    frame.render_widget(paragraph(out, pane_block(app, Pane::Metrics, title), Style::default()), area);
}

/// The pane's title (after "Metrics · ") and all its rows, `width` columns wide: the divergence figures, or
/// the bank view (the coalescing view is `coalescing.rs`'s).
pub fn lines(app: &App, width: usize) -> (String, Vec<Line<'static>>) {
    if app.bank_view {
        return bank_lines(app, width);
    }
    let t = &app.theme;
    let mt = &app.session.machine.metrics;
    let (ld, st, _) = mt.traffic.totals();
    let pre_volta = app.session.mode() == crate::front::launch::Mode::PreVolta;
    // The figures, with long labels where they fit and short ones (and "div.") in a narrow pane.
    let figures = |short: bool| {
        let mut rows = vec![
            (["branch efficiency", "branch eff."], format!("{:.2}%", mt.branch_efficiency())),
            (
                ["branches", "branches"],
                format!("{} ({} {})", mt.branches, mt.divergent_branches, if short { "div." } else { "divergent" }),
            ),
            (["divergent warps", "div. warps"], format!("{} of {}", mt.divergent_warps, mt.warps)),
            (["threads / instr", "thr / instr"], format!("{:.2}", mt.threads_per_instruction())),
            (["warp instructions", "warp instrs"], mt.warp_instructions.to_string()),
        ];
        if pre_volta {
            rows.push((["max stack depth", "stack depth"], mt.max_stack_depth.to_string()));
        }
        // The kernel's global-memory totals, loads / stores (nvprof's gld_ and gst_efficiency, and
        // transactions per request), once it made requests.
        if ld.requests + st.requests > 0 {
            let both = |f: &dyn Fn(&Requests) -> String| {
                [ld, st].map(|r| if r.requests > 0 { f(&r) } else { "·".to_string() }).join(" / ")
            };
            rows.push((["gld / gst eff.", "ld/st eff."], both(&|r| format!("{:.1}%", r.efficiency()))));
            rows.push((["sectors / req", "sect./req"], both(&|r| format!("{:.2}", r.sectors_per_request()))));
        }
        rows.into_iter().map(|(k, v)| (k[usize::from(short)], v)).collect::<Vec<_>>()
    };
    let fits = |rows: &[(&str, String)], pad: usize| rows.iter().all(|(_, v)| pad + v.chars().count() <= width);
    let (rows, pad) = if fits(&figures(false), 18) { (figures(false), 18) } else { (figures(true), 12) };
    let mut out = vec![];
    for (k, v) in rows {
        // Still too wide: the value goes on the next row, under the values.
        if pad + v.chars().count() > width {
            out.push(Line::from(Span::styled(k.to_string(), t.dim())));
            out.push(Line::from(Span::styled(format!("{:pad$}{v}", ""), t.fg(t.foreground))));
        } else {
            out.push(Line::from(vec![
                Span::styled(format!("{k:<pad$}"), t.dim()),
                Span::styled(v, t.fg(t.foreground)),
            ]));
        }
    }
    // Lines with branches or global requests: the branch counts (`·` without branches) and the line's global
    // efficiency (`·` without requests).
    let mut per_line: std::collections::BTreeSet<u32> =
        mt.per_line.values().filter(|l| l.branches > 0).map(|l| l.line).collect();
    per_line.extend(mt.traffic.lines().map(|l| l.line));
    let mut styles = vec![];
    let cells: Vec<Vec<String>> = per_line
        .iter()
        .map(|&n| {
            let branches = mt.per_line.get(&n).filter(|l| l.branches > 0);
            let mut row = vec![n.to_string()];
            match branches {
                Some(l) => row.extend([l.branches, l.divergent_branches, l.divergent_warps].map(|n| n.to_string())),
                None => row.extend(["·", "·", "·"].map(String::from)),
            }
            let traffic = mt.traffic.line(n).map(|l| l.total());
            row.push(traffic.map_or("·".to_string(), |r| format!("{:.1}%", r.efficiency())));
            let wasteful = traffic.is_some_and(|r| r.efficiency() < 100.0);
            let divergent = branches.is_some_and(|l| l.divergent_branches > 0);
            styles.push(if divergent || wasteful { t.fg(t.reconvergence) } else { t.fg(t.foreground) });
            row
        })
        .collect();
    let (head, body) = table(
        &[["line", "line"], ["branches", "br."], ["divergent", "div."], ["warps", "warps"], ["mem eff.", "mem"]],
        &[5, 9, 9, 7, 8],
        &cells,
        width,
    );
    out.push(Line::styled(head, t.dim().add_modifier(Modifier::UNDERLINED)));
    for (style, row) in styles.into_iter().zip(body) {
        out.push(Line::styled(row, style));
    }
    (String::new(), out)
}

/// The shared-memory bank view (`K`): per line with shared accesses, Nsight's figures; then the lane-to-bank
/// matrix of the latest access on the source cursor's line (or, when it has none, on the worst line).
fn bank_lines(app: &App, width: usize) -> (String, Vec<Line<'static>>) {
    let t = &app.theme;
    let banks = &app.session.machine.metrics.banks;
    let head = t.dim().add_modifier(Modifier::UNDERLINED);
    let cells: Vec<Vec<String>> = banks
        .per_line
        .values()
        .map(|l| {
            let n = [l.line as u64, l.accesses, l.wavefronts, l.conflicts].map(|n| n.to_string());
            let mut row = n.to_vec();
            row.push(format!("{}-way", l.max_ways));
            row
        })
        .collect();
    let heads =
        [["line", "line"], ["accesses", "acc."], ["wavefronts", "wfs"], ["conflicts", "confl."], ["worst", "worst"]];
    let (header, body) = table(&heads, &[5, 8, 10, 9, 6], &cells, width);
    let mut out = vec![Line::styled(header, head)];
    for (l, row) in banks.per_line.values().zip(body) {
        let style = if l.conflicts > 0 { t.fg(t.reconvergence) } else { t.fg(t.foreground) };
        out.push(Line::styled(row, style));
    }
    let shown = match banks.per_line.get(&app.cursor) {
        Some(l) => Some((l, "cursor")),
        None => banks.per_line.values().max_by_key(|l| (l.conflicts, std::cmp::Reverse(l.line))).map(|l| (l, "worst")),
    };
    match shown {
        None => out.extend(wrap("no shared-memory accesses yet", width).into_iter().map(|l| Line::styled(l, t.dim()))),
        Some((l, why)) => {
            let matrix = bank_matrix(&l.last);
            let ways = matrix.iter().map(|b| b.words.len()).max().unwrap_or(0).max(1);
            let caption = format!("line {} ({why}), its last access: {ways}-way", l.line);
            out.extend(
                wrap(&caption, width).into_iter().map(|c| Line::styled(c, t.fg(t.title).add_modifier(Modifier::BOLD))),
            );
            out.push(Line::styled(format!("{:>5} {:>5}  {}", "bank", "words", "lanes"), head));
            for b in matrix.iter().filter(|b| !b.lanes.is_empty()) {
                let style = if b.words.len() > 1 { t.fg(t.reconvergence) } else { t.fg(t.foreground) };
                out.push(Line::styled(
                    format!("{:>5} {:>5}  {}", b.bank, b.words.len(), format_ranges(&b.lanes)),
                    style,
                ));
            }
        }
    }
    (format!("shared banks ({} conflicts)", banks.total_conflicts()), out)
}

/// A right-aligned table whose columns are as wide as their widest cell: with the long headers (`[long, short]`)
/// when that fits `width` columns, else with the short ones, so a narrow pane shows every column. Returns the
/// header row and the rows.
/// `min` are the long layout's smallest column widths (room for the figures of a longer run).
pub(super) fn table(heads: &[[&str; 2]], min: &[usize], rows: &[Vec<String>], width: usize) -> (String, Vec<String>) {
    let layout = |short: usize| {
        let widths: Vec<usize> = heads
            .iter()
            .enumerate()
            .map(|(c, h)| {
                rows.iter()
                    .map(|r| r.get(c).map_or(0, |x| x.chars().count()))
                    .max()
                    .unwrap_or(0)
                    .max(h[short].len())
                    .max(if short == 0 { min.get(c).copied().unwrap_or(0) } else { 0 })
            })
            .collect();
        let line =
            |cells: Vec<&str>| cells.iter().zip(&widths).map(|(x, w)| format!("{x:>w$}")).collect::<Vec<_>>().join(" ");
        let header = line(heads.iter().map(|h| h[short]).collect());
        let body: Vec<String> = rows.iter().map(|r| line(r.iter().map(String::as_str).collect())).collect();
        (header, body)
    };
    let long = layout(0);
    // The header row holds the widest cells' columns, so its width is the table's.
    if long.0.chars().count() <= width { long } else { layout(1) }
}

/// `text` word-wrapped to `width` columns (a narrow pane shows all of a sentence rather than cutting it).
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = vec![];
    let mut row = String::new();
    for word in text.split(' ') {
        if !row.is_empty() && row.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(word);
    }
    out.push(row);
    out
}

//! The metrics pane: for the run so far, the metrics students meet by their nvprof names (with Nsight
//! Compute's where the pane has room), grouped as divergence, memory, and occupancy and time (the timing
//! model's estimate and what bounds it), all from `perf`'s [`Profile`] as `run` prints them; then per source
//! line the figures of Nsight Compute's source view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{pane_block, paragraph};
use crate::perf::Limiter;
use crate::perf::named::{Group, NamedMetric, line_figures};
use crate::perf::report::Profile;
use crate::sim::format_ranges;
use crate::sim::inspect::bank_matrix;
use crate::tui::app::{App, Pane};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let (title, out) = lines(app, area.width.saturating_sub(2) as usize);
    let skip = app.scroll_of(Pane::Metrics.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    frame.render_widget(paragraph(out, pane_block(app, Pane::Metrics, title), Style::default()), area);
}

/// The pane's title (after "Metrics · ") and all its rows, `width` columns wide: the figures by group, or
/// the bank view (the coalescing view is `coalescing.rs`'s).
pub fn lines(app: &App, width: usize) -> (String, Vec<Line<'static>>) {
    if app.bank_view {
        return bank_lines(app, width);
    }
    let t = &app.theme;
    let m = &app.session.machine;
    let ended = m.outcome().is_some();
    let mut out = vec![];
    for (heading, rows) in groups(app, &Profile::of(m), ended) {
        out.push(Line::styled(heading.to_string(), t.fg(t.title).add_modifier(Modifier::BOLD)));
        out.extend(group_lines(app, &rows, width));
    }
    out.push(Line::styled("per line".to_string(), t.fg(t.title).add_modifier(Modifier::BOLD)));
    out.extend(line_table(app, width));
    (if ended { String::new() } else { "run so far".to_string() }, out)
}

/// One row of a group: its long and short labels, its value (long and short), and a metric's Nsight Compute
/// name.
struct Row {
    label: [&'static str; 2],
    value: [String; 2],
    ncu: Option<&'static str>,
}

impl Row {
    fn plain(label: [&'static str; 2], value: String) -> Row {
        Row { label, value: [value.clone(), value], ncu: None }
    }

    fn named(n: &NamedMetric) -> Row {
        Row { label: [n.nvprof, n.short], value: [n.value_text(), n.value_text()], ncu: Some(n.ncu) }
    }
}

/// The figures in their groups: divergence, memory, occupancy and time. Every metric comes from `p`, the
/// profile `run` prints; the counts beside them are the simulator's.
fn groups(app: &App, p: &Profile, ended: bool) -> [(&'static str, Vec<Row>); 3] {
    let mt = &app.session.machine.metrics;
    let named = |g: Group| p.named.iter().filter(move |n| n.group == g).map(Row::named);
    let mut divergence: Vec<Row> = named(Group::Divergence).collect();
    // inst_per_warp, then the counts behind it and branch_efficiency.
    divergence.rotate_left(1);
    divergence.extend([
        Row {
            label: ["branches", "branches"],
            value: ["divergent", "div."].map(|d| format!("{} ({} {d})", mt.branches, mt.divergent_branches)),
            ncu: None,
        },
        Row::plain(["divergent warps", "div. warps"], format!("{} of {}", mt.divergent_warps, mt.warps)),
        Row::plain(["threads / instr", "thr / instr"], format!("{:.2}", mt.threads_per_instruction())),
        Row::plain(["warp instructions", "warp instrs"], mt.warp_instructions.to_string()),
    ]);
    if app.session.mode() == crate::front::launch::Mode::PreVolta {
        divergence.push(Row::plain(["max stack depth", "stack depth"], mt.max_stack_depth.to_string()));
    }
    let (time, o) = (&p.time, &p.time.occupancy);
    let limiter = match o.limiter {
        Limiter::Blocks => "blocks",
        Limiter::Warps => "warps",
        Limiter::Registers => "registers",
        Limiter::SharedMemory => "shared memory",
    };
    let mut occupancy = vec![
        Row::plain(
            if ended { ["time (virtual)", "time"] } else { ["time so far", "time so far"] },
            format!("{:.2} us", time.total_ns as f64 / 1e3),
        ),
        Row::plain(["limiter", "limiter"], p.bound()),
    ];
    occupancy.extend(named(Group::Occupancy));
    occupancy.extend([
        Row {
            label: ["occupancy", "occupancy"],
            value: [" of ", "/"].map(|of| format!("{:.1}%{of}{:.1}%", o.achieved, o.theoretical)),
            ncu: None,
        },
        Row::plain(["blocks / SM", "blocks/SM"], format!("{}, by {limiter}", o.blocks_per_sm)),
        Row::plain(["registers", "registers"], format!("~{} / thread", o.registers_per_thread)),
        Row::plain(["waves", "waves"], o.waves.to_string()),
    ]);
    [
        ("divergence", divergence),
        ("memory", named(Group::Memory).collect()),
        (if ended { "occupancy & time" } else { "occupancy & time (so far)" }, occupancy),
    ]
}

/// A group's rows, labels in a column: the long labels where every row fits `width`, else the short ones (a
/// value still too wide goes on the next row); a metric's Nsight Compute name follows where the row has room.
fn group_lines(app: &App, rows: &[Row], width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let layout = |short: usize| {
        let pad = rows.iter().map(|r| r.label[short].len()).max().unwrap_or(0) + 1;
        (pad, rows.iter().all(|r| pad + r.value[short].chars().count() <= width))
    };
    let (short, pad) = match layout(0) {
        (pad, true) => (0, pad),
        _ => (1, layout(1).0),
    };
    // The Nsight Compute names in a column after the metrics' values.
    let values = rows.iter().filter(|r| r.ncu.is_some()).map(|r| r.value[short].chars().count()).max().unwrap_or(0);
    let mut out = vec![];
    for r in rows {
        let (k, v) = (r.label[short], &r.value[short]);
        if pad + v.chars().count() > width {
            out.push(Line::from(Span::styled(k.to_string(), t.dim())));
            out.push(Line::from(Span::styled(format!("{:pad$}{v}", ""), t.fg(t.foreground))));
            continue;
        }
        let mut spans =
            vec![Span::styled(format!("{k:<pad$}"), t.dim()), Span::styled(v.to_string(), t.fg(t.foreground))];
        if let Some(ncu) = r.ncu.filter(|n| pad + values + 2 + n.len() <= width) {
            spans.push(Span::styled(format!("{:w$}  {ncu}", "", w = values - v.chars().count()), t.dim()));
        }
        out.push(Line::from(spans));
    }
    out
}

/// Per source line, as Nsight Compute's source view: warp-instructions executed, branches and branch
/// efficiency, divergent warps, global requests, sectors per request and efficiency, shared wavefronts per
/// request. A narrow pane drops the columns the others imply first; the source cursor's line is marked `▶`.
fn line_table(app: &App, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let figures = line_figures(&app.session.machine);
    let dot = || "·".to_string();
    let cells: Vec<Vec<String>> = figures
        .iter()
        .map(|f| {
            let g = f.global;
            vec![
                if f.line == app.cursor { format!("▶{}", f.line) } else { f.line.to_string() },
                f.warp_instructions.to_string(),
                if f.branches > 0 { f.branches.to_string() } else { dot() },
                f.branch_efficiency().map_or_else(dot, |e| format!("{e:.1}%")),
                if f.branches > 0 { f.divergent_warps.to_string() } else { dot() },
                g.map_or_else(dot, |r| r.requests.to_string()),
                g.map_or_else(dot, |r| format!("{:.2}", r.sectors_per_request())),
                g.map_or_else(dot, |r| format!("{:.1}%", r.efficiency())),
                f.shared_wavefronts_per_request().map_or_else(dot, |w| format!("{w:.2}")),
            ]
        })
        .collect();
    let heads = [
        ["line", "line"],
        ["warp inst.", "inst"],
        ["branches", "br."],
        ["br. eff.", "b.eff"],
        ["div. warps", "dw"],
        ["gl. req.", "req"],
        ["sect/req", "s/r"],
        ["mem eff.", "eff"],
        ["sh. wf/req", "wf/r"],
    ];
    // Dropped first: divergent warps and branches (branch efficiency says it), requests, instructions.
    let (head, body) = table_fit(&heads, &[5, 10, 8, 8, 10, 8, 8, 8, 10], &cells, width, &[4, 2, 5, 1, 6, 8]);
    let mut out = vec![Line::styled(head, t.dim().add_modifier(Modifier::UNDERLINED))];
    for (f, row) in figures.iter().zip(body) {
        let wasteful = f.global.is_some_and(|r| r.efficiency() < 100.0);
        let conflicts = f.shared.is_some_and(|(req, wf)| wf > req);
        let style = if f.divergent_branches > 0 || wasteful || conflicts { t.reconvergence } else { t.foreground };
        let mut style = t.fg(style);
        if f.line == app.cursor {
            style = style.add_modifier(Modifier::BOLD);
        }
        out.push(Line::styled(row, style));
    }
    out
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

/// [`table`], dropping columns (`drop`, in that order) until it fits `width` columns.
fn table_fit(
    heads: &[[&str; 2]],
    min: &[usize],
    rows: &[Vec<String>],
    width: usize,
    drop: &[usize],
) -> (String, Vec<String>) {
    let mut keep: Vec<usize> = (0..heads.len()).collect();
    let mut dropped = drop.iter();
    loop {
        let pick = |v: &[usize]| keep.iter().map(|&c| v.get(c).copied().unwrap_or(0)).collect::<Vec<_>>();
        let h: Vec<[&str; 2]> = keep.iter().map(|&c| heads[c]).collect();
        let r: Vec<Vec<String>> =
            rows.iter().map(|row| keep.iter().map(|&c| row.get(c).cloned().unwrap_or_default()).collect()).collect();
        let (head, body) = table(&h, &pick(min), &r, width);
        match dropped.next() {
            Some(&c) if head.chars().count() > width => keep.retain(|&k| k != c),
            _ => return (head, body),
        }
    }
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

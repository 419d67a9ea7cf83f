//! The coalescing view (`C`, in the metrics pane): per source line with global requests, Nsight Compute's
//! figures (requests, 32-byte sectors, sectors per request against the best a full warp of that element size
//! could need, efficiency); then which lanes touch which sectors in one request: the selected warp's next
//! instruction when it is a global load, store or atomic (its addresses computed from the warp's registers
//! before it runs), else the first request recorded on the source cursor's line (or on the least efficient
//! line).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use super::metrics::{table, wrap};
use super::{pane_block, paragraph};
use crate::ir::{Instr, Operand, Ty};
use crate::sim::format_ranges;
use crate::sim::traffic::{GlobalOp, Requests, SECTOR_BYTES, TrafficLine, best_sectors, sectors_of};
use crate::sim::{Machine, SHARED_BASE};
use crate::tui::app::{App, Pane};

/// The shared-memory window's size (addresses from `SHARED_BASE` are a block's shared memory).
const SHARED_WINDOW: u64 = 1 << 20;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let (title, out) = lines(app, area.width.saturating_sub(2) as usize);
    let skip = app.scroll_of(Pane::Metrics.title()).min(out.len().saturating_sub(1));
    let out: Vec<Line> = out.into_iter().skip(skip).collect();
    frame.render_widget(paragraph(out, pane_block(app, Pane::Metrics, title), Style::default()), area);
}

/// The view's title (after "Metrics · ") and all its rows, `width` columns wide.
pub fn lines(app: &App, width: usize) -> (String, Vec<Line<'static>>) {
    let t = &app.theme;
    let traffic = &app.session.machine.metrics.traffic;
    let head = t.dim().add_modifier(Modifier::UNDERLINED);
    let mut rows: Vec<(&TrafficLine, Requests, Vec<String>)> = vec![];
    for l in traffic.lines() {
        let size = l.sample.as_ref().map_or(4, |s| s.size);
        for (kind, r) in [("ld", l.load), ("st", l.store), ("atom", l.atomic)] {
            if r.requests == 0 {
                continue;
            }
            let cells = vec![
                l.line.to_string(),
                kind.to_string(),
                r.requests.to_string(),
                r.sectors.to_string(),
                format!("{:.2}", r.sectors_per_request()),
                best_sectors(32, size).to_string(),
                format!("{:.1}%", r.efficiency()),
            ];
            rows.push((l, r, cells));
        }
    }
    let heads = [
        ["line", "line"],
        ["kind", "kind"],
        ["requests", "req."],
        ["sectors", "sect."],
        ["sectors/req", "s/req"],
        ["best", "best"],
        ["efficiency", "eff."],
    ];
    let cells: Vec<Vec<String>> = rows.iter().map(|r| r.2.clone()).collect();
    let (mut header, mut body) = table(&heads, &[5, 4, 8, 7, 11, 4, 10], &cells, width);
    if header.chars().count() > width {
        // Too narrow even with the short headers: without the requests and sectors (their ratio stays).
        let keep = [0, 1, 4, 5, 6];
        let pick = |r: &Vec<String>| keep.iter().map(|&c| r[c].clone()).collect::<Vec<_>>();
        let cells: Vec<Vec<String>> = cells.iter().map(pick).collect();
        let heads: Vec<[&str; 2]> = keep.iter().map(|&c| heads[c]).collect();
        (header, body) = table(&heads, &[], &cells, width);
    }
    let mut out = vec![Line::styled(header, head)];
    for ((l, r, _), row) in rows.iter().zip(body) {
        let size = l.sample.as_ref().map_or(4, |s| s.size);
        let wasteful = r.sectors_per_request() > best_sectors(32, size) as f64;
        out.push(Line::styled(row, if wasteful { t.fg(t.reconvergence) } else { t.fg(t.foreground) }));
    }
    let caption = t.fg(t.title).add_modifier(Modifier::BOLD);
    match request(app) {
        Shown::Nothing(why) => out.extend(wrap(&why, width).into_iter().map(|l| Line::styled(l, t.dim()))),
        Shown::Request(q) => {
            out.extend(wrap(&q.caption, width).into_iter().map(|c| Line::styled(c, caption)));
            if let Some(note) = &q.note {
                out.extend(wrap(note, width).into_iter().map(|l| Line::styled(l, t.dim())));
            }
            let sectors = sector_rows(&app.session.machine, &q);
            let ranges: Vec<String> = sectors.iter().map(|s| format_ranges(&s.lanes)).collect();
            let w = ranges.iter().map(|r| r.chars().count()).max().unwrap_or(0).max(5);
            let ew = sectors.iter().map(|s| s.elements.chars().count()).max().unwrap_or(0);
            // The sector's address where it fits; the lanes and their elements say which sector it is.
            let addr = 14 + 2 + 2 + 2 + w + 2 + ew <= width;
            let row = |a: String, n: String, lanes: &str, elems: &str| {
                let a = if addr { format!("{a:>14} ") } else { String::new() };
                format!("{a}{n:>2}  {lanes:<w$}  {elems}")
            };
            out.push(Line::styled(row("sector".into(), "n".into(), "lanes", "elements"), head));
            for (s, r) in sectors.iter().zip(&ranges) {
                let line = row(format!("{:#x}", s.addr), s.lanes.len().to_string(), r, &s.elements);
                out.push(Line::styled(line, t.fg(t.foreground)));
            }
            let best = best_sectors(q.lanes.len() as u32, q.size);
            let n = sectors.len();
            let verdict = format!("{n} sector{} for this request, best {best}", if n == 1 { "" } else { "s" });
            let style = if sectors.len() as u64 > best { t.fg(t.reconvergence) } else { t.fg(t.foreground) };
            out.extend(wrap(&verdict, width).into_iter().map(|l| Line::styled(l, style)));
        }
    }
    // The kernel's efficiency per kind that made requests (nvprof's gld_ and gst_efficiency).
    let (ld, st, atom) = traffic.totals();
    let kinds: Vec<String> = [("ld", ld), ("st", st), ("atom", atom)]
        .iter()
        .filter(|(_, r)| r.requests > 0)
        .map(|(k, r)| format!("{k} {:.1}%", r.efficiency()))
        .collect();
    let title =
        if kinds.is_empty() { "global memory".to_string() } else { format!("global memory ({})", kinds.join(", ")) };
    (title, out)
}

/// One request to draw: its lanes' addresses and element size.
pub struct Request {
    pub caption: String,
    /// Said under the caption (why this request and not the selected warp's).
    pub note: Option<String>,
    pub op: GlobalOp,
    pub size: u32,
    pub lanes: Vec<(u32, u64)>,
}

pub enum Shown {
    Request(Request),
    /// Why there is no request to show.
    Nothing(String),
}

/// One sector of a request: its address, the lanes that touch it and the elements they ask for.
pub struct SectorRow {
    pub addr: u64,
    pub lanes: Vec<u32>,
    pub elements: String,
}

fn op_name(op: GlobalOp) -> &'static str {
    match op {
        GlobalOp::Load => "load",
        GlobalOp::Store => "store",
        GlobalOp::Atomic => "atomic",
    }
}

/// The request the view explains: the selected warp's next instruction when it accesses global memory, else a
/// recorded one.
pub fn request(app: &App) -> Shown {
    let m = &app.session.machine;
    let mut note = None;
    match next_access(app) {
        Some(Ok(q)) => return Shown::Request(q),
        Some(Err(why)) => note = Some(why),
        None => {}
    }
    let traffic = &m.metrics.traffic;
    let (l, why) = match traffic.line(app.cursor) {
        Some(l) => (l, "cursor"),
        None => match traffic.lines().min_by(|a, b| a.total().efficiency().total_cmp(&b.total().efficiency())) {
            Some(l) => (l, "least efficient"),
            None => {
                let mut text = "no global-memory requests yet".to_string();
                if let Some(n) = note {
                    text = format!("{n}; {text}");
                }
                return Shown::Nothing(text);
            }
        },
    };
    let s = l.sample.as_ref().expect("a line with requests has a sample");
    let wpb = m.launch.warps_per_block().max(1);
    Shown::Request(Request {
        caption: format!(
            "line {} ({why}): block {} warp {}'s first {} of {} bytes",
            l.line,
            s.warp / wpb,
            s.warp % wpb,
            op_name(s.op),
            s.size
        ),
        note: Some(note.unwrap_or_else(|| "(recorded; the selected warp is not at a global access)".to_string())),
        op: s.op,
        size: s.size,
        lanes: s.lanes.clone(),
    })
}

/// The selected warp's next instruction, when it is a load, store or atomic: its active lanes' addresses read
/// from the warp's registers (`None`: not a memory instruction; `Err`: a memory instruction that is not a
/// global access, said why).
fn next_access(app: &App) -> Option<Result<Request, String>> {
    let m = &app.session.machine;
    let s = app.selected?;
    let slot = m.blocks.iter().position(|b| b.linear == s.block)?;
    let block = &m.blocks[slot];
    let w = block.warps.get(s.warp as usize)?;
    let summary = crate::sim::inspect::summarize(m, block, w);
    let pc = summary.pc?;
    if summary.active.count() == 0 || w.done() {
        return None;
    }
    let (op, ty, addr) = match m.kernel.instrs.get(pc.0 as usize)? {
        Instr::Load { ty, addr, .. } => (GlobalOp::Load, *ty, *addr),
        Instr::Store { ty, addr, .. } => (GlobalOp::Store, *ty, *addr),
        Instr::Atomic { ty, addr, .. } => (GlobalOp::Atomic, *ty, *addr),
        _ => return None,
    };
    let lanes: Vec<(u32, u64)> = summary
        .active
        .iter()
        .map(|l| {
            let a = match addr {
                Operand::Reg(r) => block.reg(r.0, s.warp * 32 + l),
                Operand::Imm(v) => v,
            };
            (l, a)
        })
        .collect();
    let line = m.kernel.line(pc);
    let shared = |a: u64| (SHARED_BASE..SHARED_BASE + SHARED_WINDOW).contains(&a);
    let global: Vec<(u32, u64)> = lanes.iter().copied().filter(|(_, a)| !shared(*a)).collect();
    if global.is_empty() {
        return Some(Err(format!(
            "block {} warp {}'s next access (line {line}) is to shared memory: K shows its banks",
            s.block, s.warp
        )));
    }
    let size = if ty == Ty::Bool { 1 } else { ty.size() };
    Some(Ok(Request {
        caption: format!("block {} warp {}, next: {} of {size} bytes on line {line}", s.block, s.warp, op_name(op)),
        note: None,
        op,
        size,
        lanes: global,
    }))
}

/// The sectors a request touches, ascending, each with the lanes in it and the elements they ask for.
pub fn sector_rows(m: &Machine, q: &Request) -> Vec<SectorRow> {
    let sectors = sectors_of(q.lanes.iter().map(|l| l.1), q.size);
    sectors
        .iter()
        .map(|&s| {
            let (lo, hi) = (s * SECTOR_BYTES, (s + 1) * SECTOR_BYTES);
            let lanes: Vec<(u32, u64)> =
                q.lanes.iter().copied().filter(|(_, a)| *a < hi && a + q.size.max(1) as u64 > lo).collect();
            let elements = elements(m, &lanes);
            SectorRow { addr: lo, lanes: lanes.iter().map(|l| l.0).collect(), elements }
        })
        .collect()
}

/// The elements the lanes ask for, as the kernel's arrays name them (`a[8-15]`), else as addresses.
fn elements(m: &Machine, lanes: &[(u32, u64)]) -> String {
    let mut named: Vec<(String, u64)> = vec![];
    for (_, a) in lanes {
        match m.global.describe(*a) {
            Some((name, i)) => named.push((name.to_string(), i)),
            None => return "?".to_string(),
        }
    }
    let Some(first) = named.first().map(|n| n.0.clone()) else { return String::new() };
    if named.iter().any(|n| n.0 != first) {
        return "several arrays".to_string();
    }
    let mut idx: Vec<u64> = named.iter().map(|n| n.1).collect();
    idx.sort_unstable();
    idx.dedup();
    match (idx.first(), idx.last()) {
        (Some(a), Some(b)) if a == b => format!("{first}[{a}]"),
        (Some(a), Some(b)) if b - a + 1 == idx.len() as u64 => format!("{first}[{a}-{b}]"),
        _ if idx.len() <= 4 => format!("{first}[{}]", idx.iter().map(u64::to_string).collect::<Vec<_>>().join(",")),
        (Some(a), Some(b)) => format!("{first}[{a}..{b}], {} of them", idx.len()),
        _ => String::new(),
    }
}

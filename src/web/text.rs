//! A plain-text picture of a session, for a page without the terminal view: the launch, where the run
//! stands, the source with the warps at each line, and each resident warp's state.

use std::fmt::Write;

use crate::debug::session::Session;
use crate::sim::inspect;

/// Source lines shown around the lines warps are at.
const CONTEXT: u32 = 3;

/// Resident warps listed (the rest are counted).
const MAX_WARPS: usize = 16;

/// The session as text: a header, the source lines near the warps (`>` where warps are about to run, with
/// how many), and one line per resident warp.
pub fn render(s: &Session) -> String {
    let m = &s.machine;
    let l = &m.launch;
    let mut out = String::new();
    let _ = writeln!(out, "kernel {} ({}), mode {}, grid {} x block {}", l.kernel, m.file, l.mode, l.grid, l.block);
    let state = m.outcome().map_or("running", |o| o.name());
    let _ = writeln!(out, "step {}: {state}", m.steps);

    let at = inspect::warps_per_line(m);
    let file = s.compiled.sources.get(s.compiled.file);
    let count = file.line_count();
    let mut shown: Vec<u32> = vec![];
    for &line in at.keys() {
        let lo = line.saturating_sub(CONTEXT).max(1);
        let hi = (line + CONTEXT).min(count);
        shown.extend(lo..=hi);
    }
    shown.sort_unstable();
    shown.dedup();
    out.push('\n');
    let mut previous = None;
    for line in shown {
        if previous.is_some_and(|p| p + 1 != line) {
            out.push_str("      ...\n");
        }
        previous = Some(line);
        let marker = match at.get(&line) {
            Some(n) => format!("> {n:>3}w"),
            None => "      ".to_string(),
        };
        let _ = writeln!(out, "{marker} {line:>4} | {}", file.line_text(line).trim_end());
    }

    out.push('\n');
    let mut listed = 0;
    let mut resident = 0;
    for b in &m.blocks {
        for (i, w) in b.warps.iter().enumerate() {
            resident += 1;
            if listed == MAX_WARPS {
                continue;
            }
            listed += 1;
            let sum = inspect::summarize(m, b, w);
            let line = sum.pc.map_or("-".to_string(), |pc| m.kernel.line(pc).to_string());
            let _ = writeln!(
                out,
                "block {} warp {i:>2}  {:<8} line {line:>4}  {}",
                b.idx,
                sum.state.name(),
                sum.active.and(sum.exists).bar()
            );
        }
    }
    if resident > listed {
        let _ = writeln!(out, "... and {} more resident warps", resident - listed);
    }
    if resident == 0 {
        out.push_str("no resident warps\n");
    }
    out
}

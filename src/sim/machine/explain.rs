//! Explanations a student can act on: divergent barriers, deadlocks and livelocks, by line and thread.

use std::collections::BTreeMap;

use super::{Machine, Outcome, Stuck, Wait, WaitKind};
use crate::front::launch::Dim3;
use crate::ir::{Instr, Kernel, Pc};
use crate::sim::lane_mask::{LaneMask, format_ranges, threads_phrase};
use crate::sim::model::LaneStop;
use crate::sim::race::Race;

impl Machine {
    /// The deadlock outcome, explained: no warp can issue.
    pub(super) fn explain_deadlock(&self) -> Outcome {
        deadlock(self)
    }

    /// The livelock outcome, explained: the machine state repeats with no thread finishing.
    pub(super) fn explain_livelock(&self) -> Outcome {
        livelock(self)
    }

    /// Hazard text for the shared-memory race `r`.
    pub(super) fn shared_race_text(&self, r: &Race) -> String {
        shared_race(self, r)
    }
}

/// Hazard text for a pre-Volta `__syncthreads()` reached by only part of a warp.
pub fn divergent_barrier(
    kernel: &Kernel,
    block: Dim3,
    warp: u32,
    line: u32,
    arrived: LaneMask,
    pending: &[(u32, Pc)],
) -> String {
    let tids = |lanes: &mut dyn Iterator<Item = u32>| lanes.map(|l| warp * 32 + l).collect::<Vec<_>>();
    let mut by_line: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (l, pc) in pending {
        by_line.entry(kernel.line(*pc)).or_default().push(warp * 32 + l);
    }
    let where_: Vec<String> = by_line
        .iter()
        .map(|(ln, t)| format!("{} {} waiting in the SIMT stack to run line {ln}", threads_phrase(t), is_are(t)))
        .collect();
    format!(
        "divergent __syncthreads() on line {line} in block {block}, warp {warp}: {} arrived, but {}. \
         Pre-Volta GPUs count the whole warp as arrived, so the barrier did not wait for them: undefined \
         behaviour that happened to work (on Volta and later this barrier waits per thread and deadlocks)",
        threads_phrase(&tids(&mut arrived.iter())),
        if where_.is_empty() { "other threads had not".to_string() } else { where_.join("; ") }
    )
}

/// What one thread is waiting for, for grouping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Spot {
    Barrier(Pc),
    Convergence(Pc),
    WarpSync(Pc),
    Exited,
    Other(Pc),
}

fn spots(m: &Machine, slot: usize) -> BTreeMap<Spot, Vec<u32>> {
    let block = &m.blocks[slot];
    let mut out: BTreeMap<Spot, Vec<u32>> = BTreeMap::new();
    for w in &block.warps {
        for l in w.exists.iter() {
            let tid = w.id.0 * 32 + l;
            let spot = if !w.live.contains(l) {
                Spot::Exited
            } else {
                match w.model.lane_stop(l) {
                    LaneStop::Barrier(pc) => Spot::Barrier(pc),
                    LaneStop::Convergence(pc) => Spot::Convergence(pc),
                    LaneStop::WarpSync(pc) => Spot::WarpSync(pc),
                    LaneStop::Running(pc) => Spot::Other(pc),
                }
            };
            out.entry(spot).or_default().push(tid);
        }
    }
    out
}

/// What the barrier instruction at `pc` is in the source.
fn barrier_name(m: &Machine, pc: Pc) -> &'static str {
    match m.kernel.instrs.get(pc.0 as usize) {
        Some(Instr::SyncThreads { grid: true, .. }) => "grid.sync()",
        _ => "__syncthreads()",
    }
}

/// "is" or "are", to agree with [`threads_phrase`].
fn is_are(ids: &[u32]) -> &'static str {
    if ids.len() == 1 { "is" } else { "are" }
}

/// "thread 3 is waiting at ...", "threads 1,3,...,63 have exited".
fn describe(m: &Machine, spot: Spot, tids: &[u32]) -> String {
    let line = |pc: Pc| m.kernel.line(pc);
    let who = threads_phrase(tids);
    let be = is_are(tids);
    match spot {
        Spot::Barrier(pc) => format!("{who} {be} waiting at the {} on line {}", barrier_name(m, pc), line(pc)),
        Spot::Convergence(pc) => format!("{who} {be} waiting to reconverge at line {}", line(pc)),
        Spot::WarpSync(pc) => format!("{who} {be} waiting at the warp-synchronous call on line {}", line(pc)),
        Spot::Exited => format!("{who} {} exited", if tids.len() == 1 { "has" } else { "have" }),
        Spot::Other(pc) => format!("{who} {be} at line {}", line(pc)),
    }
}

/// No warp can issue: explain every place threads wait, block by block; blocks whose threads wait alike
/// share one explanation ("blocks 0-3"), and the fix follows the first.
fn deadlock(m: &Machine) -> Outcome {
    let mut waits = vec![];
    // Each distinct list of where a block's threads wait, with the blocks it describes, in block order.
    let mut groups: Vec<(Vec<String>, Vec<Dim3>)> = vec![];
    let mut barrier_lines_per_warp = false;
    for (slot, block) in m.blocks.iter().enumerate() {
        let spots = spots(m, slot);
        let mut lines = vec![];
        for (spot, tids) in &spots {
            let (kind, pc) = match *spot {
                Spot::Barrier(pc) => (WaitKind::Barrier, pc),
                Spot::Convergence(pc) => (WaitKind::Convergence, pc),
                Spot::WarpSync(pc) => (WaitKind::WarpSync, pc),
                Spot::Exited | Spot::Other(_) => continue,
            };
            let others: Vec<String> =
                spots.iter().filter(|(s, _)| *s != spot).map(|(s, t)| describe(m, *s, t)).collect();
            let what = match kind {
                WaitKind::Barrier if barrier_name(m, pc) == "grid.sync()" => {
                    "for every thread of every block of the grid to reach it".to_string()
                }
                WaitKind::Barrier => {
                    "for every thread of the block that has not exited to reach this same __syncthreads()".to_string()
                }
                WaitKind::Convergence => "for the rest of their warp to arrive there".to_string(),
                _ => "for the other lanes named in its mask".to_string(),
            };
            let message = format!(
                "{} {what}; {}",
                describe(m, *spot, tids),
                if others.is_empty() { "no other thread is left".into() } else { others.join("; ") }
            );
            lines.push(format!("- {}.", describe(m, *spot, tids)));
            waits.push(Wait { line: m.kernel.line(pc), kind, block: block.idx, tids: tids.clone(), message });
        }
        // Two different barriers in one warp, or a barrier and a reconvergence point: divergent barrier code.
        for w in &block.warps {
            let mut pcs: Vec<Pc> = w
                .lane_pcs()
                .into_iter()
                .filter(|(l, _)| matches!(w.model.lane_stop(*l), LaneStop::Barrier(_) | LaneStop::Convergence(_)))
                .map(|(_, pc)| pc)
                .collect();
            pcs.sort();
            pcs.dedup();
            if pcs.len() > 1 && !w.at_barrier().is_empty() {
                barrier_lines_per_warp = true;
            }
        }
        match groups.iter_mut().find(|(l, _)| *l == lines) {
            Some((_, blocks)) => blocks.push(block.idx),
            None => groups.push((lines, vec![block.idx])),
        }
    }
    let mut text = m.grid_deadlock_text().map(|t| t + "\n").unwrap_or_default();
    for (k, (lines, blocks)) in groups.iter().enumerate() {
        text.push_str(&format!("Deadlock: no thread of {} can issue.\n", blocks_phrase(blocks)));
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        if k == 0 && barrier_lines_per_warp {
            text.push_str(
                "Fix: move __syncthreads() out of the divergent code (after the if/else), so every thread reaches \
                 the same one.\nWhy: on Volta and later __syncthreads() is per thread: it completes only when every \
                 thread of the block that has not exited reaches the same barrier, and here the threads of a warp \
                 wait at different places. (nvcc predicates a very short if/else into one barrier, so the two-line \
                 textbook version finishes on real GPUs; code that really branches hangs.)\n",
            );
        }
    }
    Outcome::Deadlock(Box::new(Stuck { explanation: text.trim_end().to_string(), waits }))
}

/// "block (0,0,0)" for one block; "blocks 0-3" for blocks of a one-dimensional grid; else "blocks (0,1,0),
/// (1,1,0)".
fn blocks_phrase(blocks: &[Dim3]) -> String {
    match blocks {
        [one] => format!("block {one}"),
        _ if blocks.iter().all(|b| b.y == 0 && b.z == 0) => {
            let mut xs: Vec<u32> = blocks.iter().map(|b| b.x).collect();
            xs.sort_unstable();
            format!("blocks {}", format_ranges(&xs))
        }
        _ => format!("blocks {}", blocks.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ")),
    }
}

/// The machine state repeats with no thread finishing: explain who spins and who waits for them.
fn livelock(m: &Machine) -> Outcome {
    let mut waits = vec![];
    let mut text = String::new();
    let recent: Vec<(usize, u32, Pc, LaneMask)> = m.recent().collect();
    for (slot, block) in m.blocks.iter().enumerate() {
        for w in &block.warps {
            if w.done() {
                continue;
            }
            let spin_lanes: LaneMask = recent
                .iter()
                .filter(|(s, wi, _, _)| *s == slot && *wi == w.id.0)
                .fold(LaneMask::EMPTY, |acc, (_, _, _, mask)| acc.or(*mask));
            if spin_lanes.is_empty() {
                continue;
            }
            let mut lines: Vec<u32> = recent
                .iter()
                .filter(|(s, wi, _, _)| *s == slot && *wi == w.id.0)
                .map(|(_, _, pc, _)| m.kernel.line(*pc))
                .collect();
            lines.sort();
            lines.dedup();
            let tids = |mask: LaneMask| mask.iter().map(|l| w.id.0 * 32 + l).collect::<Vec<_>>();
            let line_text = if lines.len() == 1 {
                format!("line {}", lines[0])
            } else {
                format!("lines {}", format_ranges(&lines))
            };
            // The address the spinning lanes' atomics touch, and who last changed it.
            let holder =
                recent.iter().filter(|(s, wi, _, _)| *s == slot && *wi == w.id.0).find_map(|(_, _, pc, mask)| match &m
                    .kernel
                    .instrs[pc.0 as usize]
                {
                    Instr::Atomic { addr: crate::ir::Operand::Reg(r), .. } => {
                        let l = mask.lowest()?;
                        let a = block.reg(r.0, w.id.0 * 32 + l);
                        m.last_atomic.get(&a).map(|aw| (a, *aw))
                    }
                    _ => None,
                });
            let spin_msg = format!(
                "{} of block {} {} spinning on {line_text} and the state repeats",
                threads_phrase(&tids(spin_lanes)),
                block.idx,
                is_are(&tids(spin_lanes))
            );
            text.push_str(&format!(
                "Livelock: warp {} of block {} repeats the same state forever and no thread finishes.\n- {spin_msg}\n",
                w.id.0, block.idx
            ));
            waits.push(Wait {
                line: lines.first().copied().unwrap_or(0),
                kind: WaitKind::Spin,
                block: block.idx,
                tids: tids(spin_lanes),
                message: spin_msg,
            });
            if let Some(stack) = w.model.simt_stack() {
                for e in stack.entries.iter().rev().skip(1) {
                    let waiting = e.mask.minus(spin_lanes);
                    if waiting.is_empty() {
                        continue;
                    }
                    let line = m.kernel.line(e.pc);
                    let mut msg = format!(
                        "{} {} waiting, masked, at line {line}, where the warp reconverges",
                        threads_phrase(&tids(waiting)),
                        is_are(&tids(waiting))
                    );
                    if holder.is_none() {
                        msg.push_str("; they run again only when the spinning threads get there");
                    }
                    if let Some((addr, aw)) = holder
                        && aw.block == block.idx
                        && waiting.contains(aw.tid % 32)
                        && aw.tid / 32 == w.id.0
                    {
                        let what = m.global.describe(addr).map_or(format!("{addr:#x}"), |(n, i)| format!("{n}[{i}]"));
                        msg.push_str(&format!(
                            "; thread {} last changed {what} with the atomic on line {} (step {}): it holds what the \
                             spinning threads wait for, but it cannot run again until they leave the loop",
                            aw.tid, aw.line, aw.step
                        ));
                    }
                    text.push_str(&format!("- {msg}\n"));
                    waits.push(Wait {
                        line,
                        kind: WaitKind::Reconvergence,
                        block: block.idx,
                        tids: tids(waiting),
                        message: msg,
                    });
                }
                if stack.depth() > 1 {
                    text.push_str(
                        "This is a SIMT-induced deadlock: a pre-Volta warp runs one path at a time (the top of its SIMT \
                         stack) until the paths reconverge, so threads waiting at the reconvergence point never run.\n",
                    );
                    text.push_str(if holder.is_some() {
                        "Fix: do the work that releases the others inside the loop, in the branch that succeeded \
                         (e.g. `if (atomicCAS(lock, 0, 1) == 0) { critical section; atomicExch(lock, 0); }` in a \
                         loop), or run on Volta and later (ITS), which guarantees forward progress.\n"
                    } else {
                        "Fix: do not make threads of one warp wait for each other inside divergent code; let the \
                         thread that others wait for do its part before the warp splits, or run on Volta and later \
                         (ITS).\n"
                    });
                }
            }
        }
        // Threads that wait (ITS barriers, reconvergence, warp syncs) for the spinning ones.
        let spinning: Vec<u32> = waits
            .iter()
            .filter(|w| w.block == block.idx && w.kind == WaitKind::Spin)
            .flat_map(|w| w.tids.clone())
            .collect();
        for (spot, tids) in spots(m, slot) {
            let (kind, pc) = match spot {
                Spot::Barrier(pc) => (WaitKind::Barrier, pc),
                Spot::Convergence(pc) => (WaitKind::Convergence, pc),
                Spot::WarpSync(pc) => (WaitKind::WarpSync, pc),
                Spot::Exited | Spot::Other(_) => continue,
            };
            let tids: Vec<u32> = tids.into_iter().filter(|t| !spinning.contains(t)).collect();
            if tids.is_empty() {
                continue;
            }
            let message = format!(
                "{} for {} of block {}, which never {} there because {} spinning",
                describe(m, spot, &tids),
                threads_phrase(&spinning),
                block.idx,
                if spinning.len() == 1 { "gets" } else { "get" },
                if spinning.len() == 1 { "it is" } else { "they are" }
            );
            text.push_str(&format!("- {message}\n"));
            waits.push(Wait { line: m.kernel.line(pc), kind, block: block.idx, tids, message });
        }
    }
    if waits.is_empty() {
        text.push_str("Livelock: the machine state repeats and no thread finishes.\n");
    }
    Outcome::Livelock(Box::new(Stuck { explanation: text.trim_end().to_string(), waits }))
}

/// Hazard text for a shared-memory race, with compute-sanitizer racecheck's first line.
fn shared_race(m: &Machine, r: &Race) -> String {
    let kind = |w: bool| if w { "Write" } else { "Read" };
    let verb = |w: bool| if w { "wrote" } else { "read" };
    let (l1, l2) = (m.kernel.line(r.first.pc), m.kernel.line(r.second.pc));
    let what = m
        .layout
        .arrays
        .iter()
        .find(|(_, off, bytes, _)| r.offset >= *off && r.offset < off + bytes)
        .map_or(format!("offset {}", r.offset), |(name, off, _, ty)| {
            format!("{name}[{}]", (r.offset - off) / ty.size())
        });
    let same_warp = r.first.tid / 32 == r.second.tid / 32;
    let why = if same_warp {
        "threads of one warp are not in lockstep on Volta and later (ITS), so warp-synchronous code needs \
         __syncwarp() between a write and another lane's read"
    } else {
        "they are in different warps, which only __syncthreads() orders"
    };
    format!(
        "Race reported between {} access at {}:{l1} and {} access at {}:{l2}: thread {} {} __shared__ {what} \
         (address {:#x}) and thread {} {} it with no __syncwarp() or __syncthreads() between; {why}",
        kind(r.first.write),
        m.file,
        kind(r.second.write),
        m.file,
        r.first.tid,
        verb(r.first.write),
        crate::sim::memory::SHARED_BASE + u64::from(r.offset),
        r.second.tid,
        verb(r.second.write),
    )
}

//! Checking breakpoints as the machine runs, one instruction at a time: those that stop before an instruction
//! issues ([`before_issue`]), and those that stop after it ([`after_issue`]), on what it did. They read the
//! machine only; the session ([`crate::debug::session`]) calls them from its `cont`.

use serde::Serialize;

use super::spec::{Breakpoint, Env, Kind};
use crate::ir::{Instr, Operand, Pc};
use crate::sim::HazardKind;
use crate::sim::{Issue, LaneMask, Machine, inspect};
use crate::sim::{format_ranges, threads_phrase};

/// Where and why a breakpoint stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    /// `line`, `divergence`, `reconvergence`, `barrier_mismatch`, `mask`, `write` (or `quiz`).
    pub kind: &'static str,
    pub spec: String,
    /// Instructions issued when it stopped.
    pub step: u64,
    pub line: u32,
    /// Block (linear index) and warp the event happened in.
    pub block: u64,
    pub warp: u32,
    /// The threads (indices within the block) the event is about: those the condition held for, the
    /// writers, the lanes that rejoin, the ones arriving at the other barrier.
    pub threads: Vec<u32>,
    pub message: String,
}

/// What [`before_issue`] saw of the instruction about to issue, for [`after_issue`].
pub struct Pending {
    block: u64,
    warp: u32,
    pc: Pc,
    mask: LaneMask,
    divergent_before: u64,
    barrier_hazards: u64,
    /// Barrier PCs (other than the one about to be reached) where threads of the block wait, with the tids.
    barrier_waits: Vec<(Pc, Vec<u32>)>,
    /// Write watchpoints this instruction hits: breakpoint index, writer tids, old value.
    writes: Vec<(usize, Vec<u32>, u64)>,
}

fn barrier_hazard_count(m: &Machine) -> u64 {
    m.hazards.iter().filter(|h| h.kind == HazardKind::DivergentBarrier).map(|h| h.count).sum()
}

fn block_name(m: &Machine, linear: u64) -> String {
    let g = m.launch.grid;
    let (x, y, z) = (linear % g.x as u64, (linear / g.x as u64) % g.y as u64, linear / (g.x as u64 * g.y as u64));
    format!("({x},{y},{z})")
}

/// The line and lanes warp `warp` of the block in slot `slot` last issued with (`None` before its first
/// issue): a breakpoint stops a warp arriving at its line, not the warp already there.
pub fn last_issued(m: &Machine, slot: usize, warp: usize) -> Option<(u32, LaneMask)> {
    m.blocks.get(slot)?.last_issued.get(warp).copied().flatten()
}

fn tids(warp: u32, mask: LaneMask) -> Vec<u32> {
    mask.iter().map(|l| warp * 32 + l).collect()
}

fn lanes_text(mask: LaneMask) -> String {
    format_ranges(&mask.iter().collect::<Vec<_>>())
}

/// Checks the breakpoints that stop before an instruction issues (line conditions, reconvergence, mask
/// conditions, quiz points) and prepares those checked after it. `arriving` is false for the first
/// instruction of a continue (the one it starts on does not stop it again).
pub fn before_issue(m: &mut Machine, breakpoints: &[Breakpoint], arriving: bool) -> Result<Option<Pending>, Hit> {
    let Some((slot, w, pc, mask)) = m.peek() else { return Ok(None) };
    let kernel = m.kernel.clone();
    let line = kernel.line(pc);
    let block = m.blocks[slot].linear;
    let warp = w as u32;
    let prev = last_issued(m, slot, w);
    let (prev_line, prev_mask) = (prev.map(|(l, _)| l), prev.map(|(_, m)| m));
    let step = m.steps;
    let mut pending = Pending {
        block,
        warp,
        pc,
        mask,
        divergent_before: m.metrics.divergent_branches,
        barrier_hazards: 0,
        barrier_waits: vec![],
        writes: vec![],
    };
    let is_barrier = matches!(kernel.instrs[pc.0 as usize], Instr::SyncThreads { .. });
    let base = Hit { kind: "", spec: String::new(), step, line, block, warp, threads: vec![], message: String::new() };
    for (bi, bp) in breakpoints.iter().enumerate() {
        let hit = |kind: &Kind, threads: Vec<u32>, message: String| Hit {
            kind: kind.name(),
            spec: bp.spec.clone(),
            threads,
            message,
            ..base.clone()
        };
        match &bp.kind {
            Kind::Line { line: l, cond } if arriving && *l == line && prev_line != Some(line) => {
                let b = &m.blocks[slot];
                let matched: Vec<u32> = match cond {
                    None => tids(warp, mask),
                    Some(c) => mask
                        .iter()
                        .filter(|&lane| {
                            let tid = warp * 32 + lane;
                            let reg = |r: u32| b.reg(r, tid);
                            c.holds(&Env { tid, lane, warp, block, active: mask.count(), reg: &reg })
                        })
                        .map(|lane| warp * 32 + lane)
                        .collect(),
                };
                if !matched.is_empty() {
                    let msg = format!(
                        "`{}` holds for {} (warp {warp} of block {})",
                        bp.spec,
                        threads_phrase(&matched),
                        block_name(m, block)
                    );
                    return Err(hit(&bp.kind, matched, msg));
                }
            }
            Kind::Reconvergence if arriving => {
                if let Some(pm) = prev_mask
                    && pm != mask
                    && pm.is_subset_of(mask)
                {
                    let msg = format!(
                        "warp {warp} of block {} reconverges at line {line}: lanes {} rejoin lanes {} ({} active, {} \
                         before)",
                        block_name(m, block),
                        lanes_text(mask.minus(pm)),
                        lanes_text(pm),
                        mask.count(),
                        pm.count()
                    );
                    return Err(hit(&bp.kind, tids(warp, mask.minus(pm)), msg));
                }
            }
            Kind::Mask(cond) if arriving => {
                let none = |_: u32| 0u64;
                let env = |active: u32| Env { tid: 0, lane: 0, warp, block, active, reg: &none };
                let now = cond.holds(&env(mask.count()));
                let before = prev_mask.is_some_and(|pm| cond.holds(&env(pm.count())));
                if now && !before {
                    let msg = format!(
                        "`{}` now holds for warp {warp} of block {}: lanes {} ({} active) run line {line}",
                        bp.spec,
                        block_name(m, block),
                        lanes_text(mask),
                        mask.count()
                    );
                    return Err(hit(&bp.kind, tids(warp, mask), msg));
                }
            }
            Kind::Quiz { divergent_branches, steps } if arriving => {
                let diverges = *divergent_branches && branch_diverges(m, slot, warp, pc, mask);
                if steps.contains(&step) || diverges {
                    let msg =
                        format!("quiz: warp {warp} of block {} is about to run line {line}", block_name(m, block));
                    return Err(hit(&bp.kind, tids(warp, mask), msg));
                }
            }
            Kind::BarrierMismatch if is_barrier => {
                pending.barrier_hazards = barrier_hazard_count(m);
                let b = &m.blocks[slot];
                let mut waits: Vec<(Pc, Vec<u32>)> = vec![];
                for wp in &b.warps {
                    for (at, lanes, what) in inspect::thread_groups(wp) {
                        if what == "at barrier" && at != pc {
                            match waits.iter_mut().find(|(p, _)| *p == at) {
                                Some((_, t)) => t.extend(tids(wp.id.0, lanes)),
                                None => waits.push((at, tids(wp.id.0, lanes))),
                            }
                        }
                    }
                }
                pending.barrier_waits = waits;
            }
            Kind::Write { array, index } => {
                let addr_op = match &kernel.instrs[pc.0 as usize] {
                    Instr::Store { addr, ty, .. } | Instr::Atomic { addr, ty, .. } => Some((*addr, ty.size() as u64)),
                    _ => None,
                };
                let (Some((addr_op, size)), Some(a)) = (addr_op, m.global.find(array)) else { continue };
                let esize = a.elem.size() as u64;
                let watched = a.base + index * esize;
                let b = &m.blocks[slot];
                let writers: Vec<u32> = mask
                    .iter()
                    .filter(|&lane| {
                        let at = match addr_op {
                            Operand::Imm(v) => v,
                            Operand::Reg(r) => b.reg(r.0, warp * 32 + lane),
                        };
                        at < watched + esize && watched < at + size
                    })
                    .map(|lane| warp * 32 + lane)
                    .collect();
                if !writers.is_empty() {
                    pending.writes.push((bi, writers, a.element(*index)));
                }
            }
            _ => {}
        }
    }
    Ok(Some(pending))
}

/// The line of a conditional line breakpoint (`line N if ...`), the one kind the machine can check itself.
pub fn conditional_line(bp: &Breakpoint) -> Option<u32> {
    match bp.kind {
        Kind::Line { line, cond: Some(_) } => Some(line),
        _ => None,
    }
}

/// Does a warp arriving at `line` (lanes `mask` of warp `warp` of `block`) stop at one of `bps`' conditional
/// line breakpoints: does a condition hold for one of its lanes? (What [`before_issue`] checks for them.)
pub fn arrival_holds(bps: &[Breakpoint], line: u32, block: &crate::sim::BlockState, warp: u32, mask: LaneMask) -> bool {
    bps.iter().any(|bp| match &bp.kind {
        Kind::Line { line: l, cond: Some(c) } if *l == line => mask.iter().any(|lane| {
            let tid = warp * 32 + lane;
            let reg = |r: u32| block.reg(r, tid);
            c.holds(&Env { tid, lane, warp, block: block.linear, active: mask.count(), reg: &reg })
        }),
        _ => false,
    })
}

/// Would the branch about to issue at `pc` split the lanes `mask` (a counted `if`, loop or `?:`)?
pub fn branch_diverges(m: &Machine, slot: usize, warp: u32, pc: Pc, mask: LaneMask) -> bool {
    let Instr::Branch { cond, site, .. } = &m.kernel.instrs[pc.0 as usize] else { return false };
    if !site.counted {
        return false;
    }
    let b = &m.blocks[slot];
    let taken = mask.iter().filter(|&l| match cond {
        Operand::Imm(v) => *v != 0,
        Operand::Reg(r) => b.reg(r.0, warp * 32 + l) != 0,
    });
    let n = taken.count() as u32;
    n != 0 && n != mask.count()
}

/// Checks the breakpoints that stop after an instruction issued (divergence, barrier mismatch, writes).
pub fn after_issue(m: &Machine, breakpoints: &[Breakpoint], last_issue: Option<Issue>, p: Pending) -> Option<Hit> {
    let issued = last_issue.filter(|i| i.pc == p.pc && i.step == m.steps)?;
    let step = m.steps;
    let base = Hit {
        kind: "",
        spec: String::new(),
        step,
        line: issued.line,
        block: p.block,
        warp: p.warp,
        threads: vec![],
        message: String::new(),
    };
    for (i, bp) in breakpoints.iter().enumerate() {
        let hit = |threads: Vec<u32>, message: String| Hit {
            kind: bp.kind.name(),
            spec: bp.spec.clone(),
            threads,
            message,
            ..base.clone()
        };
        match &bp.kind {
            Kind::Divergence if m.metrics.divergent_branches > p.divergent_before => {
                // Where the lanes went: grouped by the line each runs next.
                let b = m.blocks.iter().find(|b| b.linear == p.block)?;
                let w = b.warps.get(p.warp as usize)?;
                let mut sides: Vec<(u32, LaneMask)> = vec![];
                for (lane, pc) in w.lane_pcs() {
                    if !p.mask.contains(lane) {
                        continue;
                    }
                    let l = m.kernel.line(pc);
                    match sides.iter_mut().find(|(x, _)| *x == l) {
                        Some((_, m)) => *m = m.or(LaneMask::lane(lane)),
                        None => sides.push((l, LaneMask::lane(lane))),
                    }
                }
                let parts: Vec<String> =
                    sides.iter().map(|(l, m)| format!("lanes {} go to line {l}", lanes_text(*m))).collect();
                let msg = format!(
                    "warp {} of block {} diverged at line {}: {}",
                    p.warp,
                    block_name(m, p.block),
                    issued.line,
                    parts.join(", ")
                );
                return Some(hit(tids(p.warp, p.mask), msg));
            }
            Kind::BarrierMismatch if matches!(m.kernel.instrs[p.pc.0 as usize], Instr::SyncThreads { .. }) => {
                let arrived = threads_phrase(&tids(p.warp, p.mask));
                if let Some((other, waiting)) = p.barrier_waits.first() {
                    let msg = format!(
                        "barrier mismatch in block {}: {arrived} arrived at the __syncthreads() on line {} while {} \
                         wait at the one on line {}",
                        block_name(m, p.block),
                        issued.line,
                        threads_phrase(waiting),
                        m.kernel.line(*other)
                    );
                    return Some(hit(tids(p.warp, p.mask), msg));
                }
                if barrier_hazard_count(m) > p.barrier_hazards {
                    let b = m.blocks.iter().find(|b| b.linear == p.block);
                    let live = b.and_then(|b| b.warps.get(p.warp as usize)).map_or(p.mask, |w| w.live);
                    let msg = format!(
                        "divergent barrier in block {}: only lanes {} of warp {} reached the __syncthreads() on line \
                         {}; lanes {} are elsewhere",
                        block_name(m, p.block),
                        lanes_text(p.mask),
                        p.warp,
                        issued.line,
                        lanes_text(live.minus(p.mask))
                    );
                    return Some(hit(tids(p.warp, p.mask), msg));
                }
            }
            Kind::Write { array, index } => {
                let Some((_, writers, old)) = p.writes.iter().find(|(j, _, _)| *j == i) else { continue };
                let a = m.global.find(array)?;
                let new = a.element(*index);
                let show = |v: u64| crate::sim::alu::display(a.elem, v);
                let msg = format!(
                    "{array}[{index}] written by {} of block {} (warp {}) at line {}: {} -> {}",
                    threads_phrase(writers),
                    block_name(m, p.block),
                    p.warp,
                    issued.line,
                    show(*old),
                    show(new)
                );
                return Some(hit(writers.clone(), msg));
            }
            _ => {}
        }
    }
    None
}

/// The [`Hit`] for a plain line breakpoint (the session's `Stop::Breakpoint`): the warp about to run it.
pub fn line_hit(m: &mut Machine, line: u32) -> Hit {
    let step = m.steps;
    let (block, warp, mask) = match m.peek() {
        Some((slot, w, _, mask)) => (m.blocks[slot].linear, w as u32, mask),
        None => (0, 0, LaneMask::EMPTY),
    };
    Hit {
        kind: "line",
        spec: format!("line {line}"),
        step,
        line,
        block,
        warp,
        threads: tids(warp, mask),
        message: format!("breakpoint at line {line}: warp {warp} of block {} arrives", block_name(m, block)),
    }
}

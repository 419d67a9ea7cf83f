//! Read-only summaries of machine state for views (the TUI and headless printing): each warp's state, the
//! lanes it would issue, where its threads are, and where it will reconverge.

use std::collections::BTreeMap;

use super::its::ThreadState;
use super::lane_mask::LaneMask;
use super::machine::{BlockState, Machine, Outcome};
use super::warp::{Warp, WarpModel};
use crate::ir::{Kernel, Pc};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpState {
    /// Can issue; all live threads together.
    Ready,
    /// Can issue, but its threads are split over several paths.
    Diverged,
    /// Waiting at `__syncthreads()`.
    Barrier,
    /// Waiting (ITS convergence or warp sync) and nothing of it can issue.
    Waiting,
    Exited,
    /// Part of a deadlock or livelock.
    Stuck,
}

impl WarpState {
    pub fn name(self) -> &'static str {
        match self {
            WarpState::Ready => "ready",
            WarpState::Diverged => "diverged",
            WarpState::Barrier => "barrier",
            WarpState::Waiting => "waiting",
            WarpState::Exited => "exited",
            WarpState::Stuck => "stuck",
        }
    }
}

/// One warp at a glance.
#[derive(Clone, Debug, PartialEq)]
pub struct WarpSummary {
    pub state: WarpState,
    /// The PC it issues next (or waits at).
    pub pc: Option<Pc>,
    /// Lanes that would issue next (pre-Volta: the top entry; ITS: the next group).
    pub active: LaneMask,
    pub live: LaneMask,
    pub exists: LaneMask,
    pub depth: Option<u32>,
}

/// A warp's summary (needs `&mut` only because ITS settles arrivals lazily; no state visible to the user
/// changes).
pub fn summarize(m: &Machine, block: &BlockState, w: &Warp) -> WarpSummary {
    let mut probe = w.clone();
    let cand = probe.candidate();
    let stuck = matches!(m.outcome(), Some(Outcome::Deadlock(_) | Outcome::Livelock(_)));
    let _ = block;
    let groups = thread_groups(w);
    let state = if w.done() {
        WarpState::Exited
    } else if stuck {
        WarpState::Stuck
    } else if !w.at_barrier().is_empty() && cand.is_none() {
        WarpState::Barrier
    } else if cand.is_none() {
        WarpState::Waiting
    } else if groups.len() > 1 {
        WarpState::Diverged
    } else {
        WarpState::Ready
    };
    let pc = cand.map(|(pc, _)| pc).or_else(|| groups.first().map(|g| g.0));
    // A waiting warp shows the lanes waiting at its first stop.
    let active = cand.map(|(_, m)| m).or_else(|| groups.first().map(|g| g.1)).unwrap_or(LaneMask::EMPTY);
    WarpSummary { state, pc, active, live: w.live, exists: w.exists, depth: w.stack_depth() }
}

/// Live threads grouped by the PC they run next, with what they are doing.
pub fn thread_groups(w: &Warp) -> Vec<(Pc, LaneMask, &'static str)> {
    // A warp has a handful of groups: a small vector searched in order beats a tree (compare mode asks this
    // for every warp the two models move, every step).
    let mut by_pc: Vec<((Pc, &'static str), u32)> = Vec::with_capacity(4);
    let mut add = |key: (Pc, &'static str), mask: u32| match by_pc.iter_mut().find(|(k, _)| *k == key) {
        Some((_, m)) => *m |= mask,
        None => by_pc.push((key, mask)),
    };
    match &w.model {
        WarpModel::PreVolta { stack, at_barrier } => {
            // A lane waits in the topmost entry that holds it (the entries below hold it too, for later).
            let mut claimed = !w.live.0;
            for (i, e) in stack.entries.iter().enumerate().rev() {
                let mask = e.mask.0 & !claimed;
                claimed |= e.mask.0;
                if mask == 0 {
                    continue;
                }
                let top = i + 1 == stack.entries.len();
                let what = if top && at_barrier.is_some() {
                    "at barrier"
                } else if top {
                    "running"
                } else {
                    "waiting in stack"
                };
                let pc = if top { at_barrier.unwrap_or(e.pc) } else { e.pc };
                add((pc, what), mask);
            }
        }
        WarpModel::Its(its) => {
            for l in w.live.iter() {
                let what = match its.state(l) {
                    ThreadState::Ready => "ready",
                    ThreadState::AtBarrier => "at barrier",
                    ThreadState::Converging => "waiting to reconverge",
                    ThreadState::WarpSync => "at warp sync",
                    ThreadState::Exited | ThreadState::Absent => continue,
                };
                add((its.pc[l as usize], what), 1 << l);
            }
        }
    }
    // In (PC, what) order, as the tree gave them.
    by_pc.sort_unstable_by_key(|(k, _)| *k);
    by_pc.into_iter().map(|((pc, what), m)| (pc, LaneMask(m), what)).collect()
}

/// Where the selected warp's innermost divergent region reconverges (pre-Volta: the top entry's RPC; ITS:
/// the innermost convergence barrier of the next group).
pub fn reconvergence(w: &Warp) -> Option<Pc> {
    match &w.model {
        WarpModel::PreVolta { stack, .. } => stack.top().map(|e| e.rpc).filter(|p| *p != Pc::EXIT),
        WarpModel::Its(its) => {
            let mut probe = its.clone();
            let (_, mask) = probe.candidate()?;
            let lane = mask.lowest()?;
            its.innermost(lane).map(|b| b.reconv)
        }
    }
}

/// Source line -> number of warps with threads about to run it.
pub fn warps_per_line(m: &Machine) -> BTreeMap<u32, u32> {
    let mut out = BTreeMap::new();
    for b in &m.blocks {
        for w in &b.warps {
            let mut lines: Vec<u32> = thread_groups(w).iter().map(|(pc, _, _)| m.kernel.line(*pc)).collect();
            lines.sort_unstable();
            lines.dedup();
            for l in lines {
                *out.entry(l).or_default() += 1;
            }
        }
    }
    out
}

/// The variables of one thread in scope at `pc` (the thread's next instruction), named as in the source,
/// as (name, value).
pub fn variables(kernel: &Kernel, block: &BlockState, tid: u32, pc: Pc) -> Vec<(String, String)> {
    kernel
        .variables_at(pc)
        .into_iter()
        .map(|(r, name)| (name.to_string(), super::alu::display(kernel.regs[r as usize].ty, block.reg(r, tid))))
        .collect()
}

//! Read-only summaries of machine state for views (the TUI, the page and headless printing): each warp's
//! state, the lanes it would issue, where its threads are, where it will reconverge, and its execution
//! model's detail. Views read warps through these, never the models' own state (`sim::model`).

use std::collections::BTreeMap;

use super::lane_mask::LaneMask;
use super::machine::{BlockState, Machine, Outcome};
use super::warp::Warp;
use crate::ir::{Kernel, Pc};

pub use super::banks::{BankHits, bank_matrix};
pub use super::model::{DetailNote, DetailRow, NoteKind, SimtStack, StackEntry, WarpDetail};

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

/// Live threads grouped by the PC they run next, with what they are doing, in (PC, doing) order.
pub fn thread_groups(w: &Warp) -> Vec<(Pc, LaneMask, &'static str)> {
    w.model.thread_groups(w.live)
}

/// Where the selected warp's innermost divergent region reconverges (pre-Volta: the top entry's RPC; ITS:
/// the innermost convergence barrier of the next group).
pub fn reconvergence(w: &Warp) -> Option<Pc> {
    w.model.reconvergence()
}

/// What the warp pane shows of the warp's execution model (pre-Volta: its SIMT stack, top first; ITS: its
/// threads by PC and its convergence barriers).
pub fn detail(kernel: &Kernel, w: &Warp) -> WarpDetail {
    w.model.detail(kernel, w.live)
}

/// The warp's SIMT stack, in a model that has one (pre-Volta).
pub fn simt_stack(w: &Warp) -> Option<&SimtStack> {
    w.model.simt_stack()
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
/// as (name, value). A scalar kept in memory because its address is taken (`f(&lo)`) shows the value it holds,
/// once its address is worked out.
pub fn variables(m: &Machine, block: &BlockState, tid: u32, pc: Pc) -> Vec<(String, String)> {
    let kernel = &m.kernel;
    kernel
        .variables_at(pc)
        .into_iter()
        .filter_map(|(r, name)| {
            let info = &kernel.regs[r as usize];
            let bits = block.reg(r, tid);
            let value = match &info.source {
                Some(crate::front::types::Type::Scalar(s)) if info.address_of => {
                    let ty = crate::ir::Ty::from(*s);
                    let v = m.global.load(bits, s.size()).ok().filter(|_| bits != 0)?;
                    super::alu::display(ty, v)
                }
                _ => super::alu::display(info.ty, bits),
            };
            Some((name.to_string(), value))
        })
        .collect()
}

/// Reads `size` bytes at `addr` as a thread of the block in `slot` sees memory: that block's shared memory,
/// or global memory. What the debugger's expressions read; nothing changes. Err: why it cannot be read.
pub fn read(m: &Machine, slot: usize, addr: u64, size: u32) -> Result<u64, String> {
    use super::memory::{is_shared, shared_load, shared_offset};
    if addr.checked_add(size as u64).is_none() {
        return Err(format!("{addr:#x} is outside memory"));
    }
    if is_shared(addr) {
        let block = m.blocks.get(slot).ok_or("the block is not resident")?;
        let off = shared_offset(&m.layout, addr, size).map_err(|e| e.to_string())?;
        if off + size as usize > block.shared.len() {
            return Err(format!("{addr:#x} is past the block's shared memory"));
        }
        return Ok(shared_load(&block.shared, off, size));
    }
    m.global.load(addr, size).map_err(|e| match e {
        // As a student indexes: which element of which array.
        super::memory::MemError::OutOfBounds { nearest: Some(n), .. } if n.elem_size > 0 => {
            let per = n.elem_size as i64;
            let index = (addr as i64 - n.base as i64).div_euclid(per);
            format!("out of bounds: element {index} of `{}`, which has {} elements", n.name, n.size as i64 / per)
        }
        e => e.to_string(),
    })
}

/// The block's barrier arrivals for the warp pane, or `None` when no thread waits at a barrier: "block
/// barrier: 63 of 64 live threads arrived" when they wait at one `__syncthreads()`, else how many wait at
/// each ("2 barriers: 32 threads wait at line 9, 32 at line 12"): threads at different
/// barriers never release each other, so one total would mislead.
pub fn barrier_arrivals(kernel: &Kernel, block: &BlockState) -> Option<String> {
    // Threads per barrier PC, in PC order; `None`: a lane the model counts as arrived without a PC of its own.
    let mut at: BTreeMap<Option<Pc>, u32> = BTreeMap::new();
    for w in &block.warps {
        for l in w.at_barrier().iter() {
            let pc = match w.model.lane_stop(l) {
                super::model::LaneStop::Barrier(pc) => Some(pc),
                _ => None,
            };
            *at.entry(pc).or_default() += 1;
        }
    }
    let arrived: u32 = at.values().sum();
    if arrived == 0 {
        return None;
    }
    let pcs: Vec<(Pc, u32)> = at.iter().filter_map(|(pc, n)| pc.map(|pc| (pc, *n))).collect();
    if pcs.len() < 2 {
        let live: u32 = block.warps.iter().map(|w| w.live.count()).sum();
        return Some(format!("block barrier: {arrived} of {live} live threads arrived"));
    }
    let parts: Vec<String> = pcs
        .iter()
        .enumerate()
        .map(|(k, (pc, n))| {
            let threads = match (k, *n) {
                (0, 1) => " thread waits",
                (0, _) => " threads wait",
                _ => "",
            };
            format!("{n}{threads} at line {}", kernel.line(*pc))
        })
        .collect();
    // Short enough for the warp pane at 120 columns.
    Some(format!("{} barriers: {}", pcs.len(), parts.join(", ")))
}

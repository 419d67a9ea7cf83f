//! ITS forward progress in whole runs. At a loop's back edge taken while other threads of the warp wait to
//! reconverge, the sequential machine (`Machine::spin_check`) looks for a state of the looping group it has
//! been in before (PC, lanes, waiting lanes, every register, and a machine-wide count of memory writes) and
//! then releases the waiters: a verdict that depends on other blocks' writes, which a whole run cannot know.
//!
//! A whole run keeps the same record per warp, of a coarser state: the PC, lanes, waiting lanes and only the
//! registers live at the PC (`ir::liveness`; registers that share a row in a packed register file are never
//! live at once, so a live register's row holds its value). Equal sequential states have equal coarser states,
//! and both records start over at the same moments (a back edge with nothing waiting, a full record), so
//! while the coarser state never repeats the sequential run cannot find a spin either, whatever other blocks
//! do, and the run goes on; a repeat refuses it (the sequential run then decides). A loop whose counter
//! changes never repeats: divergent loops run whole.

use std::hash::{Hash, Hasher};

use super::state_hasher;
use crate::ir::Pc;
use crate::sim::decoded::{Program, Row};
use crate::sim::lane_mask::LaneMask;

/// How many states a warp's spin record holds before it starts over.
const SPIN_RECORD: usize = 4096;

/// The coarser state (see the module) of the lanes `mask` of warp `w`, after a back edge to `pc` while the
/// lanes `converging` wait, in a register file of `stride` lanes per row.
fn live_state(
    program: &Program,
    (pc, mask, converging): (Pc, LaneMask, LaneMask),
    regs: &[u64],
    stride: usize,
    w: usize,
) -> u64 {
    let mut h = state_hasher();
    (pc, mask, converging).hash(&mut h);
    let mut hash_row = |r: usize| {
        for l in mask.iter() {
            regs[r * stride + w * 32 + l as usize].hash(&mut h);
        }
    };
    match program.live_in.get(pc.0 as usize) {
        Some(Some(rows)) => rows.iter().for_each(|&r: &Row| hash_row(r as usize)),
        // (Not a block's start: every register.)
        _ => (0..program.regs).for_each(hash_row),
    }
    h.finish()
}

/// A whole run's spin check at a back edge to `pc` taken by the lanes `mask` of warp `w` (after the move),
/// with `seen` its record: the record starts over when no lane waits to reconverge; otherwise the coarser
/// state joins it. True when that state repeats, which refuses the run.
pub(super) fn whole_run_repeats(
    program: &Program,
    seen: &mut Vec<u64>,
    (pc, mask, converging): (Pc, LaneMask, LaneMask),
    regs: &[u64],
    stride: usize,
    w: usize,
) -> bool {
    if converging.is_empty() {
        seen.clear();
        return false;
    }
    seen_again(seen, live_state(program, (pc, mask, converging), regs, stride, w))
}

/// Adds `state` to a warp's spin record; true, with the record unchanged, when it already holds it. The
/// sequential check keeps its record by this rule too: the two start over at the same moments.
pub(super) fn seen_again(seen: &mut Vec<u64>, state: u64) -> bool {
    if seen.contains(&state) {
        return true;
    }
    if seen.len() >= SPIN_RECORD {
        seen.clear();
    }
    seen.push(state);
    false
}

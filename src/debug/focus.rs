//! The thread a session's stop is about: the faulting thread, the first thread a breakpoint's condition
//! holds for, a waiting thread of the first stuck block ([`crate::sim::focus`] for final outcomes).

use super::breakpoint::{Hit, line_hit};
use super::session::Stop;
use crate::sim::Machine;
use crate::sim::focus::{Focus, of_outcome};

/// The thread a breakpoint hit is about: the first the condition held for (or the first writer, ...).
pub fn of_hit(h: &Hit) -> Focus {
    Focus::of_tid(h.block, h.threads.first().copied().unwrap_or(h.warp * 32))
}

/// The thread a session's stop is about (None: the selection stays as it is).
pub fn of_stop(m: &mut Machine, stop: &Stop) -> Option<Focus> {
    match stop {
        Stop::Finished(o) => of_outcome(m, o),
        Stop::Hit(h) => Some(of_hit(h)),
        Stop::Breakpoint { line } => Some(of_hit(&line_hit(m, *line))),
        Stop::Stepped | Stop::Divergence { .. } => None,
    }
}

//! The process exit statuses interface.md fixes, and the one for each final outcome.

use crate::sim::Outcome;

/// Process exit statuses fixed by interface.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// The kernel completed (hazards allowed), or the command succeeded.
    Ok = 0,
    /// A fault: out of bounds, division by zero, ...
    Fault = 1,
    /// Bad usage, or a kernel that does not compile.
    Usage = 2,
    /// Deadlock or livelock.
    Deadlock = 3,
    /// The step limit was reached.
    StepLimit = 4,
}

/// The status and what it means (`exit status 2: bad usage`). A command that fails has already printed why;
/// this names the status, as the error of the loaders' `Result<_, Exit>`.
impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let meaning = match self {
            Exit::Ok => "success",
            Exit::Fault => "a fault",
            Exit::Usage => "bad usage, or a kernel that does not compile",
            Exit::Deadlock => "a deadlock or livelock",
            Exit::StepLimit => "the step limit",
        };
        write!(f, "exit status {}: {meaning}", *self as u8)
    }
}

impl std::error::Error for Exit {}

/// The exit status for a final outcome (interface.md).
pub fn exit_for(outcome: &Outcome) -> Exit {
    match outcome {
        Outcome::Completed | Outcome::Paused => Exit::Ok,
        Outcome::Fault(_) => Exit::Fault,
        Outcome::Deadlock(_) | Outcome::Livelock(_) => Exit::Deadlock,
        Outcome::StepLimit => Exit::StepLimit,
    }
}

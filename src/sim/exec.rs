//! Executes one instruction for a set of lanes of one warp: the data path, independent of how the execution
//! model picked those lanes. Control flow comes back as an [`Effect`] for the model to apply.
//!
//! Two paths execute an instruction: [`execute`] (`general.rs`) runs any instruction of the IR, and
//! [`execute_decoded`] (`decoded.rs`) the pre-decoded fast forms whole runs issue, for one warp; `wide.rs`
//! runs an ALU operation for a group of consecutive warps at once. `lanes.rs` holds the whole-warp lane loops
//! they share, `bulk.rs` whole runs' loads and stores of a warp in one go
//! (`shared_bulk.rs` those of shared memory). `context.rs` holds what they all
//! work on: the context ([`Ctx`]) with its memory accesses, and what an instruction reports ([`Effect`],
//! [`ExecError`], [`Note`]). (So the files here use `context.rs` and each other, never this one.)

mod bulk;
mod context;
mod decoded;
mod general;
mod lanes;
mod shared_bulk;
mod texture_fetch;
mod wide;

pub use context::{Counters, Ctx, Effect, ExecError, Note, RaceCtx, SHARED_TOUCH, Touched};
pub use decoded::{Flow, execute_decoded};
pub use general::execute;
pub use wide::{Uniform, WideLanes, execute_wide};

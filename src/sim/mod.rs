//! The simulated streaming multiprocessor: machine state kept apart from any view, two interchangeable
//! execution models (pre-Volta SIMT stack, ITS), memory with sanitizer-style faults, barriers, metrics.
//!
//! The API is what this file re-exports: the [`Machine`] and its [`Config`], what a run reports
//! ([`Outcome`], [`Issue`], [`Hazard`], [`Fault`], [`Metrics`], [`report`]), its memory ([`GlobalMemory`]),
//! and for views, [`inspect`], the read-only questions about warps (views never read a warp's execution
//! model itself); [`expr`], the debugger's expressions over any thread's values, and [`focus`], the thread a
//! final outcome is about. [`curand`] and the data path's arithmetic ([`alu`], which the host interpreter shares) and
//! device `printf` ([`printf`]) are modules of functions. Everything else is private.
//!
//! Inside: `machine` runs launches (stepping, whole runs on several cores, explanations); `model` holds the
//! execution models behind one dispatcher; `exec` is the data path of one instruction, on `decoded`
//! instructions in whole runs, through `shared_global` memory there; `warp` is a warp (its lanes, its model,
//! its divergence records). Files here form no import circles; `machine` and `exec` document the
//! parent-child ones inside them.

pub(crate) mod alu;
mod banks;
mod child_launch;
mod commute;
pub mod constant_reads;
pub mod curand;
mod decoded;
/// The simulated GPU's published facts (here so the machine's grid barrier can size residency; `perf`
/// re-exports it).
pub mod device;
mod exec;
pub mod expr;
mod fast_math;
mod fault;
mod jit;
mod lane_runs;
mod libdevice;
pub use jit::compiled_segments as jit_compiled_segments;
pub mod focus;
pub mod inspect;
mod lane_bits;
mod lane_mask;
mod machine;
mod memory;
mod memory_report;
mod metrics;
mod model;
/// Resident blocks per SM by the occupancy calculator's rules (re-exported by `perf`).
pub mod occupancy;
pub(crate) mod printf;
mod race;
pub mod report;
mod shared_global;
mod special_math;
pub mod texture;
pub mod traffic;
mod warp;
mod zeroed;

pub use child_launch::ChildLaunch;
pub use fault::{Fault, FaultKind};
pub use lane_mask::{LaneMask, format_ranges, threads_phrase};
pub use machine::{
    ARGUMENT_STEP_CEILING, ArrivalFilter, AtomicWrite, BlockState, Config, DeviceJit, Halt, Hazard, HazardKind, Issue,
    LaunchError, Machine, Outcome, PrintfLine, Stops, Stuck, Tuning, Wait, WaitKind, WholeProgress, argument_steps,
    co_resident_blocks, grid_sync_line, kernel_file_step_limit, largest_bound, largest_integer_argument,
    largest_loop_constant, program_step_limit,
};
pub use memory::{
    Allocation, GLOBAL_BASE, GUARD, GlobalMemory, InitShadow, MemDelta, MemDigest, SHARED_BASE, SharedLayout,
    shared_load,
};
pub use memory_report::MemoryDetail;
pub use metrics::{LineMetrics, Metrics, WarpDivergence};
pub use warp::{LaneEvents, Warp, WarpId};
pub use zeroed::{Zeroed, copy_changed};

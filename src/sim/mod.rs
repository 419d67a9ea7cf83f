//! The simulated streaming multiprocessor: machine state kept apart from any view, two interchangeable
//! execution models (pre-Volta SIMT stack, ITS), memory with sanitizer-style faults, barriers, metrics.

pub mod alu;
pub mod banks;
pub mod child_launch;
pub mod curand;
pub mod decoded;
pub mod exec;
pub mod fault;
pub mod inspect;

pub mod lane_bits;
pub mod lane_mask;
pub mod machine;
pub mod memory;
pub mod memory_report;
pub mod metrics;
pub mod model;
pub mod printf;
pub mod race;
pub mod report;
mod shared_global;

pub mod warp;

pub use lane_mask::LaneMask;
pub use machine::{Config, Halt, Issue, LaunchError, Machine, Outcome, Stops, Tuning, WholeProgress};
pub use warp::WarpId;

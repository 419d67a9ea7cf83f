//! Performance: what the simulator's counts cost on the GPU it stands for. The simulator counts facts of the
//! execution (warp-instructions, branches, shared wavefronts, global requests, sectors and how each 128-byte
//! line was reused: `sim::metrics`, `sim::banks`, `sim::traffic`); this layer prices them.
//!
//! - [`device`] (in `sim`, re-exported): the GPU's published facts (SMs, clock, limits, bandwidths,
//!   latencies), each with its source;
//! - [`occupancy`] (in `sim`, re-exported: the grid barrier sizes residency by it): resident blocks and warps
//!   per SM by the occupancy calculator's rules;
//! - [`timing`]: a launch's virtual duration, the largest of its issue, shared-memory, L2, DRAM, atomic and
//!   latency terms (docs/performance.md);
//! - [`named`]: the metrics by the names students meet (nvprof's and Nsight Compute's);
//! - [`report`]: `run`'s `timing` and `profiler` entries and readable block.
//!
//! Everything here is a pure function of a finished [`crate::sim::Machine`]: deterministic, the same on every
//! host, and independent of how many cores ran the simulation.

pub use crate::sim::device;
pub mod named;
pub use crate::sim::occupancy;
pub mod report;
pub mod timing;

pub use device::Device;
pub use named::{NamedMetric, named_metrics};
pub use occupancy::{Limiter, Occupancy, occupancy};
pub use timing::{KernelTime, kernel_time};

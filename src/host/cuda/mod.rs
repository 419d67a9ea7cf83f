//! The CUDA runtime API at run time: device memory through [`super::Device`], error codes and strings as
//! CUDA 12 gives them ([`errors`]), the simulated device's properties ([`props`]), events, streams and virtual
//! time ([`timing`]), copies ([`memory`]) and launches ([`launch`]). Work runs in program order; a kernel's
//! fault becomes the context's sticky error at the next runtime call that waits for or talks to the device,
//! and device `printf` output appears when the program synchronises, as on hardware (docs/programs.md).

mod arguments;
mod callbacks;
mod calls;
pub mod errors;
mod graphs;
mod launch;
mod launch_api;
mod memory;
pub mod names;
mod occupancy;
mod pitched;
pub mod props;
pub use crate::front::runtime_structs as structs;
pub mod table;
mod texture;
mod timing;

use super::findings::{FailedFree, Finding, FindingKind, Leak};
use super::memory::AllocKind;
use super::tree::*;
use crate::front::types::Scalar;
pub use errors::*;
pub use occupancy::KernelResources;
pub use timing::Clock;

/// The scalars in declaration order (`Scalar as u64` indexes this).
const SCALARS: [Scalar; 12] = Scalar::ALL;

/// A scalar as a constant argument ([`SCALARS`]' index).
pub(super) fn scalar_index(s: Scalar) -> u64 {
    SCALARS.iter().position(|&x| x == s).unwrap_or(2) as u64
}

fn scalar_at(i: u64) -> Scalar {
    SCALARS.get(i as usize).copied().unwrap_or(Scalar::U8)
}

/// A launch that did not run.
#[derive(Clone, Debug)]
struct Refused {
    line: u32,
    /// `fill<<<2, 2048>>>`.
    launch: String,
    reason: String,
    code: u32,
    /// `cudaGetLastError` or `cudaPeekAtLastError` returned its error.
    checked: bool,
}

/// Host memory the device reaches too: managed (`cudaMallocManaged`) or pinned (`cudaMallocHost`). The host
/// copy is the program's between launches; the device copy is brought level before and after each launch.
#[derive(Clone, Debug)]
struct Mirror {
    addr: u64,
    size: u64,
    managed: bool,
    /// A `__managed__` variable: every launch may reach it by name.
    symbol: bool,
}

/// The runtime's state in one program run.
#[derive(Debug, Default)]
pub struct Runtime {
    /// `cudaGetLastError`'s error.
    pub last_error: u32,
    /// The sticky error of a broken context (0: none).
    pub sticky: u32,
    /// A kernel's fault the program has not yet run into (it becomes sticky at the next call).
    pending: Option<u32>,
    /// Device `printf` output not yet flushed to stdout.
    pending_printf: Vec<u8>,
    /// Host copies of the runtime's error strings, by code (allocated on first use).
    error_strings: Vec<(u32, bool, u64)>,
    /// API misuse found so far.
    pub findings: Vec<Finding>,
    /// Device memory never freed (at `cudaDeviceReset` or the end).
    pub leaks: Vec<Leak>,
    refused: Vec<Refused>,
    /// The refused launch whose error `last_error` holds.
    origin: Option<usize>,
    /// Events by handle (index + 1): Some(recorded time, timing enabled) while they exist.
    events: Vec<Option<timing::Event>>,
    /// Streams by handle: whether each exists.
    streams: Vec<bool>,
    /// Virtual time.
    pub clock: Clock,
    mirrors: Vec<Mirror>,
    /// Device allocations freed by `cudaFree`: address, line, name (for a second `cudaFree`; an address
    /// given again is in it once per free, the latest last).
    freed: Vec<(u64, u32, String)>,
    /// Launches asked for (run or not).
    pub launches: usize,
    /// The kernel fault that broke the context, once one has.
    fault: Option<FaultAt>,
    /// `cudaFree` calls that failed because the context was broken: address, line, the error.
    failed_frees: Vec<(u64, u32, u32)>,
    /// The stream capture under way, if any.
    capture: Option<graphs::Capture>,
    /// Graphs and graph instances by handle: their nodes while they exist.
    graphs: Vec<Option<Vec<graphs::Node>>>,
    execs: Vec<Option<Vec<graphs::Node>>>,
    /// CUDA arrays and texture objects while they exist.
    textures: texture::Textures,
}

/// The kernel fault that broke the context (what a failed `cudaFree` after it is blamed on).
#[derive(Debug)]
struct FaultAt {
    kernel: String,
    /// The kernel's source line.
    line: u32,
    /// The program's launch number.
    launch: usize,
}

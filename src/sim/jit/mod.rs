//! The device JIT: hot segments of a whole run's straight stretches compiled to machine code with Cranelift
//! (docs/jit.md). A segment (`stretch.rs`) is a run of ALU instructions, moves, pointer arithmetic and
//! specials; compiled (`lower.rs`), it is one loop over a group of consecutive warps' lanes that keeps the
//! values in machine registers and writes back every row the interpreter would write, with the same bits.
//! The interpreter stays for everything else: single-stepping and the debugger never reach this (only
//! `machine/gang.rs`'s whole runs call it), a segment runs interpreted until it has been issued
//! [`HOT_ISSUES`] times in the launch, and memory operations, divisions, branches and the general path are
//! never compiled. It is off by default (the machine's [`DeviceJit::Off`]: the scalar lane loop is slower than
//! the interpreter's AVX2 loops, benches/simulator.md "Device JIT (stop 46)"); `WARPDBG_JIT=1` compiles hot
//! segments, `WARPDBG_JIT=eager` every segment at its first issue (the tests compare it with the interpreter);
//! wasm builds have no JIT.

#[cfg(feature = "native")]
mod stretch;

#[cfg(feature = "native")]
mod compiled;
#[cfg(feature = "native")]
mod lower;

use crate::sim::machine::DeviceJit;

/// Issues of a segment within a launch (all block ranges together) before it is compiled: compiling costs
/// about as much as interpreting it a few hundred times at a block of 256 threads.
pub const HOT_ISSUES: u32 = 64;

impl DeviceJit {
    /// The mode a `WARPDBG_JIT` value names: `1` or `hot`, `eager`; anything else, or none, is `Off`.
    pub fn named(v: Option<&str>) -> DeviceJit {
        match v {
            Some("1" | "hot") => DeviceJit::Hot,
            Some("eager") => DeviceJit::Eager,
            _ => DeviceJit::Off,
        }
    }

    /// Issues of a segment before it is compiled (None: never).
    pub fn after(self) -> Option<u32> {
        match self {
            DeviceJit::Off => None,
            DeviceJit::Hot => Some(HOT_ISSUES),
            DeviceJit::Eager => Some(1),
        }
    }
}

#[cfg(feature = "native")]
pub(crate) use compiled::Cache;
#[cfg(feature = "native")]
pub use compiled::compiled_segments;

/// How many segments this process has compiled (none without Cranelift).
#[cfg(not(feature = "native"))]
pub fn compiled_segments() -> u64 {
    0
}

#[cfg(all(test, feature = "native"))]
mod tests;

/// Without Cranelift (the page's wasm build) nothing is compiled.
#[cfg(not(feature = "native"))]
pub(crate) struct Cache;

#[cfg(not(feature = "native"))]
impl Cache {
    pub fn new(_: std::sync::Arc<crate::sim::decoded::Program>, _: DeviceJit) -> Option<Cache> {
        None
    }

    #[inline(always)]
    pub fn run(
        &self,
        _: &mut crate::sim::exec::Ctx,
        _: crate::ir::Pc,
        _: u32,
        _: &crate::sim::exec::WideLanes,
        _: &mut crate::sim::exec::Uniform,
    ) -> u32 {
        0
    }
}

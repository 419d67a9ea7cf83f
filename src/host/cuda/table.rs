//! The CUDA runtime functions warpdbg implements, how far, and the common ones it does not: the one list that
//! docs/programs.md's API table is generated from ([`markdown`]; `tests/docs_api_table.rs` fails when the doc
//! differs, and [`check`] when this list and the resolver's tables in [`super::names`] disagree).

use super::names::runtime_sig;

/// How far warpdbg implements a runtime function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// As CUDA documents it, on the simulated device (errors and sticky errors included).
    Full,
    /// As CUDA documents it, but the work runs at once in program order on the one queue (streams,
    /// asynchronous copies): a result a real GPU may also give.
    ProgramOrder,
    /// Answers a fixed value, the one an H100 gives.
    Fixed,
    /// Accepted and checked for its arguments' types; it changes nothing.
    NoEffect,
}

impl Support {
    /// Its word in the table.
    pub fn word(self) -> &'static str {
        match self {
            Support::Full => "full",
            Support::ProgramOrder => "full, in program order",
            Support::Fixed => "fixed answer",
            Support::NoEffect => "accepted, no effect",
        }
    }
}

/// One implemented function (or several that behave alike): names, support, a note.
pub struct Entry {
    pub names: &'static [&'static str],
    pub support: Support,
    pub note: &'static str,
}

const fn e(names: &'static [&'static str], support: Support, note: &'static str) -> Entry {
    Entry { names, support, note }
}

use Support::*;

/// Every CUDA runtime function host code may call, in the order of the table.
pub const RUNTIME: &[Entry] = &[
    e(
        &["cudaMalloc"],
        Full,
        "fails with `cudaErrorMemoryAllocation` past the device's memory (80 GiB, an H100's; `--memory-cap`); backed as written, so reserving much and touching little costs little",
    ),
    e(&["cudaMallocManaged"], Full, "host and device share it"),
    e(&["cudaMallocHost", "cudaHostAlloc"], Full, "pinned: kernels may read it"),
    e(&["cudaHostGetDevicePointer"], Full, "the same address"),
    e(&["cudaFree", "cudaFreeHost"], Full, "a bad or double free is a finding"),
    e(&["cudaMemcpy", "cudaMemset"], Full, "sizes and directions checked (findings)"),
    e(&["cudaMemcpyAsync", "cudaMemsetAsync"], ProgramOrder, "copies at the call"),
    e(&["cudaMallocAsync", "cudaFreeAsync"], ProgramOrder, "at the call, as `cudaMalloc` and `cudaFree`"),
    e(&["cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaGetSymbolAddress"], Full, ""),
    e(&["cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync"], ProgramOrder, "copies at the call"),
    e(&["cudaMemGetInfo"], Full, "free and total of the simulated device"),
    e(&["cudaDeviceSynchronize", "cudaThreadSynchronize"], Full, "flushes device `printf`"),
    e(&["cudaDeviceReset", "cudaThreadExit"], Full, "a fresh context"),
    e(&["cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString", "cudaGetErrorName"], Full, ""),
    e(&["cudaSetDevice", "cudaGetDevice", "cudaGetDeviceCount"], Full, "one device, 0"),
    e(&["cudaChooseDevice"], Fixed, "device 0, the closest to any properties asked for"),
    e(
        &["cudaGetDeviceProperties", "cudaGetDeviceProperties_v2", "cudaDeviceGetAttribute"],
        Full,
        "the simulated device",
    ),
    e(&["cudaDriverGetVersion", "cudaRuntimeGetVersion"], Fixed, ""),
    e(&["cudaDeviceGetSharedMemConfig", "cudaDeviceGetCacheConfig"], Fixed, "4-byte banks, no preference"),
    e(&["cudaDeviceGetStreamPriorityRange"], Fixed, "0 and -5"),
    e(
        &[
            "cudaEventCreate",
            "cudaEventCreateWithFlags",
            "cudaEventRecord",
            "cudaEventSynchronize",
            "cudaEventQuery",
            "cudaEventElapsedTime",
            "cudaEventDestroy",
        ],
        Full,
        "virtual time",
    ),
    e(
        &["cudaStreamCreate", "cudaStreamCreateWithFlags", "cudaStreamCreateWithPriority"],
        ProgramOrder,
        "one queue: flags and priorities change nothing",
    ),
    e(&["cudaStreamSynchronize", "cudaStreamQuery", "cudaStreamDestroy"], ProgramOrder, ""),
    e(&["cudaStreamWaitEvent"], ProgramOrder, "the event has happened"),
    e(&["cudaStreamAddCallback", "cudaLaunchHostFunc"], ProgramOrder, "the callback runs at the call"),
    e(
        &["cudaOccupancyMaxPotentialBlockSize", "cudaOccupancyMaxActiveBlocksPerMultiprocessor"],
        Full,
        "the occupancy calculator's rules on the simulated device, with warpdbg's register estimate",
    ),
    e(&["cudaFuncGetAttributes"], Full, "`numRegs` is warpdbg's estimate"),
    e(&["cudaPointerGetAttributes"], Full, "host, device, pinned or managed"),
    e(&["cudaMalloc3D", "cudaMemcpy3D"], Full, "linear memory, rows 512-byte aligned; CUDA arrays not supported"),
    e(&["cudaMemcpy3DAsync"], ProgramOrder, "copies at the call"),
    e(
        &["cudaMallocPitch", "cudaMemcpy2D", "cudaMemset2D"],
        Full,
        "rows 512-byte aligned; each row checked as cudaMemcpy's",
    ),
    e(&["cudaMemcpy2DAsync", "cudaMemset2DAsync"], ProgramOrder, "copies at the call"),
    e(
        &["cudaMallocArray", "cudaFreeArray", "cudaMemcpy2DToArray", "cudaMemcpyToArray", "cudaMemcpy2DFromArray"],
        Full,
        "1D and 2D arrays of 1, 2 or 4 channels of 8, 16 or 32 bits, rows packed",
    ),
    e(&["cudaMemcpy2DToArrayAsync"], ProgramOrder, "copies at the call"),
    e(&["cudaCreateChannelDesc"], Full, "the template form `cudaCreateChannelDesc<T>()` too"),
    e(
        &["cudaCreateTextureObject", "cudaDestroyTextureObject"],
        Full,
        "arrays, linear and pitch-2D memory; no mipmaps, no resource views (docs/programs.md, Textures)",
    ),
    e(
        &["cudaStreamBeginCapture", "cudaStreamEndCapture", "cudaStreamIsCapturing"],
        ProgramOrder,
        "launches, async copies and sets are recorded on any stream",
    ),
    e(
        &[
            "cudaGraphCreate",
            "cudaGraphInstantiate",
            "cudaGraphInstantiateWithFlags",
            "cudaGraphLaunch",
            "cudaGraphGetNodes",
            "cudaGraphExecDestroy",
            "cudaGraphDestroy",
        ],
        ProgramOrder,
        "a launch replays the captured work in order",
    ),
    e(&["cudaMemPrefetchAsync", "cudaMemAdvise"], NoEffect, "managed memory is always level; CUDA 12 and 13 forms"),
    e(&["cudaStreamAttachMemAsync"], NoEffect, "work runs one thing at a time: every stream attachment holds"),
    e(
        &[
            "cudaSetDeviceFlags",
            "cudaFuncSetCacheConfig",
            "cudaFuncSetSharedMemConfig",
            "cudaDeviceSetCacheConfig",
            "cudaDeviceSetSharedMemConfig",
            "cudaDeviceSetLimit",
            "cudaProfilerStart",
            "cudaProfilerStop",
        ],
        NoEffect,
        "",
    ),
];

/// Runtime functions course code calls that warpdbg does not implement: a call is "not supported by warpdbg"
/// at its line.
pub const NOT_IMPLEMENTED: &[&str] = &[
    "cudaBindTexture",
    "cudaHostRegister",
    "cudaHostUnregister",
    "cudaFuncSetAttribute",
    "cudaDeviceCanAccessPeer",
    "cudaDeviceEnablePeerAccess",
    "cudaMemcpyPeer",
];

/// Names the resolver reads outside [`super::names`]' signatures (host callbacks).
const CALLBACKS: [&str; 2] = ["cudaStreamAddCallback", "cudaLaunchHostFunc"];

/// Whether host code may call runtime function `name`.
fn resolves(name: &str) -> bool {
    runtime_sig(name).is_some() || CALLBACKS.contains(&name) || super::structs::made_by(name).is_some()
}

/// Ok when every listed function resolves, no unlisted one does, and `names_source` (the text of
/// `src/host/cuda/names.rs`) names no runtime function the list lacks; else what disagrees.
pub fn check(names_source: &str) -> Result<(), String> {
    let mut wrong = vec![];
    for name in RUNTIME.iter().flat_map(|e| e.names) {
        if !resolves(name) {
            wrong.push(format!("`{name}` is in the table but host code cannot call it"));
        }
    }
    for name in RUNTIME.iter().flat_map(|e| e.names) {
        // An allocation's call passes two notes more (its name and element type).
        let notes = |s: &super::names::RuntimeSig| if super::arguments::names_allocation(s.api) { 2 } else { 0 };
        if runtime_sig(name).is_some_and(|s| s.params.len() + notes(&s) > crate::host::tree::LIB_ARGS) {
            wrong.push(format!("`{name}` takes more arguments than a library call passes (LIB_ARGS)"));
        }
    }
    for name in NOT_IMPLEMENTED {
        if resolves(name) {
            wrong.push(format!("`{name}` is listed as not implemented but host code can call it"));
        }
    }
    // Every `"cudaX" =>` or `"cudaX" |` arm of the signatures.
    for piece in names_source.split('"').skip(1).step_by(2) {
        let listed = RUNTIME.iter().any(|e| e.names.contains(&piece));
        if piece.starts_with("cuda") && resolves(piece) && !listed {
            wrong.push(format!("`{piece}` resolves but is not in src/host/cuda/table.rs"));
        }
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("\n")) }
}

/// The table docs/programs.md shows between its `api-table` markers.
pub fn markdown() -> String {
    let mut out = String::from("| function | support | note |\n|---|---|---|\n");
    for e in RUNTIME {
        let names: Vec<String> = e.names.iter().map(|n| format!("`{n}`")).collect();
        out += &format!("| {} | {} | {} |\n", names.join(", "), e.support.word(), e.note);
    }
    let missing: Vec<String> = NOT_IMPLEMENTED.iter().map(|n| format!("`{n}`")).collect();
    out += &format!(
        "\n{} runtime functions implemented. Not implemented (a call is \"not supported by warpdbg\" at its \
         line): {}.\n",
        RUNTIME.iter().map(|e| e.names.len()).sum::<usize>(),
        missing.join(", ")
    );
    out
}

//! Where `#include` finds its files: quoted headers from disk (or, in the web page, from memory), and the
//! system headers whose declarations warpdbg has built in.

use std::path::{Path, PathBuf};

/// Reads an included file's text. The terminal build reads the disk; a web build supplies sources from memory.
pub trait IncludeLoader {
    fn load(&self, path: &Path) -> Option<String>;
}

/// Reads headers from the file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsLoader;

impl IncludeLoader for FsLoader {
    fn load(&self, path: &Path) -> Option<String> {
        let bytes = std::fs::read(path).ok()?;
        Some(String::from_utf8_lossy(crate::front::source::without_bom(&bytes)).into_owned())
    }
}

/// Loads nothing: for texts that have no directory (command-line snippets, tests).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFiles;

impl IncludeLoader for NoFiles {
    fn load(&self, _: &Path) -> Option<String> {
        None
    }
}

/// Headers whose declarations warpdbg provides itself (the runtime API, math, printf, cooperative groups, the
/// C and C++ libraries courses include): including them adds nothing, because the names are built in.
const BUILT_IN: &[&str] = &[
    "cuda.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "device_atomic_functions.h",
    "sm_20_atomic_functions.h",
    "sm_60_atomic_functions.h",
    "sm_30_intrinsics.h",
    "vector_types.h",
    "vector_functions.h",
    "math_functions.h",
    "math_constants.h",
    "cuda_fp16.h",
    "cooperative_groups.h",
    "cooperative_groups/reduce.h",
    "cooperative_groups/scan.h",
    "cooperative_groups/memcpy_async.h",
    "helper_cuda.h",
    "helper_string.h",
    "helper_timer.h",
    "helper_functions.h",
    "helper_math.h",
    "curand.h",
    "curand_kernel.h",
    // Host-side libraries and profiling: their handle types are known host-only types, and device code
    // uses none of their functions.
    "cuda_profiler_api.h",
    "nvToolsExt.h",
    "nvToolsExtCuda.h",
    "nvToolsExtCudaRt.h",
    "nvtx3/nvToolsExt.h",
    "nvtx3/nvToolsExtCuda.h",
    "nvtx3/nvToolsExtCudaRt.h",
    "cublas_v2.h",
    "cublas.h",
    "cufft.h",
    "cusparse.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "math.h",
    "assert.h",
    "time.h",
    "sys/time.h",
    "stdint.h",
    "stddef.h",
    "stdbool.h",
    "limits.h",
    "float.h",
    "unistd.h",
    "cstdio",
    "cstdlib",
    "cstring",
    "cmath",
    "cassert",
    "ctime",
    "cstdint",
    "cstddef",
    "climits",
    "cfloat",
    "iostream",
    "iomanip",
    "fstream",
    "sstream",
    "string",
    "vector",
    "algorithm",
    "numeric",
    "chrono",
    "random",
    "memory",
    "utility",
    "functional",
    "limits",
    "omp.h",
];

/// The CUDA samples' `helper_cuda.h` (with `helper_string.h`'s command-line helpers), `helper_timer.h`, and
/// `helper_functions.h`, which courses copy beside their programs: warpdbg's own, in the host language.
const HELPER_CUDA: &str = include_str!("helper_cuda.cuh");
const HELPER_TIMER: &str = include_str!("helper_timer.cuh");
const HELPER_FUNCTIONS: &str = concat!(include_str!("helper_cuda.cuh"), include_str!("helper_timer.cuh"));

/// Whether `name` (as written between `<>` or quotes) is a header warpdbg has built in.
pub fn is_built_in(name: &str) -> bool {
    BUILT_IN.contains(&name)
}

/// The text of a header warpdbg writes itself in the kernel language, or None.
pub fn built_in_text(name: &str) -> Option<&'static str> {
    match name {
        "cuda_fp16.h" | "cuda_fp16.hpp" => Some(crate::front::half::HEADER),
        "helper_cuda.h" | "helper_string.h" => Some(HELPER_CUDA),
        "helper_timer.h" => Some(HELPER_TIMER),
        "helper_functions.h" => Some(HELPER_FUNCTIONS),
        _ => None,
    }
}

/// The path a quoted `#include "name"` in `includer` refers to: relative to the including file's folder.
pub fn resolve(includer: &str, name: &str) -> PathBuf {
    let dir = Path::new(includer).parent().unwrap_or(Path::new(""));
    dir.join(name)
}

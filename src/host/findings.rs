//! What warpdbg finds in a program's use of the CUDA runtime beyond its kernels: API misuse the hardware
//! reports only as an error code (or not at all), and device memory never freed. Each finding has the host
//! line and a sentence of fix; `crate::program` prints them on stderr or in the JSON report.

/// What kind of misuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindingKind {
    /// A kernel argument points to host memory.
    HostPointerToKernel,
    /// A `cudaMemcpy`/`cudaMemset` larger than its source or destination.
    CopySize,
    /// A `cudaMemcpy` whose kind does not match where its pointers point.
    CopyDirection,
    /// `cudaFree` of something `cudaMalloc` did not return, or twice.
    BadDeviceFree,
    /// A launch that did not run, and the program never asked `cudaGetLastError` about it.
    UncheckedLaunch,
    /// Device `printf` output the program never flushed (no synchronisation before it ended).
    UnflushedPrintf,
    /// `cudaFree` calls that failed because a kernel fault had broken the context (a note: the memory goes
    /// with the context, it is not a leak).
    FreeAfterFault,
    /// `new` of more than the host may hold: the uncaught `std::bad_alloc` ended the program.
    BadAlloc,
}

impl FindingKind {
    /// The name in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::HostPointerToKernel => "host_pointer_to_kernel",
            FindingKind::CopySize => "copy_size",
            FindingKind::CopyDirection => "copy_direction",
            FindingKind::BadDeviceFree => "bad_device_free",
            FindingKind::UncheckedLaunch => "unchecked_launch",
            FindingKind::UnflushedPrintf => "unflushed_printf",
            FindingKind::FreeAfterFault => "free_after_fault",
            FindingKind::BadAlloc => "bad_alloc",
        }
    }

    /// Whether it makes `warpdbg run` exit with status 1 (a bug); the others are notes.
    pub fn is_error(self) -> bool {
        !matches!(self, FindingKind::UnflushedPrintf | FindingKind::FreeAfterFault)
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub kind: FindingKind,
    /// The host line it is about.
    pub line: u32,
    /// What happened and the fix, in sentences.
    pub message: String,
    /// Launches made before it (orders findings among the launches' reports).
    pub after_launches: usize,
}

/// Device memory never freed (like compute-sanitizer's leak check).
#[derive(Clone, Debug, PartialEq)]
pub struct Leak {
    /// The variable it was allocated for (`d_a`).
    pub name: String,
    pub bytes: u64,
    /// The line of the `cudaMalloc`.
    pub line: u32,
    pub address: u64,
    /// `cudaMalloc` or `cudaMallocManaged`.
    pub api: &'static str,
}

impl Leak {
    /// The sentence printed for it.
    pub fn message(&self) -> String {
        format!(
            "{} bytes of device memory from {} at line {} (`{}`, {:#x}) were never freed: call cudaFree({}) when \
             you are done with it",
            self.bytes, self.api, self.line, self.name, self.address, self.name
        )
    }
}

/// A `cudaFree` that failed because a kernel fault had broken the context.
#[derive(Clone, Debug, PartialEq)]
pub struct FailedFree {
    /// The variable it was allocated for (`d_a`).
    pub name: String,
    /// The line of the `cudaFree`.
    pub line: u32,
    /// The sticky error it failed with.
    pub code: u32,
}

impl FailedFree {
    /// One sentence for all of them: which calls failed, with what, because of which fault (`kernel`'s
    /// source line `line`, in launch `launch`).
    pub fn message(failed: &[FailedFree], kernel: &str, line: u32, launch: usize) -> String {
        let calls: Vec<String> = failed.iter().map(|f| format!("cudaFree({}) at line {}", f.name, f.line)).collect();
        let calls = match calls.as_slice() {
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => String::new(),
        };
        let mut codes: Vec<&str> = failed.iter().map(|f| super::cuda::errors::error_text(f.code).0).collect();
        codes.dedup();
        format!(
            "{calls} failed with {} because of the fault at line {line} ({kernel}, launch {launch}): the memory is \
             released with the context, not leaked",
            codes.join(" or ")
        )
    }
}

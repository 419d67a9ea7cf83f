//! The host side of a whole CUDA program: host functions resolved to a slot-addressed tree ([`resolve`]),
//! run by a deterministic interpreter on one host thread ([`interp`]) over checked host memory
//! ([`memory`]), with the C library ([`libc`]) and the CUDA runtime API ([`cuda`]). The device itself (its
//! memory and the simulated SM that runs launches) is behind the [`Device`] trait, which `crate::program`
//! implements: this module never runs a kernel itself.

mod addressed;
mod algorithm;
mod array;
mod bindings;
mod braced;
mod calls;
mod classes;
mod closure;
mod cmath;
mod cstdio;
mod cstdlib;
mod cstring;
mod ctype;
pub mod cuda;
mod decl;
mod exceptions;
mod expr;
pub mod files;
pub mod findings;
mod fnptr;
pub mod fstream;
mod function_algorithm;
mod getopt;
mod globals;
pub mod interp;
mod istream;
#[cfg(feature = "native")]
mod jit;
mod lambda;
pub mod libc;
mod libcalls;
mod libfns;
pub mod memory;
mod methods;
mod overload;
mod pair;
mod prelude;
mod pthread;
mod random;
mod refs;
pub mod resolve;
mod scanf;
mod stmt;
mod stream;
mod string;
mod templates;
mod threads;
pub mod tree;
mod values;
mod varargs;
mod vector;
mod vector_structs;
mod view;

use std::fmt;

use crate::front::types::Scalar;

/// A device allocation, as host code sees it (for messages).
#[derive(Clone, Debug)]
pub struct DeviceAlloc {
    pub name: String,
    pub base: u64,
    pub size: u64,
    pub elem_size: u32,
    /// The element's C type (`int`), for hints.
    pub elem: &'static str,
    /// The line of the `cudaMalloc` that made it.
    pub line: u32,
}

/// A launch as the host asks for it.
#[derive(Clone, Debug)]
pub struct LaunchRequest {
    /// The program's launch number, from 1.
    pub index: usize,
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u32,
    /// Argument bits, in parameter order.
    pub args: Vec<u64>,
    /// The line of the launch: in host code, or for a grid launched from device code (`parent`), there.
    pub line: u32,
    /// For a grid launched from device code (dynamic parallelism): the launch whose thread launched it.
    pub parent: Option<usize>,
    /// A cooperative launch (`cudaLaunchCooperativeKernel`): its blocks must all fit on the device at once,
    /// and only its kernel may call `grid.sync()`.
    pub cooperative: bool,
}

impl LaunchRequest {
    /// Where the launch is: `line 12`, or `line 26 (from device code, in launch 1)` for a child grid.
    pub fn site(&self) -> String {
        match self.parent {
            Some(p) => format!("line {} (from device code, in launch {p})", self.line),
            None => format!("line {}", self.line),
        }
    }

    /// `fill<<<2, 2048>>>` (dimensions of 1 left out as a program writes them).
    pub fn config(&self) -> String {
        let dim = |d: [u32; 3]| match d {
            [x, 1, 1] => x.to_string(),
            [x, y, 1] => format!("({x},{y})"),
            [x, y, z] => format!("({x},{y},{z})"),
        };
        let shared = if self.shared > 0 { format!(", {}", self.shared) } else { String::new() };
        format!("{}<<<{}, {}{shared}>>>", self.kernel, dim(self.grid), dim(self.block))
    }
}

/// How a launch went.
#[derive(Clone, Debug, PartialEq)]
pub enum LaunchStatus {
    /// Completed: its device `printf` output and its duration in virtual nanoseconds.
    Ran { printed: String, ns: u64 },
    /// Did not run (an invalid configuration): the CUDA error code and why, in words ("2048 threads per
    /// block; at most 1024").
    Refused { code: u32, reason: String },
    /// A fault in the kernel (warpdbg has reported it): its `printf` output before it, the sticky CUDA error
    /// the context now has, the virtual time it ran, and the kernel's source line that faulted.
    Faulted { printed: String, code: u32, ns: u64, line: u32 },
    /// The program cannot go on (deadlock, livelock, step limit): warpdbg's exit status. Reported.
    Stop(u8),
}

/// The GPU a program's host code talks to.
pub trait Device {
    /// The simulated device's model and memory size (`cudaGetDeviceProperties`).
    fn gpu(&self) -> cuda::props::Gpu;
    /// `cudaMalloc`: a new allocation of `bytes` holding `elem`s, or None when out of memory.
    fn malloc(&mut self, bytes: u64, elem: Scalar, name: &str, line: u32) -> Option<u64>;
    /// A device allocation at exactly `addr`, the device's view of host memory it can reach (managed or
    /// mapped pinned memory; the host keeps both sides equal around launches). False when out of memory.
    fn map(&mut self, addr: u64, bytes: u64, elem: Scalar, name: &str, line: u32) -> bool;
    /// `cudaFree`: false when `addr` is not the start of a live allocation.
    fn free(&mut self, addr: u64) -> bool;
    /// The live allocation `addr` falls in.
    fn owner(&self, addr: u64) -> Option<DeviceAlloc>;
    /// Copies device bytes out; None when the range is not inside one allocation.
    fn read(&self, addr: u64, len: u64) -> Option<Vec<u8>>;
    /// Copies device bytes into `out` (its length); false, with nothing copied, when the range is not inside
    /// one allocation.
    fn read_into(&self, addr: u64, out: &mut [u8]) -> bool;
    /// Copies bytes in; false when the range is not inside one allocation.
    fn write(&mut self, addr: u64, data: &[u8]) -> bool;
    /// The address and size in bytes of `__device__`/`__constant__` variable `index` (of the program's
    /// globals).
    fn symbol(&self, index: usize) -> Option<(u64, u64)>;
    /// Moves `__device__` variable `index`, its bytes with it, to `addr` (a `__managed__` variable: host
    /// memory mapped at the same address, which the host keeps level around launches); false when `index` is
    /// not a symbol.
    fn move_symbol(&mut self, index: usize, addr: u64) -> bool;
    /// The allocations made by `malloc` and `map` that are still live, oldest first.
    fn live(&self) -> Vec<DeviceAlloc>;
    /// Runs a launch to its end, and the grids its threads launched (dynamic parallelism).
    fn launch(&mut self, req: &LaunchRequest) -> LaunchStatus;
    /// How many grids the last [`Device::launch`] ran for its threads' launches: they take the launch numbers
    /// after its own.
    fn child_launches(&self) -> usize;
    /// Whether a launch of `kernel` reaches device memory only through its arguments: it loads no 8-byte value
    /// (a pointer kept in memory) and launches no grid. Then host memory mapped into the device that no
    /// argument points into is neither read nor written by it. False when unknown.
    fn reaches_only_args(&mut self, kernel: &str) -> bool;
    /// What `kernel` needs of an SM (registers per thread, static shared memory): None when the file has no
    /// such kernel or it cannot run.
    fn kernel_resources(&mut self, kernel: &str) -> Option<cuda::KernelResources>;
    /// `cudaDeviceReset`: frees everything.
    fn reset(&mut self);
    /// Whether [`Device::host_vars`] should be called before each launch (a debugger wants them).
    fn wants_host_vars(&self) -> bool;
    /// The host variables in scope at the launch about to be made, with their values.
    fn host_vars(&mut self, vars: Vec<HostVar>);
}

/// A host variable and its value, as the debugger shows it at a launch.
#[derive(Clone, Debug, PartialEq)]
pub struct HostVar {
    pub name: String,
    /// Its type as written in C (`int *`, `dim3`).
    pub ty: String,
    /// Its value: a number, `{x, y, z}`, a pointer with what it points into, the first elements of an array.
    pub value: String,
}

/// Why the host program stopped early (warpdbg's finding, exit status 1).
#[derive(Clone, Debug, PartialEq)]
pub enum HostError {
    /// A bad host memory access; the message says what and where.
    Memory {
        line: u32,
        message: String,
    },
    /// `free` of something `malloc` did not return, or twice.
    BadFree {
        line: u32,
        message: String,
    },
    DivideByZero {
        line: u32,
    },
    /// Recursion deeper than the host stack allows.
    StackOverflow {
        line: u32,
        function: String,
    },
    /// A variable-length array larger than a real stack (8 MiB).
    VlaTooLarge {
        line: u32,
        name: String,
        bytes: u64,
    },
    /// The host ran longer than its step limit.
    StepLimit {
        line: u32,
    },
    /// A call or launch through a function pointer that holds no function of its type (null, a data
    /// address, a kernel called as a host function); the message says which.
    BadCall {
        line: u32,
        message: String,
    },
    /// A host thread waits for what no other thread can do any more (`src/host/threads.rs`).
    Deadlock {
        line: u32,
        message: String,
    },
}

impl HostError {
    /// Its name in the JSON report's `host_errors`.
    pub fn kind(&self) -> &'static str {
        match self {
            HostError::Memory { .. } => "host_memory",
            HostError::BadFree { .. } => "bad_free",
            HostError::DivideByZero { .. } => "divide_by_zero",
            HostError::StackOverflow { .. } | HostError::VlaTooLarge { .. } => "stack_overflow",
            HostError::StepLimit { .. } => "host_step_limit",
            HostError::BadCall { .. } => "bad_call",
            HostError::Deadlock { .. } => "host_deadlock",
        }
    }

    /// The host line it is about.
    pub fn line(&self) -> u32 {
        match self {
            HostError::Memory { line, .. }
            | HostError::BadFree { line, .. }
            | HostError::DivideByZero { line }
            | HostError::StackOverflow { line, .. }
            | HostError::VlaTooLarge { line, .. }
            | HostError::StepLimit { line }
            | HostError::BadCall { line, .. }
            | HostError::Deadlock { line, .. } => *line,
        }
    }

    /// warpdbg's exit status for it.
    pub fn exit_status(&self) -> u8 {
        match self {
            HostError::StepLimit { .. } => 4,
            // As a device deadlock.
            HostError::Deadlock { .. } => 3,
            _ => 1,
        }
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Memory { message, .. }
            | HostError::BadFree { message, .. }
            | HostError::BadCall { message, .. }
            | HostError::Deadlock { message, .. } => f.write_str(message),
            HostError::DivideByZero { line } => write!(f, "host code at line {line} divides an integer by zero"),
            HostError::StackOverflow { line, function } => write!(
                f,
                "host code at line {line} calls `{function}` recursively too deep (stack overflow on a real machine)"
            ),
            HostError::VlaTooLarge { line, name, bytes } => write!(
                f,
                "host code at line {line} declares `{name}` with {bytes} bytes on the stack, more than a real \
                 machine's 8 MiB stack holds: allocate it with malloc"
            ),
            HostError::StepLimit { line } => {
                write!(f, "the host program ran past the step limit (at line {line}); does a loop never end?")
            }
        }
    }
}

impl std::error::Error for HostError {}

/// When the host interpreter hands a loop to the compiler (`host::jit`, in native builds; elsewhere every loop is
/// interpreted). Nothing observable depends on it but speed. The run's options carry it
/// (`crate::program::RunOptions`, which take it from `WARPDBG_HOST_JIT`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JitMode {
    /// Never: every loop interpreted.
    Off,
    /// A loop once it has run hot.
    #[default]
    Hot,
    /// Every loop when it starts.
    Eager,
}

impl JitMode {
    /// The mode a `WARPDBG_HOST_JIT` value names: `off`, `eager`; anything else, or none, is `Hot`.
    pub fn named(value: Option<&str>) -> JitMode {
        match value {
            Some("off") => JitMode::Off,
            Some("eager") => JitMode::Eager,
            _ => JitMode::Hot,
        }
    }
}

/// How the host program ended.
#[derive(Clone, Debug, PartialEq)]
pub enum HostEnd {
    /// `main` returned, or `exit` was called: the status (0..=255).
    Exited(u8),
    /// A host error warpdbg found.
    Error(HostError),
    /// A launch stopped the program (deadlock, step limit): warpdbg's status.
    Stopped(u8),
}

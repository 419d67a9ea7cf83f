//! What a run is configured with: its limits, its schedule and the simulator's debug switches, and why a
//! launch cannot start.

use crate::front::types::Type;
use crate::ir::{BranchKind, Instr, Kernel, Operand, Ty};
use crate::sim::alu;

/// Limits of one run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Stop after this many issued instructions; `None` = a default that scales with the launch.
    pub max_steps: Option<u64>,
    /// Refuse launches whose arrays need more bytes than this; a whole program's host code may hold four
    /// times as much.
    pub memory_cap: u64,
    /// A whole program's device memory: what `cudaMalloc` may reserve in all and `totalGlobalMem` reports.
    /// An H100's 80 GiB by default (`--memory-cap` sets it): allocations cost memory only where they are
    /// written (`sim::Zeroed`), so programs that reserve much and touch little run as on the GPU.
    pub device_memory: u64,
    /// Blocks resident at once; `None` = as many as fit in 16,384 threads (at least one).
    pub max_resident_blocks: Option<usize>,
    /// A seeded schedule instead of round-robin: which warp issues, and in ITS which thread group, are
    /// drawn from this seed. Reproducible: the same seed gives the same run.
    pub schedule_seed: Option<u64>,
    /// Debug switches.
    pub tuning: Tuning,
}

/// The simulator's debug switches, which front ends fill (the command line from the environment:
/// `WARPDBG_NO_AVX2`, `WARPDBG_PAR_DEBUG`). None changes a result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tuning {
    /// Run the portable data path even where the CPU has AVX2 (the tests compare the two builds' reports).
    pub portable: bool,
    /// Say on stderr when a block range of a whole run on several cores fails (the launch then runs
    /// sequentially).
    pub explain_refusals: bool,
    /// Whether whole runs compile hot straight segments to machine code (`sim::jit`, `WARPDBG_JIT`).
    pub device_jit: DeviceJit,
    /// Run clock spins one instruction at a time in whole runs too (`machine/clock_spin.rs`,
    /// `WARPDBG_NO_SPIN_SKIP`; the tests compare the two).
    pub no_spin_skip: bool,
    /// Run every launch of a program, repeated or not (`program/device/launch_memo.rs`,
    /// `WARPDBG_NO_LAUNCH_MEMO`; the tests compare the two).
    pub no_launch_memo: bool,
}

/// When whole runs compile segments of straight code (`sim::jit`; single-stepping never does). Off unless
/// asked for: the compiled segments are slower than the interpreter's AVX2 loops today (docs/jit.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeviceJit {
    /// After a segment was issued `sim::jit::HOT_ISSUES` times in the launch.
    Hot,
    /// Never: everything is interpreted.
    #[default]
    Off,
    /// At a segment's first issue (tests).
    Eager,
}

impl Default for Config {
    fn default() -> Self {
        // (The page keeps 2 GiB: a wasm32 module cannot address 4.)
        let memory_cap = if cfg!(target_arch = "wasm32") { 2 << 30 } else { 4 << 30 };
        // (The page's buffers are `Vec`s, all backed: its device keeps the page's cap.)
        let device_memory = if cfg!(target_arch = "wasm32") { memory_cap } else { DEVICE_MEMORY };
        Config {
            max_steps: None,
            memory_cap,
            device_memory,
            max_resident_blocks: None,
            schedule_seed: None,
            tuning: Tuning::default(),
        }
    }
}

/// A whole program's device memory by default: an H100's 80 GiB (the GPU issue 33's outputs were recorded on).
pub const DEVICE_MEMORY: u64 = 80 << 30;

/// The most steps the arguments can raise a launch's default step limit to: 2^33, 2.7 times the 3.2 G
/// warp-instructions of a course's 2048^3 matrix product. A runaway loop in a launch that large stops there
/// (docs/programs.md measures what that costs).
pub const ARGUMENT_STEP_CEILING: u64 = 1 << 33;

/// The largest value of the launch's integer scalar arguments (`n`, `width`, `K`: loop bounds come from
/// them), 0 when it has none or all are negative. `params` are the parameter registers' raw bits, in the
/// order of `kernel.params`; pointers and floating-point values do not count.
pub fn largest_integer_argument(kernel: &Kernel, params: &[u64]) -> u64 {
    kernel
        .params
        .iter()
        .zip(params)
        .filter_map(|(p, &bits)| match p.ty {
            Type::Scalar(s) if s.is_integer() => {
                let width = 8 * s.size();
                let v = if width >= 64 { bits } else { bits & ((1 << width) - 1) };
                // (A negative signed value bounds no loop: it counts as 0.)
                Some(if s.is_signed() && (v >> (width - 1)) & 1 == 1 { 0 } else { v })
            }
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// The largest integer constant a loop's condition compares with (`for (k = 0; k < N; k++)` with `#define N
/// 2048` or `(1 << 20)`: course programs often bound their loops by constants rather than arguments), 0 when
/// there is none; negative constants count as 0. Only comparisons whose result a loop's branch tests count.
pub fn largest_loop_constant(kernel: &Kernel) -> u64 {
    // Registers written once, with a value computed from constants only (`1 << 20` is a shift of two).
    let mut writes = vec![0u32; kernel.regs.len()];
    for i in &kernel.instrs {
        if let Some(d) = i.dst().and_then(|d| writes.get_mut(d.0 as usize)) {
            *d += 1;
        }
    }
    let mut known: Vec<Option<u64>> = vec![None; kernel.regs.len()];
    let value = |known: &[Option<u64>], o: &Operand| match o {
        Operand::Imm(v) => Some(*v),
        Operand::Reg(r) => known.get(r.0 as usize).copied().flatten(),
    };
    // Per register: the largest constant a comparison writing it compared with.
    let mut compared = vec![0u64; kernel.regs.len()];
    for i in &kernel.instrs {
        let folded = match i {
            Instr::Mov { src, .. } => value(&known, src),
            Instr::Binary { op, ty, a, b, .. } => match (value(&known, a), value(&known, b)) {
                (Some(a), Some(b)) => alu::binary(*op, *ty, a, b).ok(),
                _ => None,
            },
            Instr::Convert { from, to, src, .. } => value(&known, src).map(|v| alu::convert(*from, *to, v)),
            Instr::Cmp { ty, dst, a, b, .. } => {
                if let Some(slot) = compared.get_mut(dst.0 as usize) {
                    for v in [a, b].into_iter().filter_map(|o| value(&known, o)) {
                        *slot = (*slot).max(nonnegative(*ty, v));
                    }
                }
                None
            }
            _ => None,
        };
        if let (Some(v), Some(d)) = (folded, i.dst())
            && writes.get(d.0 as usize) == Some(&1)
        {
            known[d.0 as usize] = Some(v);
        }
    }
    kernel
        .instrs
        .iter()
        .filter_map(|i| match i {
            Instr::Branch { cond: Operand::Reg(r), site, .. } if site.kind == BranchKind::Loop => {
                compared.get(r.0 as usize).copied()
            }
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// An integer constant of type `ty` as a count: its value, 0 when negative or not an integer.
fn nonnegative(ty: Ty, bits: u64) -> u64 {
    let (width, signed) = match ty {
        Ty::I8 => (8, true),
        Ty::U8 => (8, false),
        Ty::I16 => (16, true),
        Ty::U16 => (16, false),
        Ty::I32 => (32, true),
        Ty::U32 => (32, false),
        Ty::I64 => (64, true),
        Ty::U64 => (64, false),
        _ => return 0,
    };
    let v = if width >= 64 { bits } else { bits & ((1 << width) - 1) };
    if signed && (v >> (width - 1)) & 1 == 1 { 0 } else { v }
}

/// What a launch's loops may legitimately count to: the larger of its largest integer argument
/// ([`largest_integer_argument`]) and its largest loop constant ([`largest_loop_constant`]).
pub fn largest_bound(kernel: &Kernel, params: &[u64]) -> u64 {
    largest_integer_argument(kernel, params).max(largest_loop_constant(kernel))
}

/// The steps a launch of `warps` warps asks for through its arguments: each thread may run every one of its
/// kernel's `instructions` once per unit of the `largest` integer argument (a loop `for (k = 0; k < n; k++)`
/// runs its body, at most the whole kernel, n times), at most [`ARGUMENT_STEP_CEILING`]. A matrix product
/// of side n (n^2 threads, n iterations each) gets O(n^3); a kernel without integer arguments, 0.
pub fn argument_steps(warps: u64, instructions: u64, largest: u64) -> u64 {
    warps.saturating_mul(instructions).saturating_mul(largest).min(ARGUMENT_STEP_CEILING)
}

/// The default step limit of a kernel file's launch of `warps` warps whose arguments ask for `arguments`
/// steps ([`argument_steps`]): 10,000 instructions per warp, at least 10 million (its kernels are
/// teaching-sized), or what the arguments ask for where that is more.
pub fn kernel_file_step_limit(warps: u64, arguments: u64) -> u64 {
    warps.saturating_mul(10_000).max(10_000_000).max(arguments)
}

/// The default step limit of a program's launch of `warps` warps on `device_bytes` of device memory whose
/// arguments ask for `arguments` steps ([`argument_steps`]): 100,000 instructions per warp (a thread looping
/// over a 16K-element row) or 2 per byte of device memory (a few threads walking the program's large
/// arrays), at least 2^28 and at most 2^30; or what the arguments ask for where that is more (up to 2^33).
/// A runaway loop is then stopped after about a minute unless the launch's arguments ask for more
/// (docs/programs.md gives the cost).
pub fn program_step_limit(warps: u64, device_bytes: u64, arguments: u64) -> u64 {
    warps.saturating_mul(100_000).max(device_bytes.saturating_mul(2)).clamp(1 << 28, 1 << 30).max(arguments)
}

/// Why a launch cannot start.
#[derive(Clone, Debug, PartialEq)]
pub enum LaunchError {
    /// Its arrays need more bytes than [`Config::memory_cap`].
    MemoryCap { needed: u64, cap: u64 },
    /// The kernel uses a warp function of CUDA 8 and earlier, which has no meaning under ITS.
    LegacyWarp { name: String },
}

impl std::fmt::Display for LaunchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LaunchError::MemoryCap { needed, cap } => write!(
                f,
                "the launch needs {needed} bytes of global memory, more than the cap of {cap} bytes; \
                 pass --memory-cap BYTES to allow it"
            ),
            LaunchError::LegacyWarp { name } => write!(
                f,
                "`{name}` exists only for pre-Volta GPUs: under independent thread scheduling \"the whole warp\" \
                 it exchanges between is not defined (CUDA 9 removed it for Volta); use its _sync form to run \
                 this kernel in ITS mode"
            ),
        }
    }
}

impl std::error::Error for LaunchError {}

//! What a run is configured with: its limits, its schedule and the simulator's debug switches, and why a
//! launch cannot start.

/// Limits of one run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Stop after this many issued instructions; `None` = a default that scales with the launch.
    pub max_steps: Option<u64>,
    /// Refuse launches whose arrays need more bytes than this.
    pub memory_cap: u64,
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
}

impl Default for Config {
    fn default() -> Self {
        // (The page keeps 2 GiB: a wasm32 module cannot address 4.)
        let memory_cap = if cfg!(target_arch = "wasm32") { 2 << 30 } else { 4 << 30 };
        Config {
            max_steps: None,
            memory_cap,
            max_resident_blocks: None,
            schedule_seed: None,
            tuning: Tuning::default(),
        }
    }
}

/// The default step limit of a kernel file's launch of `warps` warps: 10,000 instructions per warp, at
/// least 10 million (its kernels are teaching-sized).
pub fn kernel_file_step_limit(warps: u64) -> u64 {
    warps.saturating_mul(10_000).max(10_000_000)
}

/// The default step limit of a program's launch of `warps` warps on `device_bytes` of device memory:
/// 100,000 instructions per warp (a thread looping over a 16K-element row) or 2 per byte of device memory
/// (a few threads walking the program's large arrays), at least 2^28 and at most 2^30. A runaway loop is
/// then stopped after at most about a minute, a whole run's attempt and the sequential run that reaches the
/// exact state together (docs/programs.md).
pub fn program_step_limit(warps: u64, device_bytes: u64) -> u64 {
    warps.saturating_mul(100_000).max(device_bytes.saturating_mul(2)).clamp(1 << 28, 1 << 30)
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

//! What the block-range machines of a whole run (`parallel.rs`, `whole_run.rs`) start from, and how many
//! cores they spread over.

use std::sync::Arc;

use super::config::Tuning;

use crate::front::launch::Launch;
use crate::ir::{Kernel, Reg};
use crate::sim::commute::AccessKind;
use crate::sim::decoded::Program;
use crate::sim::memory::SharedLayout;

/// What the sub-machines need from the launch, shareable across threads. What is derived from the kernel is
/// computed once per launch here, not once per block range.
pub(super) struct Template {
    /// The kernel with its registers packed (`ir::pack`).
    pub(super) kernel: Arc<Kernel>,
    /// Per instruction, the kind of its accesses (`sim::commute::access_kinds`).
    pub(super) kinds: Arc<Vec<AccessKind>>,
    /// The registers a thread may read before writing them (`ir::defined`).
    pub(super) read_before_written: Arc<Vec<Reg>>,
    /// The kernel, pre-decoded.
    pub(super) program: Arc<Program>,
    /// Its compiled segments (None: the JIT is off or absent).
    pub(super) jit: Option<Arc<crate::sim::jit::Cache>>,
    pub(super) launch: Launch,
    pub(super) layout: SharedLayout,
    pub(super) params: Vec<u64>,
    pub(super) max_steps: u64,
    pub(super) tuning: Tuning,
}

/// How many threads a whole run spreads over (rayon's; one without the `parallel` feature).
pub(super) fn threads() -> usize {
    #[cfg(feature = "parallel")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "parallel"))]
    1
}

//! What the block-range machines of a whole run (`parallel.rs`, `whole_run.rs`) start from, and how many
//! cores they spread over.

use super::config::Tuning;
use crate::front::launch::Launch;
use crate::ir::Kernel;
use crate::sim::memory::SharedLayout;

/// What the sub-machines need from the launch, shareable across threads.
pub(super) struct Template {
    pub(super) kernel: Kernel,
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

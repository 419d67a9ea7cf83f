//! Grids launched from device code (dynamic parallelism), run by the program's device after the grid that
//! launched them: depth first, each child with all of its own children before the next, numbered after the
//! host's launch (`sim::child_launch` has the order; docs/programs.md, "Dynamic parallelism", the model).

use super::SimDevice;
use crate::host::cuda::errors;
use crate::host::{LaunchRequest, LaunchStatus};
use crate::sim::ChildLaunch;

/// Launches from device code that may be pending at once (`cudaLimitDevRuntimePendingLaunchCount`'s default).
const MAX_PENDING: usize = 2048;

impl SimDevice<'_> {
    /// A host launch and the grids launched from its threads: each child after the grid that launched it
    /// (and after the children before it, with their own children), numbered after the host's launch.
    pub(super) fn run(&mut self, req: &LaunchRequest) -> LaunchStatus {
        self.children = 0;
        self.run_tree(req)
    }

    /// Launch `req`, then the grids its threads launched, depth first: each child with all of its own
    /// children before the next child (`sim::child_launch`). An explicit stack: a chain may be 2048 deep.
    fn run_tree(&mut self, req: &LaunchRequest) -> LaunchStatus {
        let (mut printed, mut ns) = (String::new(), 0);
        // (grid, how many grids it is nested below the host's launch)
        let mut todo = vec![(req.clone(), 0usize)];
        while let Some((grid, depth)) = todo.pop() {
            let (status, mut children) = self.run_grid(&grid);
            match status {
                LaunchStatus::Ran { printed: p, ns: n } => {
                    printed.push_str(&p);
                    ns += n;
                }
                // Only the launching thread sees a refusal (its `cudaGetLastError`); warpdbg reports it.
                LaunchStatus::Refused { .. } if depth > 0 => continue,
                LaunchStatus::Faulted { printed: p, code, ns: n, line } => {
                    printed.push_str(&p);
                    return LaunchStatus::Faulted { printed, code, ns: ns + n, line };
                }
                refused_or_stopped => return refused_or_stopped,
            }
            ChildLaunch::in_launch_order(&mut children);
            let mut next = vec![];
            for c in children {
                self.children += 1;
                let child = LaunchRequest {
                    index: req.index + self.children,
                    kernel: c.kernel,
                    grid: c.grid,
                    block: c.block,
                    shared: c.shared,
                    args: c.args,
                    line: c.line,
                    parent: Some(grid.index),
                    cooperative: false,
                };
                // A grid stays pending until its children finish, so a chain of launches holds one pending
                // launch per level: past the device runtime's limit the launch fails in the launching thread
                // and the grid never runs (measured on an H100: the 2049th level fails, while one thread may
                // launch thousands of siblings, which finish as it goes).
                if depth + 1 > MAX_PENDING {
                    let reason = format!("{MAX_PENDING} grids it is nested in are still pending");
                    self.refused(&child, errors::LAUNCH_PENDING_COUNT, reason);
                    continue;
                }
                next.push((child, depth + 1));
            }
            todo.extend(next.into_iter().rev());
        }
        LaunchStatus::Ran { printed, ns }
    }
}

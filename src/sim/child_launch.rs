//! Grids launched from device code (dynamic parallelism). A launching thread only queues its grid; the
//! program layer runs the queue after the launching grid has finished, each child with its own children
//! after it, before the next (docs/programs.md, "Dynamic parallelism", says why this order is one the
//! hardware may give).

/// One grid a device thread launched.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildLaunch {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub shared: u32,
    /// Argument bits, in parameter order.
    pub args: Vec<u64>,
    /// The launch's source line.
    pub line: u32,
    /// Who launched it, the launching block's and thread's linear indices: the run order (see
    /// [`ChildLaunch::in_launch_order`]).
    pub order: (u64, u32),
}

impl ChildLaunch {
    /// Sorts `children` in the order they run: by launching block, then thread, then the order each thread
    /// launched them. The same in both execution models and however the blocks were scheduled (a whole run
    /// and a stepped one give the same program).
    pub fn in_launch_order(children: &mut [ChildLaunch]) {
        // A stable sort: one thread's launches keep their order.
        children.sort_by_key(|c| c.order);
    }
}

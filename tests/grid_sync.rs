//! The grid-wide barrier (`this_grid().sync()`): every block of the grid waits until all have arrived, then
//! all go on, with what the blocks wrote before it visible after it (both execution models); a warp waiting
//! there shows as at a barrier while single-stepping; a grid larger than the device holds at once is a
//! deadlock explained with the fix; `is_valid()` is 1 in a kernel that calls `grid.sync()`. In a whole program,
//! what an H200 does with each way of launching such a kernel (`tests/fixtures/programs/grid_sync_plain.cu`).

mod common;
#[path = "common/run_source.rs"]
mod run_source;

use warpdbg::compile;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::{Config, Machine};

fn compiled(text: &str, mode: Mode) -> warpdbg::compile::Compiled {
    let o = Overrides { mode: Some(mode), ..Overrides::default() };
    compile::compile("k.cu", text.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"))
}

/// Each block sums its stretch into `partial`, then (after the grid barrier) block 0 sums the partial sums
/// and every thread of every block reads the total: only a grid-wide barrier makes both right.
const SUMS: &str = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\
// @grid 6\n// @block 64\n// @arg in int[384] = rand(0,99)\n// @arg partial int[6] = 0\n// @arg total int[1] = 0\n\
// @arg seen int[384] = 0\n\
__global__ void k(const int *in, int *partial, int *total, int *seen) {\n\
    cg::grid_group grid = cg::this_grid();\n\
    __shared__ int s[64];\n\
    s[threadIdx.x] = in[grid.thread_rank()];\n\
    __syncthreads();\n\
    for (int k = 32; k > 0; k /= 2) {\n\
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];\n\
        __syncthreads();\n\
    }\n\
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];\n\
    grid.sync();\n\
    if (grid.thread_rank() == 0) {\n\
        int t = 0;\n\
        for (int b = 0; b < gridDim.x; b++) t += partial[b];\n\
        *total = t;\n\
    }\n\
    grid.sync();\n\
    seen[grid.thread_rank()] = *total + grid.is_valid();\n\
}\n";

#[test]
fn blocks_wait_for_the_whole_grid_and_see_what_it_wrote() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let c = compiled(SUMS, mode);
        let input = common::initial_ints(&c, "in");
        let r = common::run_compiled(&c, Config::default());
        assert_eq!(r.outcome(), "completed", "{mode:?}: {}", r.explanation());
        assert!(r.hazards().is_empty(), "{mode:?}: {:?}", r.hazards());
        let partial: Vec<i64> = input.chunks(64).map(|c| c.iter().sum()).collect();
        let total: i64 = partial.iter().sum();
        assert_eq!(r.ints("partial"), partial, "{mode:?}");
        assert_eq!(r.ints("total"), vec![total], "{mode:?}");
        assert_eq!(r.ints("seen"), vec![total + 1; 384], "{mode:?}");
        // Two grid barriers passed; the whole-run path declines such a kernel.
        assert_eq!(r.machine.metrics.grid_syncs, 2, "{mode:?}");
        assert!(!r.machine.ran_parallel(), "{mode:?}");
    }
}

#[test]
fn a_warp_at_the_grid_barrier_waits_while_single_stepping() {
    let c = compiled(SUMS, Mode::Its);
    let mut m = Machine::new(&c, &Config::default()).expect("fits");
    // All six blocks are resident from the start (the device holds them).
    assert_eq!(m.blocks.len(), 6);
    // Step until block 0 has arrived whole at the first grid.sync(); the others have not yet.
    let mut steps = 0;
    while !m.blocks[0].grid_waiting {
        assert!(!m.step(1).is_final(), "ended before block 0 arrived");
        steps += 1;
        assert!(steps < 100_000);
    }
    let at: Vec<bool> = m.blocks.iter().map(|b| b.grid_waiting).collect();
    assert_eq!(at, vec![true, false, false, false, false, false]);
    for w in &m.blocks[0].warps {
        assert_eq!(w.at_barrier(), w.live, "warp {} of block 0 waits whole", w.id.0);
    }
    // Block 0's warps cannot issue: the next step is another block's.
    let (slot, _, _, _) = m.peek().expect("another block can issue");
    assert_ne!(slot, 0);
    // Going on, everything is released together and the run completes.
    let o = m.run();
    assert_eq!(o.name(), "completed");
}

#[test]
fn a_plain_launch_larger_than_the_device_holds_deadlocks_with_the_reason() {
    let text = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\
// @grid 300\n// @block 1024\n// @arg out int[300] = 0\n\
__global__ void k(int *out) {\n\
    cg::grid_group grid = cg::this_grid();\n\
    grid.sync();\n\
    if (threadIdx.x == 0) out[blockIdx.x] = 1;\n\
}\n";
    let r = common::run_compiled(&compiled(text, Mode::Its), Config::default());
    assert_eq!(r.outcome(), "deadlock");
    assert_eq!(
        r.explanation(),
        "Deadlock: grid.sync() on line 8 waits for all 300 blocks of the grid, but the device holds only 264 of them \
         at once (2 per SM on 132 SMs, by occupancy): blocks 264-299 can never start, because no resident block \
         finishes.\nFix: launch the kernel with cudaLaunchCooperativeKernel (which refuses a grid that does not fit, \
         with cudaErrorCooperativeLaunchTooLarge, instead of hanging) and size the grid by \
         cudaOccupancyMaxActiveBlocksPerMultiprocessor x the SM count (cudaDevAttrMultiProcessorCount).\n\
         Deadlock: no thread of blocks 0-263 can issue.\n\
         - threads 0-1023 are waiting at the grid.sync() on line 8."
    );
    assert_eq!(r.ints("out"), vec![0; 300]);
}

#[test]
fn a_block_that_returns_before_the_grid_barrier_deadlocks_the_rest() {
    let text = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\
// @grid 4\n// @block 32\n// @arg out int[4] = 0\n\
__global__ void k(int *out) {\n\
    if (blockIdx.x == 3) return;\n\
    cg::this_grid().sync();\n\
    out[blockIdx.x] = 1;\n\
}\n";
    let r = common::run_compiled(&compiled(text, Mode::PreVolta), Config::default());
    assert_eq!(r.outcome(), "deadlock");
    assert_eq!(
        r.explanation(),
        "Deadlock: grid.sync() on line 8 waits for all 4 blocks of the grid, but 1 of them finished without \
         reaching it, so it can never complete.\nFix: every thread of every block must reach grid.sync(): don't \
         return early from the kernel before it.\n\
         Deadlock: no thread of blocks 0-2 can issue.\n\
         - threads 0-31 are waiting at the grid.sync() on line 8."
    );
}

#[test]
fn a_kernel_without_grid_sync_reads_is_valid_zero() {
    let text = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\
// @grid 2\n// @block 32\n// @arg out int[2] = 5\n\
__global__ void k(int *out) {\n\
    if (threadIdx.x == 0) out[blockIdx.x] = cg::this_grid().is_valid();\n\
}\n";
    let r = common::run_compiled(&compiled(text, Mode::Its), Config::default());
    assert_eq!(r.ints("out"), vec![0, 0]);
}

/// `grid_sync_plain.cu` run with `args`: its standard output.
fn plain(args: &[&str]) -> (String, String) {
    let src = std::fs::read_to_string(common::repo("tests/fixtures/programs/grid_sync_plain.cu")).expect("fixture");
    let (out, err, _) = run_source::run_source("grid", "grid_sync_plain", &src, args);
    (out, err)
}

/// Each output below is what the H200 printed for the same arguments (driver 580, CUDA 13, nvcc -O2): a kernel
/// that calls `grid.sync()` fails when launched with `<<<>>>` or `cudaLaunchKernel`, whatever the grid's size,
/// with a sticky cudaErrorLaunchFailure; `is_valid()` is 0 in a plain launch and 1 in a cooperative one.
#[test]
fn grid_sync_needs_a_cooperative_launch_as_on_the_gpu() {
    let failed = "launch: cudaSuccess\nsync: cudaErrorLaunchFailure (unspecified launch failure)\n\
                  copy: cudaErrorLaunchFailure; valid -2, -2 -2 -2\n";
    for args in [&["1", "1"][..], &["24", "1"], &["200", "1"], &["2", "1", "0", "x"]] {
        let (out, err) = plain(args);
        assert_eq!(out, failed, "{args:?}");
        assert!(err.contains("calls grid.sync() (line 11), which only a cooperative launch may call"), "{err}");
        assert!(err.contains("Fix: launch it with cudaLaunchCooperativeKernel"), "{err}");
    }
    let (out, _) = plain(&["24", "0"]);
    assert_eq!(out, "launch: cudaSuccess\nsync: cudaSuccess (no error)\ncopy: cudaSuccess; valid 0, -1 -1 -1\n");
    let (out, _) = plain(&["2", "1", "1"]);
    assert_eq!(out, "launch: cudaSuccess\nsync: cudaSuccess (no error)\ncopy: cudaSuccess; valid 1, 1 2 -1\n");
    let (out, _) = plain(&["24", "1", "1"]);
    assert_eq!(out, "launch: cudaSuccess\nsync: cudaSuccess (no error)\ncopy: cudaSuccess; valid 1, 1 2 3\n");
}

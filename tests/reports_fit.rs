//! Reports that fit (issue 32): a deadlock in several blocks explained once per distinct way the blocks
//! wait, the fix after the first; the barrier arrivals named by barrier; the program's exit status and
//! warpdbg's named apart.

mod common;

use common::{run, warpdbg};
use warpdbg::front::launch::Mode;

#[test]
fn blocks_that_deadlock_alike_share_one_explanation_and_the_fix_comes_after_the_first() {
    let r = run("tests/kernels/reports/deadlock_blocks.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "deadlock");
    assert_eq!(
        r.explanation(),
        "Deadlock: no thread of blocks 0-2 can issue.\n\
         - threads 0,2,4,...,62 are waiting at the __syncthreads() on line 16.\n\
         - threads 1,3,5,...,63 are waiting at the __syncthreads() on line 20.\n\
         Fix: move __syncthreads() out of the divergent code (after the if/else), so every thread reaches the same \
         one.\n\
         Why: on Volta and later __syncthreads() is per thread: it completes only when every thread of the block that \
         has not exited reaches the same barrier, and here the threads of a warp wait at different places. (nvcc \
         predicates a very short if/else into one barrier, so the two-line textbook version finishes on real GPUs; \
         code that really branches hangs.)\n\
         Deadlock: no thread of block (3,0,0) can issue.\n\
         - threads 0,4,8,...,60 are waiting at the __syncthreads() on line 16.\n\
         - threads 1-3,5-7,9-11,13-15,17-19,21-23,25-27,29-31,33-35,37-39,41-43,45-47,49-51,53-55,57-59,61-63 are \
         waiting at the __syncthreads() on line 20."
    );
    // The waits stay one per block and place: the TUI and the JSON name each block's threads.
    assert_eq!(r.json["waits"].as_array().map(Vec::len), Some(8));
}

/// The warp pane's barrier line after `steps` instructions, as `warpdbg view` prints it.
fn barrier_line(path: &str, steps: &str) -> String {
    let out = warpdbg(&["view", path, "--steps", steps]);
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .flat_map(|l| l.split('\u{2502}'))
        .map(str::trim)
        .filter(|l| {
            l.starts_with("block barrier: ")
                || l.split_once(" barriers: ").is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn threads_at_different_barriers_are_counted_by_barrier() {
    assert_eq!(barrier_line("kernels/deadlock.cu", "379"), "2 barriers: 32 threads wait at line 28, 16 at line 37");
    assert_eq!(barrier_line("kernels/deadlock.cu", "380"), "2 barriers: 32 threads wait at line 28, 32 at line 37");
    // At one barrier, the total is right.
    assert_eq!(
        barrier_line("tests/kernels/reports/one_barrier.cu", "20"),
        "block barrier: 32 of 64 live threads arrived"
    );
}

#[test]
fn the_json_report_names_the_programs_status_and_warpdbgs_apart() {
    let out = warpdbg(&["run", "tests/programs/uninit_read.cu", "--json"]);
    assert_eq!(out.status.code(), Some(1), "warpdbg's status: it found an uninitialised read");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["program"]["exit_status"], 0, "main returned 0 (the existing field stays)");
    assert_eq!((&v["program_status"], &v["findings"], &v["status"]), (&0.into(), &1.into(), &1.into()));
    // Without --json, the last line on stderr says which status is whose.
    let text = warpdbg(&["run", "tests/programs/uninit_read.cu"]);
    assert_eq!(
        String::from_utf8_lossy(&text.stderr).lines().last(),
        Some("warpdbg: the program exited with status 0; warpdbg found 1 finding (its exit status is 1)")
    );
}

//! Hints and notes that must fit the program (issue 32): a fault's hint names the fix the evidence shows
//! (the sizeof hint for an allocation sized in elements, the guard hint for a grid larger than the data with
//! no guard) and no hint where neither fits; a `cudaFree` that failed because a fault broke the context is a
//! note, not a leak. Each program of tests/programs/hints/ shows one case; warpdbg's lines on stderr are
//! compared exactly.

use warpdbg::program::{self, RunOptions};

struct Run {
    stderr: String,
    status: u8,
}

fn run(path: &str) -> Run {
    let bytes = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("test program");
    let compiled = program::compile(path, &bytes, &Default::default())
        .unwrap_or_else(|e| panic!("{path} does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    Run { stderr: String::from_utf8_lossy(&err).into(), status: r.status }
}

/// warpdbg's own lines on stderr, an out-of-bounds hazard's (tests/program_oob.rs checks its text) cut to
/// its first sentence.
fn findings(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("warpdbg:"))
        .map(|l| if l.starts_with("warpdbg:   hazard:") { l.split(". Invalid").next().unwrap_or(l) } else { l })
        .collect()
}

const SIZEOF_HINT: &str = "cudaMalloc takes a size in bytes";
const GUARD_HINT: &str = "around the body of";
/// Each program's `main` returns 0; warpdbg's status is 1 for the finding.
const STATUS_LINE: &str = "warpdbg: the program exited with status 0; warpdbg found 1 finding (its exit status is 1)";

#[test]
fn a_grid_larger_than_the_data_without_a_guard_gets_the_guard_hint() {
    let r = run("tests/programs/hints/vec_noguard.cu");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            // (A GPU does not trap the reads one element past: the launch goes on, issue 33.)
            "warpdbg: launch 1: vecAdd<<<(4,1,1), (256,1,1)>>> at line 27: completed after 416 steps",
            "warpdbg:   hazard: Thread (232,0,0) of block (3,0,0) read d_a[1000], one element past the end of d_a \
             (1000 elements) at line 8",
            "warpdbg:   hint: add `if (i < n)` around the body of vecAdd: the grid has 4 x 256 = 1024 threads for \
             n = 1000 elements, and the threads after the first 1000 index past the end of `d_a` (1000 floats, \
             allocated at line 20)",
            STATUS_LINE,
        ]
    );
    assert!(!r.stderr.contains(SIZEOF_HINT), "the allocation is n * sizeof(float) already:\n{}", r.stderr);
}

/// The sizeof hint where it is right (an allocation of n bytes for n ints; its exact report is
/// `programs_api::malloc_of_n_where_n_sizeof_was_meant_goes_on_with_the_hint`), and no guard hint beside it.
#[test]
fn an_allocation_of_n_bytes_for_n_elements_gets_the_sizeof_hint_only() {
    let r = run("tests/programs/malloc_bytes.cu");
    assert!(r.stderr.contains(SIZEOF_HINT), "{}", r.stderr);
    assert!(!r.stderr.contains(GUARD_HINT), "{}", r.stderr);
}

#[test]
fn a_wrong_index_gets_no_hint_and_memory_never_freed_stays_a_leak() {
    let r = run("tests/programs/hints/wrong_index.cu");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: pairs<<<(2,1,1), (128,1,1)>>> at line 19: completed after 88 steps",
            "warpdbg:   hazard: Thread (0,0,0) of block (1,0,0) read d_a[256], one element past the end of d_a (256 \
             elements) at line 9",
            "warpdbg: leak: 1024 bytes of device memory from cudaMalloc at line 16 (`d_a`, 0x7f4000000000) were never \
             freed: call cudaFree(d_a) when you are done with it.",
            "warpdbg: leak: 1024 bytes of device memory from cudaMalloc at line 17 (`d_c`, 0x7f4000001400) were never \
             freed: call cudaFree(d_c) when you are done with it.",
            "warpdbg: LEAK SUMMARY: 2048 bytes leaked in 2 allocations",
            STATUS_LINE,
        ]
    );
    assert!(r.stderr.contains("read d_a[256], one element past the end of d_a (256 elements) at line 9"));
}

#[test]
fn an_access_past_the_end_behind_a_guard_gets_no_hint() {
    for (path, launch, hazard) in [
        (
            "tests/programs/hints/guard_plus_one.cu",
            "warpdbg: launch 1: diff<<<(4,1,1), (256,1,1)>>> at line 19: completed after 544 steps",
            "warpdbg:   hazard: Thread (231,0,0) of block (3,0,0) read d_a[1000], one element past the end of d_a \
             (1000 elements) at line 9",
        ),
        (
            "tests/programs/hints/guard_le.cu",
            "warpdbg: launch 1: scale<<<(4,1,1), (256,1,1)>>> at line 18: completed after 448 steps",
            "warpdbg:   hazard: Thread (232,0,0) of block (3,0,0) read d_a[1000], one element past the end of d_a \
             (1000 elements) at line 9",
        ),
    ] {
        let r = run(path);
        assert_eq!(r.status, 1, "{path}");
        assert_eq!(findings(&r.stderr), [launch, hazard, STATUS_LINE], "{path}");
    }
}

#[test]
fn a_copy_count_too_large_for_both_sides_blames_the_count_not_the_allocation() {
    // tests/programs/memcpy_overflow.cu is the case for the sizeof hint (programs_api.rs): its host buffer
    // holds the whole copy.
    let r = run("tests/programs/hints/copy_count.cu");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: error: cudaMemcpy at line 13 copies 4096 bytes into `d`, which has 1024 bytes (cudaMalloc at \
             line 12): the call fails with cudaErrorInvalidValue and copies nothing. The host side is smaller than \
             the copy too (1024 bytes, allocated at line 10): the count is what is wrong, not the allocation. Copy at \
             most 1024 bytes.",
            STATUS_LINE,
        ]
    );
    assert!(!r.stderr.contains(SIZEOF_HINT), "{}", r.stderr);
}

#[test]
fn an_index_written_inline_is_quoted_in_the_guard_hint() {
    let r = run("tests/programs/hints/inline_index.cu");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: fill<<<(3,1,1), (128,1,1)>>> at line 13: completed after 156 steps",
            "warpdbg:   hazard: Thread (44,0,0) of block (2,0,0) wrote d[300], one element past the end of d (300 \
             elements) at line 6",
            "warpdbg:   hint: add `if (blockIdx.x * blockDim.x + threadIdx.x < count)` around the body of fill: the grid \
             has 3 x 128 = 384 threads for count = 300 elements, and the threads after the first 300 index past the \
             end of `d` (300 floats, allocated at line 12)",
            STATUS_LINE,
        ]
    );
}

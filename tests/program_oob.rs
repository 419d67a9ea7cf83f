//! Out-of-bounds accesses a GPU does not trap (issue 33): in a whole program an access just past (or before)
//! an allocation, or past a block's shared arrays within its 128-byte granule, goes on as on the GPU (the
//! program prints what the GPU prints; padding reads 0) and is a finding (a hazard, exit status 1) instead
//! of a fault; farther accesses still fault, and a kernel file's run still stops at the first one. The
//! programs are tests/programs/oob/; stdout, warpdbg's stderr lines and the status are compared exactly.

#[path = "common/run_source.rs"]
mod run_source;

use warpdbg::program::{self, RunOptions};

struct Run {
    stdout: String,
    stderr: String,
    status: u8,
}

fn run(name: &str) -> Run {
    let path = format!("tests/programs/oob/{name}.cu");
    let bytes = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("test program");
    let compiled = program::compile(&path, &bytes, &Default::default())
        .unwrap_or_else(|e| panic!("{path} does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    Run { stdout: String::from_utf8_lossy(&out).into(), stderr: String::from_utf8_lossy(&err).into(), status: r.status }
}

/// warpdbg's own lines on stderr.
fn findings(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.starts_with("warpdbg:")).collect()
}

const GLOBAL_WHY: &str = "(compute-sanitizer's memcheck). A GPU does not trap an access this close to an allocation, \
                          so the program went on (warpdbg keeps such writes apart from every allocation; bytes \
                          nothing wrote there read 0)";

#[test]
fn a_grid_past_n_writes_and_reads_one_element_past_the_end_and_goes_on() {
    let r = run("grid_past_n");
    // Thread 31 reads back what it wrote past the end (62); the copy of the 31 elements and the error state
    // are the GPU's.
    assert_eq!(r.stdout, "past the end: 62\nlast 60, error no error\n");
    assert_eq!(r.status, 1);
    let write = format!(
        "warpdbg:   hazard: Thread (31,0,0) of block (0,0,0) wrote d[31], one element past the end of d (31 \
         elements) at line 6. Invalid __global__ write of size 4 bytes at 0x7f400000007c, 1 bytes after the \
         nearest allocation d at 0x7f4000000000 of size 124 bytes {GLOBAL_WHY}"
    );
    let read = format!(
        "warpdbg:   hazard: Thread (31,0,0) of block (0,0,0) read d[31], one element past the end of d (31 \
         elements) at line 7. Invalid __global__ read of size 4 bytes at 0x7f400000007c, 1 bytes after the \
         nearest allocation d at 0x7f4000000000 of size 124 bytes {GLOBAL_WHY}"
    );
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: twice<<<(1,1,1), (32,1,1)>>> at line 15: completed after 15 steps",
            write.as_str(),
            read.as_str(),
            "warpdbg: the program exited with status 0; warpdbg found 2 findings (its exit status is 1)",
        ]
    );
}

#[test]
fn a_shared_read_past_the_array_within_128_bytes_reads_zero() {
    let r = run("shared_past_end");
    // out[7] = s[7] + s[8] = 8 + 0.
    assert_eq!(r.stdout, "3 5 7 9 11 13 15 8 \nno error\n");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: neighbours<<<(1,1,1), (8,1,1)>>> at line 15: completed after 17 steps",
            "warpdbg:   hazard: Thread (7,0,0) of block (0,0,0) read s[8], one element past the end of s (8 \
             elements) at line 9. Invalid __shared__ read of size 4 bytes at 0x7e0000000020, 1 bytes after the \
             nearest allocation s at 0x7e0000000000 of size 32 bytes (compute-sanitizer's memcheck). A GPU does \
             not trap this access (a block's shared memory is rounded up to 128 bytes), so the program went on",
            "warpdbg: the program exited with status 0; warpdbg found 1 finding (its exit status is 1)",
        ]
    );
}

#[test]
fn a_shared_write_at_byte_128_still_faults_as_the_gpus_error_700() {
    let r = run("shared_far");
    assert_eq!(r.stdout, "an illegal memory access was encountered\n");
    assert_eq!(r.status, 1);
    assert!(r.stderr.contains("fault after 5 steps"), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "Thread (1,0,0) of block (0,0,0) wrote s[32], 24 elements past the end of s (9 elements) at line 6."
        ),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("hazard:"), "{}", r.stderr);
}

#[test]
fn a_global_write_64_kb_past_still_faults() {
    let r = run("global_far");
    assert_eq!(r.stdout, "an illegal memory access was encountered\n");
    assert_eq!(r.status, 1);
    assert!(
        r.stderr.contains("and is 65521 bytes after the nearest allocation d at 0x7f4000000000 of size 16 bytes"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("hazard:"), "{}", r.stderr);
}

/// A kernel file's run (the debugger's and the conformance tests' machine) keeps stopping at the first
/// out-of-bounds access, even one a whole program lets go on.
#[test]
fn a_kernel_files_run_of_the_same_kernel_still_faults() {
    let src = "// @kernel twice\n// @arg n = 31\n// @block 32\n// @grid 1\n// @arg a int[n] = 0\n\n\
               __global__ void twice(int *a, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    \
               a[i] = 2 * i;\n}\n";
    // (A kernel file's report is its stdout.)
    let (stdout, _, status) = run_source::run_source("oob", "twice", src, &[]);
    assert_eq!(status, 1, "{stdout}");
    assert!(
        stdout.contains("outcome: fault after 8 steps\n\n========= Invalid __global__ write of size 4 bytes\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "Thread (31,0,0) of block (0,0,0) wrote a[31], one element past the end of a (31 elements) at line 9."
        ),
        "{stdout}"
    );
}

//! Programs that would take a naive interpreter down end as findings with their host line (issue 33): huge
//! host allocations (`malloc` returns NULL, `new` throws `std::bad_alloc`), runaway host loops (the step
//! limit), and the crashes the whole-program fuzzer (`tests/fuzz_programs.rs`) found.

use warpdbg::program::{self, RunOptions};

struct Run {
    stdout: String,
    stderr: String,
    status: u8,
}

fn run_with(src: &str, options: &RunOptions) -> Run {
    let compiled = program::compile("robust.cu", src.as_bytes(), &Default::default())
        .unwrap_or_else(|e| panic!("does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, options, &mut out, &mut err);
    Run { stdout: String::from_utf8_lossy(&out).into(), stderr: String::from_utf8_lossy(&err).into(), status: r.status }
}

fn program(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/programs/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn huge_allocations_return_null_and_cuda_malloc_fails() {
    let r = run_with(&program("host_alloc_fail.cu"), &RunOptions::default());
    assert_eq!(
        r.stdout,
        "malloc(1 EiB): NULL\ncalloc(1 EiB, 4): NULL\nrealloc(small, 1 EiB): NULL, small[3] = 7\n\
         cudaMalloc(1 EiB): cudaErrorMemoryAllocation\ncudaGetLastError: cudaErrorMemoryAllocation\n\
         cudaMalloc(64 B): cudaSuccess\nsmall[15] = 30\n"
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn huge_new_ends_the_program_as_an_uncaught_bad_alloc() {
    let r = run_with(&program("host_bad_alloc.cu"), &RunOptions::default());
    assert_eq!(r.stdout, "h[10] = 5\nasking for 288230376151711744 floats\n");
    let (program_err, warpdbg_err) = r.stderr.split_once("warpdbg: launch").unwrap();
    assert_eq!(
        program_err,
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n"
    );
    assert!(
        warpdbg_err.contains(
            "warpdbg: error: host code at line 30 asks `new` for 1152921504606846976 bytes, more than warpdbg lets host \
             code hold (17179869184 bytes in all, four times --memory-cap)"
        ),
        "{warpdbg_err}"
    );
    assert!(
        warpdbg_err
            .ends_with("warpdbg: the program exited with status 134; warpdbg found 1 finding (its exit status is 1)\n")
    );
    assert_eq!(r.status, 1);
}

#[test]
fn the_host_cap_counts_live_allocations_and_scales_with_the_memory_cap() {
    // 64 MiB of device memory: the host may hold 256 MiB, so three 64 MiB blocks fit and a fourth does not
    // (string literals and the stack hold a few bytes), until one is freed.
    let src = r#"#include <stdio.h>
#include <stdlib.h>
#include <vector>
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main() {
    char *p[8];
    int n = 0;
    while (n < 8 && (p[n] = (char *)malloc(64 << 20)) != NULL) n++;
    printf("%d blocks\n", n);
    free(p[0]);
    p[0] = (char *)malloc(64 << 20);
    printf("after a free: %s\n", p[0] ? "allocated" : "NULL");
    p[0][(64 << 20) - 1] = 1;
    std::vector<int> v;
    v.resize((size_t)1 << 28);
    return 0;
}
"#;
    let mut options = RunOptions::default();
    options.config.memory_cap = 64 << 20;
    let r = run_with(src, &options);
    assert_eq!(r.stdout, "3 blocks\nafter a free: allocated\n", "{}", r.stderr);
    assert!(r.stderr.contains("host code at line 15 asks a std::vector for 1073741824 bytes"), "{}", r.stderr);
    assert_eq!(r.status, 1);
}

#[test]
fn a_runaway_host_loop_stops_at_the_step_limit_with_its_line() {
    let options = RunOptions { host_steps: 100_000, ..RunOptions::default() };
    let r = run_with(&program("host_runaway_loop.cu"), &options);
    assert_eq!(r.stdout, "h[31] = 1\n");
    assert!(
        r.stderr
            .contains("warpdbg: error: the host program ran past the step limit (at line 20); does a loop never end?"),
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 4);
}

#[test]
fn a_runaway_loop_of_cuda_mallocs_stops_at_the_step_limit() {
    // Found by tests/fuzz_programs.rs (seed 287: memcpy_overflow.cu's `while (0)` made `while (ULLONG_MAX)`):
    // each cudaMalloc summed every allocation, so 200,000 host steps ran for minutes.
    let src = "#include <stdio.h>\n__global__ void k(int *a) { a[0] = 1; }\nint main() {\n    int *d;\n\
               \x20   int n = 0;\n    do { if (cudaMalloc(&d, 256) == cudaSuccess) n++; } while (1);\n    return 0;\n}\n";
    let mut options = RunOptions { host_steps: 200_000, ..RunOptions::default() };
    options.config.memory_cap = 64 << 20;
    let start = std::time::Instant::now();
    let r = run_with(src, &options);
    assert!(
        r.stderr.contains("ran past the step limit (at line 6)"),
        "{}",
        &r.stderr[r.stderr.len().saturating_sub(300)..]
    );
    assert_eq!(r.status, 4);
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

/// Found by the whole-program fuzzer (seeds 2081, 10643, 12234): an access whose end passes 2^64 wrapped
/// around in the host memory's bounds check and panicked warpdbg; now it is the program's error at its line.
#[test]
fn accesses_that_end_past_the_top_of_the_address_space_are_host_errors() {
    let src = "#include <stdio.h>\n#include <string.h>\nint main()\n{\n    float f = 1.5f;\n    int i;\n\
               memcpy(&i, &f, (size_t)-1);\n    printf(\"%d\\n\", i);\n    return 0;\n}\n";
    let r = run_with(src, &RunOptions::default());
    assert_eq!(r.stdout, "");
    assert!(r.stderr.contains("warpdbg: error: host code at line 7 "), "{}", r.stderr);
    assert_eq!(r.status, 1);
    let src = "#include <stdio.h>\nint main()\n{\n    int a[4] = {1, 2, 3, 4};\n    int *p = a - (1ll << 62);\n\
               printf(\"%d\\n\", p[-(1ll << 62) + 8]);\n    return 0;\n}\n";
    let r = run_with(src, &RunOptions::default());
    assert!(r.stderr.contains("warpdbg: error: host code at line 6 "), "{}", r.stderr);
    assert_eq!(r.status, 1);
}

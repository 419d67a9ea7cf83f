//! Dynamic parallelism in whole programs: grids launched from device code run after the grid that launched
//! them, in launching block and thread order, each with its own children before the next; they take the
//! launch numbers after their host launch; the device runtime's nesting limit; kernel files refuse them.
//! (`tests/programs/dynamic_parallelism.cu` compares a course-style program with an H100's output.)

use warpdbg::debug::program::{Advance, ProgramDebug, Target};
use warpdbg::front::launch::Overrides;
use warpdbg::program::{self, RunOptions};
use warpdbg::sim::{Config, MemoryDetail};

struct Run {
    stdout: String,
    stderr: String,
    status: u8,
}

fn run(src: &str) -> Run {
    let compiled = program::compile("dp.cu", src.as_bytes(), &Overrides::default())
        .unwrap_or_else(|e| panic!("does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    Run { stdout: String::from_utf8_lossy(&out).into(), stderr: String::from_utf8_lossy(&err).into(), status: r.status }
}

const TREE: &str = "#include <cstdio>\n\
__global__ void leaf(int *out, int who) { out[who * 4 + threadIdx.x] = who * 10 + threadIdx.x; }\n\
__global__ void branch(int *out) {\n\
    int me = blockIdx.x * blockDim.x + threadIdx.x;\n\
    printf(\"branch %d\\n\", me);\n\
    if (threadIdx.x % 2 == 1) leaf<<<1, 4>>>(out, me);\n\
}\n\
int main() {\n\
    int *d; cudaMalloc(&d, 16 * sizeof(int));\n\
    branch<<<2, 2>>>(d);\n\
    int h[16];\n\
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);\n\
    printf(\"%d %d %d %d\\n\", h[4], h[7], h[12], h[15]);\n\
    branch<<<1, 2>>>(d);\n\
    cudaDeviceSynchronize();\n\
    cudaFree(d);\n\
    return 0;\n\
}\n";

#[test]
fn child_grids_run_after_their_parent_in_thread_order_and_take_the_next_numbers() {
    let r = run(TREE);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "branch 0\nbranch 1\nbranch 2\nbranch 3\n10 13 30 33\nbranch 0\nbranch 1\n");
    let launches: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("warpdbg: launch")).collect();
    assert_eq!(
        launches,
        [
            "warpdbg: launch 1: branch<<<(2,1,1), (2,1,1)>>> at line 10: completed after 26 steps",
            "warpdbg: launch 2: leaf<<<(1,1,1), (4,1,1)>>> at line 6 (from device code, in launch 1): completed after 9 steps",
            "warpdbg: launch 3: leaf<<<(1,1,1), (4,1,1)>>> at line 6 (from device code, in launch 1): completed after 9 steps",
            "warpdbg: launch 4: branch<<<(1,1,1), (2,1,1)>>> at line 14: completed after 13 steps",
            "warpdbg: launch 5: leaf<<<(1,1,1), (4,1,1)>>> at line 6 (from device code, in launch 4): completed after 9 steps",
        ]
    );
}

#[test]
fn the_json_report_names_each_child_grids_parent() {
    let compiled = program::compile("dp.cu", TREE.as_bytes(), &Overrides::default()).expect("compiles");
    let (mut out, mut err) = (vec![], vec![]);
    let options = RunOptions { json: Some(MemoryDetail::None), ..RunOptions::default() };
    let r = program::run(&compiled, &options, &mut out, &mut err);
    assert_eq!(r.status, 0);
    let v: serde_json::Value = serde_json::from_slice(&out).expect("one JSON document");
    let launches = v["launches"].as_array().expect("launches");
    let parents: Vec<_> = launches.iter().map(|l| (l["launch"].clone(), l.get("parent_launch").cloned())).collect();
    let n = |k: u64| serde_json::json!(k);
    assert_eq!(parents, [(n(1), None), (n(2), Some(n(1))), (n(3), Some(n(1))), (n(4), None), (n(5), Some(n(4)))]);
}

#[test]
fn a_chain_of_more_than_2048_pending_grids_is_refused_but_siblings_are_not() {
    // Measured on an H100 (CUDA 13): grid 2048 of a chain launches no further (each grid stays pending until its
    // child finishes), while one thread's 3000 launches of siblings all succeed. The host sees no error.
    let r = run("#include <cstdio>\n\
        __global__ void down(int *depth, int d) {\n\
            *depth = d;\n\
            down<<<1, 1>>>(depth, d + 1);\n\
        }\n\
        __global__ void leaf(int *n) { atomicAdd(n, 1); }\n\
        __global__ void many(int *n) { for (int i = 0; i < 3000; i++) leaf<<<1, 1>>>(n); }\n\
        int main() {\n\
            int *d; cudaMalloc(&d, sizeof(int));\n\
            down<<<1, 1>>>(d, 0);\n\
            int h = -1;\n\
            cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);\n\
            printf(\"deepest grid %d: %s\\n\", h, cudaGetErrorString(cudaGetLastError()));\n\
            cudaMemset(d, 0, sizeof(int));\n\
            many<<<1, 1>>>(d);\n\
            cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);\n\
            printf(\"%d leaves\\n\", h);\n\
            cudaFree(d);\n\
            return 0;\n\
        }\n");
    assert_eq!(r.stdout, "deepest grid 2048: no error\n3000 leaves\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
    assert!(
        r.stderr.contains(
            "warpdbg: launch 2050: down<<<1, 1>>> at line 4 (from device code, in launch 2049) did not run: \
             cudaErrorLaunchPendingCountExceeded (2048 grids it is nested in are still pending)"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("warpdbg: launch 5051: leaf<<<(1,1,1), (1,1,1)>>> at line 7 (from device code, in launch 2051)")
    );
}

#[test]
fn a_fault_in_a_child_grid_is_the_host_launchs_sticky_error() {
    let r = run("#include <cstdio>\n\
        __global__ void child(int *p) { p[threadIdx.x + 100000] = 1; }\n\
        __global__ void parent(int *p) { if (threadIdx.x == 0) child<<<1, 4>>>(p); }\n\
        int main() {\n\
            int *d; cudaMalloc(&d, 4 * sizeof(int));\n\
            parent<<<1, 32>>>(d);\n\
            cudaError_t e = cudaDeviceSynchronize();\n\
            printf(\"%s\\n\", cudaGetErrorName(e));\n\
            return 0;\n\
        }\n");
    assert_eq!(r.stdout, "cudaErrorIllegalAddress\n");
    assert_eq!(r.status, 1, "warpdbg's status for a fault");
    assert!(
        r.stderr.contains(
            "warpdbg: launch 2: child<<<(1,1,1), (4,1,1)>>> at line 3 (from device code, in launch 1): fault"
        ),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("by thread (0,0,0) in block (0,0,0)"), "{}", r.stderr);
}

#[test]
fn a_kernel_file_cannot_launch_from_device_code() {
    let src = "// @kernel parent\n// @grid 1\n// @block 4\n// @arg p int[4] = 0\n\
               __global__ void child(int *p) { p[threadIdx.x] = 1; }\n\
               __global__ void parent(int *p) { if (threadIdx.x == 0) child<<<1, 4>>>(p); }\n";
    let Err(e) = warpdbg::compile::compile("k.cu", src.as_bytes(), &Overrides::default()) else {
        panic!("a kernel file's device launch must be refused")
    };
    let text = warpdbg::front::diagnostic::render_plain(&e.sources, &e.diags);
    assert!(
        text.contains("not supported by warpdbg: launching a kernel from a kernel (dynamic parallelism)"),
        "{text}"
    );
    assert!(text.contains("k.cu:6:56"), "{text}");
    assert!(text.contains("hint: warpdbg runs grids launched from device code in whole programs"), "{text}");
}

#[test]
fn the_debugger_stops_at_child_grids_as_launches_of_their_own() {
    let compiled = program::compile("dp.cu", TREE.as_bytes(), &Overrides::default()).expect("compiles");
    let (mut p, mut s) =
        ProgramDebug::open(compiled, RunOptions::default(), Config::default(), &Target::Index(1)).expect("opens");
    assert_eq!(p.current_launch().map(|l| (l.index, l.parent)), Some((1, None)));
    assert_eq!(p.advance(&mut s), Ok(Advance::Launch(2)));
    let l = p.current_launch().expect("at the first child");
    assert_eq!((l.kernel.as_str(), l.parent, l.host_line), ("leaf", Some(1), 6));
    assert_eq!(s.machine.launch.block.x, 4);
    assert_eq!(p.advance(&mut s), Ok(Advance::Launch(3)));
    assert_eq!(p.advance(&mut s), Ok(Advance::Launch(4)));
    assert_eq!(p.current_launch().map(|l| (l.kernel.as_str(), l.parent)), Some(("branch", None)));
}

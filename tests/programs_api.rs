//! The CUDA runtime API of whole programs (programs.md, docs/programs.md): each program of tests/programs/
//! that exercises it prints exactly this stdout, exits with this status, and gets exactly these findings on
//! stderr (warpdbg's lines; a fault's compute-sanitizer report between them is the kernel-file report and
//! is tested there). Where a real GPU is known to print the same stdout, the test says so; the lead records
//! real runs with tests/programs/record.sh.

use warpdbg::program::{self, RunOptions};
use warpdbg::sim::MemoryDetail;

struct Run {
    stdout: String,
    stderr: String,
    status: u8,
}

fn run_bytes(name: &str, bytes: &[u8], options: &RunOptions) -> Run {
    let compiled = program::compile(name, bytes, &Default::default())
        .unwrap_or_else(|e| panic!("{name} does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, options, &mut out, &mut err);
    Run { stdout: String::from_utf8_lossy(&out).into(), stderr: String::from_utf8_lossy(&err).into(), status: r.status }
}

fn run(name: &str) -> Run {
    let path = format!("tests/programs/{name}.cu");
    let bytes = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("test program");
    run_bytes(&path, &bytes, &RunOptions::default())
}

fn run_source(src: &str) -> Run {
    run_bytes("inline.cu", src.as_bytes(), &RunOptions::default())
}

/// warpdbg's own lines on stderr.
fn findings(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.starts_with("warpdbg:")).collect()
}

/// A line with its numbers replaced by `#` (timings are compared by shape).
fn shape(line: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for c in line.chars() {
        if c.is_ascii_digit() || (in_number && c == '.') {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

#[test]
fn invalid_launches_and_error_codes() {
    let r = run("api_errors");
    // What an H100 printed (CUDA 13: every refused configuration is cudaErrorInvalidValue).
    assert_eq!(
        r.stdout,
        "\
<<<2, 2048>>>             1 cudaErrorInvalidValue: invalid argument
<<<0, 128>>>              1 cudaErrorInvalidValue: invalid argument
block z 128               1 cudaErrorInvalidValue: invalid argument
grid y 70000              1 cudaErrorInvalidValue: invalid argument
64 KiB dynamic shared     1 cudaErrorInvalidValue: invalid argument
error read, now           0 cudaSuccess: no error
<<<4, 256>>>              0 cudaSuccess: no error
synchronize               0 cudaSuccess: no error
peek                      1 cudaErrorInvalidValue: invalid argument
peek again                1 cudaErrorInvalidValue: invalid argument
get                       1 cudaErrorInvalidValue: invalid argument
get again                 0 cudaSuccess: no error
memcpy kind 7            21 cudaErrorInvalidMemcpyDirection: invalid copy direction for memcpy
set device 99            101 cudaErrorInvalidDevice: invalid device ordinal
device count              0 cudaSuccess: no error
get device                0 cudaSuccess: no error
count 1, device 0
memcpy back               0 cudaSuccess: no error
h = 1020 1021 1022 1023
free                      0 cudaSuccess: no error
"
    );
    assert_eq!(r.status, 0, "every error was checked: no finding");
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: fill<<<2, 2048>>> at line 32 did not run: cudaErrorInvalidValue (2048 threads per \
             block; at most 1024)",
            "warpdbg: launch 2: fill<<<0, 128>>> at line 34 did not run: cudaErrorInvalidValue (a grid or \
             block dimension is 0)",
            "warpdbg: launch 3: fill<<<1, (2,2,128)>>> at line 36 did not run: cudaErrorInvalidValue (a \
             block dimension is larger than (1024, 1024, 64))",
            "warpdbg: launch 4: fill<<<(1,70000), 32>>> at line 38 did not run: cudaErrorInvalidValue (the \
             grid is larger than (2147483647, 65535, 65535) blocks)",
            "warpdbg: launch 5: stage<<<1, 32, 65536>>> at line 40 did not run: cudaErrorInvalidValue (65536 bytes \
             of shared memory per block (65536 dynamic); at most 49152)",
            "warpdbg: launch 6: fill<<<(4,1,1), (256,1,1)>>> at line 44: completed after 352 steps",
            "warpdbg: launch 7: fill<<<1, 1025>>> at line 48 did not run: cudaErrorInvalidValue (1025 threads per \
             block; at most 1024)",
        ]
    );
}

#[test]
fn a_kernel_fault_is_sticky_from_the_next_call_until_reset() {
    let r = run("sticky_error");
    // A GPU prints the same (the launch returns before the kernel faults).
    assert_eq!(
        r.stdout,
        "\
malloc           cudaSuccess
launch           cudaSuccess
synchronize      cudaErrorIllegalAddress
last error       cudaErrorIllegalAddress
last again       cudaSuccess
malloc after     cudaErrorIllegalAddress
memcpy after     cudaErrorIllegalAddress
launch after     cudaErrorIllegalAddress
h[0] = 1
reset            cudaSuccess
malloc after reset cudaSuccess
free             cudaSuccess
"
    );
    assert_eq!(r.status, 1, "a kernel fault is warpdbg's finding");
    assert!(r.stderr.contains("wrote through a null pointer at line 8"), "{}", r.stderr);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: writeAt<<<(1,1,1), (32,1,1)>>> at line 21: fault after 4 steps",
            "warpdbg: leak: 256 bytes of device memory from cudaMalloc at line 19 (`d_buf`, 0x7f4000000000) were \
             never freed: call cudaFree(d_buf) when you are done with it.",
            "warpdbg: LEAK SUMMARY: 256 bytes leaked in 1 allocation",
            "warpdbg: the program exited with status 0; warpdbg found 1 finding (its exit status is 1)",
        ]
    );
}

#[test]
fn device_memory_never_freed_is_reported_at_exit() {
    let r = run("leak");
    assert_eq!(r.stdout, "h[1] = 3.0, h[n-1] = 12285.0\n", "a GPU prints the same");
    assert_eq!(r.status, 0, "a leak does not change the exit status");
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: scale<<<(16,1,1), (256,1,1)>>> at line 25: completed after 1792 steps",
            "warpdbg: leak: 16384 bytes of device memory from cudaMalloc at line 22 (`d_out`, 0x7f4000005000) were \
             never freed: call cudaFree(d_out) when you are done with it.",
            "warpdbg: leak: 256 bytes of device memory from cudaMalloc at line 23 (`d_tmp`, 0x7f400000a000) were \
             never freed: call cudaFree(d_tmp) when you are done with it.",
            "warpdbg: LEAK SUMMARY: 16640 bytes leaked in 2 allocations",
        ]
    );
}

#[test]
fn a_copy_larger_than_its_allocation_fails_with_the_bytes_hint() {
    let r = run("memcpy_overflow");
    // A GPU prints nothing on stdout and the CHECK line on stderr (cudaErrorInvalidValue, believed: to be
    // recorded), and exits 1.
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.starts_with("CUDA error at tests/programs/memcpy_overflow.cu:30: invalid argument\n"),
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: error: cudaMemcpy at line 30 copies 1024 bytes into `d_v`, which has 256 bytes (cudaMalloc at \
             line 29): the call fails with cudaErrorInvalidValue and copies nothing. cudaMalloc takes a size in \
             bytes: for 256 ints write cudaMalloc(&d_v, 256 * sizeof(int)), not cudaMalloc(&d_v, 256).",
            "warpdbg: leak: 256 bytes of device memory from cudaMalloc at line 29 (`d_v`, 0x7f4000000000) were never \
             freed: call cudaFree(d_v) when you are done with it.",
            "warpdbg: LEAK SUMMARY: 256 bytes leaked in 1 allocation",
        ]
    );
}

#[test]
fn malloc_of_n_where_n_sizeof_was_meant_goes_on_with_the_hint() {
    let r = run("malloc_bytes");
    // A GPU does not trap the accesses past the end (issue 33): it prints 1, and so does warpdbg, which reports
    // them as a finding.
    assert_eq!(r.stdout, "h[0] = 1\n");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: addOne<<<(2,1,1), (128,1,1)>>> at line 20: completed after 112 steps",
            "warpdbg:   hazard: Thread (64,0,0) of block (0,0,0) read d_v[64], one element past the end of d_v (64 \
             elements) at line 10. Invalid __global__ read of size 4 bytes at 0x7f4000000100, 1 bytes after the \
             nearest allocation d_v at 0x7f4000000000 of size 256 bytes (compute-sanitizer's memcheck). A GPU does \
             not trap an access this close to an allocation, so the program went on (warpdbg keeps such writes apart \
             from every allocation; bytes nothing wrote there read 0)",
            "warpdbg:   hint: `d_v` has 256 bytes (cudaMalloc at line 18), room for 64 ints, and the kernel reaches \
             element 64. cudaMalloc takes a size in bytes: cudaMalloc(&d_v, n) gives n bytes, not n ints. Write \
             cudaMalloc(&d_v, n * sizeof(int))",
            "warpdbg: the program exited with status 0; warpdbg found 1 finding (its exit status is 1)",
        ]
    );
}

#[test]
fn a_launch_that_never_ran_unchecked_is_a_finding() {
    let r = run("unchecked_launch");
    assert_eq!(r.stdout, "sum = 0 (expected 4096)\n", "a GPU prints the same and exits 0");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: ones<<<2, 2048>>> at line 20 did not run: cudaErrorInvalidValue (2048 threads per \
             block; at most 1024)",
            "warpdbg: error: the launch ones<<<2, 2048>>> at line 20 never ran: 2048 threads per block; at most 1024, \
             so it failed with cudaErrorInvalidValue (\"invalid argument\"), and the program never called \
             cudaGetLastError() to find out. Fix the configuration, and check every launch: call cudaGetLastError() \
             right after it.",
            "warpdbg: the program exited with status 0; warpdbg found 1 finding (its exit status is 1)",
        ]
    );
    // Checked with cudaGetLastError (or cudaPeekAtLastError), it is no finding.
    let checked = run_source(
        "__global__ void k(int *v) { v[0] = 1; }\n\
         int main() { int *d; cudaMalloc(&d, 4); k<<<1, 2000>>>(d); cudaError_t e = cudaPeekAtLastError();\n\
         printf(\"%d\\n\", (int)e); cudaFree(d); return 0; }\n",
    );
    assert_eq!((checked.stdout.as_str(), checked.status), ("1\n", 0));
}

#[test]
fn a_host_pointer_passed_to_a_kernel_is_named() {
    let r = run("host_ptr_kernel");
    // A GPU without HMM prints the same and exits 1 (with HMM the kernel reaches malloc memory).
    assert_eq!(r.stdout, "kernel failed: an illegal memory access was encountered\n");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: error: the launch doubleAll<<<4, 128>>> at line 21 passes `h_v`, host memory (from malloc at \
             line 16), as parameter 1 `v`: a kernel cannot reach host memory, so its accesses through it fail \
             (cudaErrorIllegalAddress). Allocate device memory with cudaMalloc, copy the data there with \
             cudaMemcpy(..., cudaMemcpyHostToDevice) and pass that pointer.",
            "warpdbg: launch 1: doubleAll<<<(4,1,1), (128,1,1)>>> at line 21: fault after 145 steps",
            "warpdbg: leak: 2048 bytes of device memory from cudaMalloc at line 19 (`d_v`, 0x7f4000000000) were never \
             freed: call cudaFree(d_v) when you are done with it.",
            "warpdbg: LEAK SUMMARY: 2048 bytes leaked in 1 allocation",
        ]
    );
}

#[test]
fn uninitialised_device_reads_are_reported_with_the_copy_hint() {
    let r = run("uninit_read");
    assert_eq!(r.stdout, "copied 64 ints\n", "a GPU prints the same");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: launch 1: sum<<<(2,1,1), (128,1,1)>>> at line 24: completed after 96 steps",
            "warpdbg:   hazard: line 10: thread (64,0,0) of block (0,0,0) reads d_in[64], which nothing wrote (no \
             cudaMemcpy, cudaMemset or kernel): uninitialised device memory, as compute-sanitizer's initcheck \
             reports it. Copy or set the data before the kernel reads it",
            "warpdbg:   hint: only the first 256 bytes of `d_in` (1024 bytes, 256 ints) were ever written: a copy of \
             n bytes where n counts ints copies a quarter of them. Copy n * sizeof(int) bytes",
            "warpdbg: the program exited with status 0; warpdbg found 1 finding (its exit status is 1)",
        ]
    );
}

#[test]
fn events_and_clocks_read_virtual_time() {
    let r = run("events_timing");
    let expected = "\
uniform:   0.030 ms
divergent: 0.055 ms
host wall: 0.096 ms
host cpu:  0.096 ms
divergent is slower: yes
events cover the kernels: yes
";
    assert_eq!(r.stdout, expected, "virtual time: the same on every run");
    assert_eq!(r.status, 0);
    // A GPU's timings differ; their shape does not.
    let shapes: Vec<String> = r.stdout.lines().map(shape).collect();
    assert_eq!(shapes[0], "uniform:   # ms");
    assert_eq!(run("events_timing").stdout, expected, "identical run to run");
}

#[test]
fn the_simulated_device_has_documented_properties() {
    let r = run("device_props");
    assert_eq!(
        r.stdout,
        "\
devices: 1
name: warpdbg simulated GPU (sm_90-like, ITS)
compute capability: 9.0
global memory: 81920 MiB
shared memory per block: 49152 bytes
registers per block: 65536
warp size: 32
max threads per block: 1024
max block: 1024 x 1024 x 64
max grid: 2147483647 x 65535 x 65535
multiprocessors: 132
clock rate: 1755000 kHz
memory clock: 2619000 kHz, bus 5120 bits
peak bandwidth: 3352.3 GB/s
L2 cache: 52428800 bytes
max threads per SM: 2048
constant memory: 65536 bytes
attribute max block z: 64
driver version >= 12000: yes
"
    );
    let path = "tests/programs/device_props.cu";
    let bytes = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("test program");
    let options = RunOptions { mode: warpdbg::front::launch::Mode::PreVolta, ..Default::default() };
    let pre = run_bytes(path, &bytes, &options);
    assert!(pre.stdout.contains("name: warpdbg simulated GPU (sm_60-like, pre-Volta)\ncompute capability: 6.0\n"));
    assert!(pre.stdout.contains("multiprocessors: 56\nclock rate: 1480000 kHz\n"));
}

#[test]
fn streams_pinned_managed_and_mapped_memory() {
    let r = run("streams_managed");
    assert_eq!(
        r.stdout, "streams: 1 513 1024\nmanaged: 1 10231\nmapped: 101 101\nmemset: 0\n",
        "a GPU prints the same"
    );
    assert_eq!(r.status, 0);
    assert_eq!(findings(&r.stderr).len(), 4, "four launches, no finding: {}", r.stderr);
}

#[test]
fn constant_and_device_symbols() {
    let r = run("symbols");
    assert_eq!(
        r.stdout, "out[2] = 2.00, out[100] = 100.00, out[254] = 0.00\nkernel ran 3 times\n",
        "a GPU prints the same"
    );
    assert_eq!(r.status, 0);
    let big = run_source(
        "__constant__ float c[4];\n\
         int main() { float h[8]; cudaError_t e = cudaMemcpyToSymbol(c, h, sizeof(h));\n\
         printf(\"%s\\n\", cudaGetErrorName(e)); return 0; }\n",
    );
    assert_eq!(big.stdout, "cudaErrorInvalidValue\n");
    assert_eq!(
        findings(&big.stderr),
        [
            "warpdbg: error: cudaMemcpyToSymbol at line 2 copies 32 bytes at offset 0 of `c`, which has 16 bytes: the \
             call fails with cudaErrorInvalidValue and copies nothing.",
            "warpdbg: the program exited with status 0; warpdbg found 1 finding (its exit status is 1)",
        ]
    );
}

#[test]
fn device_printf_appears_when_the_program_synchronises() {
    let r = run("printf_flush");
    // What the CUDA programming guide says a GPU prints (to be recorded).
    assert_eq!(
        r.stdout,
        "host: launched round 1\nround 1: hello from thread 0\nround 1: hello from thread 1\nhost: synchronised\nhost: done\n"
    );
    assert_eq!(r.status, 0, "a note, not an error");
    assert_eq!(
        findings(&r.stderr)[2],
        "warpdbg: note: 2 lines of device printf output never appeared: the program ended without \
         cudaDeviceSynchronize() (or another synchronising call) after its last launch, and a GPU does not flush \
         device printf at exit. Call cudaDeviceSynchronize() after the launch."
    );
}

#[test]
fn copies_in_the_wrong_direction_and_bad_frees() {
    let r = run_source(
        "int main() {\n\
         int h[4] = {1, 2, 3, 4};\n\
         int *d;\n\
         cudaMalloc(&d, sizeof(h));\n\
         cudaError_t e = cudaMemcpy(h, d, sizeof(h), cudaMemcpyHostToDevice);\n\
         printf(\"%s\\n\", cudaGetErrorName(e));\n\
         printf(\"%s\\n\", cudaGetErrorName(cudaFree(d)));\n\
         printf(\"%s\\n\", cudaGetErrorName(cudaFree(d)));\n\
         return 0;\n}\n",
    );
    assert_eq!(r.stdout, "cudaErrorInvalidValue\ncudaSuccess\ncudaErrorInvalidValue\n");
    assert_eq!(r.status, 1);
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: error: cudaMemcpy at line 5 copies with cudaMemcpyHostToDevice, but `h` is host memory (a local \
             variable at line 1) and `d` is device memory (cudaMalloc at line 4): the call fails with \
             cudaErrorInvalidValue and copies nothing. Check the order (destination first) and use \
             cudaMemcpyDeviceToHost.",
            "warpdbg: error: cudaFree at line 8 frees `d` again: it was freed at line 7. Free each allocation once \
             (set the pointer to NULL after cudaFree).",
            "warpdbg: the program exited with status 0; warpdbg found 2 findings (its exit status is 1)",
        ]
    );
}

#[test]
fn a_copy_past_a_host_buffer_stops_the_program() {
    let r = run_source(
        "int main() {\n\
         int *h = (int *)malloc(16);\n\
         int *d;\n\
         cudaMalloc(&d, 64);\n\
         cudaMemcpy(d, h, 64, cudaMemcpyHostToDevice);\n\
         printf(\"not reached\\n\");\n\
         return 0;\n}\n",
    );
    assert_eq!((r.stdout.as_str(), r.status), ("", 1));
    assert!(
        r.stderr.contains(
            "warpdbg: error: cudaMemcpy at line 5 reads 64 bytes from `h`, which has 16 bytes (allocated at \
             line 2): 48 bytes past its end."
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn elapsed_time_needs_both_events_complete() {
    let r = run_source(
        "__global__ void spin(int *v) { for (int k = 0; k < 200; k++) v[threadIdx.x] += k; }\n\
         int main() {\n\
         int *d; cudaMalloc(&d, 1024 * sizeof(int)); cudaMemset(d, 0, 1024 * sizeof(int));\n\
         cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);\n\
         float ms = -1.0f;\n\
         cudaEventRecord(a); spin<<<1, 1024>>>(d); cudaEventRecord(b);\n\
         printf(\"%s\\n\", cudaGetErrorName(cudaEventElapsedTime(&ms, a, b)));\n\
         printf(\"%s\\n\", cudaGetErrorName(cudaEventQuery(b)));\n\
         cudaEventSynchronize(b);\n\
         cudaError_t e = cudaEventElapsedTime(&ms, a, b);\n\
         printf(\"%s %d\\n\", cudaGetErrorName(e), ms > 0.0f);\n\
         cudaEventDestroy(a);\n\
         printf(\"%s\\n\", cudaGetErrorName(cudaEventRecord(a)));\n\
         cudaFree(d); return 0; }\n",
    );
    assert_eq!(
        r.stdout, "cudaErrorNotReady\ncudaErrorNotReady\ncudaSuccess 1\ncudaErrorInvalidResourceHandle\n",
        "{}",
        r.stderr
    );
}

#[test]
fn the_json_report_has_the_program_its_launches_and_findings() {
    let path = "tests/programs/leak.cu";
    let bytes = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("test program");
    let options = RunOptions { json: Some(MemoryDetail::Changed), ..Default::default() };
    let r = run_bytes(path, &bytes, &options);
    assert_eq!(r.stderr, "", "everything is in the report");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
    assert_eq!(v["program"]["exit_status"], 0);
    assert_eq!(v["program"]["stdout"], "h[1] = 3.0, h[n-1] = 12285.0\n");
    assert_eq!(v["status"], 0);
    let l = &v["launches"][0];
    assert_eq!((l["launch"].as_u64(), l["host_line"].as_u64()), (Some(1), Some(25)));
    assert_eq!((l["kernel"].as_str(), l["outcome"].as_str()), (Some("scale"), Some("completed")));
    assert_eq!(l["memory"]["d_out"]["changed"][0], serde_json::json!([1, 3.0]), "element 0 stays 0");
    assert_eq!(l["memory"]["d_in"]["changed"], serde_json::json!([]));
    assert!(l["duration_ns"].as_u64().is_some_and(|ns| ns > 2000));
    assert_eq!(v["leaks"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["leaks"][0]["name"], "d_out");
    assert_eq!(v["host_errors"], serde_json::json!([]));

    let path = "tests/programs/unchecked_launch.cu";
    let bytes = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("test program");
    let options = RunOptions { json: Some(MemoryDetail::None), ..Default::default() };
    let v: serde_json::Value = serde_json::from_str(&run_bytes(path, &bytes, &options).stdout).expect("JSON");
    assert_eq!(v["launches"][0]["outcome"], "not_run");
    assert_eq!(v["launches"][0]["error"]["name"], "cudaErrorInvalidValue");
    assert_eq!(v["host_errors"][0]["kind"], "unchecked_launch");
    assert_eq!(v["host_errors"][0]["line"], 20);
    assert_eq!(v["status"], 1);
}

#[test]
fn pinned_and_managed_memory_reach_a_kernel_through_arguments_and_through_pointers_in_memory() {
    // Only the mapped allocations a launch can reach are brought to the device and back
    // (docs/programs.md): through an argument, or (an 8-byte load) through a pointer kept in device memory.
    // Each kernel must still see what the host wrote last, and the host what the kernel wrote.
    let r = run_source(
        r#"#include <cstdio>
__global__ void add(float *a, int n, float v) { int i = threadIdx.x; if (i < n) a[i] += v; }
__global__ void through(float **pp, int n) { float *p = pp[0]; int i = threadIdx.x; if (i < n) p[i] *= 2; }
__global__ void touch(int *x) { x[0] = 7; }
int main() {
    float *pinned, *managed, **table;
    int *d;
    cudaMallocHost(&pinned, 4 * sizeof(float));
    cudaMallocManaged(&managed, 4 * sizeof(float));
    cudaMallocManaged(&table, sizeof(float *));
    cudaMalloc(&d, sizeof(int));
    for (int i = 0; i < 4; i++) { pinned[i] = i; managed[i] = 10 * i; }
    touch<<<1, 1>>>(d);            // reaches neither buffer
    cudaDeviceSynchronize();
    pinned[1] = 100; managed[2] = 200;
    add<<<1, 4>>>(pinned, 4, 0.5f);
    add<<<1, 4>>>(managed, 4, 1.0f);
    cudaDeviceSynchronize();
    pinned[3] = 300;
    table[0] = pinned;
    through<<<1, 4>>>(table, 4);   // finds `pinned` in managed memory
    cudaDeviceSynchronize();
    int h = 0;
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d", h);
    for (int i = 0; i < 4; i++) printf(" %g/%g", pinned[i], managed[i]);
    printf("\n");
    cudaFreeHost(pinned); cudaFree(managed); cudaFree(table); cudaFree(d);
    return 0;
}
"#,
    );
    assert_eq!(r.stdout, "7 1/1 201/11 5/201 600/31\n", "{}", r.stderr);
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn the_device_supports_cooperative_launches_as_an_h200_says() {
    // Measured on an H200 with CUDA 13: 1 (the field of cudaDeviceProp says the same).
    let r = run_source(
        "#include <cstdio>\nint main() {\n    int coop = -1, sms = 0;\n    \
         cudaError_t e = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);\n    \
         cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\n    \
         cudaDeviceProp p;\n    cudaGetDeviceProperties(&p, 0);\n    \
         printf(\"%d %d %d %d\\n\", (int)e, coop, p.cooperativeLaunch, sms);\n    return 0;\n}\n",
    );
    assert_eq!(r.stdout, "0 1 1 132\n", "{}", r.stderr);
}

#[test]
fn the_last_allocation_freed_is_given_again_and_a_stale_free_frees_what_lives_there() {
    // As CUDA's allocator does: a buffer freed and allocated again gets the same address when it was the last
    // one allocated (earlier places stay unused, so a stale pointer to them still faults). Freeing the stale
    // pointer then frees the new buffer, and freeing that one is the second free.
    let r = run_source(
        "int main() {\n\
         float *a, *b, *c;\n\
         cudaMalloc(&a, 256);\n\
         cudaFree(a);\n\
         cudaMalloc(&b, 256);\n\
         printf(\"%d\\n\", a == b);\n\
         cudaMalloc(&c, 64);\n\
         cudaFree(b);\n\
         cudaMalloc(&a, 64);\n\
         printf(\"%d %d\\n\", a == b, a == c);\n\
         cudaFree(c);\n\
         cudaFree(a);\n\
         cudaMalloc(&b, 64);\n\
         printf(\"%d %s\\n\", a == b, cudaGetErrorName(cudaFree(a)));\n\
         printf(\"%s\\n\", cudaGetErrorName(cudaFree(b)));\n\
         return 0;\n}\n",
    );
    assert_eq!(r.stdout, "1\n0 0\n1 cudaSuccess\ncudaErrorInvalidValue\n");
    assert_eq!(
        findings(&r.stderr),
        [
            "warpdbg: error: cudaFree at line 15 frees `b` again: it was freed at line 14. Free each allocation once \
             (set the pointer to NULL after cudaFree).",
            "warpdbg: the program exited with status 0; warpdbg found 1 finding (its exit status is 1)",
        ]
    );
}

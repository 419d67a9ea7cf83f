//! Runs the web API end to end: compiles a kernel whose header comes from memory, steps it, draws it, and
//! finishes it, panicking on anything unexpected. `.ci/wasm` builds it for wasm32-unknown-unknown and runs
//! it under Node (a panic there is a trap), which proves the core runs without threads, files or clocks.

use warpdbg::web::{Files, Options, WebSession};

const KERNEL: &str = r#"// @kernel reduce
// @arg n = 256
// @block 128
// @grid n / 128
// @arg in int[n] = i % 7
// @arg out int[n / 128] = 0
#include "block.h"

__global__ void reduce(int *in, int *out, int n)
{
    __shared__ int s[BLOCK];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
"#;

fn main() {
    let mut files = Files::new();
    files.insert("block.h", "#define BLOCK 128\n");
    let mut s = WebSession::compile("reduce.cu", KERNEL, &files, &Options::default()).expect("compiles");
    assert_eq!(s.step(), "stepped");
    assert!(s.render_text().contains("step 1: running"));
    s.toggle_breakpoint(17);
    assert_eq!(s.cont().as_deref(), Some("breakpoint at line 17"));
    s.toggle_breakpoint(17);
    let mut stop = None;
    for _ in 0..100 {
        stop = s.cont();
        if stop.is_some() {
            break;
        }
    }
    assert_eq!(stop.as_deref(), Some("completed"));
    let report = s.report().expect("finished");
    assert!(report.contains("outcome: completed"), "{report}");
    println!("{report}");
}

//! A built-in vector type's whole load or store (`float4 v = in[i]`, `out[i] = v`) is one request on the GPU
//! (`LDG.E.128`, `STG.E.64`: 16 or 8 bytes a lane), as Nsight Compute counts it; warpdbg's IR still accesses
//! the vector field by field (faults, races and uninitialised reads see each byte) and counts the first
//! field's access as the whole vector's request. A single field (`in[i].y`) stays one 4-byte access. Exact
//! counts per line, equal in whole runs and one instruction at a time, in both execution models.

mod common;

use serde_json::Value;
use warpdbg::compile;
use warpdbg::front::launch::Mode;
use warpdbg::sim::{Config, Machine, report};

const KERNEL: &str = "\
// @grid 2
// @block 64
// @arg in float4[128] = i
// @arg out float4[128] = 0
// @arg d double2[128] = i
// @arg h float2[128] = i
// @arg o2 float2[128] = 0
// @arg o float[128] = 0
__global__ void vec(const float4 *in, float4 *out, const double2 *d, const float2 *h, float2 *o2, float *o) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    out[i] = v;
    double2 w = d[i];
    float2 a = h[i];
    if (threadIdx.x % 2 == 0) o2[i] = a;
    o[i] = in[i].y + (float)w.y + a.x;
}
";

/// (line, load requests, load sectors, store requests, store sectors) of every line with global traffic.
fn per_line(json: &Value) -> Vec<[u64; 5]> {
    let n = |v: &Value| v.as_u64().expect("a count");
    json["global_memory"]["per_line"]
        .as_array()
        .expect("per_line")
        .iter()
        .map(|l| {
            [
                n(&l["line"]),
                n(&l["load"]["requests"]),
                n(&l["load"]["sectors"]),
                n(&l["store"]["requests"]),
                n(&l["store"]["sectors"]),
            ]
        })
        .collect()
}

/// The report's per-line counts after a whole run and after single steps, in `mode`.
fn counts(src: &str, mode: Mode) -> (Vec<[u64; 5]>, Vec<[u64; 5]>) {
    let overrides = common::overrides(mode, &[]);
    let compiled = compile::compile("vec.cu", src.as_bytes(), &overrides).expect("compiles");
    let mut whole = Machine::new(&compiled, &Config::default()).expect("fits");
    let outcome = whole.run();
    assert_eq!(outcome.name(), "completed");
    let mut stepped = Machine::new(&compiled, &Config::default()).expect("fits");
    let stepped_outcome = loop {
        let o = stepped.step(1);
        if o.is_final() {
            break o;
        }
    };
    (per_line(&report::json(&whole, &outcome)), per_line(&report::json(&stepped, &stepped_outcome)))
}

#[test]
fn a_whole_vector_is_one_request_of_its_size() {
    for mode in common::MODES {
        let (whole, stepped) = counts(KERNEL, mode);
        // Four warps; 32 lanes of a float4 are 512 bytes, 16 sectors; of a float2 or a field, 8 and 16.
        let expected = vec![
            [11, 4, 64, 0, 0],  // float4 v = in[i]: one LDG.128 per warp
            [12, 0, 0, 4, 64],  // out[i] = v: one STG.128
            [13, 4, 64, 0, 0],  // double2: 16 bytes a lane too
            [14, 4, 32, 0, 0],  // float2: LDG.64, 8 sectors
            [15, 0, 0, 4, 32],  // half the lanes, every other 8 bytes: still all 8 sectors
            [16, 4, 64, 4, 16], // in[i].y alone: a 4-byte load 16 bytes apart (16 sectors); o[i]: 4
        ];
        assert_eq!(whole, expected, "{mode:?}, whole run");
        assert_eq!(stepped, expected, "{mode:?}, one step at a time");
    }
}

#[test]
fn the_ir_marks_the_vector_parts() {
    let overrides = common::overrides(Mode::Its, &[]);
    let compiled = compile::compile("vec.cu", KERNEL.as_bytes(), &overrides).expect("compiles");
    let ir = warpdbg::ir::print::print_kernel(&compiled.kernel);
    let count = |s: &str| ir.matches(s).count();
    // First fields: in, out, d, h, o2; the other fields of each.
    assert_eq!((count("load.f32.v16 "), count("store.f32.v16 "), count("load.f64.v16 ")), (1, 1, 1), "{ir}");
    assert_eq!((count("load.f32.v8 "), count("store.f32.v8 ")), (1, 1), "{ir}");
    assert_eq!((count("load.f32.v "), count("store.f32.v "), count("load.f64.v ")), (4, 4, 1), "{ir}");
}

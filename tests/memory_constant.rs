//! Reads of `__constant__` variables go through the constant cache on the GPU (`LDC`, or a `c[bank][offset]`
//! operand), not through L1TEX: Nsight Compute's global-load requests and sectors leave them out, and so does
//! warpdbg's `global_memory`. They are counted apart in `constant_memory`: requests (warp instructions) and
//! the distinct addresses each read, summed, since the constant cache serves one address at a time and a
//! divergent read is replayed per address. Exact counts per line, equal in whole runs (on several cores) and one
//! instruction at a time, in both execution models; the timing model charges the replays as issue slots.

mod common;

use serde_json::Value;
use warpdbg::compile;
use warpdbg::sim::{Config, Machine, report};

const KERNEL: &str = "\
// @grid 64
// @block 128
// @arg in float[8192] = i
// @arg out float[8192] = 0
__constant__ float coef[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__global__ void k(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float u = coef[blockIdx.x % 8];
    float d = coef[threadIdx.x % 4];
    out[i] = in[i] * u + d;
}
";

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("a count, not {v}"))
}

/// (line, requests, addresses) of every line with constant reads, and the totals.
fn constant(json: &Value) -> (Vec<[u64; 3]>, [u64; 2]) {
    let c = &json["constant_memory"];
    let lines = c["per_line"].as_array().expect("per_line");
    let lines = lines.iter().map(|l| [n(&l["line"]), n(&l["requests"]), n(&l["addresses"])]).collect();
    (lines, [n(&c["requests"]), n(&c["addresses"])])
}

/// (line, load requests, load sectors, store requests, store sectors) of every line with global traffic.
fn global(json: &Value) -> Vec<[u64; 5]> {
    let lines = json["global_memory"]["per_line"].as_array().expect("per_line");
    let f = |l: &Value, k: &str, c: &str| n(&l[k][c]);
    let row = |l: &Value| {
        [
            n(&l["line"]),
            f(l, "load", "requests"),
            f(l, "load", "sectors"),
            f(l, "store", "requests"),
            f(l, "store", "sectors"),
        ]
    };
    lines.iter().map(row).collect()
}

/// Uniform (line 9): 256 warps, one address each. Divergent (line 10): lanes read coef[0..4], four addresses.
/// Line 11's global load and store are the only global traffic.
const CONSTANT: [[u64; 3]; 2] = [[9, 256, 256], [10, 256, 1024]];
const GLOBAL: [[u64; 5]; 1] = [[11, 256, 1024, 256, 1024]];

#[test]
fn constant_reads_count_apart_with_one_replay_per_address() {
    for mode in common::MODES {
        let overrides = common::overrides(mode, &[]);
        let compiled = compile::compile("k.cu", KERNEL.as_bytes(), &overrides).expect("compiles");
        let mut whole = Machine::new(&compiled, &Config::default()).expect("fits");
        let outcome = whole.run();
        assert_eq!(outcome.name(), "completed");
        assert!(whole.ran_parallel(), "{mode:?}: the whole run fell back to one core");
        let mut stepped = Machine::new(&compiled, &Config::default()).expect("fits");
        let stepped_outcome = loop {
            let o = stepped.step(1);
            if o.is_final() {
                break o;
            }
        };
        for (what, m, o) in [("whole run", &whole, &outcome), ("one step at a time", &stepped, &stepped_outcome)] {
            let json = report::json(m, o);
            assert_eq!(constant(&json), (CONSTANT.to_vec(), [512, 1280]), "{mode:?}, {what}");
            assert_eq!(global(&json), GLOBAL.to_vec(), "{mode:?}, {what}");
            assert_eq!(n(&json["global_memory"]["load"]["requests"]), 256, "{mode:?}, {what}");
        }
        assert_eq!(whole.metrics, stepped.metrics, "{mode:?}");
    }
}

#[test]
fn run_prints_the_constant_table_and_charges_the_replays() {
    let dir = std::env::temp_dir().join(format!("warpdbg-constant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("k.cu");
    std::fs::write(&path, KERNEL).expect("writes");
    let path = path.to_string_lossy().into_owned();
    let out = common::warpdbg(&["run", &path]);
    let text = String::from_utf8_lossy(&out.stdout);
    let table = "constant memory (constant cache; a request is replayed per distinct address):\n  \
                 line  requests  addresses  per request\n     \
                 9       256        256         1.00\n    \
                 10       256       1024         4.00\n";
    assert!(text.contains(table), "{text}");
    let out = common::warpdbg(&["run", "--json", &path]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(constant(&json), (CONSTANT.to_vec(), [512, 1280]));
    // Issue: 4,864 warp-instructions and 768 replays (1,024 - 256 addresses of line 10) over 64 SMs, each with
    // one block of 4 warps (IPC 1: a warp issues every 4 cycles), at 1.98 GHz.
    let steps = n(&json["steps"]);
    assert_eq!(steps, 4864);
    let issue = json["timing"]["issue_ns"].as_f64().expect("issue_ns");
    assert!((issue - (4864.0 + 768.0) / 64.0 / 1.98).abs() < 1e-9, "{issue}");
    let _ = std::fs::remove_dir_all(&dir);
}

//! What `run` prints of a launch's performance: `timing` (the duration, its terms, occupancy, where sectors
//! were served) and `profiler` (the metrics by name) in `--json`, and a readable block of the same.

use std::fmt::Write;

use serde_json::{Map, Value, json};

use super::{Device, kernel_time, named_metrics};
use crate::sim::Machine;

/// The `timing` and `profiler` entries of a launch's JSON object.
pub fn json_entries(m: &Machine) -> Map<String, Value> {
    let t = kernel_time(&Device::of(m.launch.mode), m);
    let mut out = Map::new();
    out.insert("timing".into(), json!(t));
    let named: Map<String, Value> = named_metrics(m, &t)
        .into_iter()
        .map(|n| (n.nvprof.to_string(), json!({"value": n.value, "unit": n.unit, "ncu": n.ncu})))
        .collect();
    out.insert("profiler".into(), Value::Object(named));
    out
}

/// The readable performance block of `run`.
pub fn text(m: &Machine) -> String {
    let t = kernel_time(&Device::of(m.launch.mode), m);
    let o = &t.occupancy;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\ntime (virtual, {}): {:.3} ms, bound by {}; occupancy {:.1}% achieved of {:.1}% ({} blocks/SM, limited by \
         {:?}, ~{} registers/thread), {} waves",
        if m.launch.mode == crate::front::launch::Mode::Its { "H100" } else { "pre-Volta GPU" },
        t.total_ns as f64 / 1e6,
        t.bound,
        o.achieved,
        o.theoretical,
        o.blocks_per_sm,
        o.limiter,
        o.registers_per_thread,
        o.waves
    );
    let _ = writeln!(
        s,
        "  terms (us): issue {:.2}, shared {:.2}, L2 {:.2}, DRAM {:.2}, atomics {:.2}, latency {:.2}, launch {:.2}",
        t.issue_ns / 1e3,
        t.shared_ns / 1e3,
        t.l2_ns / 1e3,
        t.dram_ns / 1e3,
        t.atomic_ns / 1e3,
        t.latency_ns / 1e3,
        t.launch_ns / 1e3
    );
    let _ = writeln!(s, "profiler metrics (nvprof name = value, Nsight Compute name):");
    for n in named_metrics(m, &t) {
        let _ = writeln!(s, "  {:<38} {:>12.3} {:<5} {}", n.nvprof, n.value, n.unit, n.ncu);
    }
    s
}

//! What `run` prints of a launch's performance: `timing` (the duration, its terms, occupancy, where sectors
//! were served) and `profiler` (the metrics by name) in `--json`, and a readable block of the same.

use std::fmt::Write;

use serde_json::{Map, Value, json};

use super::{Device, KernelTime, NamedMetric, kernel_time, named_metrics};
use crate::sim::Machine;

/// A launch's performance as every front end shows it (`run`, `run --json`, a program's launches, the TUI's
/// Metrics pane, the page): the timing model's estimate and the metrics by name, each computed once. Of a
/// launch still running, the figures of the run so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    pub time: KernelTime,
    pub named: Vec<NamedMetric>,
}

impl Profile {
    /// `m`'s launch on the device its mode stands for.
    pub fn of(m: &Machine) -> Profile {
        Profile::with_time(m, kernel_time(&Device::of(m.launch.mode), m))
    }

    /// `m`'s launch, whose time the caller already has (a program's launch keeps it for virtual time).
    pub fn with_time(m: &Machine, time: KernelTime) -> Profile {
        Profile { named: named_metrics(m, &time), time }
    }

    /// What bounds the launch, as a reader says it: `DRAM-bound`, `latency-bound`.
    pub fn bound(&self) -> String {
        let name = match self.time.bound {
            "dram" => "DRAM",
            "l2" => "L2",
            other => other,
        };
        format!("{name}-bound")
    }
}

/// The `timing` and `profiler` entries of a launch's JSON object.
pub fn json_entries(m: &Machine) -> Map<String, Value> {
    profile_json(&Profile::of(m))
}

/// [`json_entries`] of a profile already computed.
pub fn profile_json(p: &Profile) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("timing".into(), json!(p.time));
    let named: Map<String, Value> = (p.named.iter())
        .map(|n| (n.nvprof.to_string(), json!({"value": n.value, "unit": n.unit, "ncu": n.ncu})))
        .collect();
    out.insert("profiler".into(), Value::Object(named));
    out
}

/// The readable performance block of `run`.
pub fn text(m: &Machine) -> String {
    let p = Profile::of(m);
    let t = &p.time;
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
    for n in &p.named {
        let _ = writeln!(s, "  {:<38} {:>12.3} {:<5} {}", n.nvprof, n.value, n.unit, n.ncu);
    }
    s
}

//! The metrics by the names course texts use: nvprof's (`nvprof --metrics gld_efficiency,...`) and, beside
//! each, its Nsight Compute name (../shared/reference/performance-model.md has the table).

use serde::Serialize;

use super::KernelTime;
use crate::sim::Machine;
use crate::sim::traffic::{Requests, SECTOR_BYTES};

/// What a metric is about: the groups the TUI's Metrics pane shows them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Instructions and branches: how much of each warp does useful work.
    Divergence,
    /// Global and shared memory: coalescing, bank conflicts, throughput.
    Memory,
    /// Resident warps and the launch's time.
    Occupancy,
}

/// One metric: its nvprof name, its Nsight Compute name, and its value in nvprof's units.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NamedMetric {
    pub nvprof: &'static str,
    pub ncu: &'static str,
    pub value: f64,
    /// nvprof's unit ("%", "GB/s", "" for a ratio or a count).
    pub unit: &'static str,
    /// A short label for a narrow pane ("gld eff." for `gld_efficiency`).
    #[serde(skip)]
    pub short: &'static str,
    #[serde(skip)]
    pub group: Group,
    /// Whether the launch did what the metric measures (a load for `gld_efficiency`): an efficiency of no
    /// request is nvprof's 100 % or 0 and says nothing.
    #[serde(skip)]
    pub measured: bool,
}

impl NamedMetric {
    /// The value with its unit, compactly: `87.50%`, `4.00`, `12.3GB/s` (`138GB/s`), `4096B` (`1.05MB` from a
    /// million bytes on), `0.016` (a fraction); `·` when not measured.
    pub fn value_text(&self) -> String {
        if !self.measured {
            return "·".to_string();
        }
        match self.unit {
            "%" => format!("{:.2}%", self.value),
            // Three figures at most: a narrow pane has room for `2450GB/s`.
            "GB/s" if self.value >= 100.0 => format!("{:.0}GB/s", self.value),
            "GB/s" => format!("{:.1}GB/s", self.value),
            "B" if self.value >= 1e6 => format!("{:.2}MB", self.value / 1e6),
            "B" => format!("{}B", self.value as u64),
            // A fraction of 1 (nvprof's achieved_occupancy): one more digit.
            _ if self.group == Group::Occupancy => format!("{:.3}", self.value),
            _ => format!("{:.2}", self.value),
        }
    }
}

/// The launch's metrics by name, in nvprof's order of the course texts.
pub fn named_metrics(m: &Machine, t: &KernelTime) -> Vec<NamedMetric> {
    let mt = &m.metrics;
    let (load, store, _) = mt.traffic.totals();
    let ((ld_req, ld_wf), (st_req, st_wf)) = mt.banks.totals();
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let kernel_s = (t.total_ns as f64 - t.launch_ns).max(1.0) * 1e-9;
    let metric = |nvprof: &'static str, ncu, value, unit| {
        let (short, group) = short_and_group(nvprof);
        NamedMetric { nvprof, ncu, value, unit, short, group, measured: true }
    };
    let mut out = vec![
        metric(
            "inst_per_warp",
            "smsp__average_inst_executed_per_warp.ratio",
            ratio(mt.warp_instructions, mt.warps),
            "",
        ),
        metric(
            "branch_efficiency",
            "smsp__sass_average_branch_targets_threads_uniform.pct",
            mt.branch_efficiency(),
            "%",
        ),
        metric(
            "gld_efficiency",
            "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
            load.efficiency(),
            "%",
        ),
        metric(
            "gst_efficiency",
            "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
            store.efficiency(),
            "%",
        ),
        metric(
            "gld_transactions_per_request",
            "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
            load.sectors_per_request(),
            "",
        ),
        metric(
            "gst_transactions_per_request",
            "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
            store.sectors_per_request(),
            "",
        ),
        metric(
            "gld_throughput",
            "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second",
            (load.sectors * SECTOR_BYTES) as f64 / kernel_s / 1e9,
            "GB/s",
        ),
        metric(
            "gst_throughput",
            "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum.per_second",
            (store.sectors * SECTOR_BYTES) as f64 / kernel_s / 1e9,
            "GB/s",
        ),
        metric(
            "shared_load_transactions_per_request",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum / smsp__inst_executed_op_shared_ld.sum",
            ratio(ld_wf, ld_req),
            "",
        ),
        metric(
            "shared_store_transactions_per_request",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum / smsp__inst_executed_op_shared_st.sum",
            ratio(st_wf, st_req),
            "",
        ),
        metric(
            "achieved_occupancy",
            "sm__warps_active.avg.pct_of_peak_sustained_active",
            t.occupancy.achieved / 100.0,
            "",
        ),
        metric("dram_read_write_bytes", "dram__bytes.sum", t.dram_bytes as f64, "B"),
    ];
    for n in &mut out {
        n.measured = match n.nvprof {
            "inst_per_warp" => mt.warps > 0,
            "branch_efficiency" => mt.branches > 0,
            name if name.starts_with("gld_") => load.requests > 0,
            name if name.starts_with("gst_") => store.requests > 0,
            name if name.starts_with("shared_load") => ld_req > 0,
            name if name.starts_with("shared_store") => st_req > 0,
            _ => true,
        };
    }
    out
}

/// Each metric's short label and group.
fn short_and_group(nvprof: &str) -> (&'static str, Group) {
    match nvprof {
        "inst_per_warp" => ("inst / warp", Group::Divergence),
        "branch_efficiency" => ("branch eff.", Group::Divergence),
        "gld_efficiency" => ("gld eff.", Group::Memory),
        "gst_efficiency" => ("gst eff.", Group::Memory),
        "gld_transactions_per_request" => ("gld sect/req", Group::Memory),
        "gst_transactions_per_request" => ("gst sect/req", Group::Memory),
        "gld_throughput" => ("gld thr.", Group::Memory),
        "gst_throughput" => ("gst thr.", Group::Memory),
        "shared_load_transactions_per_request" => ("shld wf/req", Group::Memory),
        "shared_store_transactions_per_request" => ("shst wf/req", Group::Memory),
        "dram_read_write_bytes" => ("dram bytes", Group::Memory),
        _ => ("achieved occ.", Group::Occupancy),
    }
}

/// One source line's figures, as Nsight Compute's source view shows them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LineFigures {
    pub line: u32,
    /// Warp-instructions executed (`smsp__sass_inst_executed`).
    pub warp_instructions: u64,
    /// Branch executions and how many of them diverged, and the warps that diverged here.
    pub branches: u64,
    pub divergent_branches: u64,
    pub divergent_warps: u64,
    /// Global load, store and atomic requests together: requests, sectors, bytes asked for.
    pub global: Option<Requests>,
    /// Shared-memory requests and their wavefronts (a bank conflict's replays included).
    pub shared: Option<(u64, u64)>,
}

impl LineFigures {
    /// Percent of the line's branch executions on which the warp's threads agreed (None: no branch).
    pub fn branch_efficiency(&self) -> Option<f64> {
        (self.branches > 0).then(|| 100.0 * (self.branches - self.divergent_branches) as f64 / self.branches as f64)
    }

    /// Shared wavefronts per request: 1 without bank conflicts, n for an n-way conflict (None: no request).
    pub fn shared_wavefronts_per_request(&self) -> Option<f64> {
        self.shared.map(|(req, wf)| wf as f64 / req.max(1) as f64)
    }
}

/// Every line that executed instructions, branched or accessed memory, in line order, with its figures for
/// the run so far.
pub fn line_figures(m: &Machine) -> Vec<LineFigures> {
    let mt = &m.metrics;
    let mut out: std::collections::BTreeMap<u32, LineFigures> = mt
        .lines()
        .into_iter()
        .map(|l| {
            let f = LineFigures {
                line: l.line,
                warp_instructions: l.warp_instructions,
                branches: l.branches,
                divergent_branches: l.divergent_branches,
                divergent_warps: l.divergent_warps,
                ..Default::default()
            };
            (l.line, f)
        })
        .collect();
    let at = |out: &mut std::collections::BTreeMap<u32, LineFigures>, line: u32| {
        *out.entry(line).or_insert_with(|| LineFigures { line, ..Default::default() })
    };
    for t in mt.traffic.lines() {
        let mut f = at(&mut out, t.line);
        f.global = Some(t.total());
        out.insert(t.line, f);
    }
    for b in mt.banks.per_line.values() {
        let mut f = at(&mut out, b.line);
        f.shared = Some((b.accesses, b.wavefronts));
        out.insert(b.line, f);
    }
    out.into_values().collect()
}

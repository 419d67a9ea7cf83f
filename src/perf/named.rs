//! The metrics by the names course texts use: nvprof's (`nvprof --metrics gld_efficiency,...`) and, beside
//! each, its Nsight Compute name (../shared/reference/performance-model.md has the table).

use serde::Serialize;

use super::KernelTime;
use crate::sim::Machine;
use crate::sim::traffic::SECTOR_BYTES;

/// One metric: its nvprof name, its Nsight Compute name, and its value in nvprof's units.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NamedMetric {
    pub nvprof: &'static str,
    pub ncu: &'static str,
    pub value: f64,
    /// nvprof's unit ("%", "GB/s", "" for a ratio or a count).
    pub unit: &'static str,
}

/// The launch's metrics by name, in nvprof's order of the course texts.
pub fn named_metrics(m: &Machine, t: &KernelTime) -> Vec<NamedMetric> {
    let mt = &m.metrics;
    let (load, store, _) = mt.traffic.totals();
    let ((ld_req, ld_wf), (st_req, st_wf)) = mt.banks.totals();
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let kernel_s = (t.total_ns as f64 - t.launch_ns).max(1.0) * 1e-9;
    let metric = |nvprof, ncu, value, unit| NamedMetric { nvprof, ncu, value, unit };
    vec![
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
    ]
}

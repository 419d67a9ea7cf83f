//! The run report: interface.md's `run --json` object, and the readable text version.

use std::fmt::Write;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::machine::{Machine, Outcome};
use super::memory::Allocation;
pub use super::memory_report::write_element;
use super::memory_report::{self, MemoryDetail};
use super::metrics::LineMetrics;
use crate::ir::Ty;

#[derive(Serialize)]
pub struct MetricsJson {
    pub warps: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub threads_per_instruction: f64,
    pub branches: u64,
    pub divergent_branches: u64,
    pub branch_efficiency: f64,
    pub divergent_warps: u64,
    pub max_stack_depth: u32,
    pub per_line: Vec<LineMetrics>,
}

/// An allocation's elements as JSON numbers (booleans as true/false).
pub fn allocation_json(a: &Allocation) -> Value {
    Value::Array((0..a.len).map(|i| element_json(a.elem, a.element(i))).collect())
}

fn element_json(ty: Ty, bits: u64) -> Value {
    match ty {
        Ty::Bool => Value::Bool(bits & 1 != 0),
        Ty::I8 => json!(bits as u8 as i8),
        Ty::U8 => json!(bits as u8),
        Ty::I32 => json!(bits as u32 as i32),
        Ty::U32 => json!(bits as u32),
        Ty::I16 => json!(bits as u16 as i16),
        Ty::U16 => json!(bits as u16),
        // Exact JSON integers, above 2^53 too (JavaScript readers round those).
        Ty::I64 => json!(bits as i64),
        Ty::U64 => json!(bits),
        Ty::F16 => json!(crate::front::half::to_f64(bits as u16)),
        Ty::F32 => json!(f32::from_bits(bits as u32)),
        Ty::F64 => json!(f64::from_bits(bits)),
        Ty::Ptr => json!(bits),
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let p = 10f64.powi(digits);
    (x * p).round() / p
}

/// The `run --json` report.
pub fn json(m: &Machine, outcome: &Outcome) -> Value {
    let mut v = summary(m, outcome);
    // Built element by element as serde_json values: the reference the streamed report is tested against.
    let memory: Map<String, Value> = m.global.allocs.iter().map(|a| (a.name.clone(), allocation_json(a))).collect();
    v.insert("memory".into(), Value::Object(memory));
    Value::Object(v)
}

/// Writes the `run --json` report to `w` (buffer it), its memory streamed as `detail` says; `extra` entries
/// are added to the object (`stopped_at` of `run --break`).
pub fn write_json(
    w: &mut impl std::io::Write,
    m: &Machine,
    outcome: &Outcome,
    detail: MemoryDetail,
    extra: Map<String, Value>,
) -> std::io::Result<()> {
    let mut v = summary(m, outcome);
    v.extend(extra);
    memory_report::write_report(w, &v, m, detail)
}

/// Everything in the report but its memory.
pub fn summary(m: &Machine, outcome: &Outcome) -> Map<String, Value> {
    let mt = &m.metrics;
    let metrics = MetricsJson {
        warps: mt.warps,
        warp_instructions: mt.warp_instructions,
        thread_instructions: mt.thread_instructions,
        threads_per_instruction: round(mt.threads_per_instruction(), 4),
        branches: mt.branches,
        divergent_branches: mt.divergent_branches,
        branch_efficiency: round(mt.branch_efficiency(), 4),
        divergent_warps: mt.divergent_warps,
        max_stack_depth: mt.max_stack_depth,
        per_line: mt.lines().into_iter().filter(|l| l.branches > 0).collect(),
    };
    let (explanation, faults, waits) = match outcome {
        Outcome::Fault(f) => (
            Some(format!("{}\n{}", f.report.trim_end(), f.sentence)),
            vec![json!({
                "kind": f.kind, "line": f.line, "block": f.block.as_array(), "thread": f.thread.as_array(),
                "address": f.address, "message": format!("{}\n{}", f.report.trim_end(), f.sentence),
            })],
            vec![],
        ),
        Outcome::Deadlock(s) | Outcome::Livelock(s) => (
            Some(s.explanation.clone()),
            vec![],
            s.waits
                .iter()
                .map(|w| {
                    json!({
                        "line": w.line, "kind": w.kind.name(), "block": w.block.as_array(), "threads": w.threads(),
                        "message": w.message,
                    })
                })
                .collect(),
        ),
        Outcome::StepLimit => (Some(step_limit_text(m)), vec![], vec![]),
        _ => (None, vec![], vec![]),
    };
    // Extension: the launch's arguments, so tools (the conformance recorder) can rebuild the launch.
    let args: Vec<Value> = m
        .launch
        .args
        .iter()
        .map(|a| match &a.value {
            crate::front::launch::ArgValue::Scalar { ty, bits } => json!({
                "name": a.name, "kind": "scalar", "type": ty.name(),
                "value": element_json(Ty::from(*ty), *bits),
            }),
            crate::front::launch::ArgValue::Array { elem, len, .. } => json!({
                "name": a.name, "kind": "array", "type": elem.name(), "len": len,
            }),
        })
        .collect();
    let v = json!({
        "kernel": m.launch.kernel,
        "args": args,
        "seed": m.launch.seed,
        "mode": m.launch.mode.name(),
        "grid": m.launch.grid.as_array(),
        "block": m.launch.block.as_array(),
        "outcome": outcome.name(),
        "explanation": explanation,
        "steps": m.steps,
        "metrics": metrics,
        "hazards": m.hazards.iter().map(|h| json!({
            "kind": h.kind.name(), "line": h.line, "message": h.message, "count": h.count,
        })).collect::<Vec<_>>(),
        "faults": faults,
        "shared_bank_conflicts": {
            "total": m.metrics.banks.total_conflicts(),
            "per_line": m.metrics.banks.per_line.values().map(|b| json!({
                "line": b.line, "accesses": b.accesses, "wavefronts": b.wavefronts, "conflicts": b.conflicts,
                "max_ways": b.max_ways, "store_accesses": b.store_accesses, "store_wavefronts": b.store_wavefronts,
            })).collect::<Vec<_>>(),
        },
        "shared_memory": shared_memory_json(m),
        "global_memory": global_memory_json(m),
        "constant_memory": constant_memory_json(m),
        "waits": waits,
        "printf": m.output.iter().map(|p| json!({
            "block": p.block.as_array(), "thread": p.thread.as_array(), "text": p.text,
        })).collect::<Vec<_>>(),
    });
    match v {
        Value::Object(map) => map,
        _ => unreachable!("json! of an object literal is an object"),
    }
}

/// Shared-memory requests and wavefronts, loads and stores apart (Nsight's `smsp__inst_executed_op_shared_*`
/// and `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*`).
fn shared_memory_json(m: &Machine) -> Value {
    let ((lr, lw), (sr, sw)) = m.metrics.banks.totals();
    json!({
        "load": {"requests": lr, "wavefronts": lw},
        "store": {"requests": sr, "wavefronts": sw},
    })
}

/// Global-memory requests, sectors and bytes per kind, per line, and the launch's footprint.
fn global_memory_json(m: &Machine) -> Value {
    let t = &m.metrics.traffic;
    let (load, store, atomic) = t.totals();
    let (read, written) = t.lines_used.footprints();
    json!({
        "load": load,
        "store": store,
        "atomic": atomic,
        "read_footprint_sectors": read,
        "write_footprint_sectors": written,
        "max_atomics_per_address": t.max_atomics_per_address(),
        "per_line": t.lines().map(|l| json!({
            "line": l.line, "load": l.load, "store": l.store, "atomic": l.atomic,
        })).collect::<Vec<_>>(),
    })
}

/// Reads of `__constant__` variables (the constant cache's, not in `global_memory`): warp instructions and
/// the distinct addresses each read, summed (a divergent read is replayed once per address).
fn constant_memory_json(m: &Machine) -> Value {
    let c = &m.metrics.traffic.constant;
    let (requests, addresses) = c.totals();
    json!({"requests": requests, "addresses": addresses, "per_line": c.lines().collect::<Vec<_>>()})
}

pub fn step_limit_text(m: &Machine) -> String {
    format!(
        "Stopped after {} steps (the step limit) without finishing: a loop that never ends, or a launch larger \
         than the limit allows. Pass --max-steps N to allow more.",
        m.steps
    )
}

/// The readable report of `warpdbg run`.
pub fn text(m: &Machine, outcome: &Outcome) -> String {
    let mut s = String::new();
    let l = &m.launch;
    let _ = writeln!(s, "kernel {} ({}), mode {}, grid {} x block {}", l.kernel, m.file, l.mode, l.grid, l.block);
    let _ = writeln!(s, "outcome: {} after {} steps", outcome.name(), m.steps);
    match outcome {
        Outcome::Fault(f) => {
            let _ = writeln!(s, "\n{}\n{}", f.report.trim_end(), f.sentence);
        }
        Outcome::Deadlock(st) | Outcome::Livelock(st) => {
            let _ = writeln!(s, "\n{}", st.explanation);
        }
        Outcome::StepLimit => {
            let _ = writeln!(s, "\n{}", step_limit_text(m));
        }
        _ => {}
    }
    for h in &m.hazards {
        let times = if h.count > 1 { format!(" ({} times)", h.count) } else { String::new() };
        let _ = writeln!(s, "\nhazard{times}: {}", h.message);
    }
    let mt = &m.metrics;
    let _ = writeln!(
        s,
        "\nmetrics: {} warps, {} warp-instructions, {:.2} threads per instruction, {} branches, {} divergent \
         (branch efficiency {:.2}%), {} divergent warps{}",
        mt.warps,
        mt.warp_instructions,
        mt.threads_per_instruction(),
        mt.branches,
        mt.divergent_branches,
        mt.branch_efficiency(),
        mt.divergent_warps,
        if m.mode() == crate::front::launch::Mode::PreVolta {
            format!(", max SIMT-stack depth {}", mt.max_stack_depth)
        } else {
            String::new()
        }
    );
    let lines: Vec<_> = mt.per_line.values().filter(|l| l.branches > 0).collect();
    if !lines.is_empty() {
        let _ = writeln!(s, "  line  branches  divergent  divergent warps  per warp");
        for lm in lines {
            let _ = writeln!(
                s,
                "  {:>4}  {:>8}  {:>9}  {:>15}  {:>8.4}",
                lm.line,
                lm.branches,
                lm.divergent_branches,
                lm.divergent_warps,
                lm.divergent_branches as f64 / mt.warps.max(1) as f64
            );
        }
    }
    let traffic = &m.metrics.traffic;
    if traffic.lines().next().is_some() {
        let _ = writeln!(s, "\nglobal memory:\n  line  kind    requests   sectors  per request  efficiency");
        for l in traffic.lines() {
            for (kind, r) in [("load", l.load), ("store", l.store), ("atomic", l.atomic)] {
                if r.requests > 0 {
                    let _ = writeln!(
                        s,
                        "  {:>4}  {:<6}  {:>8}  {:>8}  {:>11.2}  {:>9.1}%",
                        l.line,
                        kind,
                        r.requests,
                        r.sectors,
                        r.sectors_per_request(),
                        r.efficiency()
                    );
                }
            }
        }
    }
    if traffic.constant.lines().next().is_some() {
        let _ = writeln!(s, "\nconstant memory (constant cache; a request is replayed per distinct address):");
        let _ = writeln!(s, "  line  requests  addresses  per request");
        for c in traffic.constant.lines() {
            let per = c.addresses as f64 / c.requests as f64;
            let _ = writeln!(s, "  {:>4}  {:>8}  {:>9}  {:>11.2}", c.line, c.requests, c.addresses, per);
        }
    }
    if !m.metrics.banks.per_line.is_empty() {
        let _ = writeln!(s, "\nshared memory banks:\n  line  accesses  wavefronts  conflicts  worst");
        for b in m.metrics.banks.per_line.values() {
            let _ = writeln!(
                s,
                "  {:>4}  {:>8}  {:>10}  {:>9}  {:>4}-way",
                b.line, b.accesses, b.wavefronts, b.conflicts, b.max_ways
            );
        }
    }
    if !m.output.is_empty() {
        let _ = writeln!(s, "\nprintf output:");
        for p in &m.output {
            let _ = write!(s, "{}", p.text);
            if !p.text.ends_with('\n') {
                let _ = writeln!(s);
            }
        }
    }
    let _ = writeln!(s, "\nmemory:");
    for a in &m.global.allocs {
        let n = a.len.min(16);
        let vals: Vec<String> = (0..n).map(|i| crate::sim::alu::display(a.elem, a.element(i))).collect();
        let more = if a.len > n { format!(", ... ({} elements)", a.len) } else { String::new() };
        let _ = writeln!(s, "  {} = [{}{more}]", a.name, vals.join(", "));
    }
    s
}

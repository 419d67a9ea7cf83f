//! What `warpdbg run` reports about a program: each launch's object of the `--json` report (interface.md's
//! layout plus `launch`, `host_line`, `config`, `duration_ns`), and the program's whole report (`program`,
//! `launches`, `host_errors`, `leaks`), written as a stream so a textbook-sized launch's memory is never held
//! as a JSON tree.

use std::collections::HashMap;
use std::io::{self, Write};

use serde_json::{Map, Value, json};

use crate::host::LaunchRequest;
use crate::host::cuda::errors;
use crate::host::findings::{Finding, Leak};
use crate::sim::report::write_element;
use crate::sim::{Allocation, Machine, MemoryDetail, Outcome};

/// How a launch that ran ended, beyond its machine: its virtual duration, the CUDA error it gave, and the
/// `--print` expressions evaluated in its stopped warp.
pub struct LaunchEnd {
    /// The timing model's estimate, computed once for virtual time and the report.
    pub time: crate::perf::KernelTime,
    pub code: Option<u32>,
    pub printed: Option<Value>,
}

/// The object of a launch that ran.
pub fn launch_json(
    m: &Machine,
    outcome: &Outcome,
    req: &LaunchRequest,
    end: LaunchEnd,
    detail: MemoryDetail,
    before: Option<&[Allocation]>,
) -> Vec<u8> {
    let LaunchEnd { time, code, printed } = end;
    let mut entries = crate::sim::report::summary(m, outcome);
    if let Some(p) = printed {
        entries.insert("printed".into(), p);
    }
    entries.insert("launch".into(), json!(req.index));
    entries.insert("host_line".into(), json!(req.line));
    entries.insert("config".into(), json!(req.config()));
    entries.insert("duration_ns".into(), json!(time.total_ns));
    entries.extend(crate::perf::report::profile_json(&crate::perf::report::Profile::with_time(m, time)));
    if let Some(p) = req.parent {
        entries.insert("parent_launch".into(), json!(p));
    }
    entries.insert("error".into(), code.map_or(Value::Null, error_json));
    let mut out = vec![];
    // Writing to a Vec cannot fail.
    let _ = write_object(&mut out, &entries, &m.global.allocs, detail, before);
    out
}

/// The object of a launch the configuration check refused.
pub fn refused_json(req: &LaunchRequest, code: u32, reason: &str) -> Vec<u8> {
    let mut v = json!({
        "launch": req.index, "host_line": req.line, "kernel": req.kernel, "config": req.config(),
        "grid": req.grid, "block": req.block, "outcome": "not_run", "reason": reason, "error": error_json(code),
    });
    if let Some(p) = req.parent {
        v["parent_launch"] = json!(p);
    }
    let mut out = serde_json::to_vec_pretty(&v).unwrap_or_default();
    out.push(b'\n');
    out
}

fn error_json(code: u32) -> Value {
    let (name, text) = errors::error_text(code);
    json!({ "code": code, "name": name, "string": text })
}

/// `entries` and `memory` as one object, keys sorted, nested values pretty-printed two spaces a level.
fn write_object(
    w: &mut impl Write,
    entries: &Map<String, Value>,
    allocs: &[Allocation],
    detail: MemoryDetail,
    before: Option<&[Allocation]>,
) -> io::Result<()> {
    w.write_all(b"{\n")?;
    let mut keys: Vec<&str> = entries.keys().map(String::as_str).chain(["memory"]).collect();
    keys.sort_unstable();
    for (k, key) in keys.iter().enumerate() {
        w.write_all(b"  ")?;
        serde_json::to_writer(&mut *w, key)?;
        w.write_all(b": ")?;
        if *key == "memory" {
            write_memory(w, allocs, detail, before)?;
        } else {
            let text = serde_json::to_string_pretty(&entries[*key])?;
            w.write_all(text.replace('\n', "\n  ").as_bytes())?;
        }
        w.write_all(if k + 1 < keys.len() { b",\n" } else { b"\n" })?;
    }
    w.write_all(b"}\n")
}

/// Device memory after the launch, by allocation name (`d_a`; a name used again gets `#2`, `#3`): every
/// element, or those that differ from before the launch, or nothing.
fn write_memory(
    w: &mut impl Write,
    allocs: &[Allocation],
    detail: MemoryDetail,
    before: Option<&[Allocation]>,
) -> io::Result<()> {
    if detail == MemoryDetail::None || allocs.is_empty() {
        return w.write_all(b"{}");
    }
    let mut seen: HashMap<&str, u32> = HashMap::new();
    w.write_all(b"{\n")?;
    for (k, a) in allocs.iter().enumerate() {
        let n = seen.entry(a.name.as_str()).or_insert(0);
        *n += 1;
        let key = if *n == 1 { a.name.clone() } else { format!("{}#{n}", a.name) };
        w.write_all(b"    ")?;
        serde_json::to_writer(&mut *w, &key)?;
        w.write_all(b": ")?;
        let old = before.and_then(|b| b.iter().find(|o| o.base == a.base && o.data.len() == a.data.len()));
        match (detail, old) {
            (MemoryDetail::Changed, old) => {
                write!(w, "{{\"len\": {}, \"changed\": [", a.len)?;
                let mut first = true;
                for i in 0..a.len {
                    let now = a.element(i);
                    if old.is_some_and(|o| o.element(i) == now) {
                        continue;
                    }
                    w.write_all(if first { b"[" } else { b", [" })?;
                    first = false;
                    write!(w, "{i}, ")?;
                    write_element(w, a.elem, now)?;
                    w.write_all(b"]")?;
                }
                w.write_all(b"]}")?;
            }
            _ => {
                w.write_all(b"[")?;
                for i in 0..a.len {
                    if i > 0 {
                        w.write_all(b", ")?;
                    }
                    write_element(w, a.elem, a.element(i))?;
                }
                w.write_all(b"]")?;
            }
        }
        w.write_all(if k + 1 < allocs.len() { b",\n" } else { b"\n" })?;
    }
    w.write_all(b"  }")
}

/// A host error or finding in the report.
pub struct HostErrorJson<'a> {
    pub kind: &'a str,
    pub line: u32,
    pub message: &'a str,
}

/// The whole program's report.
pub struct ProgramReport<'a> {
    /// The process exit status (`warpdbg run`'s).
    pub status: u8,
    /// main's own status, None when the program did not end by itself.
    pub exit_status: Option<u8>,
    pub stdout: &'a [u8],
    pub stderr: &'a [u8],
    /// Each launch's object, in order.
    pub launches: Vec<&'a [u8]>,
    pub host_errors: Vec<HostErrorJson<'a>>,
    pub leaks: &'a [Leak],
    /// What warpdbg found that makes its status 1 (`status::finding_count`).
    pub findings: usize,
}

impl ProgramReport<'_> {
    /// Writes the report as one JSON object.
    pub fn write(&self, w: &mut (impl Write + ?Sized)) -> io::Result<()> {
        let program = json!({
            "exit_status": self.exit_status,
            "stdout": String::from_utf8_lossy(self.stdout),
            "stderr": String::from_utf8_lossy(self.stderr),
        });
        w.write_all(b"{\n  \"program\": ")?;
        w.write_all(serde_json::to_string_pretty(&program)?.replace('\n', "\n  ").as_bytes())?;
        w.write_all(b",\n  \"launches\": [")?;
        for (k, l) in self.launches.iter().enumerate() {
            w.write_all(if k == 0 { b"\n    " } else { b",\n    " })?;
            let body = String::from_utf8_lossy(l);
            w.write_all(body.trim_end().replace('\n', "\n    ").as_bytes())?;
        }
        w.write_all(if self.launches.is_empty() { b"],\n" } else { b"\n  ],\n" })?;
        let errors: Vec<Value> =
            self.host_errors.iter().map(|e| json!({"kind": e.kind, "line": e.line, "message": e.message})).collect();
        w.write_all(b"  \"host_errors\": ")?;
        w.write_all(serde_json::to_string_pretty(&errors)?.replace('\n', "\n  ").as_bytes())?;
        let leaks: Vec<Value> = self
            .leaks
            .iter()
            .map(|l| {
                json!({"name": l.name, "bytes": l.bytes, "line": l.line, "address": l.address, "api": l.api,
                       "message": l.message()})
            })
            .collect();
        w.write_all(b",\n  \"leaks\": ")?;
        w.write_all(serde_json::to_string_pretty(&leaks)?.replace('\n', "\n  ").as_bytes())?;
        // The program's own status and warpdbg's count of findings, beside warpdbg's status (issue 32).
        writeln!(
            w,
            ",\n  \"program_status\": {},\n  \"findings\": {},\n  \"status\": {}\n}}",
            self.exit_status.map_or("null".to_string(), |c| c.to_string()),
            self.findings,
            self.status
        )
    }
}

/// A finding as a host error of the report.
pub fn finding_json(f: &Finding) -> HostErrorJson<'_> {
    HostErrorJson { kind: f.kind.name(), line: f.line, message: &f.message }
}

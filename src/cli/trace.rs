//! `warpdbg trace`: one line (or JSON object) per issued instruction.

use std::io::Write;
use std::path::Path;

use super::args::LaunchArgs;
use super::exit::{Exit, exit_for};
use super::load::start;
use crate::sim::{Config, Machine};

pub(super) fn trace_command(path: &Path, launch: &LaunchArgs, jsonl: bool, config: Config) -> Exit {
    match start(path, launch, &config) {
        Ok(m) => trace_machine(m, jsonl),
        Err(code) => code,
    }
}

/// Prints one line per instruction `m` issues, to its end.
pub(super) fn trace_machine(mut m: Machine, jsonl: bool) -> Exit {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = false;
    let outcome = loop {
        let o = m.step_traced(1 << 16, &mut |i| {
            let line = if jsonl {
                let mut v = serde_json::json!({
                    "step": i.step, "block": i.block.as_array(), "warp": i.warp.0, "line": i.line, "pc": i.pc.0,
                    "mask": i.mask.hex(),
                });
                if let Some(d) = i.stack_depth {
                    v["stack_depth"] = d.into();
                }
                v.to_string()
            } else {
                format!(
                    "step {:>6}  block {}  warp {:>3}  line {:>4}  pc {:>4}  {} ({:>2} active){}",
                    i.step,
                    i.block,
                    i.warp.0,
                    i.line,
                    i.pc.0,
                    i.mask.bar(),
                    i.mask.count(),
                    i.stack_depth.map_or(String::new(), |d| format!("  stack {d}"))
                )
            };
            // A closed pipe (`| head`) is not an error worth a panic.
            failed |= writeln!(out, "{line}").is_err();
        });
        if o.is_final() || failed {
            break o;
        }
    };
    let _ = out.flush();
    drop(out);
    if !jsonl && !failed {
        eprintln!("outcome: {} after {} steps", outcome.name(), m.steps);
    }
    exit_for(&outcome)
}

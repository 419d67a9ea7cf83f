//! `warpdbg run` on a kernel file: the report, `--bench`'s figures, `--explore`'s seeded schedules, and
//! `--break`'s first hit.

use std::io::Write;
use std::path::Path;

use super::args::LaunchArgs;
use super::exit::{Exit, exit_for};
use super::load::{load, parse_breaks, start};
use crate::debug::session::Session;
use crate::sim::MemoryDetail;
use crate::sim::{Config, Machine, Outcome, expr, report};

/// Stdout with a large buffer: a textbook-sized report is hundreds of megabytes.
fn buffered_stdout() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock())
}

pub(super) fn run_command(
    path: &Path,
    launch: &LaunchArgs,
    json: Option<MemoryDetail>,
    config: Config,
    prints: &[String],
) -> Exit {
    let mut m = match start(path, launch, &config) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if let Err(code) = check_prints(prints, &m.kernel) {
        return code;
    }
    let outcome = m.run();
    let focus = crate::sim::focus::of_outcome(&m, &outcome);
    let mut out = buffered_stdout();
    if let Some(detail) = json {
        let mut extra = crate::perf::report::json_entries(&m);
        if !prints.is_empty() {
            extra.insert("printed".into(), expr::printed(prints, &m, focus).json);
        }
        // A closed pipe is not an error worth reporting.
        let _ = report::write_json(&mut out, &m, &outcome, detail, extra);
        let _ = out.flush();
    } else {
        let _ = write!(out, "{}", report::text(&m, &outcome));
        let _ = write!(out, "{}", crate::perf::report::text(&m));
        if !prints.is_empty() {
            let _ = write!(out, "{}", expr::printed(prints, &m, focus).text);
        }
    }
    exit_for(&outcome)
}

/// Parses each `--print` expression against the kernel; prints the diagnostics of the first bad one.
pub(super) fn check_prints(prints: &[String], kernel: &crate::ir::Kernel) -> Result<(), Exit> {
    for p in prints {
        if let Err(e) = expr::Expression::parse(p, kernel) {
            eprint!("{}", e.render());
            eprintln!("error: bad --print expression `{p}`");
            return Err(Exit::Usage);
        }
    }
    Ok(())
}

/// Peak resident memory of this process in bytes (Linux), for `run --bench`.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub(super) fn bench_command(path: &Path, launch: &LaunchArgs, config: Config) -> Exit {
    let t0 = std::time::Instant::now();
    let mut m = match start(path, launch, &config) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let setup = t0.elapsed();
    let t1 = std::time::Instant::now();
    let outcome = m.run();
    let run = t1.elapsed().as_secs_f64();
    let mt = &m.metrics;
    let l = &m.launch;
    println!("kernel            {} ({}), mode {}", l.kernel, m.file, l.mode);
    println!("launch            grid {} x block {}: {} warps", l.grid, l.block, mt.warps);
    println!("outcome           {} after {} steps", outcome.name(), m.steps);
    println!("setup             {:.3} s (compile, allocate, initialise)", setup.as_secs_f64());
    println!("simulation        {run:.3} s");
    println!("warp-instr/s      {:.2} M", mt.warp_instructions as f64 / run / 1e6);
    println!("thread-instr/s    {:.2} M", mt.thread_instructions as f64 / run / 1e6);
    let cores = if m.ran_parallel() { rayon::current_num_threads() } else { 1 };
    let how = if m.ran_parallel() { "blocks in parallel" } else { "sequential: the parallel rule does not hold" };
    println!("cores             {cores} ({how})");
    println!("per core          {:.2} M thread-instr/s", mt.thread_instructions as f64 / run / 1e6 / cores as f64);
    match peak_rss() {
        Some(b) => println!("peak memory       {:.1} MiB", b as f64 / (1 << 20) as f64),
        None => println!("peak memory       unknown (no /proc/self/status)"),
    }
    exit_for(&outcome)
}

/// Runs `n` seeded schedules (seeds 1..=n) next to the default one and groups the results.
pub(super) fn explore_command(path: &Path, launch: &LaunchArgs, json: bool, config: Config, n: u64) -> Exit {
    let compiled = match load(path, launch) {
        Ok(c) => c,
        Err(code) => return code,
    };
    struct Result {
        seeds: Vec<Option<u64>>,
        outcome: String,
        memory: String,
        values: serde_json::Value,
    }
    let mut results: Vec<Result> = vec![];
    for seed in std::iter::once(None).chain((1..=n).map(Some)) {
        let mut m = match Machine::new(&compiled, &Config { schedule_seed: seed, ..config.clone() }) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::Usage;
            }
        };
        let outcome = m.run();
        let memory = crate::debug::checksum::memory_check(&m);
        let key = (outcome.name().to_string(), memory.clone());
        match results.iter_mut().find(|r| (r.outcome.clone(), r.memory.clone()) == key) {
            Some(r) => r.seeds.push(seed),
            None => {
                let values = report::json(&m, &outcome)["memory"].clone();
                results.push(Result { seeds: vec![seed], outcome: key.0, memory, values })
            }
        }
    }
    let seed_text = |s: &Option<u64>| s.map_or("default".to_string(), |v| v.to_string());
    if json {
        let v: Vec<serde_json::Value> = results
            .iter()
            .map(|r| {
                serde_json::json!({
                    "seeds": r.seeds.iter().map(|s| s.map_or(serde_json::Value::Null, |v| v.into())).collect::<Vec<_>>(),
                    "outcome": r.outcome, "memory_checksum": r.memory, "memory": r.values,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "schedules": n + 1, "results": v })).unwrap_or_default()
        );
    } else {
        println!(
            "{} schedules (the default and seeds 1..={n}): {} distinct result{}",
            n + 1,
            results.len(),
            if results.len() == 1 { "" } else { "s" }
        );
        let base = &results[0].values;
        for (i, r) in results.iter().enumerate() {
            let seeds: Vec<String> = r.seeds.iter().take(12).map(seed_text).collect();
            let more = if r.seeds.len() > 12 { format!(" and {} more", r.seeds.len() - 12) } else { String::new() };
            println!("\nresult {}: {} (memory {}) with seeds {}{more}", i + 1, r.outcome, r.memory, seeds.join(", "));
            if i > 0 {
                // Where this result's memory differs from the default schedule's.
                if let (Some(a), Some(b)) = (base.as_object(), r.values.as_object()) {
                    for (name, va) in a {
                        let (Some(xa), Some(xb)) = (va.as_array(), b.get(name).and_then(|v| v.as_array())) else {
                            continue;
                        };
                        let diffs: Vec<String> = xa
                            .iter()
                            .zip(xb)
                            .enumerate()
                            .filter(|(_, (p, q))| p != q)
                            .take(8)
                            .map(|(k, (p, q))| format!("{name}[{k}] = {q} (default: {p})"))
                            .collect();
                        if !diffs.is_empty() {
                            println!("  {}", diffs.join(", "));
                        }
                    }
                }
                if let Some(Some(s)) = r.seeds.first() {
                    println!("  reproduce: warpdbg run {} --schedule-seed {s}", path.display());
                }
            }
        }
        if results.len() > 1 {
            println!("\nThe result depends on the schedule: a race, or a hang that only some interleavings reach.");
        }
    }
    Exit::Ok
}

/// `run --break SPEC...`: runs to the first breakpoint hit (or the end) and reports, with `stopped_at`.
pub(super) fn run_break_command(
    path: &Path,
    launch: &LaunchArgs,
    json: Option<MemoryDetail>,
    config: Config,
    specs: &[String],
    prints: &[String],
) -> Exit {
    use crate::debug::session::Stop;
    let compiled = match load(path, launch) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let breaks = match parse_breaks(specs, &compiled) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let mut session = match Session::new(compiled, config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Usage;
        }
    };
    if let Err(code) = check_prints(prints, &session.machine.kernel) {
        return code;
    }
    for bp in breaks {
        session.add_breakpoint(bp);
    }
    let mut first = true;
    let stop = loop {
        if let Some(stop) = session.cont(crate::debug::session::CONTINUE_CHUNK, first) {
            break stop;
        }
        first = false;
    };
    let hit = match &stop {
        Stop::Hit(h) => Some(h.clone()),
        Stop::Breakpoint { line } => Some(crate::debug::breakpoint::line_hit(&mut session.machine, *line)),
        _ => None,
    };
    let focus = crate::debug::focus::of_stop(&mut session.machine, &stop);
    let outcome = session.machine.outcome().cloned().unwrap_or(Outcome::Paused);
    let m = &session.machine;
    let printed = (!prints.is_empty()).then(|| expr::printed(prints, m, focus));
    let mut out = buffered_stdout();
    if let Some(detail) = json {
        let mut extra = serde_json::Map::new();
        extra.insert("stopped_at".into(), hit.as_ref().map_or(serde_json::Value::Null, |h| serde_json::json!(h)));
        if let Some(p) = printed {
            extra.insert("printed".into(), p.json);
        }
        let _ = report::write_json(&mut out, m, &outcome, detail, extra);
        let _ = out.flush();
    } else {
        match &hit {
            Some(h) => {
                let _ = writeln!(out, "stopped at step {} (line {}): {}", h.step, h.line, h.message);
            }
            None => {
                let _ = writeln!(out, "no breakpoint was hit");
            }
        }
        let _ = write!(out, "{}", report::text(m, &outcome));
        if let Some(p) = printed {
            let _ = write!(out, "{}", p.text);
        }
    }
    exit_for(&outcome)
}

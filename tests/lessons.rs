//! The lessons benchmark (benches/lessons): each course-style program runs in warpdbg and is compared with what
//! the H100 recorded (`benches/lessons/h100.json`): memory counts exactly as Nsight Compute counted them (or a
//! difference explained below), and virtual time ranking the variants of each lesson as the H100's events did,
//! by issue 34's figures. Release builds only (the ten programs simulate about 700 M warp-instructions): CI
//! runs `cargo test --release --test lessons`.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

/// Differences from Nsight's counts, explained: (variant, count, why).
const EXPLAINED: &[(&str, &str, &str)] = &[
    (
        "tiled",
        "shared",
        "nvcc reads the tile's row with 128-bit shared loads (LDS.128) after unrolling the inner loop: fewer \
         requests than warpdbg's one per element",
    ),
    ("tiledUnroll", "shared", "as tiled"),
    (
        "sharedThenGlobal",
        "shared",
        "Nsight counts the 8 warps' shared atomics of each block (131,072) as its shared stores; warpdbg also \
         counts the block's one-lane initialising store (16,384 more)",
    ),
];

fn explained(variant: &str, kind: &str) -> bool {
    EXPLAINED.iter().any(|(v, k, _)| *v == variant && *k == kind)
}

struct Variant {
    lesson: String,
    name: String,
    h100_ms: f64,
    ours_ms: f64,
}

fn num(m: &Value, k: &str) -> u64 {
    m[k].as_f64().unwrap_or(0.0).round() as u64
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release only: cargo test --release --test lessons")]
fn lessons_count_as_nsight_and_rank_as_the_h100() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let h100: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("benches/lessons/h100.json")).expect("recording"))
            .expect("h100.json parses");
    let programs = h100["programs"].as_object().expect("programs");
    assert!(programs.len() >= 8, "at least 8 lessons");
    let mut variants = vec![];
    let mut bad = vec![];
    for (file, rec) in programs {
        let out = Command::new(env!("CARGO_BIN_EXE_warpdbg"))
            .args(["run", "--json", "--memory", "none"])
            .arg(root.join("benches/lessons").join(file))
            .args(["--", "1"])
            .output()
            .expect("warpdbg runs");
        let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
        assert_eq!(report["program"]["exit_status"], 0, "{file}: {}", report["program"]["stdout"]);
        let stdout = report["program"]["stdout"].as_str().unwrap_or_default();
        let ours: BTreeMap<&str, (&str, f64)> = stdout
            .lines()
            .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
                [lesson, v, ms] => Some((v, (lesson, ms.parse().ok()?))),
                _ => None,
            })
            .collect();
        // The timed launch of each kernel is its last.
        let mut launches: BTreeMap<&str, &Value> = BTreeMap::new();
        for l in report["launches"].as_array().expect("launches") {
            launches.insert(l["kernel"].as_str().unwrap_or_default(), l);
        }
        for rl in rec["launches"].as_array().expect("recorded launches") {
            let variant = rl["variant"].as_str().expect("variant");
            let kernel = rl["kernel"].as_str().expect("kernel").split('(').next().unwrap_or_default();
            let Some(l) = launches.get(kernel) else {
                bad.push(format!("{file}: no launch of {kernel}"));
                continue;
            };
            let (m, g, s) = (&rl["metrics"], &l["global_memory"], &l["shared_memory"]);
            let pairs = [
                ("global", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", g["load"]["requests"].as_u64()),
                ("global", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", g["load"]["sectors"].as_u64()),
                ("global", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", g["store"]["requests"].as_u64()),
                ("global", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", g["store"]["sectors"].as_u64()),
                ("shared", "smsp__inst_executed_op_shared_ld.sum", s["load"]["requests"].as_u64()),
                ("shared", "smsp__inst_executed_op_shared_st.sum", s["store"]["requests"].as_u64()),
            ];
            for (kind, metric, value) in pairs {
                if num(m, metric) != value.unwrap_or(0) && !explained(variant, kind) {
                    bad.push(format!("{file} {variant}: {metric} Nsight {} warpdbg {value:?}", num(m, metric)));
                }
            }
            let atomics = num(m, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum")
                + num(m, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum");
            if atomics != g["atomic"]["requests"].as_u64().unwrap_or(0) {
                bad.push(format!("{file} {variant}: atomic requests Nsight {atomics} warpdbg {}", g["atomic"]));
            }
            // Nsight's wavefront counter runs slightly above the bank rule (up to 0.5 % apart between two launches
            // of one kernel, 8 % on the tile transposes' stores): within 10 %.
            for (metric, ours) in [
                ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", s["load"]["wavefronts"].as_u64()),
                ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", s["store"]["wavefronts"].as_u64()),
            ] {
                let (theirs, ours) = (num(m, metric) as f64, ours.unwrap_or(0) as f64);
                if (theirs - ours).abs() > 0.1 * theirs.max(ours) && !explained(variant, "shared") {
                    bad.push(format!("{file} {variant}: {metric} Nsight {theirs} warpdbg {ours}"));
                }
            }
            let h100_ms = rec["times"][variant].as_f64().expect("an H100 time");
            let Some(&(lesson, ours_ms)) = ours.get(variant) else {
                bad.push(format!("{file}: the program printed no time for {variant}"));
                continue;
            };
            variants.push(Variant { lesson: lesson.to_string(), name: variant.to_string(), h100_ms, ours_ms });
        }
    }
    assert!(variants.len() >= 30, "at least 30 variants, {} measured", variants.len());
    assert!(bad.is_empty(), "counts differ from Nsight's:\n{}", bad.join("\n"));
    // Issue 34's figures: pairs the H100 separates by 25 % or more ordered the same; slowdowns against each
    // lesson's fastest variant and absolute times by their median errors.
    let (mut pairs, mut agree, mut slow, mut abs) = (0, 0, vec![], vec![]);
    let factor = |a: f64, b: f64| (a / b).max(b / a);
    for (i, a) in variants.iter().enumerate() {
        let same: Vec<&Variant> = variants.iter().filter(|v| v.lesson == a.lesson).collect();
        let fastest = |f: fn(&Variant) -> f64| same.iter().map(|v| f(v)).fold(f64::MAX, f64::min);
        let (h, o) = (fastest(|v| v.h100_ms), fastest(|v| v.ours_ms));
        slow.push(factor(a.ours_ms / o, a.h100_ms / h));
        abs.push(factor(a.ours_ms, a.h100_ms));
        for b in variants[i + 1..].iter().filter(|b| b.lesson == a.lesson) {
            if factor(a.h100_ms, b.h100_ms) >= 1.25 {
                pairs += 1;
                agree += ((a.h100_ms < b.h100_ms) == (a.ours_ms < b.ours_ms)) as u32;
                if (a.h100_ms < b.h100_ms) != (a.ours_ms < b.ours_ms) {
                    eprintln!(
                        "ordered apart: {} {} / {} (H100 {} / {})",
                        a.lesson, a.name, b.name, a.h100_ms, b.h100_ms
                    );
                }
            }
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (slow, abs) = (median(&mut slow), median(&mut abs));
    let ordered = 100.0 * agree as f64 / pairs as f64;
    eprintln!(
        "{agree} of {pairs} pairs ordered ({ordered:.1} %), median slowdown error {slow:.2}x, median time error {abs:.2}x"
    );
    assert!(ordered >= 95.0, "{ordered:.1} % of the pairs ordered as the H100 orders them");
    assert!(slow <= 1.25, "median slowdown error {slow:.2}x");
    assert!(abs <= 1.5, "median time error {abs:.2}x");
}

//! The Metrics pane's named metrics (issue 34): the figures `run` prints, by nvprof's names (Nsight Compute's
//! where the pane has room), grouped; the timing model's estimate and occupancy; per line the figures of
//! Nsight Compute's source view, a narrow pane dropping columns; `warpdbg view --pane metrics` prints the
//! same. The snapshot under `tests/snapshots/` was read and checked.

mod common;

use common::ui::Tui;
use serde_json::Value;
use warpdbg::tui::app::Pane;

const REDUCE: &str = "kernels/reduce_neighbored.cu";
const BANKS: &str = "tests/conformance/bank_conflicts.cu";

fn view_pane(kernel: &str, steps: &str, cols: u16) -> String {
    let out =
        common::warpdbg(&["view", kernel, "--steps", steps, "--pane", "metrics", "--size", &format!("{cols}x40")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn view_pane_metrics_prints_the_named_metrics_of_reduce_neighbored() {
    // The whole run, 60 columns: long names; the per-line table with short headers and every column.
    let want = "\
Metrics
divergence
branch_efficiency 71.43%
inst_per_warp     166.88
branches          5376 (1536 divergent)
divergent warps   256 of 256
threads / instr   24.35
warp instructions 42720
memory
gld_efficiency                        25.02%
gst_efficiency                        25.00%
gld_transactions_per_request          2.68
gst_transactions_per_request          2.67
gld_throughput                        138GB/s
gst_throughput                        69.0GB/s
shared_load_transactions_per_request  ·
shared_store_transactions_per_request ·
dram_read_write_bytes                 65600B
occupancy & time
time (virtual)     4.50 us
limiter            latency-bound
achieved_occupancy 0.250
occupancy          25.0% of 100.0%
blocks / SM        4, by warps
registers          ~24 / thread
waves              1
per line
line  inst  br.  b.eff  dw  req  s/r   eff wf/r
 ▶19   256    ·      ·   ·    ·    ·     ·    ·
  20  1280    ·      ·   ·    ·    ·     ·    ·
  23  1024    ·      ·   ·    ·    ·     ·    ·
  26   512  256 100.0%   0    ·    ·     ·    ·
  29 15104 2560 100.0%   0    ·    ·     ·    ·
  31 10736 2304  34.0% 256    ·    ·     ·    ·
  33 10640    ·      ·   · 4560 2.68 25.0%    ·
  37  2304    ·      ·   ·    ·    ·     ·    ·
  41   608  256  93.8%  16   32 1.00 12.5%    ·
  42   256    ·      ·   ·    ·    ·     ·    ·
";
    assert_eq!(view_pane(REDUCE, "1e9", 60), want);
}

#[test]
fn a_partial_run_says_so_far_and_leaves_what_it_has_not_measured_blank() {
    let text = view_pane(REDUCE, "2000", 46);
    let head: Vec<&str> = text.lines().take(4).collect();
    assert_eq!(head, ["Metrics · run so far", "divergence", "branch_efficiency ·", "inst_per_warp     7.81"]);
    for row in [
        "gld_efficiency                        ·",
        "dram_read_write_bytes                 0B",
        "occupancy & time (so far)",
        "time so far        2.62 us",
        "limiter            issue-bound",
        " ▶23  464   ·     ·  ·   ·   ·   ·    ·",
    ] {
        assert!(text.lines().any(|l| l == row), "`{row}` in\n{text}");
    }
}

/// The value the pane shows for `name` (its row's second field).
fn pane_value<'a>(text: &'a str, name: &str) -> &'a str {
    let row = text.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap_or_else(|| panic!("{name}"));
    row.split_whitespace().nth(1).expect("a value")
}

#[test]
fn the_pane_shows_the_figures_run_json_reports_with_their_nsight_names() {
    let out = common::warpdbg(&["run", "--json", "--memory", "none", BANKS]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let profiler = report["profiler"].as_object().expect("profiler");
    // Wide enough for every Nsight Compute name beside its metric.
    let text = view_pane(BANKS, "1e9", 140);
    assert_eq!(profiler.len(), 12);
    let mut blank = vec![];
    for (name, m) in profiler {
        let v = m["value"].as_f64().expect("value");
        let shown = pane_value(&text, name);
        // Without a branch or a global load there is nothing to measure: `·` (run says 100 % or 0).
        if shown == "·" {
            blank.push(name.as_str());
            continue;
        }
        let number: f64 = shown.trim_end_matches(['%', 'B']).trim_end_matches("GB/s").parse().expect(shown);
        let digits = match (name.as_str(), m["unit"].as_str()) {
            ("achieved_occupancy", _) => 3,
            (_, Some("GB/s")) if v >= 100.0 => 0,
            (_, Some("GB/s")) => 1,
            (_, Some("B")) => 0,
            _ => 2,
        };
        assert!((number - v).abs() <= 0.5 * 10f64.powi(-digits) + 1e-9, "{name}: pane {shown}, run {v}");
        let ncu = m["ncu"].as_str().expect("ncu");
        let row = text.lines().find(|l| l.starts_with(name.as_str())).expect("row");
        assert!(row.ends_with(&format!("  {ncu}")), "{name}'s row names {ncu}: `{row}`");
    }
    assert_eq!(blank, ["branch_efficiency", "gld_efficiency", "gld_throughput", "gld_transactions_per_request"]);
    assert_eq!(pane_value(&text, "shared_load_transactions_per_request"), "9.00");
    assert_eq!(pane_value(&text, "shared_store_transactions_per_request"), "11.67");
}

#[test]
fn a_narrow_pane_drops_per_line_columns_and_marks_the_source_cursor_line() {
    let mut t = Tui::open(BANKS, &[], 120, 40);
    t.press("c");
    t.press("home");
    for _ in 0..10 {
        t.press("j");
    }
    assert_eq!(t.app.cursor, 11);
    let table = |width: usize| -> Vec<String> {
        let text = warpdbg::tui::view::pane_text(&t.app, width);
        let rows: Vec<&str> = text.lines().collect();
        let at = rows.iter().position(|l| *l == "per line").expect("the per-line table");
        rows[at + 1..].iter().map(|l| l.to_string()).collect()
    };
    // (width, header, line 11's row: 32 wavefronts per request, a 32-way conflict.)
    let cases = [
        (
            90,
            " line warp inst. branches br. eff. div. warps gl. req. sect/req mem eff. sh. wf/req",
            "  ▶11          4        ·        ·          ·        ·        ·        ·      32.00",
        ),
        (46, "line inst br. b.eff dw req  s/r    eff  wf/r", " ▶11    4   ·     ·  ·   ·    ·      · 32.00"),
        (36, "line inst b.eff  s/r    eff  wf/r", " ▶11    4     ·    ·      · 32.00"),
        (28, "line b.eff  s/r    eff  wf/r", " ▶11     ·    ·      · 32.00"),
        (22, "line b.eff    eff", " ▶11     ·      ·"),
    ];
    for (width, head, row) in cases {
        let rows = table(width);
        assert_eq!((rows[0].as_str(), rows[3].as_str()), (head, row), "{width} columns:\n{}", rows.join("\n"));
        assert!(rows.iter().all(|r| r.chars().count() <= width), "{width}:\n{}", rows.join("\n"));
    }
    // The marked row is bold on the screen too: focus the pane and scroll to the table.
    while t.app.focus != Pane::Metrics {
        t.press("tab");
    }
    let text = warpdbg::tui::view::pane_text(&t.app, 46);
    // (The text's first row is the pane's title.)
    let per_line = text.lines().position(|l| l == "per line").expect("the table") - 1;
    for _ in 0..per_line {
        t.press("j");
    }
    let text = t.text();
    let y = text.lines().position(|l| l.contains("│ ▶11 ")).expect("line 11's row on screen");
    let x = text.lines().nth(y).and_then(|l| l.chars().position(|c| c == '▶')).expect("the marker") as u16;
    assert!(t.buffer()[(x + 1, y as u16)].modifier.contains(ratatui::style::Modifier::BOLD));
    insta::assert_snapshot!("metrics_banks_per_line_120x40", t.terminal.backend());
}

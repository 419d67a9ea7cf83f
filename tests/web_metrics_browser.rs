//! The Metrics pane's named metrics on the playground page (headless Chromium): the page runs the same App,
//! so after a run to the end, `Tab` to the Metrics pane and `j` to its memory group show `gld_efficiency`
//! with the value `warpdbg view --pane metrics` and `run --json` give.
//!
//! The page's WebAssembly must be built first (`bash .ci/page`, which `.ci/test` runs).

mod browser;
mod session_support;

use std::process::Command;

use browser::{Browser, export_playground};
use session_support::*;

const BIN: &str = env!("CARGO_BIN_EXE_warpdbg");
const KERNEL: &str = "tests/kernels/coalescing.cu";

#[test]
fn the_page_shows_gld_efficiency_in_the_metrics_pane() {
    let Some(wasm) = browser::playground_wasm() else { return };
    let dir = scratch("web-metrics");
    let page = dir.join("playground.html");
    export_playground(&repo(""), &page, &[KERNEL], &wasm);
    let mut b = Browser::launch(&dir.join("profile"));
    b.open(&format!("file://{}", page.display()));
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the first screen");
    b.focus_screen();
    assert!(b.screen_text().contains("strided<<<1, 32>>>"), "{}", b.screen_text());

    b.key("c");
    assert!(b.screen_text().lines().next().unwrap_or_default().contains("completed"), "{}", b.screen_text());
    // Source, Warps, Warp detail, Memory, then Metrics; its divergence group (7 rows) scrolled past.
    for _ in 0..4 {
        b.key("Tab");
    }
    for _ in 0..7 {
        b.key("j");
    }
    let s = b.screen_text();
    // The page's size decides the pane's width: long names where they fit, else the short ones.
    let row = s
        .lines()
        .filter_map(|l| l.split('│').rev().nth(1))
        .find(|cell| cell.starts_with("gld_efficiency") || cell.starts_with("gld eff."))
        .unwrap_or_else(|| panic!("a gld_efficiency row on the page:\n{s}"));
    assert_eq!(row.split_whitespace().last(), Some("40.00%"), "`{row}`");
    assert!(s.contains("│memory "), "the memory group's heading at the pane's top:\n{s}");

    // The same figure headlessly, and in run --json (40 % of the sectors' bytes were asked for).
    let out =
        Command::new(BIN).current_dir(repo("")).args(["view", KERNEL, "--steps", "1e9", "--pane", "metrics"]).output();
    let text = String::from_utf8(out.expect("view").stdout).expect("UTF-8");
    assert!(
        text.lines().any(|l| l.starts_with("gld_efficiency") && l.split_whitespace().nth(1) == Some("40.00%")),
        "{text}"
    );
    let out = Command::new(BIN).current_dir(repo("")).args(["run", "--json", "--memory", "none", KERNEL]).output();
    let report: serde_json::Value = serde_json::from_slice(&out.expect("run").stdout).expect("JSON");
    assert_eq!(report["profiler"]["gld_efficiency"]["value"], 40.0);
}

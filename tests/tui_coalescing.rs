//! The coalescing view (`C`): per line Nsight's request and sector counts against the best, and the sectors of
//! the selected warp's next global access (its addresses from its registers) or of a recorded request; the
//! same view printed headlessly by `warpdbg view --pane coalescing`. Snapshots under `tests/snapshots/` were
//! read and checked.

mod common;

use common::ui::Tui;

const KERNEL: &str = "tests/kernels/coalescing.cu";

#[test]
fn the_view_shows_the_selected_warps_next_request_sector_by_sector() {
    let mut t = Tui::open(KERNEL, &[], 120, 40);
    t.press("C");
    assert!(t.app.coalescing_view);
    let screen = t.text();
    assert!(screen.contains("Metrics · global memory "), "{screen}");
    assert!(screen.contains("no global-memory requests yet"), "{screen}");
    // Step to the stride-1 load (line 8): the warp's 32 floats in 4 sectors, the best.
    for _ in 0..2 {
        t.press("s");
    }
    let screen = t.text();
    assert!(screen.contains("│block 0 warp 0, next: load of 4 bytes on line │\n"), "{screen}");
    assert!(screen.contains("0x7f4000000020  8  8-15   in[8-15]"), "{screen}");
    // Past it, at the stride-4 load (line 9): two lanes a sector, 16 sectors where 4 would do.
    for _ in 0..3 {
        t.press("s");
    }
    let screen = t.text();
    assert!(screen.contains("Metrics · global memory (ld 100.0%)"), "{screen}");
    assert!(screen.contains("│   8   ld    1     4  4.00    4 100.0%"), "{screen}");

    assert!(screen.contains("0x7f4000000020  2  2-3    in[8,12]"), "{screen}");
    insta::assert_snapshot!("coalescing_stride4_next_120x40", t.terminal.backend());
    // Run to the end: the recorded request on the cursor's line, and the three lines' counts.
    t.press("c");
    let screen = t.text();
    assert!(screen.contains("Metrics · global memory (ld 40.0%, st 100.0%)"), "{screen}");
    assert!(screen.contains("│   9   ld    1    16 16.00    4  25.0%"), "{screen}");
    assert!(screen.contains("│  10   st    1     4  4.00    4 100.0%"), "{screen}");
    assert!(screen.contains("│line 9 (cursor): block 0 warp 0's first load  │"), "{screen}");
    // `C` again brings the divergence metrics back, with each line's memory efficiency.
    t.press("C");
    let screen = t.text();
    assert!(!t.app.coalescing_view && screen.contains("│branch_efficiency ·  "), "{screen}");
    assert!(screen.contains("│gld_efficiency                        40.00% "), "{screen}");
}

#[test]
fn view_pane_coalescing_prints_every_row() {
    let out = common::warpdbg(&["view", KERNEL, "--steps", "5", "--pane", "coalescing", "--size", "80x10"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let want = "\
Metrics · global memory (ld 100.0%)
 line kind requests sectors sectors/req best efficiency
    8   ld        1       4        4.00    4     100.0%
block 0 warp 0, next: load of 4 bytes on line 9
        sector  n  lanes  elements
0x7f4000000000  2  0-1    in[0,4]
0x7f4000000020  2  2-3    in[8,12]
0x7f4000000040  2  4-5    in[16,20]
0x7f4000000060  2  6-7    in[24,28]
0x7f4000000080  2  8-9    in[32,36]
0x7f40000000a0  2  10-11  in[40,44]
0x7f40000000c0  2  12-13  in[48,52]
0x7f40000000e0  2  14-15  in[56,60]
0x7f4000000100  2  16-17  in[64,68]
0x7f4000000120  2  18-19  in[72,76]
0x7f4000000140  2  20-21  in[80,84]
0x7f4000000160  2  22-23  in[88,92]
0x7f4000000180  2  24-25  in[96,100]
0x7f40000001a0  2  26-27  in[104,108]
0x7f40000001c0  2  28-29  in[112,116]
0x7f40000001e0  2  30-31  in[120,124]
16 sectors for this request, best 4
";
    assert_eq!(text, want);
    let out = common::warpdbg(&["view", KERNEL, "--steps", "1e9", "--pane", "metrics", "--size", "60x10"]);
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    // The kernel has no branch (branch_efficiency `·`) and its stride-4 load on line 9 moves four times the
    // bytes it uses; `run` prints the same figures.
    let want = "\
Metrics
divergence
branch_efficiency ·
inst_per_warp     10.00
branches          0 (0 divergent)
divergent warps   0 of 1
threads / instr   32.00
warp instructions 10
memory
gld_efficiency                        40.00%
gst_efficiency                        100.00%
gld_transactions_per_request          10.00
gst_transactions_per_request          4.00
gld_throughput                        1.1GB/s
gst_throughput                        0.2GB/s
shared_load_transactions_per_request  ·
shared_store_transactions_per_request ·
dram_read_write_bytes                 640B
occupancy & time
time (virtual)     3.17 us
limiter            latency-bound
achieved_occupancy 0.016
occupancy          1.6% of 50.0%
blocks / SM        32, by blocks
registers          ~24 / thread
waves              1
per line
line inst br. b.eff dw req   s/r    eff wf/r
  ▶7    1   ·     ·  ·   ·     ·      ·    ·
   8    2   ·     ·  ·   1  4.00 100.0%    ·
   9    3   ·     ·  ·   1 16.00  25.0%    ·
  10    3   ·     ·  ·   1  4.00 100.0%    ·
  11    1   ·     ·  ·   ·     ·      ·    ·
";
    assert_eq!(text, want);
}

#[test]
fn the_key_opens_the_view_in_the_real_binary_in_tmux() {
    // A plain shell in a 120x40 terminal; skipped without tmux outside CI, as tui_e2e.rs's tests are.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(t) = common::tmux::Tmux::shell(root, 120, 40, "COALESCING-PROMPT$") else { return };
    t.type_text(&format!("{} {KERNEL}", env!("CARGO_BIN_EXE_warpdbg")));
    t.keys(&["Enter"]);
    t.wait_for("step 0   paused");
    t.keys(&["s"; 5]);
    t.wait_for("step 5 ");
    t.keys(&["C"]);
    let s = t.wait_for("Metrics · global memory (ld 100.0%)");
    assert!(s.contains("16 sectors for this request") || s.contains("0x7f4000000020  2  2-3    in[8,12]"), "{s}");
    t.keys(&["q"]);
    t.wait_for("COALESCING-PROMPT$");
}

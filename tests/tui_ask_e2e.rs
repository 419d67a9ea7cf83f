//! End to end, the real binary in a real terminal (tmux): a student runs a program whose last block reads past
//! its arrays, lands on the faulting thread, prints `idx` across the warp, and selects other lanes to see
//! their values change in the detail pane and the Lanes pane.

mod common;

use std::path::Path;

use common::tmux::Tmux;

#[test]
fn select_a_lane_and_see_its_values() {
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(t) = Tmux::start(root, 120, 40, &[bin, "tests/fixtures/ask/vec_unguarded.cu"], false) else { return };
    t.wait_for("step 0");
    t.keys(&["c"]);
    let s = t.wait_for("FAULT");
    assert!(s.contains("Warp detail · block (3,0,0) warp 7"), "{s}");
    assert!(s.contains("lane 8 (thread 232)"), "{s}");
    t.keys(&[":"]);
    t.type_text("w idx");
    t.keys(&["Enter"]);
    let s = t.wait_for(" 1 idx = 1000  (lane 8)");
    assert!(s.contains("count=1000  idx=1000"), "{s}");
    // Two lanes on: thread 234, whose idx is 1002.
    t.keys(&[">", ">"]);
    let s = t.wait_for(" 1 idx = 1002  (lane 10)");
    assert!(s.contains("lane 10 (thread 234)"), "{s}");
    assert!(s.contains("count=1000  idx=1002"), "{s}");
    // Back to lane 0 of the warp: idx 992.
    t.keys(&["<"; 10]);
    let s = t.wait_for(" 1 idx = 992  (lane 0)");
    assert!(s.contains("count=1000  idx=992"), "{s}");
    t.keys(&["q"]);
}

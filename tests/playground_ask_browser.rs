//! The Lanes pane and `:` expressions in the playground page (headless Chromium), as in the terminal: stop at
//! a breakpoint, watch `gid`, select other lanes, and see the watched value and the detail pane's values follow
//! the selected thread; a bad expression gets its caret.
//!
//! The page's WebAssembly must be built first (`bash .ci/page`, which `.ci/test` runs).

mod browser;
mod session_support;

use browser::{Browser, export_playground};
use session_support::*;

#[test]
fn lanes_in_the_page_follow_the_selected_lane() {
    let Some(wasm) = browser::playground_wasm() else { return };
    let dir = scratch("playground-ask");
    let page = dir.join("playground.html");
    export_playground(&repo(""), &page, &["tests/fixtures/ask/tile_shift.cu"], &wasm);
    let mut b = Browser::launch(&dir.join("profile"));
    b.open(&format!("file://{}", page.display()));
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the first screen");
    b.focus_screen();
    assert!(b.screen_text().contains("tileShift<<<2, (8,4)>>>"), "{}", b.screen_text());

    // A breakpoint where the odd columns store, and on to it.
    b.key("B");
    b.type_text("line 20");
    b.key("Enter");
    b.key("c");
    // Watch gid: the stopped thread is lane 1 of warp 0 (gid 33 in block 1).
    b.key(":");
    b.type_text("w gid");
    b.key("Enter");
    let s = b.screen_text();
    assert!(s.contains(" 1 gid = 33  (lane 1)"), "{s}");
    assert!(s.contains("tx=1  ty=0  gid=33  left=16.0"), "{s}");
    // Two lanes on: gid 35, in the Lanes pane and the detail pane.
    b.key(">");
    b.key(">");
    let s = b.screen_text();
    assert!(s.contains(" 1 gid = 35  (lane 3)"), "{s}");
    assert!(s.contains("lane 3 (thread 3): active"), "{s}");
    assert!(s.contains("tx=3  ty=0  gid=35  left=17.0"), "{s}");
    // A bad expression: the prompt stays, with a caret under the bad name.
    b.key(":");
    b.type_text("p gid + nope");
    b.key("Enter");
    let s = b.screen_text();
    assert!(s.contains("^ `nope` is not a variable of kernel `tileShift`"), "{s}");
}

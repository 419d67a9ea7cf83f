//! The Lanes pane and `:` expressions in the playground page (headless Chromium), as in the terminal: stop at
//! a breakpoint, watch `gid`, select other lanes, and see the watched value and the detail pane's values follow
//! the selected thread; a bad expression gets its caret.
//!
//! The page's WebAssembly must be built first (`bash .ci/page`, which `.ci/test` runs).

mod browser;
mod session_support;

use std::process::Command;

use browser::Browser;
use session_support::*;

const BIN: &str = env!("CARGO_BIN_EXE_warpdbg");

/// A key as a user presses it; then the continue it may start runs to its stop.
fn key(b: &mut Browser, k: &str) {
    let code = match k {
        "Enter" => 13,
        _ => k.chars().next().map_or(0, |c| c.to_ascii_uppercase() as u32),
    };
    b.press(k, code);
    b.wait_until("!window.warpdbg.busy()", "a continue to stop");
}

fn type_text(b: &mut Browser, text: &str) {
    for c in text.chars() {
        key(b, &c.to_string());
    }
}

fn screen(b: &mut Browser) -> String {
    b.eval("window.warpdbg.text()").as_str().expect("text").to_string()
}

#[test]
fn lanes_in_the_page_follow_the_selected_lane() {
    if !browser::available() {
        return;
    }
    let wasm = repo("target/wasm32-unknown-unknown/web/warpdbg.wasm");
    if !wasm.is_file() {
        assert!(std::env::var_os("CI").is_none(), "{} is missing: run `bash .ci/page`", wasm.display());
        eprintln!("SKIPPED: {} is missing: run `bash .ci/page` first", wasm.display());
        return;
    }
    let dir = scratch("playground-ask");
    let page = dir.join("playground.html");
    let out = Command::new(BIN)
        .current_dir(repo(""))
        .args(["export", "--playground", page.to_str().unwrap(), "tests/fixtures/ask/tile_shift.cu"])
        .args(["--wasm", wasm.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut b = Browser::launch(&dir.join("profile"));
    b.open(&format!("file://{}", page.display()));
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the first screen");
    b.eval("document.getElementById('screen').focus()");
    assert!(screen(&mut b).contains("tileShift<<<2, (8,4)>>>"), "{}", screen(&mut b));

    // A breakpoint where the odd columns store, and on to it.
    key(&mut b, "B");
    type_text(&mut b, "line 20");
    key(&mut b, "Enter");
    key(&mut b, "c");
    // Watch gid: the stopped thread is lane 1 of warp 0 (gid 33 in block 1).
    key(&mut b, ":");
    type_text(&mut b, "w gid");
    key(&mut b, "Enter");
    let s = screen(&mut b);
    assert!(s.contains(" 1 gid = 33  (lane 1)"), "{s}");
    assert!(s.contains("tx=1  ty=0  gid=33  left=16.0"), "{s}");
    // Two lanes on: gid 35, in the Lanes pane and the detail pane.
    key(&mut b, ">");
    key(&mut b, ">");
    let s = screen(&mut b);
    assert!(s.contains(" 1 gid = 35  (lane 3)"), "{s}");
    assert!(s.contains("lane 3 (thread 3): active"), "{s}");
    assert!(s.contains("tx=3  ty=0  gid=35  left=17.0"), "{s}");
    // A bad expression: the prompt stays, with a caret under the bad name.
    key(&mut b, ":");
    type_text(&mut b, "p gid + nope");
    key(&mut b, "Enter");
    let s = screen(&mut b);
    assert!(s.contains("^ `nope` is not a variable of kernel `tileShift`"), "{s}");
}

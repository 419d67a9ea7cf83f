//! The page's fast `c` (issue 35, speed) gives what the terminal gives: `kernels/reduce_neighbored.cu` at
//! n = 1 << 16 (128 blocks whose warps diverge at every stride: the whole run's groups, the ITS scheduler's
//! group choice and the branch masks, which the page's WebAssembly computes with its own SIMD code and
//! out-of-line lane loops) continued to its end in headless Chromium shows the screen `warpdbg view --steps
//! 1e9` prints at the same size, every count on it included; and the screen the page repaints row by row
//! while the run goes on ends with exactly the rows of that screen.
//!
//! The page's WebAssembly must be built first (`bash .ci/page`, which `.ci/test` runs).

mod browser;
mod session_support;

use browser::{Browser, export_playground};
use serde_json::json;
use session_support::*;

#[test]
fn continue_in_the_page_ends_on_the_terminals_screen() {
    let Some(wasm) = browser::playground_wasm() else { return };
    let dir = scratch("playground-speed");
    let page = dir.join("playground.html");
    export_playground(&repo(""), &page, &[], &wasm);
    let source = std::fs::read_to_string(repo("kernels/reduce_neighbored.cu"))
        .unwrap()
        .replace("// @arg n = 1 << 13", "// @arg n = 1 << 16");
    assert!(source.contains("1 << 16"), "the kernel's @arg n line changed");
    let file = dir.join("reduce_neighbored.cu");
    std::fs::write(&file, &source).unwrap();

    let mut b = Browser::launch(&dir.join("profile"));
    b.open(&format!("file://{}", page.display()));
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the first screen");
    // The bundled file picked (the page names the editor's source after it), then its n raised in the editor.
    b.pick_in_mode("reduce_neighbored.cu", 0);
    b.eval(&format!("document.getElementById('source').value = {}; window.warpdbg.open()", json!(source)));
    b.focus_screen();
    let size = b.size();
    b.key("c");

    let expected = browser::view(&repo(""), file.to_str().unwrap(), &["--steps", "1e9"], size, &[]);
    let shown = b.screen();
    assert!(expected[0].contains("completed"), "{}", expected[0]);
    assert_eq!(shown, expected, "the page's screen after `c` is the terminal's");
    // The painted rows (one element each, replaced where they changed) read as the same screen.
    let painted: Vec<String> = serde_json::from_value(
        b.eval("[...document.getElementById('screen').children].map(r => r.textContent.replace(/\\s+$/, ''))"),
    )
    .unwrap();
    assert_eq!(norm(&painted.join("\n")), expected, "the rows on the page");
}

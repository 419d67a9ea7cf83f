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

use std::process::Command;

use browser::{Browser, page_wasm};
use serde_json::json;
use session_support::*;

const BIN: &str = env!("CARGO_BIN_EXE_warpdbg");

#[test]
fn continue_in_the_page_ends_on_the_terminals_screen() {
    if !browser::available() {
        return;
    }
    let Some(wasm) = page_wasm() else { return };
    let dir = scratch("playground-speed");
    let page = dir.join("playground.html");
    let out = Command::new(BIN)
        .current_dir(repo(""))
        .args(["export", "--playground", page.to_str().unwrap(), "--wasm", wasm.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
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
    b.eval(&format!(
        "(() => {{ const s = document.getElementById('files'); \
         s.value = [...s.options].find(o => o.textContent === 'reduce_neighbored.cu').value; \
         document.getElementById('mode').value = '0'; s.dispatchEvent(new Event('change')); \
         document.getElementById('source').value = {}; window.warpdbg.open(); \
         document.getElementById('screen').focus(); }})()",
        json!(source)
    ));
    let size: Vec<u64> = serde_json::from_value(b.eval("window.warpdbg.size()")).unwrap();
    b.press("c", 'C' as u32);
    b.wait_until("!window.warpdbg.busy()", "the continue to stop");

    let view = Command::new(BIN)
        .current_dir(repo(""))
        .args(["view", file.to_str().unwrap(), "--steps", "1e9", "--size", &format!("{}x{}", size[0], size[1])])
        .output()
        .expect("run warpdbg view");
    assert!(view.status.success(), "{}", String::from_utf8_lossy(&view.stderr));
    let expected = norm(&String::from_utf8_lossy(&view.stdout));
    let shown = norm(b.eval("window.warpdbg.text()").as_str().unwrap());
    assert!(expected[0].contains("completed"), "{}", expected[0]);
    assert_eq!(shown, expected, "the page's screen after `c` is the terminal's");
    // The painted rows (one element each, replaced where they changed) read as the same screen.
    let painted: Vec<String> = serde_json::from_value(
        b.eval("[...document.getElementById('screen').children].map(r => r.textContent.replace(/\\s+$/, ''))"),
    )
    .unwrap();
    assert_eq!(norm(&painted.join("\n")), expected, "the rows on the page");
}

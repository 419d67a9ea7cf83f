//! Hand-outs in the playground page (issue 35, item 5), in headless Chromium: an instructor's exercises
//! (`warpdbg export --playground OUT FILE...`) are listed first, under their own heading; a link naming an
//! exercise and a step (`#file=NAME&step=K`) opens the page on the screen `warpdbg view FILE --steps K`
//! prints at the page's size; and the page's own link carries the exercise and the step it is at.
//!
//! The page's WebAssembly must be built first (`bash .ci/page`, which `.ci/test` runs).

mod browser;
mod session_support;

use std::path::Path;

use browser::{Browser, export_playground};
use serde_json::json;
use session_support::*;

/// `warpdbg view FILE --steps K` at a size, run in the exercise's folder (so the screen names the file as the
/// page does).
fn view(dir: &Path, file: &str, steps: u64, size: (u64, u64)) -> Vec<String> {
    browser::view(dir, file, &["--steps", &steps.to_string()], size, &[])
}

#[test]
fn a_link_opens_an_exercise_at_a_step_and_the_set_is_listed() {
    let Some(wasm) = browser::playground_wasm() else { return };
    let dir = scratch("playground_handout");
    std::fs::copy(repo("kernels/deadlock.cu"), dir.join("ex1_deadlock.cu")).unwrap();
    std::fs::copy(repo("kernels/warp_indexing.cu"), dir.join("ex2_warps.cu")).unwrap();
    let page = dir.join("handout.html");
    export_playground(&dir, &page, &["ex1_deadlock.cu", "ex2_warps.cu"], &wasm);
    let url = format!("file://{}", page.display());

    let mut b = Browser::launch(&dir.join("profile"));
    b.open(&url);
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the first screen");
    // The exercise set, listed first under its own heading; the bundled examples after it.
    let groups = b.eval(
        "[...document.querySelectorAll('#files optgroup')].map(g => g.label + ': ' + \
         [...g.children].slice(0, 2).map(o => o.textContent).join(', '))",
    );
    assert_eq!(
        groups,
        json!(["exercises: ex1_deadlock.cu, ex2_warps.cu", "examples: deadlock.cu, reduce_neighbored.cu"])
    );
    assert_eq!(
        b.eval("document.getElementById('source').value"),
        json!(std::fs::read_to_string(dir.join("ex1_deadlock.cu")).unwrap())
    );

    // A link to the second exercise at step 40 lands on the screen `view --steps 40` prints.
    let linked = format!("{url}#file=ex2_warps.cu&step=40");
    b.open(&linked);
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the linked page");
    let size = b.size();
    assert_eq!(b.eval("window.warpdbg.steps()"), json!(40));
    assert_eq!(b.screen(), view(&dir, "ex2_warps.cu", 40, size));
    assert_eq!(b.eval("document.getElementById('files').selectedOptions[0].textContent"), json!("ex2_warps.cu"));

    // Two steps on, the page's own link names the exercise and the step (not the source: it is unchanged).
    b.focus_screen();
    for _ in 0..2 {
        b.press("s", 'S' as u32);
    }
    b.wait_until("window.warpdbg.steps() === 42", "two steps");
    let link = b.eval("window.warpdbg.link()").as_str().unwrap().to_string();
    assert!(link.ends_with("#file=ex2_warps.cu&mode=0&step=42"), "{link}");
    b.open(&link);
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the page's own link");
    assert_eq!(b.screen(), view(&dir, "ex2_warps.cu", 42, size));
}

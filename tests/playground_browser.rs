//! The playground page (`warpdbg export --playground`, issue 20) in headless Chromium: the page opens from
//! `file://` with nothing fetched, starts the debugger (WebAssembly inlined) on `kernels/deadlock.cu`, and
//! keys pressed through the DevTools protocol (so the page's own handler runs) give the screens `warpdbg
//! view` prints at the same steps and size; a syntax error shows its diagnostic; the spin lock livelocks
//! in pre-Volta and completes in ITS; a link carries the source; a recording bundled in the page opens at
//! its end and goes on live. It also takes the README's screenshot (target/playground.png).
//!
//! The page's WebAssembly must be built first (`bash .ci/page`, which `.ci/test` runs).

mod browser;
mod session_support;

use base64::Engine;
use browser::{Browser, export_playground};
use serde_json::{Value, json};
use session_support::*;

/// `warpdbg view` of a kernel (from the repository's root) in a mode at a step and size.
fn view(kernel: &str, mode: &str, steps: &str, size: (u64, u64)) -> Vec<String> {
    browser::view(&repo(""), kernel, &["--mode", mode, "--steps", steps], size, &[])
}

/// The lines of a banner box (from its top border to its bottom one).
fn banner(lines: &[String]) -> Vec<String> {
    let start = lines.iter().position(|l| l.starts_with('┏')).expect("a banner");
    let end = lines[start..].iter().position(|l| l.starts_with('┗')).expect("its end") + start;
    lines[start..=end].to_vec()
}

#[test]
fn playground_runs_the_debugger_in_the_page() {
    let Some(wasm) = browser::playground_wasm() else { return };
    let dir = scratch("playground");
    let rec = dir.join("lesson.wdbg");
    let recorded = record_headless("kernels/deadlock.cu", &typical_inputs(), &rec);
    let end_steps = recorded.session.machine.steps;
    let page = dir.join("playground.html");
    export_playground(&repo(""), &page, &[rec.to_str().unwrap()], &wasm);

    // Self-contained, and under the 4 MB.
    let html = std::fs::read_to_string(&page).unwrap();
    for bad in ["http://", "https://", "<script src", "<link", "@import", "url(", "<img", "<iframe"] {
        assert!(!html.contains(bad), "the page refers to something outside it: `{bad}`");
    }
    assert!(html.len() < 4 << 20, "the page is {} bytes", html.len());

    let mut b = Browser::launch(&dir.join("profile"));
    let url = format!("file://{}", page.display());
    b.open(&url);
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the first screen");
    assert_eq!(b.eval("performance.getEntriesByType('resource').length"), json!(0), "nothing else loaded");
    let size = b.size();
    assert!(size.0 >= 80 && size.1 >= 24, "a usable screen: {size:?}");

    // The first file the export was given opens first: the recording, at its end.
    assert_eq!(b.eval("window.warpdbg.steps()"), json!(end_steps));
    // The deadlock kernel at step 0, as `warpdbg kernels/deadlock.cu` opens it.
    b.pick_in_mode("deadlock.cu", 0);
    assert_eq!(b.screen(), view("kernels/deadlock.cu", "its", "0", size));
    for _ in 0..3 {
        b.key("s");
    }
    assert_eq!(b.screen(), view("kernels/deadlock.cu", "its", "3", size), "three steps");
    b.key("m");
    assert!(b.screen()[0].contains("mode pre-Volta"), "{:#?}", b.screen());
    b.key("c");
    let (shown, expected) = (b.screen(), view("kernels/deadlock.cu", "pre-volta", "1e9", size));
    assert_eq!(shown[0], expected[0], "the same step count and outcome");
    assert_eq!(banner(&shown), banner(&expected), "the same HAZARD banner");
    assert!(banner(&shown)[0].contains("HAZARD"));

    // A syntax error: the diagnostic, with its line, the source line and a caret.
    b.eval(
        "(() => { const s = document.getElementById('source'); \
         s.value = s.value.replace('s[tid] = sum;', 's[tid] = sum'); \
         document.getElementById('run').click(); })()",
    );
    let diag = b.text_of("diag");
    assert!(diag.contains("error[E-syntax]: expected `;`, found `__syncthreads`"), "{diag}");
    assert!(diag.contains("deadlock.cu:27:21"), "{diag}");
    assert!(diag.contains("27 │         s[tid] = sum\n") && diag.contains("^ expected `;`"), "{diag}");

    // The spin lock: a livelock in pre-Volta, done in ITS.
    for (mode, name) in [(1, "pre-volta"), (2, "its")] {
        b.pick_in_mode("spin_lock.cu", mode);
        assert_eq!(b.text_of("diag"), "");
        b.key("c");
        let (shown, expected) = (b.screen(), view("kernels/spin_lock.cu", name, "1e9", size));
        assert_eq!(shown[0], expected[0], "{name}");
        let livelock = shown[0].contains("LIVELOCK");
        assert_eq!(livelock, name == "pre-volta", "{}", shown[0]);
    }

    // A long continue runs between frames, and the next key interrupts it (and then does what it does: `k`
    // only moves the cursor, so the screen still says where the run stopped).
    let long = "// @grid 4\n// @block 64\n// @arg out int[256] = 0\n\
                __global__ void sum(int *out) {\n    int acc = 0;\n    \
                for (int k = 0; k < 20000; k++) acc += k % 7;\n    out[blockIdx.x * 64 + threadIdx.x] = acc;\n}\n";
    b.eval(&format!(
        "(() => {{ document.getElementById('source').value = {}; document.getElementById('mode').value = '2'; \
         document.getElementById('run').click(); window.warpdbg.key('c'); window.warpdbg.key('k'); }})()",
        json!(long)
    ));
    let shown = b.screen();
    assert!(shown.iter().any(|l| l.contains("interrupted at step")), "{shown:#?}");
    assert!(shown[0].contains("paused"), "{}", shown[0]);
    b.key("c");
    assert!(b.screen()[0].contains("completed"), "{:#?}", b.screen());

    // The link carries the source: opened, it shows the same file.
    let link = b.eval("window.warpdbg.link()").as_str().unwrap().to_string();
    let src = long;
    let encoded = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(src.as_bytes());
    assert!(link.contains(&format!("&src={encoded}&mode=2")), "{link}");
    b.open(&link);
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the linked page");
    assert_eq!(b.eval("document.getElementById('source').value"), json!(src));
    assert_eq!(b.eval("document.getElementById('mode').value"), json!("2"));
    assert!(b.screen()[0].contains("sum<<<4, 64>>>"), "{:#?}", b.screen());

    // The bundled recording opens at its end and goes on live.
    b.open(&url);
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the page again");
    b.pick_in_mode("lesson.wdbg", 0);
    assert_eq!(b.eval("window.warpdbg.steps()"), json!(end_steps));
    // (It ended at the kernel's end: going on means going back.)
    b.key("S");
    assert_eq!(b.eval("window.warpdbg.steps()"), json!(end_steps - 1), "live after the recording");

    // The README's picture: the deadlock kernel after three steps.
    b.pick_in_mode("deadlock.cu", 0);
    for _ in 0..3 {
        b.key("s");
    }
    let shot: Value = b.call("Page.captureScreenshot", json!({"format": "png"}));
    let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
    std::fs::write(repo("target/playground.png"), png).unwrap();
}

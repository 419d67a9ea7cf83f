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

use std::process::Command;

use base64::Engine;
use browser::{Browser, page_wasm};
use serde_json::{Value, json};
use session_support::*;

const BIN: &str = env!("CARGO_BIN_EXE_warpdbg");

/// `warpdbg view` of a kernel at a step and size, as text lines.
fn view(kernel: &str, mode: &str, steps: &str, (cols, rows): (u64, u64)) -> Vec<String> {
    let out = Command::new(BIN)
        .current_dir(repo(""))
        .args(["view", kernel, "--mode", mode, "--steps", steps, "--size", &format!("{cols}x{rows}")])
        .output()
        .expect("run warpdbg view");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    norm(&String::from_utf8_lossy(&out.stdout))
}

/// A key as a user presses it (the screen has the focus); then the continue it may start runs to its stop.
fn key(b: &mut Browser, k: &str) {
    let code = k.chars().next().map_or(0, |c| c.to_ascii_uppercase() as u32);
    b.press(k, code);
    b.wait_until("!window.warpdbg.busy()", "a continue to stop");
}

fn screen(b: &mut Browser) -> Vec<String> {
    norm(b.eval("window.warpdbg.text()").as_str().expect("text"))
}

/// The lines of a banner box (from its top border to its bottom one).
fn banner(lines: &[String]) -> Vec<String> {
    let start = lines.iter().position(|l| l.starts_with('┏')).expect("a banner");
    let end = lines[start..].iter().position(|l| l.starts_with('┗')).expect("its end") + start;
    lines[start..=end].to_vec()
}

/// Picks a bundled file by name in the page's list (as choosing it in the menu does).
fn pick(b: &mut Browser, name: &str, mode: u32) {
    b.eval(&format!(
        "(() => {{ const s = document.getElementById('files'); \
         s.value = [...s.options].find(o => o.textContent === {}).value; \
         document.getElementById('mode').value = '{mode}'; s.dispatchEvent(new Event('change')); }})()",
        json!(name)
    ));
    b.eval("document.getElementById('screen').focus()");
}

#[test]
fn playground_runs_the_debugger_in_the_page() {
    if !browser::available() {
        return;
    }
    let Some(wasm) = page_wasm() else { return };
    let dir = scratch("playground");
    let rec = dir.join("lesson.wdbg");
    let recorded = record_headless("kernels/deadlock.cu", &typical_inputs(), &rec);
    let end_steps = recorded.session.machine.steps;
    let page = dir.join("playground.html");
    let out = Command::new(BIN)
        .current_dir(repo(""))
        .args(["export", "--playground", page.to_str().unwrap(), rec.to_str().unwrap()])
        .args(["--wasm", wasm.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

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
    let size: Vec<u64> = serde_json::from_value(b.eval("window.warpdbg.size()")).unwrap();
    let size = (size[0], size[1]);
    assert!(size.0 >= 80 && size.1 >= 24, "a usable screen: {size:?}");

    // The first file the export was given opens first: the recording, at its end.
    assert_eq!(b.eval("window.warpdbg.steps()"), json!(end_steps));
    // The deadlock kernel at step 0, as `warpdbg kernels/deadlock.cu` opens it.
    pick(&mut b, "deadlock.cu", 0);
    assert_eq!(screen(&mut b), view("kernels/deadlock.cu", "its", "0", size));
    for _ in 0..3 {
        key(&mut b, "s");
    }
    assert_eq!(screen(&mut b), view("kernels/deadlock.cu", "its", "3", size), "three steps");
    key(&mut b, "m");
    assert!(screen(&mut b)[0].contains("mode pre-Volta"), "{:#?}", screen(&mut b));
    key(&mut b, "c");
    let (shown, expected) = (screen(&mut b), view("kernels/deadlock.cu", "pre-volta", "1e9", size));
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
        pick(&mut b, "spin_lock.cu", mode);
        assert_eq!(b.text_of("diag"), "");
        key(&mut b, "c");
        let (shown, expected) = (screen(&mut b), view("kernels/spin_lock.cu", name, "1e9", size));
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
    let shown = screen(&mut b);
    assert!(shown.iter().any(|l| l.contains("interrupted at step")), "{shown:#?}");
    assert!(shown[0].contains("paused"), "{}", shown[0]);
    key(&mut b, "c");
    assert!(screen(&mut b)[0].contains("completed"), "{:#?}", screen(&mut b));

    // The link carries the source: opened, it shows the same file.
    let link = b.eval("window.warpdbg.link()").as_str().unwrap().to_string();
    let src = long;
    let encoded = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(src.as_bytes());
    assert!(link.contains(&format!("&src={encoded}&mode=2")), "{link}");
    b.open(&link);
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the linked page");
    assert_eq!(b.eval("document.getElementById('source').value"), json!(src));
    assert_eq!(b.eval("document.getElementById('mode').value"), json!("2"));
    assert!(screen(&mut b)[0].contains("sum<<<4, 64>>>"), "{:#?}", screen(&mut b));

    // The bundled recording opens at its end and goes on live.
    b.open(&url);
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the page again");
    pick(&mut b, "lesson.wdbg", 0);
    assert_eq!(b.eval("window.warpdbg.steps()"), json!(end_steps));
    // (It ended at the kernel's end: going on means going back.)
    key(&mut b, "S");
    assert_eq!(b.eval("window.warpdbg.steps()"), json!(end_steps - 1), "live after the recording");

    // The README's picture: the deadlock kernel after three steps.
    pick(&mut b, "deadlock.cu", 0);
    for _ in 0..3 {
        key(&mut b, "s");
    }
    let shot: Value = b.call("Page.captureScreenshot", json!({"format": "png"}));
    let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
    std::fs::write(repo("target/playground.png"), png).unwrap();
}

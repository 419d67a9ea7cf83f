//! The exported web page in a real browser (issue 7): headless Chromium opens `warpdbg export --html`, arrow
//! keys are pressed through the DevTools protocol (`Input.dispatchKeyEvent`, so the page's own key handler
//! runs), and the visible frame text is checked against the recording's frames. Also: the page is
//! self-contained (no network, no external scripts or styles).
//!
//! The DevTools protocol is spoken over `--remote-debugging-pipe` (NUL-separated JSON on file descriptors 3
//! and 4), so no websocket client or driver library is needed.

mod browser;
mod session_support;

use std::process::Command;

use browser::Browser;
use serde_json::json;
use session_support::*;

const BIN: &str = env!("CARGO_BIN_EXE_warpdbg");

#[test]
fn exported_page_shows_the_recorded_frames_as_arrow_keys_are_pressed() {
    if !browser::available() {
        return;
    }
    let dir = scratch("browser");
    let rec = dir.join("lesson.wdbg");
    record_headless("kernels/deadlock.cu", &typical_inputs(), &rec);
    let (html, txt) = (dir.join("lesson.html"), dir.join("lesson.txt"));
    let out = Command::new(BIN)
        .current_dir(repo(""))
        .args(["export", rec.to_str().unwrap(), "--html", html.to_str().unwrap(), "--text", txt.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let frames = split_text_frames(&std::fs::read_to_string(&txt).unwrap());
    let recording = warpdbg::tui::recording::Recording::load(&rec).unwrap();
    assert_eq!(frames.len(), recording.events.len() + 1, "a frame before the first event and after each");
    let note_frame = 1 + recording
        .events
        .iter()
        .position(|e| matches!(e.kind, warpdbg::tui::recording::EventKind::Note { .. }))
        .expect("a note");

    // Self-contained: nothing fetched from anywhere.
    let page = std::fs::read_to_string(&html).unwrap();
    for bad in ["http://", "https://", "<script src", "<link", "@import", "url(", "<img", "<iframe"] {
        assert!(!page.contains(bad), "the page refers to something outside it: `{bad}`");
    }

    let mut b = Browser::launch(&dir.join("profile"));
    let url = format!("file://{}", html.display());
    b.open(&url);
    // Nothing else was loaded: the page is the only resource.
    let resources = b.eval("performance.getEntriesByType('resource').length");
    assert_eq!(resources, json!(0), "the page loaded other resources");
    let n = frames.len();
    let check = |b: &mut Browser, i: usize| {
        let shown = b.text_of("screen");
        assert_eq!(norm(&shown), norm(&frames[i]), "the page should show frame {i}");
        assert_eq!(b.text_of("pos"), format!("frame {} / {n}", i + 1));
        assert_eq!(b.eval("document.getElementById('slider').value"), json!(i.to_string()));
        let note = b.text_of("note");
        if i >= note_frame {
            assert_eq!(note, "note: the even threads wait here", "frame {i}");
        } else {
            assert_eq!(note, "", "no note before it was made (frame {i})");
        }
    };
    check(&mut b, 0);
    // Left at the first frame stays there.
    b.press("ArrowLeft", 37);
    check(&mut b, 0);
    let mut at = 0;
    for _ in 0..note_frame + 2 {
        b.press("ArrowRight", 39);
        at += 1;
        check(&mut b, at);
    }
    for _ in 0..3 {
        b.press("ArrowLeft", 37);
        at -= 1;
        check(&mut b, at);
    }
    b.press("End", 35);
    check(&mut b, n - 1);
    assert!(b.text_of("label").starts_with("end (step"), "{}", b.text_of("label"));
    // Right at the last frame stays there.
    b.press("ArrowRight", 39);
    check(&mut b, n - 1);
    b.press("Home", 36);
    check(&mut b, 0);
    assert_eq!(b.text_of("label"), "start");
}

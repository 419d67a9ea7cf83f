//! The exported web page in a real browser (issue 7): headless Chromium opens `warpdbg export --html`, arrow
//! keys are pressed through the DevTools protocol (`Input.dispatchKeyEvent`, so the page's own key handler
//! runs), and the visible frame text is checked against the recording's frames. Also: the page is
//! self-contained (no network, no external scripts or styles).
//!
//! The DevTools protocol is spoken over `--remote-debugging-pipe` (NUL-separated JSON on file descriptors 3
//! and 4), so no websocket client or driver library is needed.

mod session_support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use session_support::*;

const BIN: &str = env!("CARGO_BIN_EXE_warpdbg");
const CHROMIUM: &str = "/usr/bin/chromium";

/// Headless Chromium driven over its DevTools pipe; killed on drop.
struct Browser {
    child: Child,
    to: ChildStdin,
    from: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
}

impl Browser {
    fn launch(profile: &Path) -> Browser {
        // Chromium reads commands on fd 3 and writes replies on fd 4: give it our pipes there.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null"#)
            .arg(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromium");
        let to = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, from) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(out);
            loop {
                let mut buf = vec![];
                match r.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        buf.pop();
                        if let Ok(v) = serde_json::from_slice::<Value>(&buf)
                            && tx.send(v).is_err()
                        {
                            return;
                        }
                    }
                }
            }
        });
        Browser { child, to, from, next_id: 0, session: None }
    }

    /// Sends a command (to the attached page once there is one) and waits for its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = &self.session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.to.write_all(&bytes).and_then(|_| self.to.flush()).expect("write to chromium");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.from.recv_timeout(left).unwrap_or_else(|_| panic!("no answer from chromium to {method}"));
            if v["id"] == json!(id) {
                assert!(v.get("error").is_none(), "{method} failed: {}", v["error"]);
                return v["result"].clone();
            }
        }
    }

    fn open(&mut self, url: &str) {
        let target = self.call("Target.createTarget", json!({"url": url}));
        let id = target["targetId"].as_str().expect("a target id").to_string();
        let attached = self.call("Target.attachToTarget", json!({"targetId": id, "flatten": true}));
        self.session = Some(attached["sessionId"].as_str().expect("a session id").to_string());
        let start = Instant::now();
        let ready = format!("location.href === {} && document.readyState === 'complete'", json!(url));
        while self.eval(&ready) != json!(true) {
            assert!(start.elapsed() < Duration::from_secs(30), "the page did not load");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call("Runtime.evaluate", json!({"expression": expr, "returnByValue": true}));
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {}", r["exceptionDetails"]);
        r["result"]["value"].clone()
    }

    fn text_of(&mut self, id: &str) -> String {
        self.eval(&format!("document.getElementById('{id}').innerText")).as_str().unwrap_or_default().to_string()
    }

    /// Presses and releases a key as a user would (the page's keydown handler sees it).
    fn press(&mut self, key: &str, code: u32) {
        for ty in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": ty, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}),
            );
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn exported_page_shows_the_recorded_frames_as_arrow_keys_are_pressed() {
    if !Path::new(CHROMIUM).exists() {
        let msg = format!("{CHROMIUM} is not installed (`.ci/test` installs Debian's chromium package)");
        if std::env::var_os("CI").is_some() {
            panic!("{msg}; CI is set, so this test must not be skipped");
        }
        eprintln!("SKIPPED: {msg}");
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
    let recording = warpdbg::debug::recording::Recording::load(&rec).unwrap();
    assert_eq!(frames.len(), recording.events.len() + 1, "a frame before the first event and after each");
    let note_frame = 1 + recording
        .events
        .iter()
        .position(|e| matches!(e.kind, warpdbg::debug::recording::EventKind::Note { .. }))
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

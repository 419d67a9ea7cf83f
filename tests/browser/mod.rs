//! Headless Chromium driven over the DevTools protocol, for the tests of the web pages (`export --html`,
//! `export --playground`). The protocol is spoken over `--remote-debugging-pipe` (NUL-separated JSON on file
//! descriptors 3 and 4), so no websocket client or driver library is needed.
#![allow(dead_code)] // each test binary uses a different subset

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::session_support::norm;

pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Whether Chromium is installed; without it the browser tests skip, except under CI (`.ci/test` installs
/// it), where a skip would hide a failure.
pub fn available() -> bool {
    if Path::new(CHROMIUM).exists() {
        return true;
    }
    let msg = format!("{CHROMIUM} is not installed (`.ci/test` installs Debian's chromium package)");
    if std::env::var_os("CI").is_some() {
        panic!("{msg}; CI is set, so this test must not be skipped");
    }
    eprintln!("SKIPPED: {msg}");
    false
}

/// The playground's WebAssembly, which `bash .ci/page` builds; None (the test skips) when it is missing,
/// except under CI.
pub fn page_wasm() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wasm32-unknown-unknown/web/warpdbg.wasm");
    if p.is_file() {
        return Some(p);
    }
    let msg = format!("{} is missing: run `bash .ci/page` first", p.display());
    assert!(std::env::var_os("CI").is_none(), "{msg}; CI is set, so this test must not be skipped");
    eprintln!("SKIPPED: {msg}");
    None
}

/// What a playground test needs before it starts: Chromium ([`available`]) and the page's WebAssembly
/// ([`page_wasm`]); None (the test skips, each says why) when either is missing.
pub fn playground_wasm() -> Option<PathBuf> {
    if !available() {
        return None;
    }
    page_wasm()
}

/// Headless Chromium driven over its DevTools pipe; killed on drop.
pub struct Browser {
    child: Child,
    to: ChildStdin,
    from: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
}

impl Browser {
    pub fn launch(profile: &Path) -> Browser {
        // Chromium reads commands on fd 3 and writes replies on fd 4: give it our pipes there.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null"#)
            .arg(CHROMIUM)
            .args([
                "--headless",
                "--window-size=1600,1000",
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
    pub fn call(&mut self, method: &str, params: Value) -> Value {
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

    pub fn open(&mut self, url: &str) {
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

    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.call("Runtime.evaluate", json!({"expression": expr, "returnByValue": true}));
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {}", r["exceptionDetails"]);
        r["result"]["value"].clone()
    }

    pub fn text_of(&mut self, id: &str) -> String {
        self.eval(&format!("document.getElementById('{id}').innerText")).as_str().unwrap_or_default().to_string()
    }

    /// Waits (up to a minute) until the page's `expr` is true.
    pub fn wait_until(&mut self, expr: &str, what: &str) {
        let start = Instant::now();
        while self.eval(expr) != json!(true) {
            assert!(start.elapsed() < Duration::from_secs(60), "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Presses and releases a key as a user would (the page's keydown handler sees it).
    pub fn press(&mut self, key: &str, code: u32) {
        for ty in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": ty, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}),
            );
        }
    }
}

/// The playground's screen, its size and its keys: what every playground test reads and presses.
impl Browser {
    /// The debugger's screen as the page draws it, as text.
    pub fn screen_text(&mut self) -> String {
        self.eval("window.warpdbg.text()").as_str().expect("the screen's text").to_string()
    }

    /// The debugger's screen as normalised lines (as [`norm`] makes the terminal's).
    pub fn screen(&mut self) -> Vec<String> {
        norm(&self.screen_text())
    }

    /// The screen's size in cells (columns, rows).
    pub fn size(&mut self) -> (u64, u64) {
        let size: Vec<u64> = serde_json::from_value(self.eval("window.warpdbg.size()")).expect("a size");
        (size[0], size[1])
    }

    /// Gives the screen the keyboard focus (the page's keys go to the debugger).
    pub fn focus_screen(&mut self) {
        self.eval("document.getElementById('screen').focus()");
    }

    /// A key as a user presses it (the screen has the focus); then waits until what it started (a continue,
    /// or the program worker's answer) has stopped.
    pub fn key(&mut self, k: &str) {
        self.press(k, key_code(k));
        self.wait_until("!window.warpdbg.busy()", &format!("the answer to `{k}`"));
    }

    /// Types `text` into the prompt a key opened, one key a character.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.key(&c.to_string());
        }
    }

    /// Picks a bundled file by name in the page's list, as choosing it in the menu does, and gives the screen
    /// the focus.
    pub fn pick(&mut self, name: &str) {
        self.eval(&format!(
            "(() => {{ const s = document.getElementById('files'); \
             s.value = [...s.options].find(o => o.textContent === {}).value; \
             s.dispatchEvent(new Event('change')); }})()",
            json!(name)
        ));
        self.focus_screen();
    }

    /// [`Browser::pick`] in a scheduling mode (the menu's value: 0 auto, 1 pre-Volta, 2 ITS).
    pub fn pick_in_mode(&mut self, name: &str, mode: u32) {
        self.eval(&format!("document.getElementById('mode').value = '{mode}'"));
        self.pick(name);
    }
}

/// The virtual key code Chromium gives a key: the named keys' own, else the upper-case letter's (as a US
/// keyboard's).
pub fn key_code(k: &str) -> u32 {
    match k {
        "Enter" => 13,
        "Tab" => 9,
        "Escape" => 27,
        "End" => 35,
        "Home" => 36,
        "ArrowLeft" => 37,
        "ArrowUp" => 38,
        "ArrowRight" => 39,
        "ArrowDown" => 40,
        _ => k.chars().next().map_or(0, |c| c.to_ascii_uppercase() as u32),
    }
}

/// `warpdbg export --playground PAGE ARGS... --wasm WASM`, run in `cwd` (so files are named as given).
pub fn export_playground(cwd: &Path, page: &Path, args: &[&str], wasm: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_warpdbg"))
        .current_dir(cwd)
        .args(["export", "--playground", page.to_str().expect("a UTF-8 path")])
        .args(args)
        .args(["--wasm", wasm.to_str().expect("a UTF-8 path")])
        .output()
        .expect("run warpdbg export");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `warpdbg view FILE OPTIONS... --size COLSxROWS [-- ARGS...]` run in `cwd`: the terminal's screen for a
/// page's, as normalised lines. `args` (the program's argv) are passed after `--` when there are any.
pub fn view(cwd: &Path, file: &str, options: &[&str], (cols, rows): (u64, u64), args: &[&str]) -> Vec<String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpdbg"));
    cmd.current_dir(cwd).arg("view").arg(file).args(options).args(["--size", &format!("{cols}x{rows}")]);
    if !args.is_empty() {
        cmd.arg("--").args(args);
    }
    let out = cmd.output().expect("run warpdbg view");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    norm(&String::from_utf8_lossy(&out.stdout))
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

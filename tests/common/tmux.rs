//! The real binary in a real terminal: a tmux server of its own (a unique socket) with one window, driven with
//! send-keys and read back with capture-pane. Shared by the end-to-end tests.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The window every test drives.
const TARGET: &str = "t";

/// A tmux server running one window; killed when dropped.
pub struct Tmux {
    socket: String,
    /// Read screens with wrapped lines joined (see [`Tmux::joined`]).
    joined: bool,
}

impl Tmux {
    /// Starts `argv` in a `cols` x `rows` window, in `cwd`, with colours allowed and a UTF-8 locale. With
    /// `keep`, the pane (and its last screen) stays after the program exits or is killed. None when tmux is
    /// missing outside CI (the caller skips); in CI (`CI` set) a missing tmux is a failure.
    pub fn start(cwd: &Path, cols: u16, rows: u16, argv: &[&str], keep: bool) -> Option<Tmux> {
        if !Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success()) {
            if std::env::var_os("CI").is_some() {
                panic!("tmux is not installed: the end-to-end tests need it (`.ci/test` installs it)");
            }
            eprintln!("note: tmux is not installed; skipping an end-to-end test (it fails when CI is set)");
            return None;
        }
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let t = Tmux { socket: format!("warpdbg-test-{}-{n}-{nanos}", std::process::id()), joined: false };
        let (cols, rows) = (cols.to_string(), rows.to_string());
        let mut args = vec!["new-session", "-d", "-s", TARGET, "-x", &cols, "-y", &rows, "-c"];
        let cwd = cwd.to_string_lossy();
        args.push(&cwd);
        args.extend_from_slice(argv);
        if keep {
            args.extend_from_slice(&[";", "set-option", "-t", TARGET, "remain-on-exit", "on"]);
        }
        let out = Command::new("tmux")
            .args(["-L", &t.socket, "-f", "/dev/null"])
            .args(&args)
            .env("LANG", "C.UTF-8")
            .env_remove("NO_COLOR")
            .output()
            .expect("tmux runs");
        assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));
        Some(t)
    }

    /// A plain bash with `prompt` as its prompt, waiting at it.
    pub fn shell(cwd: &Path, cols: u16, rows: u16, prompt: &str) -> Option<Tmux> {
        let bash = format!("env -u NO_COLOR PS1='{prompt} ' TERM=xterm-256color bash --norc --noprofile");
        let t = Tmux::start(cwd, cols, rows, &[&bash], false)?;
        t.wait_for(prompt);
        Some(t)
    }

    pub fn cmd(&self, args: &[&str]) -> Output {
        Command::new("tmux").args(["-L", &self.socket, "-f", "/dev/null"]).args(args).output().expect("tmux runs")
    }

    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.cmd(args);
        assert!(out.status.success(), "tmux {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// From now on, [`Tmux::screen`] joins wrapped lines (for long shell output and banners).
    pub fn joined(mut self) -> Self {
        self.joined = true;
        self
    }

    /// The visible screen, a line per row (or per line, wrapped rows joined, once [`Tmux::joined`]).
    pub fn screen(&self) -> String {
        if self.joined { self.screen_joined() } else { self.ok(&["capture-pane", "-p", "-t", TARGET]) }
    }

    /// The visible screen with wrapped lines joined (for shell output longer than a row).
    pub fn screen_joined(&self) -> String {
        self.ok(&["capture-pane", "-p", "-J", "-t", TARGET])
    }

    /// A tmux format variable of the pane (`alternate_on`, `mouse_any_flag`, `cursor_flag`, `pane_pid`, ...).
    pub fn var(&self, name: &str) -> String {
        self.ok(&["display-message", "-p", "-t", TARGET, &format!("#{{{name}}}")]).trim().to_string()
    }

    pub fn pane_pid(&self) -> u32 {
        self.var("pane_pid").parse().expect("a pane pid")
    }

    pub fn pane_dead(&self) -> bool {
        self.var("pane_dead") == "1"
    }

    /// Keys as tmux names them (`s`, `Escape`, `Enter`, `?`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", TARGET];
        args.extend_from_slice(keys);
        self.ok(&args);
    }

    /// Text typed literally.
    pub fn type_text(&self, text: &str) {
        self.ok(&["send-keys", "-t", TARGET, "-l", text]);
    }

    /// Polls `read` until `pred` holds and the screen is settled (the same on the next poll, so a frame is not
    /// read half drawn); 30 s at most. Returns it.
    pub fn wait_on(&self, read: impl Fn(&Tmux) -> String, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        let mut last = String::new();
        loop {
            let s = read(self);
            if pred(&s) && s == last {
                return s;
            }
            last = s;
            if start.elapsed() > Duration::from_secs(30) {
                panic!("timed out waiting for {what}; the screen:\n{last}");
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// [`Tmux::wait_on`] the visible screen.
    pub fn wait(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        self.wait_on(Tmux::screen, what, pred)
    }

    pub fn wait_for(&self, needle: &str) -> String {
        self.wait(&format!("`{needle}`"), |s| s.contains(needle))
    }

    /// Polls the screen until `needle` shows, settled or not: a progress line that changes with every frame
    /// while a run goes on (`(any key interrupts)`, `going back to step N... at step M`) may never stay the
    /// same between two polls of a loaded machine. 30 s at most. Returns the screen it showed on.
    pub fn glimpse(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(needle) {
                return s;
            }
            if start.elapsed() > Duration::from_secs(30) {
                panic!("timed out waiting for a glimpse of `{needle}`; the screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

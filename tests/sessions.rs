//! Time travel, recorded sessions, replay and text export (issue 7).
//!
//! - a session recorded through the real binary in tmux replays headlessly to the very screens that were shown;
//! - stepping back N then forward N restores the machine exactly (property test over `kernels/`, both modes);
//! - a recorder killed with SIGKILL leaves a file that loads and replays up to its last flushed action;
//! - truncated, corrupted, wrong-version and hand-edited files give `file:line: what`, exit 2, and stay unchanged;
//! - a recording whose checksums no longer match replays with a visible warning.

mod common;
mod session_support;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::tmux::Tmux;
use proptest::prelude::*;
use session_support::*;
use warpdbg::debug::checksum::state_check;
use warpdbg::debug::session::Session;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::Config;
use warpdbg::tui::export::frame_text;
use warpdbg::tui::keymap::Keymap;
use warpdbg::tui::recording::{EventKind, Recording};
use warpdbg::tui::replay;

const BIN: &str = env!("CARGO_BIN_EXE_warpdbg");

// ---------------------------------------------------------------------------------------------------------
// tmux driver

/// The step count in the title line (` ... step 380 ...`).
fn shown_step(screen: &str) -> Option<u64> {
    let title = screen.lines().next()?;
    let i = title.find(" step ")?;
    title[i + 6..].split_whitespace().next()?.parse().ok()
}

/// Events in a recording file so far (lines after the header).
fn events_on_disk(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().skip(1).filter(|l| !l.trim().is_empty()).count())
}

/// Waits until the file holds at least `n` events (they are flushed as they happen).
fn wait_events(path: &Path, n: usize) -> usize {
    let start = Instant::now();
    loop {
        let k = events_on_disk(path);
        if k >= n {
            return k;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{} holds {k} events, expected {n}", path.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The real binary recording `kernel` into `<scratch dir>/<file>` inside tmux; None when tmux is missing.
fn record_in_tmux(dir: &str, file: &str, kernel: &str) -> Option<(PathBuf, Tmux)> {
    if !require_tool("tmux", "-V") {
        return None;
    }
    let file = scratch(dir).join(file);
    let argv = [BIN, kernel, "--record", file.to_str().unwrap()];
    let t = Tmux::start(&repo(""), 120, 40, &argv, true).expect("tmux is here");
    Some((file, t))
}

fn title_has(screen: &str, text: &str) -> bool {
    screen.lines().next().is_some_and(|l| l.contains(text))
}

// ---------------------------------------------------------------------------------------------------------
// record through the real binary, replay headlessly

#[test]
fn tmux_recording_replays_to_the_screens_that_were_shown() {
    let Some((file, t)) = record_in_tmux("tmux-record", "lesson.wdbg", "kernels/deadlock.cu") else { return };
    let dir = file.parent().expect("the recording is in its scratch directory").to_path_buf();
    // (screen as shown, events on disk when it was shown)
    let mut shown: Vec<(String, usize)> = vec![];
    let snap = |shown: &mut Vec<(String, usize)>, t: &Tmux, what: &str, pred: &dyn Fn(&str) -> bool| {
        let s = t.wait(what, pred);
        // Let the event loop drain what this screen's action queued, then count.
        std::thread::sleep(Duration::from_millis(250));
        let s2 = t.wait(what, pred);
        assert_eq!(s, s2, "screen changed while idle");
        shown.push((s2, events_on_disk(&file)));
    };
    snap(&mut shown, &t, "the debugger at step 0", &|s| title_has(s, "step 0") && s.contains("Source"));
    for n in 1..=3 {
        t.keys(&["s"]);
        snap(&mut shown, &t, &format!("step {n}"), &|s| shown_step(s) == Some(n));
    }
    t.keys(&["S"]);
    snap(&mut shown, &t, "back to step 2", &|s| shown_step(s) == Some(2) && s.contains("back to step 2"));
    // Cursor to line 28 (the even threads' __syncthreads) and a breakpoint there.
    t.keys(&["Home"]);
    for _ in 0..27 {
        t.keys(&["j"]);
    }
    t.keys(&["b"]);
    snap(&mut shown, &t, "the breakpoint", &|s| s.contains("breakpoint set at line 28"));
    t.keys(&["c"]);
    snap(&mut shown, &t, "the breakpoint hit", &|s| s.contains("breakpoint at line 28"));
    let at_break = shown_step(&shown.last().unwrap().0).unwrap();
    assert!(at_break > 2, "continue ran to the breakpoint (step {at_break})");
    t.keys(&["a"]);
    t.wait("the note prompt", |s| s.contains("note:"));
    t.type_text("watch the even lanes");
    t.keys(&["Enter"]);
    snap(&mut shown, &t, "the note", &|s| {
        s.contains("watch the even lanes") && !s.contains("note: watch the even lanes_")
    });
    t.keys(&["m"]);
    snap(&mut shown, &t, "pre-Volta mode", &|s| title_has(s, "pre-Volta") && shown_step(s) == Some(at_break));
    t.keys(&["c"]);
    snap(&mut shown, &t, "the end of the run", &|s| title_has(s, "completed"));
    let before_quit = events_on_disk(&file);
    t.keys(&["q"]);
    wait_events(&file, before_quit + 2); // Quit and End
    let start = Instant::now();
    while !t.pane_dead() {
        assert!(start.elapsed() < Duration::from_secs(10), "warpdbg did not exit after q");
        std::thread::sleep(Duration::from_millis(50));
    }

    let rec = Recording::load(&file).expect("the recording loads");
    assert!(!rec.truncated);
    assert_eq!(rec.header.source, std::fs::read_to_string(repo("kernels/deadlock.cu")).unwrap());
    assert_eq!(rec.header.size, (120, 40), "the header has the terminal's size");
    let names: Vec<String> = rec
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Action { name, .. } => Some(name.clone()),
            EventKind::Note { text } => Some(format!("note {text}")),
            _ => None,
        })
        .filter(|n| n != "Down")
        .collect();
    assert_eq!(
        names,
        [
            "Step",
            "Step",
            "Step",
            "StepBack",
            "Top",
            "ToggleBreakpoint",
            "Continue",
            "note watch the even lanes",
            "SwitchMode",
            "Continue",
            "Quit"
        ]
    );
    let EventKind::End { steps, .. } = &rec.end().expect("an end event").kind else { unreachable!() };
    assert_eq!(Some(*steps), shown_step(&shown.last().unwrap().0));

    // Re-execute: every stored step count and checksum matches, with no warning.
    let mut app = replay::start_app(&rec, Keymap::default_map(), None).unwrap();
    for (i, e) in rec.events.iter().enumerate() {
        assert_eq!(replay::apply_event(&mut app, e, i), None, "event {i} {e:?} replays as recorded");
        if let EventKind::Action { steps, check, .. } = &e.kind {
            assert_eq!(app.session.machine.steps, *steps, "event {i}");
            assert_eq!(&state_check(&app.session.machine), check, "event {i}");
        }
    }
    assert!(app.replay_warning.is_none());

    // Each screen shown in tmux is the replayed frame after the same number of events.
    let frames = replay::frames(&rec, None).unwrap();
    for (k, (screen, n)) in shown.iter().enumerate() {
        let frame = frame_text(&frames[*n].2);
        assert_eq!(norm(&frame), norm(screen), "screen {k} (after {n} events) differs from its replayed frame");
    }

    // And `warpdbg export --text` writes those same frames.
    let txt = dir.join("lesson.txt");
    let out = Command::new(BIN)
        .current_dir(repo(""))
        .args(["export", file.to_str().unwrap(), "--text", txt.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let exported = split_text_frames(&std::fs::read_to_string(&txt).unwrap());
    assert_eq!(exported.len(), frames.len());
    for (screen, n) in &shown {
        assert_eq!(norm(&exported[*n]), norm(screen));
    }
}

// ---------------------------------------------------------------------------------------------------------
// kill -9 mid-recording

#[test]
fn sigkill_mid_recording_leaves_a_loadable_file() {
    let Some((file, t)) = record_in_tmux("tmux-kill", "killed.wdbg", "kernels/loop_divergence.cu") else { return };
    let dir = file.parent().expect("the recording is in its scratch directory").to_path_buf();
    t.wait("the debugger", |s| title_has(s, "step 0"));
    for n in 1..=5u64 {
        t.keys(&["s"]);
        t.wait(&format!("step {n}"), |s| shown_step(s) == Some(n));
    }
    t.keys(&["a"]);
    t.wait("the note prompt", |s| s.contains("note:"));
    t.type_text("before the crash");
    t.keys(&["Enter"]);
    t.wait("the note", |s| s.contains("before the crash"));
    t.keys(&["S"]);
    t.wait("step 4", |s| shown_step(s) == Some(4));
    // Resize + 5 steps + note + step back.
    wait_events(&file, 8);
    let pid = t.pane_pid();
    let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
    assert_eq!(comm.trim(), "warpdbg", "the pane runs warpdbg itself (pid {pid})");
    let st = Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
    assert!(st.success());
    let start = Instant::now();
    while !t.pane_dead() {
        assert!(start.elapsed() < Duration::from_secs(10), "warpdbg survived SIGKILL");
        std::thread::sleep(Duration::from_millis(50));
    }
    let bytes_before = std::fs::read(&file).unwrap();

    let rec = Recording::load(&file).expect("a killed recording loads");
    assert!(rec.end().is_none(), "no end event: the recorder was killed");
    assert_eq!(rec.events.len(), 8, "{:#?}", rec.events);
    let last = rec.events.last().unwrap();
    assert!(matches!(&last.kind, EventKind::Action { name, steps: 4, .. } if name == "StepBack"), "{last:?}");
    let frames = replay::frames(&rec, None).unwrap();
    assert_eq!(frames.len(), 9);
    let final_text = frame_text(&frames.last().unwrap().2);
    assert_eq!(shown_step(&final_text), Some(4), "{final_text}");
    assert!(final_text.contains("before the crash"), "the note is on the replayed frame");

    // The binary exports it too, with a warning that it has no end, and leaves it alone.
    let txt = dir.join("killed.txt");
    let out = Command::new(BIN)
        .current_dir(repo(""))
        .args(["export", file.to_str().unwrap(), "--text", txt.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no end"));
    assert_eq!(split_text_frames(&std::fs::read_to_string(&txt).unwrap()).len(), 9);
    assert_eq!(std::fs::read(&file).unwrap(), bytes_before);

    // A kill in the middle of writing a line leaves a torn last line: ignored, the rest replays.
    let torn = dir.join("torn.wdbg");
    let mut bytes = bytes_before.clone();
    bytes.extend_from_slice(br#"{"t":99999,"action":{"name":"St"#);
    std::fs::write(&torn, &bytes).unwrap();
    let rec2 = Recording::load(&torn).expect("a torn last line is tolerated");
    assert!(rec2.truncated);
    assert_eq!(rec2.events, rec.events);
    assert_eq!(std::fs::read(&torn).unwrap(), bytes, "loading never modifies the file");
}

// ---------------------------------------------------------------------------------------------------------
// step back N, forward N

/// Everything observable about where a session is: memory, every block's registers, shared memory and warps
/// (lane PCs, masks, SIMT stacks), counters, hazards, output, outcome, and the session's last issue.
fn digest(s: &Session) -> u64 {
    let m = &s.machine;
    let mut h = DefaultHasher::new();
    m.steps.hash(&mut h);
    format!("{:?}", m.outcome()).hash(&mut h);
    for a in &m.global.allocs {
        a.name.hash(&mut h);
        a.data.hash(&mut h);
    }
    for b in &m.blocks {
        b.linear.hash(&mut h);
        b.regs.hash(&mut h);
        b.shared.hash(&mut h);
        format!("{:?}", b.warps).hash(&mut h);
    }
    format!("{:?} {:?} {:?}", m.metrics, m.hazards, m.output).hash(&mut h);
    format!("{:?}", s.last_issue).hash(&mut h);
    state_check(m).hash(&mut h);
    h.finish()
}

fn kernel_files() -> Vec<String> {
    common::cu_files(&["kernels"])
}

fn session_for(file: &str, mode: Mode) -> Session {
    let bytes = std::fs::read(repo(file)).unwrap();
    let o = Overrides { mode: Some(mode), ..Default::default() };
    let compiled = warpdbg::compile::compile(file, &bytes, &o).unwrap_or_else(|e| panic!("{file}: {e}"));
    Session::new(compiled, Config::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn step_back_n_then_forward_n_restores_the_state(
        k in 0usize..10, pre_volta in any::<bool>(), at in 0u64..6000, back in 0u64..4000, by_steps in any::<bool>()
    ) {
        let files = kernel_files();
        let file = &files[k % files.len()];
        let mode = if pre_volta { Mode::PreVolta } else { Mode::Its };
        let mut s = session_for(file, mode);
        s.run_to(at);
        let here = s.machine.steps; // less than `at` when the kernel stops first
        let d0 = digest(&s);
        let n = back.min(here);
        s.step_back(n);
        prop_assert_eq!(s.machine.steps, here - n);
        // Going back lands where a fresh run to that step is.
        let mut fresh = session_for(file, mode);
        fresh.run_to(here - n);
        prop_assert_eq!(digest(&s), digest(&fresh), "{} {:?}: back {} from {}", file, mode, n, here);
        if by_steps {
            for _ in 0..n {
                s.step_instruction();
            }
        } else {
            s.goto(here);
        }
        prop_assert_eq!(s.machine.steps, here);
        prop_assert_eq!(digest(&s), d0, "{} {:?}: back {} then forward from {}", file, mode, n, here);
    }
}

/// Going back from the end of a run (the machine has its outcome) and forward again gives the outcome back.
#[test]
fn back_and_forward_from_a_deadlock_keeps_the_outcome() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let mut s = session_for("kernels/deadlock.cu", mode);
        let o = s.run_to(u64::MAX).expect("deadlock.cu stops");
        // ITS deadlocks; pre-Volta counts whole warps at a barrier and completes.
        assert_eq!(o.name(), if mode == Mode::Its { "deadlock" } else { "completed" });
        let end = s.machine.steps;
        let d0 = digest(&s);
        s.step_back(10);
        assert!(s.machine.outcome().is_none());
        s.goto(end);
        assert_eq!(digest(&s), d0, "{mode:?}: back 10 and forward to the deadlock");
        s.step_back(1);
        s.step_instruction();
        assert_eq!(digest(&s), d0, "{mode:?}: back 1 and one step to the deadlock");
    }
}

/// Many snapshots and a long way back: the interval is respected and memory stays within the budget.
#[test]
fn history_stays_within_its_budget_on_a_long_run() {
    let mut s = session_for("kernels/vec_add.cu", Mode::Its);
    s.history = warpdbg::debug::history::History::new(s.history.before(0).1, s.machine.approx_bytes(), 8 << 20);
    s.run_to(u64::MAX);
    let end = s.machine.steps;
    assert!(s.history.bytes() <= 8 << 20, "{} bytes", s.history.bytes());
    let d0 = digest(&s);
    s.goto(end / 3);
    let mut fresh = session_for("kernels/vec_add.cu", Mode::Its);
    fresh.run_to(end / 3);
    assert_eq!(digest(&s), digest(&fresh));
    s.goto(end);
    assert_eq!(digest(&s), d0);
}

// ---------------------------------------------------------------------------------------------------------
// bad input

/// Runs `warpdbg ARGS` and returns (exit code, stderr).
fn warpdbg(args: &[&str]) -> (i32, String) {
    let out = Command::new(BIN).current_dir(repo("")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn good_recording(dir: &Path) -> PathBuf {
    let path = dir.join("good.wdbg");
    record_headless("kernels/deadlock.cu", &typical_inputs(), &path);
    path
}

/// Writes a bad variant, runs export and replay on it, checks `file:LINE: <what>`, exit 2 and no change.
fn assert_rejected(dir: &Path, name: &str, bytes: &[u8], line: usize, what: &str) {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    let loc = format!("{}:{line}: ", p.display());
    let err = Recording::load(&p).expect_err(name).to_string();
    assert!(err.starts_with(&loc) && err.contains(what), "{name}: `{err}` should be `{loc}...{what}...`");
    assert_cli_rejects(dir, name, bytes, line, what);
}

/// `export` and `replay` on the file: `file:LINE: ...what...`, exit 2, no output written, the file untouched.
fn assert_cli_rejects(dir: &Path, name: &str, bytes: &[u8], line: usize, what: &str) {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    let modified = std::fs::metadata(&p).unwrap().modified().unwrap();
    let loc = format!("{}:{line}: ", p.display());
    let html = dir.join(format!("{name}.html"));
    for args in
        [vec!["export", p.to_str().unwrap(), "--html", html.to_str().unwrap()], vec!["replay", p.to_str().unwrap()]]
    {
        let (code, stderr) = warpdbg(&args);
        assert_eq!(code, 2, "{name}: {args:?} exits 2; stderr: {stderr}");
        assert!(stderr.contains(&loc) && stderr.contains(what), "{name}: {args:?} said: {stderr}");
    }
    assert!(!html.exists(), "{name}: no export written");
    assert_eq!(std::fs::read(&p).unwrap(), bytes, "{name}: the file is unchanged");
    assert_eq!(std::fs::metadata(&p).unwrap().modified().unwrap(), modified, "{name}: not even touched");
}

fn lines_of(bytes: &[u8]) -> Vec<String> {
    String::from_utf8(bytes.to_vec()).unwrap().lines().map(String::from).collect()
}

fn join(lines: &[String]) -> Vec<u8> {
    let mut s = lines.join("\n");
    s.push('\n');
    s.into_bytes()
}

#[test]
fn bad_session_files_are_rejected_with_their_position_and_left_unchanged() {
    let dir = scratch("bad-input");
    let good_path = good_recording(&dir);
    let good = std::fs::read(&good_path).unwrap();
    let lines = lines_of(&good);
    assert!(lines.len() > 10);
    // The good one loads and exports.
    let (code, stderr) =
        warpdbg(&["export", good_path.to_str().unwrap(), "--text", dir.join("g.txt").to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");

    // Truncated: empty, cut inside the header, cut after the header's first bytes.
    assert_rejected(&dir, "empty.wdbg", b"", 1, "empty file");
    assert_rejected(&dir, "cut-header.wdbg", &good[..lines[0].len() / 2], 1, "not a warpdbg session header");
    // Cut in the middle of an event that is followed by more lines (not a crash: lines came after it).
    let mut cut = lines.clone();
    cut[3] = cut[3][..cut[3].len() / 2].to_string();
    assert_rejected(&dir, "cut-middle.wdbg", &join(&cut), 4, "bad event");

    // Corrupted: a byte flipped in an event, bytes that are not UTF-8, a line of garbage.
    let mut flipped = lines.clone();
    flipped[5] = flipped[5].replacen(':', ";", 1);
    assert_rejected(&dir, "flipped.wdbg", &join(&flipped), 6, "bad event");
    let mut not_utf8 = good.clone();
    let at = lines[0].len() + 1 + lines[1].len() + 1 + 3; // inside line 3
    not_utf8[at] = 0xff;
    assert_rejected(&dir, "not-utf8.wdbg", &not_utf8, 3, "not UTF-8");
    let mut garbage = lines.clone();
    garbage.insert(7, "\u{0}\u{1}garbage}".into());
    assert_rejected(&dir, "garbage.wdbg", &join(&garbage), 8, "bad event");
    assert_rejected(&dir, "not-json.wdbg", b"hello\n", 1, "not a warpdbg session header");

    // Wrong version and wrong format.
    let mut v2 = lines.clone();
    v2[0] = v2[0].replace("\"version\":1", "\"version\":2");
    assert_ne!(v2[0], lines[0]);
    assert_rejected(&dir, "v2.wdbg", &join(&v2), 1, "version 2 is not supported");
    let mut other = lines.clone();
    other[0] = other[0].replace("warpdbg-session", "something-else");
    assert_rejected(&dir, "format.wdbg", &join(&other), 1, "format is `something-else`");

    // Hand-edited: time going backwards, an action warpdbg does not have, a field of the wrong type, a mode
    // that does not exist, a kernel source that no longer compiles, a step count in the future.
    let mut back = lines.clone();
    let mut e: serde_json::Value = serde_json::from_str(&lines[5]).unwrap();
    e["t"] = serde_json::json!(e["t"].as_u64().unwrap() + 1_000_000);
    back[5] = e.to_string();
    assert_rejected(&dir, "time.wdbg", &join(&back), 7, "time goes backwards");

    let action_line = lines.iter().position(|l| l.contains("\"Step\"")).unwrap();
    let mut unknown = lines.clone();
    unknown[action_line] = unknown[action_line].replace("\"Step\"", "\"Jump\"");
    assert_rejected(&dir, "unknown-action.wdbg", &join(&unknown), action_line + 1, "unknown action `Jump`");

    let mut wrong_type = lines.clone();
    wrong_type[action_line] = wrong_type[action_line].replace("\"steps\":", "\"steps\":\"many\",\"s\":");
    assert_rejected(&dir, "wrong-type.wdbg", &join(&wrong_type), action_line + 1, "bad event");

    let mut mode = lines.clone();
    mode[0] = mode[0].replace("\"mode\":\"its\"", "\"mode\":\"fermi\"");
    assert_ne!(mode[0], lines[0], "{}", lines[0]);
    assert_rejected(&dir, "mode.wdbg", &join(&mode), 1, "not a warpdbg session header");

    let mut source = lines.clone();
    let mut h: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    h["source"] = serde_json::json!("__global__ void k( { }\n");
    source[0] = h.to_string();
    // (It parses: the kernel is checked when replay or export starts.)
    assert!(Recording::load(&dir.join("good.wdbg")).is_ok());
    assert_cli_rejects(&dir, "source.wdbg", &join(&source), 1, "no longer compiles");

    let mut mouse = lines.clone();
    mouse.insert(2, r#"{"t":0,"mouse":{"button":"middle","col":3,"row":4}}"#.into());
    assert_rejected(&dir, "mouse.wdbg", &join(&mouse), 3, "unknown mouse button `middle`");
}

// ---------------------------------------------------------------------------------------------------------
// checksum mismatch

#[test]
fn a_recording_that_no_longer_matches_replays_with_a_visible_warning() {
    let dir = scratch("mismatch");
    let good = good_recording(&dir);
    let text = std::fs::read_to_string(&good).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Change the final state's checksum, as a newer warpdbg that simulates differently would see it.
    let end = lines.iter().rposition(|l| l.contains("\"end\"")).unwrap();
    let mut e: serde_json::Value = serde_json::from_str(&lines[end]).unwrap();
    e["end"]["check"] = serde_json::json!("0123456789abcdef");
    lines[end] = e.to_string();
    let edited = dir.join("edited.wdbg");
    std::fs::write(&edited, join(&lines)).unwrap();

    // The unchanged recording replays without a warning.
    let rec = Recording::load(&good).unwrap();
    let mut app = replay::start_app(&rec, Keymap::default_map(), None).unwrap();
    for (i, e) in rec.events.iter().enumerate() {
        assert_eq!(replay::apply_event(&mut app, e, i), None);
    }

    let rec = Recording::load(&edited).unwrap();
    let mut app = replay::start_app(&rec, Keymap::default_map(), None).unwrap();
    let mut warnings = vec![];
    for (i, e) in rec.events.iter().enumerate() {
        if let Some(w) = replay::apply_event(&mut app, e, i) {
            warnings.push((i, w));
        }
    }
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].0, end - 1, "the end event (line {}) is the one that differs", end + 1);
    assert!(warnings[0].1.contains("no longer matches"), "{}", warnings[0].1);
    assert_eq!(app.replay_warning.as_deref(), Some(warnings[0].1.as_str()));

    // The exported last frame shows it.
    let txt = dir.join("edited.txt");
    let (code, stderr) = warpdbg(&["export", edited.to_str().unwrap(), "--text", txt.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let frames = split_text_frames(&std::fs::read_to_string(&txt).unwrap());
    let last = frames.last().unwrap();
    assert!(last.contains("no longer matches"), "the warning is on screen:\n{last}");
    assert!(!frames[1].contains("no longer matches"), "not before the mismatch");
    // A checksum edited in a middle action warns from there on.
    let mut lines2: Vec<String> = text.lines().map(String::from).collect();
    let mid = lines2.iter().position(|l| l.contains("\"SwitchMode\"")).unwrap();
    let mut e: serde_json::Value = serde_json::from_str(&lines2[mid]).unwrap();
    e["action"]["steps"] = serde_json::json!(e["action"]["steps"].as_u64().unwrap() + 7);
    lines2[mid] = e.to_string();
    let edited2 = dir.join("edited2.wdbg");
    std::fs::write(&edited2, join(&lines2)).unwrap();
    let frames = replay::frames(&Recording::load(&edited2).unwrap(), None).unwrap();
    let shown = frame_text(&frames[mid].2);
    assert!(shown.contains("no longer matches"), "after the edited event:\n{shown}");
    assert!(!frame_text(&frames[mid - 1].2).contains("no longer matches"));
    // The file itself is never rewritten by replaying it.
    assert_eq!(std::fs::read_to_string(&edited2).unwrap(), lines2.join("\n") + "\n");
}

// ---------------------------------------------------------------------------------------------------------
// asciicast

/// A recording that starts at one size and resizes: the cast is as large as its largest frame, every frame is
/// an output event at its time, and a frame of a new size starts from a cleared screen.
#[test]
fn asciicast_has_the_size_of_its_largest_frame() {
    let dir = scratch("cast");
    let path = dir.join("cast.wdbg");
    record_headless("kernels/deadlock.cu", &typical_inputs(), &path);
    let mut lines: Vec<String> = std::fs::read_to_string(&path).unwrap().lines().map(String::from).collect();
    let mut h: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    h["size"] = serde_json::json!([80, 24]);
    lines[0] = h.to_string();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let rec = Recording::load(&path).unwrap();
    let frames = replay::frames(&rec, None).unwrap();
    assert_eq!((frames[0].2.area.width, frames[0].2.area.height), (80, 24));
    assert_eq!((frames[1].2.area.width, frames[1].2.area.height), (120, 40));
    let cast = warpdbg::tui::export::asciicast(&rec, &frames);
    let mut out = cast.lines();
    let header: serde_json::Value = serde_json::from_str(out.next().unwrap()).unwrap();
    assert_eq!(
        (header["version"].as_u64(), header["width"].as_u64(), header["height"].as_u64()),
        (Some(2), Some(120), Some(40))
    );
    let events: Vec<serde_json::Value> = out.map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(events.len(), frames.len() + 1, "a clear, then one output per frame");
    let mut last = 0.0;
    for (e, (t, _, _)) in events[1..].iter().zip(&frames) {
        assert_eq!(e[1], "o");
        let secs = e[0].as_f64().unwrap();
        assert!((secs - *t as f64 / 1000.0).abs() < 1e-9 && secs >= last);
        last = secs;
    }
    assert!(events[2][2].as_str().unwrap().starts_with("\u{1b}[2J"), "the resized frame clears the screen");
    assert!(!events[3][2].as_str().unwrap().starts_with("\u{1b}[2J"));
}

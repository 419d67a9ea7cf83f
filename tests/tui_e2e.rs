//! End to end: the real `warpdbg` binary in a real terminal (tmux), driven with send-keys and read back with
//! capture-pane, from a shell prompt to the debugger and back to a working shell.

mod common;

use std::path::Path;
use std::process::Command;

use common::tmux::Tmux;

const PROMPT: &str = "E2E-PROMPT$";

/// The step counter in the title line.
fn step_of(screen: &str) -> u64 {
    let title = screen.lines().find(|l| l.contains(" warpdbg ")).unwrap_or_else(|| panic!("no title:\n{screen}"));
    let after = title.split("step ").nth(1).unwrap_or_else(|| panic!("no step in `{title}`"));
    after.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("step in `{title}`"))
}

/// A plain shell with a known prompt in a 120x40 terminal; None (skip) without tmux outside CI.
fn shell() -> Option<Tmux> {
    Tmux::shell(Path::new(env!("CARGO_MANIFEST_DIR")), 120, 40, PROMPT)
}

/// After warpdbg ended: the shell is back on the main screen, mouse reporting off, the cursor visible, the tty
/// in cooked mode with echo, and warpdbg's exit status was `status`. Returns the screen.
fn assert_restored(t: &Tmux, status: &str) -> String {
    // An empty prompt on the last line: warpdbg has ended and printed all it had to say.
    let s = t.wait_on(Tmux::screen_joined, "the shell prompt after warpdbg", |x| {
        !x.contains(" warpdbg ") && x.lines().rev().find(|l| !l.trim().is_empty()).is_some_and(|l| l.trim() == PROMPT)
    });
    assert_eq!(t.var("alternate_on"), "0", "left the alternate screen");
    assert_eq!(t.var("mouse_any_flag"), "0", "mouse capture is off");
    assert_eq!(t.var("cursor_flag"), "1", "the cursor is visible");
    t.type_text("echo \"exit=$?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo '<<''DONE>>'");
    t.keys(&["Enter"]);
    // The sentinel is split in the typed command, so only the output matches.
    let done = t.wait_for("<<DONE>>");
    assert!(done.contains(&format!("exit={status}")), "warpdbg exited with status {status}:\n{done}");
    assert!(done.contains("icanon echo <<DONE>>"), "the terminal is back in cooked mode with echo:\n{done}");
    s
}

#[test]
fn the_binary_in_tmux_from_open_to_quit() {
    let Some(t) = shell() else { return };
    let bin = env!("CARGO_BIN_EXE_warpdbg");

    // Open the debugger.
    t.type_text(&format!("{bin} kernels/deadlock.cu"));
    t.keys(&["Enter"]);
    let s = t.wait_for("step 0   paused");
    assert!(s.contains("deadlock.cu") && s.contains("mode ITS (Volta+)"), "{s}");
    assert!(s.contains("19 ▶  2w"), "the cursor on the first line to run:\n{s}");
    assert_eq!(t.var("alternate_on"), "1", "the TUI runs on the alternate screen");
    assert_eq!(t.var("mouse_any_flag"), "1", "the TUI captures the mouse");

    // Step one instruction.
    t.keys(&["s"]);
    t.wait_for("step 1 ");

    // Cursor to line 23 (`int sum = 0;`): to the top, then 22 lines down; a breakpoint there.
    t.keys(&["Home"]);
    t.keys(&["j"; 22]);
    t.keys(&["b"]);
    let s = t.wait_for("breakpoint set at line 23");
    assert!(s.contains("│●23 "), "{s}");

    // Continue to it.
    t.keys(&["c"]);
    let s = t.wait_for("breakpoint at line 23");
    let at_bp = step_of(&s);
    assert!(at_bp > 1, "{s}");

    // Switch mode: pre-Volta at the same step, breakpoints kept; and back to ITS.
    t.keys(&["m"]);
    let s = t.wait_for("mode pre-Volta (SIMT stack)");
    assert_eq!(step_of(&s), at_bp, "{s}");
    assert!(s.contains("SIMT stack (top first)") && s.contains("●23 "), "{s}");
    t.keys(&["m"]);
    let s = t.wait_for("mode ITS (Volta+)");
    assert_eq!(step_of(&s), at_bp, "{s}");

    // Continue (past the breakpoint, which the other warp reaches too) to the deadlock.
    let mut s = s;
    for _ in 0..4 {
        if s.contains("DEADLOCK") {
            break;
        }
        let before = step_of(&s);
        t.keys(&["c"]);
        s = t.wait("the continue to stop", |x| step_of(x) != before && !x.contains("running..."));
    }
    assert!(s.contains("DEADLOCK: no thread can issue"), "{s}");
    assert!(s.contains("waiting at the __syncthreads() on line 28"), "{s}");
    assert!(s.contains("waiting at the __syncthreads() on line 37"), "{s}");
    assert_eq!(step_of(&s), 380, "{s}");

    // Help, then Esc closes it.
    t.keys(&["?"]);
    let s = t.wait_for("═ Help ═");
    assert!(s.contains("toggle breakpoint at the cursor line"), "{s}");
    t.keys(&["Escape"]);
    let s = t.wait("the help to close", |x| !x.contains("═ Help ═"));
    assert!(s.contains("DEADLOCK: no thread can issue"), "{s}");

    // Quit: the shell is back, on the main screen, with mouse reporting off and the tty in cooked mode.
    t.keys(&["q"]);
    let s = assert_restored(&t, "0");
    assert!(!s.contains("DEADLOCK"), "the TUI's screen is gone:\n{s}");
}

#[test]
fn a_whole_program_in_tmux_open_step_next_launch_quit() {
    let Some(t) = shell() else { return };
    let bin = env!("CARGO_BIN_EXE_warpdbg");

    // Open the program: the host code runs up to the first launch.
    t.type_text(&format!("{bin} tests/programs/reduction.cu"));
    t.keys(&["Enter"]);
    let s = t.wait_for("step 0   paused");
    assert!(s.contains("launch 1 sumNeighbored<<<32, 128>>> at reduction.cu:100"), "{s}");
    assert!(s.contains("cpu sum: 517140"), "the program's output so far:\n{s}");
    assert!(s.contains("29 ▶128w"), "the cursor on the kernel's first line:\n{s}");

    // Step one instruction.
    t.keys(&["s"]);
    t.wait_for("step 1 ");

    // Continue to the kernel's end, then `c` again runs the host to the second launch.
    t.keys(&["c"]);
    let s = t.wait_for("kernel completed");
    assert!(s.contains("completed"), "{s}");
    t.keys(&["c"]);
    let s = t.wait_for("launch 2 sumNeighboredLess<<<32, 128>>> at reduction.cu:106");
    assert_eq!(step_of(&s), 0, "{s}");
    assert!(s.contains("gpu Neighbored     sum: 517140"), "the first launch's result was printed:\n{s}");

    // Quit: the shell is back.
    t.keys(&["q"]);
    assert_restored(&t, "0");
}

#[test]
fn a_long_output_line_in_tmux_scrolls_sideways_in_the_program_pane() {
    let Some(t) = shell() else { return };
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    t.type_text(&format!("{bin} tests/programs/page_args.cu -- 7 'two words' last"));
    t.keys(&["Enter"]);
    t.wait_for("step 0   paused");
    // The Program pane has the focus after four Tabs; End shows the last of its lines, Page Up goes back to
    // the long one, cut at the pane's edge.
    t.keys(&["Tab", "Tab", "Tab", "Tab"]);
    t.keys(&["End"]);
    // (The title reads `/38` before the keys land too: wait for the lines End shows.)
    t.wait_for("lines 26-38/38");
    t.keys(&["k"; 6]);
    let s = t.wait_for("lines 20-32/38");
    assert!(s.contains("a long line: the quick") && !s.contains(">END<"), "{s}");
    // Sideways (`L`, keymap data): its end comes into view and the title says from which column.
    t.keys(&["L"; 12]);
    let s = t.wait_for(">END<");
    assert!(s.contains("Program pane from column "), "{s}");
    t.keys(&["q"]);
    assert_restored(&t, "0");
}

#[test]
fn the_terminal_is_restored_after_sigterm_and_after_a_panic() {
    let Some(t) = shell() else { return };
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    // SIGTERM (a closed laptop lid, `kill`): warpdbg leaves the alternate screen and exits.
    t.type_text(&format!("{bin} kernels/deadlock.cu"));
    t.keys(&["Enter"]);
    t.wait_for("step 0   paused");
    t.keys(&["s"]);
    t.wait_for("step 1 ");
    let pid = t.pane_pid().to_string();
    let killed = Command::new("pkill").args(["-TERM", "-P", pid.trim(), "-x", "warpdbg"]).status().expect("pkill");
    assert!(killed.success(), "warpdbg was running under the shell");
    assert_restored(&t, "0");

    // A panic: the screen is restored before the report is printed.
    t.type_text(&format!(
        "clear; RUST_BACKTRACE=0 RUST_LIB_BACKTRACE=0 WARPDBG_TEST_PANIC=1 {bin} kernels/deadlock.cu"
    ));
    t.keys(&["Enter"]);
    t.wait_for("step 0   paused");
    t.keys(&["s"]);
    t.wait_for("WARPDBG_TEST_PANIC is set");
    let s = assert_restored(&t, "101");
    assert!(s.contains("WARPDBG_TEST_PANIC is set"), "the panic report is on the main screen:\n{s}");
}

#[test]
fn the_process_ends_when_its_terminal_goes_away() {
    // A closed terminal window or a dropped ssh connection hangs up the tty: warpdbg must end, not spin on a
    // terminal that is gone.
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    let Some(t) = Tmux::start(Path::new(env!("CARGO_MANIFEST_DIR")), 120, 40, &[bin, "kernels/deadlock.cu"], false)
    else {
        return;
    };
    t.wait_for("step 0   paused");
    let pid = t.pane_pid();
    assert!(Path::new(&format!("/proc/{pid}")).exists());
    drop(t); // kills the tmux server: the pane's tty hangs up
    let start = std::time::Instant::now();
    while Path::new(&format!("/proc/{pid}")).exists() {
        if start.elapsed() > std::time::Duration::from_secs(5) {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("warpdbg (pid {pid}) still ran 5 s after its terminal went away");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Issue 32: after a continue to the end, a step back re-executes from step 0 in pieces. Any key but `S`
/// stops it where it started; `S S` goes two steps back, not somewhere in between.
#[test]
fn a_long_step_back_in_tmux_stays_put_when_interrupted_and_goes_further_on_s() {
    let Some(t) = shell() else { return };
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    // Seconds of re-execution: 512 blocks (1,367,040 instructions) in a debug build, 2048 (5,468,160) in a
    // release build, whose step back over 512 blocks is over before a quiet machine's tmux shows it.
    let (n, steps) = if cfg!(debug_assertions) { (262_144, 1_367_040) } else { (1 << 20, 5_468_160) };
    t.type_text(&format!("{bin} kernels/reduce_neighbored.cu --arg n={n}"));
    t.keys(&["Enter"]);
    t.wait_for("step 0   paused");
    t.keys(&["c"]);
    let s = t.wait_for("kernel completed");
    let end = step_of(&s);
    assert_eq!(end, steps, "{s}");

    // S, and while it goes back, k: back at the end (the cursor moved up one line).
    t.keys(&["S"]);
    t.glimpse(&format!("going back to step {}... at step", end - 1));
    t.keys(&["k"]);
    let s = t.wait_for(&format!("stopped going back: still at step {end}"));
    assert_eq!(step_of(&s), end, "{s}");
    assert!(s.contains(&format!("step {end}   completed")), "{s}");

    // S S: two steps back.
    t.keys(&["S", "S"]);
    let s = t.wait(&format!("back to step {}", end - 2), |x| {
        x.contains(&format!(" back to step {} ", end - 2)) && !x.contains("going back")
    });
    assert_eq!(step_of(&s), end - 2, "{s}");
    assert!(s.contains(&format!("step {}   paused", end - 2)), "{s}");

    t.keys(&["q"]);
    assert_restored(&t, "0");
}

/// Issue 32: `:` typed during a continue stops it and opens the prompt; the Enter that follows answers the
/// prompt (it used to toggle a breakpoint).
#[test]
fn typing_during_a_continue_in_tmux_opens_the_prompt() {
    let Some(t) = shell() else { return };
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    // A whole run long enough to type into: 8192 blocks in a debug build (2048 became too short once ITS
    // warps issued in groups while diverged), 32768 in a release build (8192 take a third of a second on a
    // quiet machine).
    let n = if cfg!(debug_assertions) { 1 << 22 } else { 1 << 24 };
    t.type_text(&format!("{bin} kernels/reduce_neighbored.cu --arg n={n}"));
    t.keys(&["Enter"]);
    t.wait_for("step 0   paused");
    t.keys(&["c"]);
    t.glimpse("(any key interrupts)");
    t.keys(&[":"]);
    let s = t.wait_for("go to step N, or p EXPR");
    assert!(!s.contains("(any key interrupts)"), "{s}");
    t.type_text("5");
    t.keys(&["Enter"]);
    let s = t.wait_for("at step 5 ");
    assert_eq!(step_of(&s), 5, "{s}");
    assert!(!s.contains("breakpoint set") && !s.contains("●"), "no breakpoint was toggled:\n{s}");

    t.keys(&["q"]);
    assert_restored(&t, "0");
}

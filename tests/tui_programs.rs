//! The debugger on a whole program, as the event loop drives it: the first screen (launch, output so far,
//! host variables), `c` at a kernel's end to the next launch, `N`/`P`, stepping back across a launch's start,
//! the mode switch and the comparison, the end of the program, and a recording that replays.

mod common;

use common::ui::{Tui, program_app};
use warpdbg::debug::checksum::{memory_check, state_check};
use warpdbg::front::launch::Mode;
use warpdbg::tui::action::Action;
use warpdbg::tui::recording::{EventKind, Recorder, Recording};
use warpdbg::tui::{replay, update};

const REDUCTION: &str = "tests/programs/reduction.cu";

fn current(t: &Tui) -> Option<usize> {
    t.app.program.as_ref().and_then(|p| p.current)
}

#[test]
fn first_screen_names_the_launch_and_shows_output_and_host_variables() {
    let t = Tui::open_program(REDUCTION, 120, 40);
    let screen = t.text();
    assert!(screen.contains("launch 1 sumNeighbored<<<32, 128>>> at reduction.cu:100"), "{screen}");
    assert!(screen.contains("output so far") && screen.contains("cpu sum: 517140"), "{screen}");
    assert!(screen.contains(" size      4096"), "{screen}");
    assert!(screen.contains("N next launch"), "{screen}");
    insta::assert_snapshot!("program_first_launch_120x40", t.terminal.backend());
}

#[test]
fn continue_at_the_end_runs_the_host_to_the_next_launch_then_to_the_exit() {
    let mut t = Tui::open_program(REDUCTION, 120, 40);
    t.press("s");
    assert_eq!(t.steps(), 1);
    t.press("c");
    assert!(t.app.session.machine.outcome().is_some(), "c runs the kernel to its end first");
    assert_eq!(current(&t), Some(1));
    t.press("c");
    assert_eq!(current(&t), Some(2));
    let screen = t.text();
    assert!(screen.contains("launch 2 sumNeighboredLess<<<32, 128>>> at reduction.cu:106"), "{screen}");
    assert!(screen.contains("1 sumNeighbored<<<32, 128>>> L100 completed"), "{screen}");
    assert!(screen.contains("gpu Neighbored     sum: 517140"), "{screen}");
    // N finishes a launch at full speed from anywhere.
    t.press_all(&["s", "s", "N"]);
    assert_eq!(current(&t), Some(3));
    t.press("N");
    assert_eq!(current(&t), None);
    let screen = t.text();
    assert!(screen.contains("EXITED 0") && screen.contains("PROGRAM ENDED"), "{screen}");
    assert!(screen.contains("the program exited with status 0"), "{screen}");
    assert!(screen.contains("Test PASSED"), "{screen}");
    insta::assert_snapshot!("program_ended_120x40", t.terminal.backend());
    // P goes back to the last launch's start; P again to the one before.
    t.press("P");
    assert_eq!((current(&t), t.steps()), (Some(3), 0));
    t.press("P");
    assert_eq!((current(&t), t.app.session.machine.kernel.name.as_str()), (Some(2), "sumNeighboredLess"));
}

#[test]
fn step_back_at_a_launch_start_goes_to_the_previous_launch() {
    let mut t = Tui::open_program(REDUCTION, 120, 40);
    t.press("N");
    t.press_all(&["s", "s"]);
    t.press_all(&["S", "S"]);
    assert_eq!((current(&t), t.steps()), (Some(2), 0));
    t.press("S");
    assert_eq!((current(&t), t.steps()), (Some(1), 0));
    assert!(t.text().contains("back at launch 1: sumNeighbored<<<32, 128>>> at line 100"), "{}", t.text());
    t.press("S");
    assert!(t.text().contains("at the start of the program's first launch"));
}

#[test]
fn mode_switch_and_compare_work_on_a_launch() {
    let mut t = Tui::open_program(REDUCTION, 120, 40);
    t.press("N");
    t.press_all(&["s"; 30]);
    t.press("m");
    assert_eq!((current(&t), t.steps(), t.app.session.mode()), (Some(2), 30, Mode::PreVolta));
    assert!(t.text().contains("launch 2 sumNeighboredLess"), "{}", t.text());
    t.press("m");
    assert_eq!((current(&t), t.steps(), t.app.session.mode()), (Some(2), 30, Mode::Its));
    t.press("v");
    let c = t.app.compare.as_ref().expect("the comparison is open");
    assert_eq!(c.steps(), [30, 30]);
    assert_eq!(c.sides[0].machine.kernel.name, "sumNeighboredLess");
    t.press("v");
    assert!(t.app.compare.is_none());
}

#[test]
fn a_recorded_program_session_replays_to_the_same_state() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tui-programs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("program.wdbg");
    let mut app = program_app(REDUCTION, 1, &[]);
    app.size = (120, 40);
    let header = warpdbg::cli::recording_header(REDUCTION.into(), &app, &warpdbg::cli::LaunchArgs::default());
    assert_eq!(header.launch, Some(1));
    let mut rec = Recorder::create(&path, &header).unwrap();
    use Action::*;
    for a in [Step, Step, Continue, Continue, Step, StepBack, StepBack, NextLaunch, SwitchMode, Step] {
        update::update(&mut app, a);
        update::finish_running(&mut app);
        for e in app.outbox.drain(..) {
            rec.write(e).unwrap();
        }
    }
    let m = &app.session.machine;
    rec.write(EventKind::End { steps: m.steps, check: state_check(m), memory: memory_check(m) }).unwrap();
    drop(rec);
    assert_eq!(app.program.as_ref().and_then(|p| p.current), Some(2), "the second step back went to launch 1");
    let loaded = Recording::load(&path).expect("loads");
    let frames = replay::frames(&loaded, None).expect("replays");
    assert_eq!(frames.len(), loaded.events.len() + 1);
    let mut again = replay::start_app(&loaded, warpdbg::tui::keymap::Keymap::default_map(), None).unwrap();
    for (i, e) in loaded.events.iter().enumerate() {
        assert_eq!(replay::apply_event(&mut again, e, i), None, "event {i} ({e:?}) matches the recording");
    }
    assert_eq!(again.program.as_ref().and_then(|p| p.current), Some(2));
    assert_eq!(again.session.mode(), Mode::PreVolta);
}

#[test]
fn a_faulting_launch_then_the_host_sees_the_error() {
    let mut t = Tui::with_app(program_app("tests/fixtures/programs/fault_then_check.cu", 1, &[]), 120, 40);
    t.press("c");
    assert!(t.text().contains("FAULT"), "{}", t.text());
    t.press("c");
    let screen = t.text();
    assert!(screen.contains("EXITED 1") && screen.contains("error: an illegal memory access"), "{screen}");
    assert!(screen.contains("1 fill<<<1, 64>>> L30 fault"), "{screen}");
}

#[test]
fn a_deadlocked_launch_stops_the_program() {
    let mut t = Tui::with_app(program_app("tests/fixtures/programs/fault_then_check.cu", 1, &["hang"]), 120, 40);
    t.press("c");
    assert!(t.text().contains("DEADLOCK"), "{}", t.text());
    t.press("c");
    let screen = t.text();
    // The program did not exit: 3 is warpdbg's status alone (issue 32 names the two apart).
    assert!(screen.contains("STOPPED · EXIT 3") && !screen.contains("never printed"), "{screen}");
    assert!(screen.contains("stopped by a launch that cannot finish"), "{screen}");
}

#[test]
fn grids_launched_from_device_code_are_launches_of_their_own_on_the_screen() {
    let mut t = Tui::open_program("tests/programs/dynamic_parallelism.cu", 120, 40);
    assert_eq!(current(&t), Some(1));
    t.press("N");
    assert_eq!(current(&t), Some(2));
    let screen = t.text();
    assert!(screen.contains("launch 2 (from launch 1) hello<<<1, 4>>> at dynamic_parallelism.cu:21"), "{screen}");
    assert!(screen.contains("1 hello<<<1, 8>>> L56 completed"), "{screen}");
    assert!(screen.contains("↳hello<<<1, 4>>>"), "{screen}");
    // Device printf output reaches the program's output at the host's next synchronisation, children included.
    assert!(screen.contains("hello, recursively:") && !screen.contains("depth 0: hello"), "{screen}");
    t.press("P");
    assert_eq!((current(&t), t.steps()), (Some(1), 0));
}

#[test]
fn a_program_that_exits_0_with_a_finding_names_both_statuses() {
    // main returns 0; warpdbg finds an uninitialised read, so its own status is 1 (issue 32).
    let mut t = Tui::open_program("tests/programs/uninit_read.cu", 120, 40);
    t.press_all(&["c", "c"]);
    assert_eq!(current(&t), None);
    let screen = t.text();
    assert!(screen.contains(" PROGRAM EXITED 0 · FINDINGS"), "{screen}");
    assert!(screen.contains(" program exited 0 ") && screen.contains(" warpdbg: 1 finding (exit 1) "), "{screen}");
    assert!(!screen.contains("EXITED 1"), "{screen}");
    insta::assert_snapshot!("program_exited_0_with_a_finding_120x40", t.terminal.backend());
}

/// The Program pane at a narrow size: more output than it shows, and a line wider than it.
const PAGE_ARGS: &str = "tests/programs/page_args.cu";

/// The Program pane's rows as text (inside the screen's text, between its borders).
fn program_pane(t: &Tui) -> Vec<String> {
    let area = warpdbg::tui::view::areas(&t.app, ratatui::layout::Rect::new(0, 0, t.app.size.0, t.app.size.1)).program;
    let text = t.text();
    let rows: Vec<&str> = text.lines().collect();
    (area.y..area.y + area.height)
        .map(|y| rows[y as usize].chars().skip(area.x as usize).take(area.width as usize).collect())
        .collect()
}

#[test]
fn the_program_pane_scrolls_down_through_all_the_output_and_sideways_along_long_lines() {
    let mut t = Tui::with_app(program_app(PAGE_ARGS, 1, &["7", "two words", "last"]), 100, 36);
    // Focused by Tab (source, warps, detail, memory, program).
    t.press_all(&["tab", "tab", "tab", "tab"]);
    assert_eq!(t.app.focus, warpdbg::tui::app::Pane::Program);
    let pane = program_pane(&t);
    // The title says which lines show; what does not fit scrolls into view.
    assert!(pane[0].contains("Program · launch 1 · lines 1-11/38"), "{pane:#?}");
    assert!(pane.iter().any(|l| l.contains("argv[2] = two words")), "{pane:#?}");
    // Down to the end: the last line on the last row, no further (`G`, then `k` moves at once).
    t.press("G");
    let pane = program_pane(&t);
    assert!(pane[0].contains("lines 28-38/38"), "{pane:#?}");
    assert!(pane.iter().any(|l| l.contains("host variables")), "the host variables end it: {pane:#?}");
    assert!(pane[pane.len() - 2].contains("(device, line 32)"), "its last line on its last row: {pane:#?}");
    t.press("k");
    // The long line, cut at the pane's edge with a `…`, shows its end scrolled sideways.
    let pane = program_pane(&t);
    assert!(pane[0].contains("lines 27-37/38"), "{pane:#?}");
    let long = pane.iter().find(|l| l.contains("a long line")).unwrap_or_else(|| panic!("{pane:#?}"));
    assert!(long.trim_end_matches('│').trim_end().ends_with('…'), "{long}");
    assert!(!long.contains(">END<"), "{long}");
    insta::assert_snapshot!("program_pane_scrolled_down_100x36", t.terminal.backend());
    for _ in 0..12 {
        t.press("L");
    }
    let pane = program_pane(&t);
    assert!(pane.iter().any(|l| l.contains(">END<")), "{pane:#?}");
    assert!(pane[0].contains("· col 73 ·"), "{pane:#?}");
    assert_eq!(t.app.program_left, 72, "no further than shows the end of the longest line");
    assert!(t.app.source_left == 0, "the source did not move");
    insta::assert_snapshot!("program_pane_scrolled_sideways_100x36", t.terminal.backend());
    t.press_all(&["H"; 12]);
    assert_eq!(t.app.program_left, 0);
    // With the source focused, the same keys scroll the source.
    t.press("tab");
    t.press("tab");
    t.press("L");
    assert_eq!((t.app.program_left, t.app.source_left), (0, 8));
}

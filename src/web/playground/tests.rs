//! The playground's debugger natively: the same screens the terminal's `view` draws, keys as the page sends
//! them, diagnostics, recordings, programs and `q`.

use super::*;
use crate::tui::app::App;

const DEADLOCK: &str = include_str!("../../../kernels/deadlock.cu");

/// The terminal's screen for the deadlock kernel after `steps` steps in `mode`, at `cols` x `rows`.
fn terminal_screen(mode: Mode, steps: u64, cols: u16, rows: u16) -> String {
    let overrides = Overrides { mode: Some(mode), ..Overrides::default() };
    let compiled = compile::compile("deadlock.cu", DEADLOCK.as_bytes(), &overrides).expect("compiles");
    let mut app = App::new(
        Session::new(compiled, Config::default()).expect("launches"),
        Keymap::default_map(),
        Theme::default_dark(),
    );
    for _ in 0..steps {
        app.session.step_instruction();
    }
    app.size = (cols, rows);
    app.stopped(&crate::debug::session::Stop::Stepped);
    scroll::keep_cursor_visible(&mut app);
    view::buffer_text(&view::render_buffer(&app, cols, rows))
}

#[test]
fn keys_drive_the_terminals_debugger() {
    let mut p = Playground::new();
    p.open("deadlock.cu", DEADLOCK, None).expect("opens");
    assert_eq!(p.steps(), 0);
    for _ in 0..3 {
        assert_eq!(p.key("s"), KeyResult::Idle);
    }
    assert_eq!(p.steps(), 3);
    let shown = p.text(120, 40);
    assert!(shown.lines().next().is_some_and(|l| l.contains("step 3")), "{shown}");
    // The screen is the terminal's view code, at the page's size.
    let first_line = |s: &str| s.lines().next().unwrap_or_default().trim_end().to_string();
    assert_eq!(first_line(&shown), first_line(&terminal_screen(Mode::Its, 3, 120, 40)));
    // Unknown keys do nothing; a prompt takes keys as text.
    assert_eq!(p.key("no-such-key"), KeyResult::Idle);
    p.key(":");
    for k in ["1", "0", "enter"] {
        p.key(k);
    }
    assert_eq!(p.steps(), 10, "`:` 10 Enter goes to step 10");
    // `m` then `c`: pre-Volta runs to its end with the divergent-barrier hazard.
    p.key("m");
    let mut r = p.key("c");
    while r == KeyResult::Running {
        r = p.tick();
    }
    let shown = p.text(120, 40);
    assert!(shown.contains("completed") && shown.contains("HAZARD"), "{shown}");
    // The HTML has the same text, styled.
    let html = p.html(120, 40);
    assert!(html.starts_with("<span style=\""), "{}", &html[..80]);
    assert_eq!(html.lines().count(), 40);
    // `q` starts the file again.
    assert_eq!(p.key("q"), KeyResult::Quit);
    assert_eq!(p.steps(), 0);
}

#[test]
fn a_syntax_error_is_the_terminals_diagnostic() {
    let mut p = Playground::new();
    let bad = DEADLOCK.replace("s[tid] = sum;", "s[tid] = sum");
    let e = p.open("deadlock.cu", &bad, None).expect_err("does not compile");
    assert!(e.contains("error[E-syntax]: expected `;`, found `__syncthreads`"), "{e}");
    assert!(e.contains("deadlock.cu:27:21") && e.contains("^ expected `;`"), "{e}");
    assert_eq!(p.text(80, 24), "", "nothing is shown");
}

#[test]
fn a_mouse_click_on_a_source_line_sets_a_breakpoint() {
    let mut p = Playground::new();
    p.open("deadlock.cu", DEADLOCK, None).expect("opens");
    let before = p.text(120, 40);
    // The source pane's line 21 (`if (tid % 2 == 0)`), found on the screen.
    let (row, _) = before.lines().enumerate().find(|(_, l)| l.contains(" 21 ")).expect("line 21 is shown");
    p.mouse(0, 10, row as u16);
    let Shown::Debugger(app) = &p.shown else { panic!("the debugger is open") };
    assert!(app.session.breakpoints.contains(&21), "{:?}", app.session.breakpoints);
}

#[test]
fn a_whole_program_runs_to_its_end() {
    let mut p = Playground::new();
    let src = include_str!("../../../tests/programs/vector_add.cu");
    p.open("vector_add.cu", src, None).expect("compiles");
    let shown = p.text(80, 24);
    let expected = include_str!("../../../tests/programs/expected/vector_add.stdout");
    assert!(shown.starts_with(expected), "{shown}");
    assert!(shown.ends_with("[the program exited with status 0]\n"), "{shown}");
}

#[test]
fn a_program_that_exits_0_with_a_finding_names_both_statuses() {
    let mut p = Playground::new();
    p.open("uninit_read.cu", include_str!("../../../tests/programs/uninit_read.cu"), None).expect("compiles");
    let shown = p.text(80, 24);
    assert!(
        shown.ends_with("[the program exited with status 0; warpdbg found 1 finding (its exit status is 1)]\n"),
        "{shown}"
    );
}

#[test]
fn a_bad_recording_says_why() {
    let mut p = Playground::new();
    let e = p.open_recording(b"not json\n").expect_err("not a recording");
    assert!(e.contains("recording.wdbg:1: not a warpdbg session header"), "{e}");
}

#[test]
fn the_page_shows_the_coalescing_view() {
    let mut p = Playground::new();
    let src = include_str!("../../../tests/kernels/coalescing.cu");
    p.open("coalescing.cu", src, None).expect("opens");
    for key in ["s", "s", "s", "s", "s", "C"] {
        assert_eq!(p.key(key), KeyResult::Idle);
    }
    let shown = p.text(120, 40);
    assert!(shown.contains("Metrics · global memory (ld 100.0%)"), "{shown}");
    assert!(shown.contains("0x7f4000000020  2  2-3    in[8,12]"), "{shown}");
    // The page's help is the terminal's: it lists the key.
    p.key("C");
    p.key("?");
    let mut help = p.text(120, 40);
    for _ in 0..9 {
        p.key("j");
        help.push_str(&p.text(120, 40));
    }
    assert!(help.contains("C  global-memory coalescing: sectors per request (metrics)"), "{help}");
}

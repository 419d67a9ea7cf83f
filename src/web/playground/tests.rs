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

const REDUCTION: &str = include_str!("../../../tests/programs/reduction.cu");

/// The terminal's screen on a program (its host on a thread) at the start of launch `k`, at `cols` x `rows`.
fn terminal_program_screen(name: &str, src: &str, args: &[&str], k: usize, cols: u16, rows: u16) -> String {
    use crate::debug::program::Target;
    let program = crate::program::compile(name, src.as_bytes(), &Overrides::default()).expect("compiles");
    let options =
        crate::program::RunOptions { args: args.iter().map(|a| a.to_string()).collect(), ..Default::default() };
    let keymap = Keymap::default_map();
    let mut app = crate::tui::program::open_app(
        program,
        options,
        Config::default(),
        &Target::Index(k),
        keymap,
        Theme::default_dark(),
    )
    .expect("reaches the launch");
    app.size = (cols, rows);
    scroll::keep_cursor_visible(&mut app);
    view::buffer_text(&view::render_buffer(&app, cols, rows))
}

#[test]
fn a_whole_program_is_debugged_launch_by_launch_without_threads() {
    let mut p = Playground::new();
    p.open("reduction.cu", REDUCTION, None).expect("compiles");
    assert_eq!((p.launch(), p.steps()), (1, 0));
    assert_eq!(p.text(120, 40), terminal_program_screen("reduction.cu", REDUCTION, &[], 1, 120, 40));
    // `N` finishes launch 1 and runs the host on to launch 2: the terminal's screen there.
    assert_eq!(p.key("N"), KeyResult::Idle);
    assert_eq!((p.launch(), p.steps()), (2, 0));
    let shown = p.text(120, 40);
    assert_eq!(shown, terminal_program_screen("reduction.cu", REDUCTION, &[], 2, 120, 40));
    assert!(shown.contains("sumNeighboredLess<<<32, 128>>>"), "{shown}");
    for _ in 0..3 {
        p.key("s");
    }
    assert_eq!((p.launch(), p.steps()), (2, 3));
    // `P` goes back to launch 1 (the host runs again from `main`); stepping back at step 0 stays there.
    p.key("P");
    assert_eq!((p.launch(), p.steps()), (1, 0));
    assert!(p.text(120, 40).contains("back at launch 1: sumNeighbored<<<32, 128>>>"));
    // Through every launch to the program's end: the output and status as the terminal's debugger gives them.
    for _ in 0..3 {
        p.key("N");
    }
    let Shown::Debugger(app) = &p.shown else { panic!("the debugger is open") };
    let prog = app.program.as_ref().expect("a program");
    assert_eq!(p.launch(), 0);
    assert_eq!(prog.launches.iter().map(|l| l.outcome).collect::<Vec<_>>(), [Some("completed"); 3]);
    let end = prog.ended.as_ref().expect("ended");
    assert_eq!(end.status, 0);
    let expected = include_str!("../../../tests/programs/expected/reduction.stdout");
    assert_eq!(prog.output_text(), expected);
}

#[test]
fn the_replayed_host_gives_what_the_host_thread_gives() {
    use crate::debug::program::{Advance, HostOptions, HostRun, ProgramDebug, Target};
    let run = |run: HostRun| {
        let program =
            crate::program::compile("reduction.cu", REDUCTION.as_bytes(), &Overrides::default()).expect("compiles");
        let host = HostOptions { run, progress: None };
        let (mut p, mut s) =
            ProgramDebug::open_with(program, Default::default(), Config::default(), &Target::Index(1), host)
                .expect("opens");
        let mut seen = vec![];
        loop {
            seen.push((p.current, s.machine.steps, p.output_text(), p.host_vars.len()));
            s.run_to(5);
            if p.advance(&mut s).expect("advances") == Advance::Ended {
                break;
            }
        }
        p.goto_launch(2, &mut s).expect("goes back");
        seen.push((p.current, s.machine.steps, p.output_text(), p.host_vars.len()));
        (seen, p.launches.clone(), p.report.clone())
    };
    assert_eq!(run(HostRun::Replay), run(HostRun::Thread));
}

static PROGRESS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn a_programs_arguments_and_progress_reach_it() {
    let src = include_str!("../../../tests/programs/host_clib.cu");
    let mut p = Playground::new();
    p.set_progress(|k, _| {
        PROGRESS.fetch_max(k, std::sync::atomic::Ordering::Relaxed);
    });
    p.set_args("7 '64' 2.5");
    p.open("host_clib.cu", src, None).expect("compiles");
    assert_eq!(p.text(100, 30), terminal_program_screen("host_clib.cu", src, &["7", "64", "2.5"], 1, 100, 30));
    assert_eq!(PROGRESS.load(std::sync::atomic::Ordering::Relaxed), 1, "the host run reported launch 1");
    // Its one launch finished, the program ends; its output begins with what the arguments made.
    p.key("N");
    assert_eq!(p.launch(), 0);
    let Shown::Debugger(app) = &p.shown else { panic!("the debugger is open") };
    let out = app.program.as_ref().expect("a program").output_text();
    assert!(out.starts_with("n = 7, block = 64 (parsed 2 chars), scale = 2.50\n"), "{out}");
    assert!(out.contains("triangles<<<1, 64>>> (20 chars)\n"), "{out}");
}

#[test]
fn a_program_that_makes_no_launch_shows_its_output_and_end() {
    let mut p = Playground::new();
    let src = "#include <cstdio>\n__global__ void k() {}\nint main() { printf(\"no kernels\\n\"); return 3; }\n";
    p.open("none.cu", src, None).expect("compiles");
    // (At 80 columns its first line wraps after `Its`: a long line goes on in the next row.)
    assert!(p.text(80, 24).contains("0 launches. Its\noutput:\n"), "{}", p.text(80, 24));
    let shown = p.text(100, 24);
    assert!(shown.contains("The program exited with status 3 before launch 1: it made 0 launches."), "{shown}");
    assert!(shown.contains("Its output:\nno kernels\n"), "{shown}");
}

#[test]
fn arguments_split_as_a_shell_splits_them() {
    assert_eq!(split_args("  7 'a b' \"\" x\"y z\"  "), ["7", "a b", "", "xy z"]);
    assert!(split_args("   ").is_empty());
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

#[test]
fn a_long_output_with_no_launch_scrolls_with_the_movement_keys_and_wraps_long_lines() {
    let mut p = Playground::new();
    let src = "#include <cstdio>\nint main() { for (int i = 1; i <= 40; i++) printf(\"row %d\\n\", i); \
               printf(\"%s\\n\", \"0123456789012345678901234567890123456789\"); return 0; }\n";
    p.open("many.cu", src, None).expect("compiles");
    let first = p.text(30, 12);
    let rows: Vec<&str> = first.lines().collect();
    assert_eq!(rows.len(), 12, "{first}");
    assert!(rows[11].starts_with("-- rows 1-11 of 4"), "{first}");
    assert_eq!(p.key("G"), KeyResult::Idle);
    let last = p.text(30, 12);
    // The 40-character line wraps at 30 columns: its last 10 characters on the last row.
    assert!(last.lines().nth(10).is_some_and(|l| l == "0123456789"), "{last}");
    p.key("k");
    assert!(p.text(30, 12).lines().nth(10).is_some_and(|l| l.starts_with("012345678901234567890123456789")));
    p.key("home");
    assert_eq!(p.text(30, 12), first);
    // The wheel scrolls by three rows.
    p.mouse(3, 0, 0);
    assert!(p.text(30, 12).lines().nth(11).is_some_and(|l| l.starts_with("-- rows 4-14 of")));
}

//! Hand-outs with recordings (issue 35, item 5), in headless Chromium: an instructor's manifest names a kernel
//! file with the recording of a session on it, and a whole program's recording given alone. The page lists
//! both; each opens at the recording's end with every recorded event applied (the program's in the page's
//! worker, its host code run again up to the recorded launch) on the screen the recorded debugger draws at
//! the page's size, and goes on live from there: a step forward, and for the program a move back to the
//! launch before, read against `warpdbg view FILE --launch K --steps N`.
//!
//! The page's WebAssembly must be built first (`bash .ci/page`, which `.ci/test` runs).

mod browser;
mod common;
mod session_support;

use std::path::Path;

use browser::{Browser, export_playground};
use serde_json::json;
use session_support::{Input, norm, record_app, record_headless, repo, scratch};
use warpdbg::tui::action::Action;
use warpdbg::tui::app::App;
use warpdbg::tui::{scroll, view};

const PROGRAM: &str = "tests/programs/reduction.cu";

/// What the recorded debugger draws at the page's size, as the page's screen is read.
fn screen_of(mut app: App, (cols, rows): (u64, u64)) -> Vec<String> {
    app.size = (cols as u16, rows as u16);
    scroll::keep_cursor_visible(&mut app);
    norm(&view::render_text(&app, cols as u16, rows as u16))
}

/// Records `actions` on the whole program `PROGRAM` from its first launch to `out`, as `warpdbg PROGRAM
/// --record` does; returns the debugger at the recording's end.
fn record_program(actions: &[Action], out: &Path) -> App {
    let mut app = common::ui::program_app(PROGRAM, 1, &[]);
    app.size = (120, 40);
    let header = warpdbg::cli::recording_header(PROGRAM.into(), &app, &warpdbg::cli::LaunchArgs::default());
    let inputs: Vec<Input> = actions.iter().map(|a| Input::Act(*a)).collect();
    record_app(app, &header, &inputs, out)
}

/// Waits until the page shows a whole program's screen at `launch`, `steps` in, with nothing running.
fn wait_program(b: &mut Browser, launch: u64, steps: u64) {
    b.wait_until(
        &format!(
            "window.warpdbgProgramScreen !== undefined && !window.warpdbg.busy() && window.warpdbg.launch() === \
             {launch} && window.warpdbg.steps() === {steps}"
        ),
        &format!("the program at launch {launch}, step {steps}"),
    );
}

#[test]
fn a_handouts_recordings_open_at_their_end_and_go_on_live() {
    let Some(wasm) = browser::playground_wasm() else { return };
    let dir = scratch("playground_handout_recording");
    std::fs::copy(repo("kernels/deadlock.cu"), dir.join("deadlock.cu")).unwrap();
    use Action::*;
    let kernel_inputs: Vec<Input> = [Step, Step, Step, Step, StepBack, Step, Step].map(Input::Act).to_vec();
    let kernel_app = record_headless("kernels/deadlock.cu", &kernel_inputs, &dir.join("lesson.wdbg"));
    let kernel_steps = kernel_app.session.machine.steps;
    assert_eq!(kernel_steps, 5);
    let program_app = record_program(&[Step, Step, Continue, NextLaunch, Step, Step, Step], &dir.join("program.wdbg"));
    assert_eq!(program_app.program.as_ref().and_then(|p| p.current), Some(2), "the second launch");
    let program_steps = program_app.session.machine.steps;
    assert_eq!(program_steps, 3);
    std::fs::write(
        dir.join("week.ron"),
        "(exercises: [(file: \"deadlock.cu\", recording: \"lesson.wdbg\"), (recording: \"program.wdbg\")])",
    )
    .unwrap();
    let page = dir.join("week.html");
    export_playground(&dir, &page, &["--handout", "week.ron"], &wasm);
    let url = format!("file://{}", page.display());

    let mut b = Browser::launch(&dir.join("profile"));
    b.open(&url);
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the first screen");
    let groups = b.eval(
        "[...document.querySelectorAll('#files optgroup')].map(g => g.label + ': ' + \
         [...g.children].slice(0, 2).map(o => o.textContent).join(', '))",
    );
    assert_eq!(groups[0], json!("exercises: deadlock.cu, program.wdbg"));
    let size = b.size();

    // The first exercise: the kernel file, at its recording's end, on the recorded debugger's screen.
    assert_eq!(b.eval("window.warpdbg.steps()"), json!(kernel_steps));
    assert_eq!(
        b.eval("document.getElementById('source').value"),
        json!(std::fs::read_to_string(dir.join("deadlock.cu")).unwrap())
    );
    assert_eq!(b.screen(), screen_of(kernel_app, size));
    // Live from there: one more step is the screen `warpdbg view deadlock.cu --steps 6` prints.
    b.key("s");
    assert_eq!(b.eval("window.warpdbg.steps()"), json!(kernel_steps + 1));
    assert_eq!(b.screen(), browser::view(&dir, "deadlock.cu", &["--steps", "6"], size, &[]));

    // The program's recording, opened in the worker at launch 2 (the page counts from 1), three steps in.
    b.pick("program.wdbg");
    wait_program(&mut b, 2, program_steps);
    assert_eq!(b.screen(), screen_of(program_app, size));
    b.key("s");
    wait_program(&mut b, 2, program_steps + 1);
    assert_eq!(b.screen(), browser::view(&repo(""), PROGRAM, &["--launch", "2", "--steps", "4"], size, &[]));
    // (The recording's header names the program as it was given, `tests/programs/reduction.cu`, and its
    // host code sees that name as argv[0], so `view` is given the same name.)
    // Back to the first launch: its host code runs again in the worker.
    b.key("P");
    b.wait_until(
        "window.warpdbgProgramScreen !== undefined && !window.warpdbg.busy() && window.warpdbg.launch() === 1",
        "the first launch",
    );
    let steps = b.eval("window.warpdbg.steps()").as_u64().expect("a step count");
    let screen = b.screen();
    let expected = browser::view(&repo(""), PROGRAM, &["--launch", "1", "--steps", &steps.to_string()], size, &[]);
    // The footer says where `P` went (the terminal's says so too after `P`; `view` opens there directly).
    assert!(screen[screen.len() - 1].starts_with(" back at launch 1: sumNeighbored<<<32, 128>>>"), "{screen:#?}");
    assert_eq!(screen[..screen.len() - 1], expected[..expected.len() - 1]);
}

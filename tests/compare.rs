//! The side-by-side comparison (issue 10, part 1): the UI-free core (`warpdbg::debug::compare`: the first point
//! where pre-Volta and ITS differ, how each ends, the lockstep-by-line rule), the split view driven by keys
//! as the event loop drives it and drawn into a ratatui `TestBackend` (snapshots under `tests/snapshots/`,
//! read and checked by hand), the `v` key, small screens, and `warpdbg view --compare`.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::{TerminalOptions, Viewport};
use warpdbg::cli::LaunchArgs;
use warpdbg::debug::compare::{Compare, ITS, PRE_VOLTA, WarpAt, What};
use warpdbg::debug::session::Stop;
use warpdbg::sim::inspect::WarpState;
use warpdbg::sim::{Config, LaneMask, Outcome, WaitKind};
use warpdbg::tui::theme::BannerKind;
use warpdbg::tui::{scroll, update, view};

mod common;

use common::ui::Tui;

const SPIN_LOCK: &str = "kernels/spin_lock.cu";
const DEADLOCK: &str = "kernels/deadlock.cu";
const EVEN: LaneMask = LaneMask(0x5555_5555);
const ODD: LaneMask = LaneMask(0xaaaa_aaaa);

fn compiled(file: &str) -> warpdbg::compile::Compiled {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    warpdbg::cli::load(&path, &LaunchArgs::default()).unwrap_or_else(|_| panic!("{file} compiles"))
}

fn compare(file: &str) -> Compare {
    Compare::new(&compiled(file), &Config::default()).expect("launch fits")
}

fn at(line: u32, active: LaneMask, state: WarpState) -> Option<WarpAt> {
    Some(WarpAt { line: Some(line), active, state })
}

fn memory(c: &Compare, side: usize, name: &str) -> Vec<String> {
    let end = &c.ends[side];
    end.memory.iter().find(|(n, _, _)| n == name).unwrap_or_else(|| panic!("array {name}")).2.clone()
}

// ---------------------------------------------------------------------------------------------------------
// The core.

#[test]
fn spin_lock_first_difference_is_the_lock_winner_running_under_its() {
    let c = compare(SPIN_LOCK);
    let d = c.first.as_ref().expect("the models differ");
    // Steps 1-9: all 32 lanes run the CAS loop once, lane 0 wins, lanes 1-31 go round once more, identically
    // in both models. After step 9, at the back edge, ITS yields to lane 0 (the winner, on line 20); pre-Volta
    // keeps lanes 1-31 on the top of the SIMT stack, spinning on line 17.
    assert_eq!(d.steps, [9, 9]);
    assert_eq!(
        d.what,
        What::Warp {
            block: 0,
            warp: 0,
            sides: [at(17, LaneMask(0xffff_fffe), WarpState::Diverged), at(20, LaneMask(1), WarpState::Diverged)],
        }
    );
    assert_eq!(d.lines(), [Some(17), Some(20)]);
    assert_eq!(
        d.text,
        "After step 9 the models part at warp 0 of block 0: under pre-Volta lanes 1-31 run line 17 next, under ITS \
         lane 0 runs line 20 next."
    );
    // How each side stops: pre-Volta livelocks with lanes 1-31 spinning on line 17, ITS completes.
    let pre = &c.ends[PRE_VOLTA];
    assert_eq!(pre.steps, 23552);
    let Some(Outcome::Livelock(stuck)) = &pre.outcome else { panic!("pre-Volta livelocks: {:?}", pre.outcome) };
    let spin = stuck.waits.iter().find(|w| w.kind == WaitKind::Spin).expect("a spin wait");
    assert_eq!((spin.line, spin.tids.clone()), (17, (1..32).collect::<Vec<u32>>()));
    assert_eq!((c.ends[ITS].steps, &c.ends[ITS].outcome), (474, &Some(Outcome::Completed)));
    assert_eq!((memory(&c, PRE_VOLTA, "counter"), memory(&c, PRE_VOLTA, "lock")), (vec!["0".into()], vec!["1".into()]));
    assert_eq!((memory(&c, ITS, "counter"), memory(&c, ITS, "lock")), (vec!["32".into()], vec!["0".into()]));
    assert_eq!(
        c.verdict,
        "pre-Volta livelocks at step 23552 (SIMT-induced deadlock: threads 1-31 spin on line 17 forever), while ITS \
         completes at step 474, leaving lock = 0, counter = 32."
    );
}

#[test]
fn deadlock_first_difference_is_its_switching_to_the_odd_loop() {
    let c = compare(DEADLOCK);
    let d = c.first.as_ref().expect("the models differ");
    // Both warps diverge at line 21 and run the even side's loop identically until warp 0's first back edge
    // (step 33): there ITS yields to the odd threads (line 32), pre-Volta goes round the even loop (line 24).
    assert_eq!(d.steps, [33, 33]);
    assert_eq!(
        d.what,
        What::Warp { block: 0, warp: 0, sides: [at(24, EVEN, WarpState::Diverged), at(32, ODD, WarpState::Diverged)] }
    );
    assert_eq!(d.lines(), [Some(24), Some(32)]);
    // ITS deadlocks with the even threads at the barrier on line 28 and the odd ones at line 37.
    let its = &c.ends[ITS];
    assert_eq!(its.steps, 380);
    let Some(Outcome::Deadlock(stuck)) = &its.outcome else { panic!("ITS deadlocks: {:?}", its.outcome) };
    let waits: Vec<(u32, WaitKind, Vec<u32>)> = stuck.waits.iter().map(|w| (w.line, w.kind, w.tids.clone())).collect();
    assert_eq!(
        waits,
        vec![
            (28, WaitKind::Barrier, (0..64).step_by(2).collect()),
            (37, WaitKind::Barrier, (1..64).step_by(2).collect()),
        ]
    );
    assert!(its.hazards.is_empty(), "{:?}", its.hazards);
    // pre-Volta completes, with the divergent-barrier hazard at both barriers.
    let pre = &c.ends[PRE_VOLTA];
    assert_eq!((pre.steps, &pre.outcome), (426, &Some(Outcome::Completed)));
    assert_eq!(pre.hazards, vec![("divergent_barrier", 28), ("divergent_barrier", 37)]);
    assert_eq!(memory(&c, PRE_VOLTA, "out")[..2], ["28".to_string(), "11449".to_string()]);
    assert!(memory(&c, ITS, "out").iter().all(|v| v == "0"), "ITS never gets past the barriers");
    assert_eq!(
        c.verdict,
        "ITS deadlocks at step 380, its threads waiting at the barriers on lines 28 and 37, while pre-Volta \
         completes at step 426 with a divergent-barrier hazard on lines 28 and 37."
    );
}

#[test]
fn kernels_without_divergence_do_not_differ() {
    let c = compare("kernels/vec_add.cu");
    assert_eq!(c.first, None);
    assert_eq!(c.ends[PRE_VOLTA], c.ends[ITS]);
    assert_eq!(c.verdict, "Both models end the same way: each completes at step 512.");
}

#[test]
fn a_seeded_schedule_is_compared_under_the_same_seed() {
    // Seeded ITS also draws the side of a branch that runs first: the sides may differ earlier, never later.
    let c = Compare::new(&compiled(DEADLOCK), &Config { schedule_seed: Some(3), ..Config::default() })
        .expect("launch fits");
    let d = c.first.as_ref().expect("the models differ");
    assert!(d.steps[0] <= 33 && d.steps[0] == d.steps[1], "{:?}", d.steps);
    assert!(matches!(c.ends[ITS].outcome, Some(Outcome::Deadlock(_))));
}

#[test]
fn stepping_by_line_stops_at_the_first_difference_then_each_side_goes_its_way() {
    let mut c = compare(SPIN_LOCK);
    // Warp 0 stays on line 17 in pre-Volta forever: without the stop at the difference one press would run
    // pre-Volta into its livelock.
    let stops = c.step_line(0, 0, 100_000);
    assert_eq!(stops, [Stop::Stepped, Stop::Stepped]);
    assert_eq!(c.steps(), [9, 9]);
    assert!(c.at_difference());
    assert!(c.warp_differs(0, 0));
    // Past it, each side goes one line of warp 0: ITS runs line 20 (3 instructions) and is about to run 23;
    // pre-Volta never leaves line 17 and stops in its livelock.
    let stops = c.step_line(0, 0, 100_000);
    assert!(matches!(stops[PRE_VOLTA], Stop::Finished(Outcome::Livelock(_))), "{stops:?}");
    assert_eq!(stops[ITS], Stop::Stepped);
    assert_eq!(c.steps(), [23552, 12]);
    assert_eq!(c.warp(0, 0)[ITS].and_then(|w| w.line), Some(23));
    assert!(!c.at_difference());

    let mut c = compare(DEADLOCK);
    let mut presses = 0;
    while !c.at_difference() {
        let before = c.steps();
        c.step_line(0, 0, 100_000);
        let [a, b] = c.steps();
        assert_eq!(a, b, "in step until they differ");
        assert!(a > before[0] && a <= 33, "{before:?} -> {a}");
        presses += 1;
        assert!(presses < 20, "never reached the difference");
    }
    // Lines 19, 21, 23 and the loop's lines 24, 25, 24: the difference is at the back edge.
    assert_eq!((c.steps(), presses > 3), ([33, 33], true));
}

#[test]
fn continue_goes_to_the_difference_then_to_each_end_and_restart_goes_back() {
    let mut c = compare(DEADLOCK);
    c.cont();
    assert_eq!(c.steps(), [33, 33]);
    c.cont();
    assert_eq!(c.steps(), [426, 380]);
    assert_eq!(c.sides[PRE_VOLTA].machine.outcome(), Some(&Outcome::Completed));
    assert!(matches!(c.sides[ITS].machine.outcome(), Some(Outcome::Deadlock(_))));
    c.step_back();
    assert_eq!(c.steps(), [425, 379]);
    c.restart();
    assert_eq!(c.steps(), [0, 0]);
    let mut c = compare(SPIN_LOCK);
    c.cont();
    c.cont();
    assert_eq!(c.steps(), [23552, 474]);
    assert!(matches!(c.sides[PRE_VOLTA].machine.outcome(), Some(Outcome::Livelock(_))));
}

// ---------------------------------------------------------------------------------------------------------
// The split view.

/// The steps each side of the split view has run.
fn sides(t: &Tui) -> [u64; 2] {
    t.app.compare.as_ref().expect("comparing").steps()
}

#[test]
fn split_view_spin_lock_snapshots() {
    let mut t = Tui::open(SPIN_LOCK, &[], 120, 40);
    t.press("v");
    t.press("c");
    assert_eq!(sides(&t), [9, 9]);
    let text = t.text();
    assert!(text.contains("Both sides are here."), "{text}");
    insta::assert_snapshot!("spin_lock_at_first_difference_120x40", t.terminal.backend());
    // The differing warp row is marked in the warning colours on both sides.
    let buf = t.terminal.backend().buffer();
    let marks: Vec<(u16, u16)> = (0..40u16)
        .flat_map(|y| (0..120u16).map(move |x| (x, y)))
        .filter(|&(x, y)| buf[(x, y)].symbol() == "≠")
        .collect();
    assert!(marks.len() >= 4, "two source lines and two warp rows: {marks:?}");
    let warn = t.app.theme.banner(BannerKind::Warn);
    for (x, y) in marks {
        assert_eq!(buf[(x, y)].bg, warn.bg.expect("a background"), "≠ at ({x},{y})");
    }
    t.press("c");
    assert_eq!(sides(&t), [23552, 474]);
    insta::assert_snapshot!("spin_lock_at_the_ends_120x40", t.terminal.backend());
}

#[test]
fn split_view_deadlock_snapshots() {
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    t.press("v");
    insta::assert_snapshot!("deadlock_compare_open_120x40", t.terminal.backend());
    t.press("c");
    assert_eq!(sides(&t), [33, 33]);
    insta::assert_snapshot!("deadlock_at_first_difference_120x40", t.terminal.backend());
    t.press("c");
    assert_eq!(sides(&t), [426, 380]);
    insta::assert_snapshot!("deadlock_at_the_ends_120x40", t.terminal.backend());
}

#[test]
fn the_compare_key_toggles_the_split_view() {
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    assert!(t.text().contains("Warp detail"));
    t.press("v");
    assert!(t.app.compare.is_some());
    let text = t.text();
    assert!(text.contains(" COMPARE ") && text.contains("pre-Volta (SIMT stack) · step 0"), "{text}");
    assert!(text.contains("ITS (Volta+) · step 0") && !text.contains("Warp detail"), "{text}");
    // The stepping keys move both sides and leave the debugger's own session alone.
    t.press("s");
    t.press("n");
    let [a, b] = sides(&t);
    assert!(a == b && a > 1, "{a} {b}");
    assert_eq!(t.app.session.machine.steps, 0);
    // Keys the comparison does not use say how to leave it.
    t.press("b");
    assert!(t.app.session.breakpoints.is_empty());
    assert!(t.text().contains("not in the comparison: v closes it"), "{}", t.text());
    t.press("v");
    assert!(t.app.compare.is_none());
    let text = t.text();
    assert!(text.contains("Warp detail") && !text.contains(" COMPARE "), "{text}");
    assert!(text.contains("comparison closed"), "{text}");
    // It opens at the debugger's step, and the help lists the key.
    press_s(&mut t, 5);
    t.press("v");
    assert_eq!(sides(&t), [5, 5]);
    // The key list is longer than the screen; its last page lists the comparison.
    t.press("?");
    t.press("end");
    assert!(t.text().contains("v  compare pre-Volta and ITS side by side"), "{}", t.text());
}

fn press_s(t: &mut Tui, n: usize) {
    for _ in 0..n {
        t.press("s");
    }
}

#[test]
fn the_split_view_fits_any_screen_without_panicking() {
    let mut states = vec![];
    for file in [SPIN_LOCK, DEADLOCK] {
        for presses in 0..3 {
            let mut app = common::ui::new_app(file, &[], "dark");
            update::update(&mut app, warpdbg::tui::action::Action::Compare);
            for _ in 0..presses {
                update::update(&mut app, warpdbg::tui::action::Action::Continue);
            }
            states.push((format!("{file} after {presses} continues"), app));
        }
    }
    let mut sizes = vec![];
    for cols in [20u16, 21, 33, 40, 59, 80, 100, 119, 160, 200, 250] {
        for rows in [5u16, 6, 7, 9, 12, 17, 24, 40, 55, 70] {
            sizes.push((cols, rows));
        }
    }
    for (name, mut app) in states {
        for &(cols, rows) in &sizes {
            app.size = (cols, rows);
            scroll::keep_cursor_visible(&mut app);
            // The screen sits inside a larger terminal: nothing may be drawn outside it.
            let area = Rect::new(2, 1, cols, rows);
            let backend = TestBackend::new(cols + 4, rows + 2);
            let mut term =
                Terminal::with_options(backend, TerminalOptions { viewport: Viewport::Fixed(area) }).expect("term");
            term.draw(|f| view::draw(f, &app)).unwrap_or_else(|e| panic!("{name} at {cols}x{rows}: {e}"));
            let buf = term.backend().buffer();
            for y in 0..buf.area.height {
                for x in 0..buf.area.width {
                    if !area.contains((x, y).into()) {
                        assert_eq!(buf[(x, y)], ratatui::buffer::Cell::default(), "{name} at {cols}x{rows}: ({x},{y})");
                    }
                }
            }
            let text = view::buffer_text(buf);
            assert!(text.contains("warpdbg"), "{name} at {cols}x{rows}: no title\n{text}");
        }
    }
}

#[test]
fn view_compare_prints_the_split_view() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_warpdbg"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["view", SPIN_LOCK, "--compare", "--steps", "9", "--size", "120x40"])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8(out.stdout).expect("utf-8");
    // The same screen as the TUI at the same point.
    let mut t = Tui::open(SPIN_LOCK, &[], 120, 40);
    t.press("v");
    t.press("c");
    assert_eq!(printed, t.text());
    assert!(printed.contains("FIRST DIFFERENCE · after step 9"), "{printed}");
    assert!(printed.contains("pre-Volta livelocks at step 23552"), "{printed}");
}

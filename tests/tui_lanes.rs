//! The Lanes pane and the `:` command line on screen (ratatui `TestBackend` + insta): `:p` and `:w`
//! expressions across the selected warp's lanes, every warp of the block (`A`), a bad expression's caret,
//! the selected lane driving the detail pane's values, and a stop selecting the thread it is about.

mod common;
mod session_support;

use common::ui::Tui;
use warpdbg::tui::app::{Overlay, PromptKind};

const TILE: &str = "tests/fixtures/ask/tile_shift.cu";
const UNGUARDED: &str = "tests/fixtures/ask/vec_unguarded.cu";

/// The tile kernel at its first stop on the line where odd columns store.
fn at_odd_store() -> Tui {
    let mut t = Tui::open(TILE, &[], 120, 40);
    t.press(":");
    t.type_text("d");
    t.press("enter");
    let line = common::line_of(TILE, "out[gid] = tile[ty][tx] - left;");
    t.press("B");
    t.type_text(&format!("line {line}"));
    t.press("enter");
    t.press("c");
    t
}

fn command(t: &mut Tui, text: &str) {
    t.press(":");
    t.type_text(text);
    t.press("enter");
}

#[test]
fn lanes_table_of_a_warp() {
    let mut t = at_odd_store();
    command(&mut t, "p tile[ty][tx] - left");
    let text = t.text();
    assert!(text.contains("tile[ty][tx] - left = 0.5   (thread (1,0,0) of block (1,0,0), lane 1 of warp 0)"), "{text}");
    command(&mut t, "w gid");
    command(&mut t, "w tx % 2 == 1 ? left : -left");
    insta::assert_snapshot!("lanes_warp_120x40", t.terminal.backend());
    // The selected lane's cell follows `>`, and the detail pane's values are that thread's.
    t.press_all(&[">", ">"]);
    let text = t.text();
    assert!(text.contains("lane 3 (thread 3): active"), "{text}");
    assert!(text.contains("bias=3  tx=3  ty=0  gid=35  left=17.0"), "{text}");
    assert!(text.contains(" 1 gid = 35  (lane 3)"), "{text}");
}

#[test]
fn lanes_table_of_every_warp() {
    let mut t = at_odd_store();
    command(&mut t, "w in[gid] * 2");
    t.press("A");
    insta::assert_snapshot!("lanes_all_warps_120x40", t.terminal.backend());
    t.press("x");
    assert!(!t.app.lanes.open && t.text().contains("╭ Memory"));
    t.press("x");
    assert!(t.text().contains("╭ Lanes · block (1,0,0) · all warps (warp 0 >)"));
}

#[test]
fn a_bad_expression_keeps_the_prompt_with_a_caret() {
    let mut t = at_odd_store();
    t.press(":");
    t.type_text("p tile[ty][tx] + lft");
    t.press("enter");
    assert!(
        matches!(&t.app.overlay, Some(Overlay::Prompt { kind: PromptKind::Goto, text }) if text == "p tile[ty][tx] + lft")
    );
    insta::assert_snapshot!("expression_prompt_error_120x40", t.terminal.backend());
    // Fixing it answers it.
    for _ in 0..3 {
        t.press("backspace");
    }
    t.type_text("left");
    t.press("enter");
    assert_eq!(t.app.overlay, None);
    assert!(t.text().contains("tile[ty][tx] + left = 32.5"), "{}", t.text());
    // Deleting watches.
    command(&mut t, "w gid");
    command(&mut t, "d 1");
    assert!(t.app.lanes.watches.is_empty() && t.text().contains("watch 1 (`gid`) deleted"));
    command(&mut t, "x 1");
    assert!(t.text().contains("type a step number, p EXPR (print), w EXPR (watch) or d N"), "{}", t.text());
}

#[test]
fn a_fault_selects_the_faulting_thread() {
    let mut t = Tui::open_program(UNGUARDED, 120, 40);
    t.press("c");
    let text = t.text();
    assert!(text.contains("╭ Warp detail · block (3,0,0) warp 7"), "{text}");
    assert!(text.contains("lane 8 (thread 232): active"), "{text}");
    assert!(text.contains("count=1000  idx=1000"), "{text}");
    // The banner gives the hint `warpdbg run` gives: the guard, in the kernel's names.
    assert!(
        text.contains("┃Hint: add `if (idx < count)` around the body of sumArrays: the grid has 4 x 256"),
        "{text}"
    );
    command(&mut t, "p x[idx - 8]");
    assert!(
        t.text().contains("x[idx - 8] = 992.0   (thread (232,0,0) of block (3,0,0), lane 8 of warp 7)"),
        "{}",
        t.text()
    );
}

#[test]
fn a_conditional_breakpoint_selects_the_thread_it_holds_for() {
    let mut t = Tui::open(TILE, &[], 120, 40);
    let line = common::line_of(TILE, "float left");
    t.press("B");
    t.type_text(&format!("line {line} if tid == 13"));
    t.press("enter");
    t.press("c");
    let text = t.text();
    assert!(text.contains("lane 13 (thread 13)"), "{text}");
    assert!(text.contains("thread 13: "), "{text}");
}

#[test]
fn watches_are_recorded_and_replayed() {
    use session_support::{Input, record_headless, scratch};
    use warpdbg::tui::action::Action;
    use warpdbg::tui::keymap::Keymap;
    use warpdbg::tui::recording::{EventKind, Recording};
    use warpdbg::tui::replay;

    let file = scratch("lanes-recording").join("watch.wdbg");
    let inputs =
        [Input::Act(Action::Step), Input::Command("w tid * 2"), Input::Command("p tid"), Input::Act(Action::Step)];
    let live = record_headless("kernels/deadlock.cu", &inputs, &file);
    assert_eq!(live.lanes.watches, ["tid * 2"]);
    let rec = Recording::load(&file).expect("the recording loads");
    let commands: Vec<&str> = rec
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Command { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(commands, ["w tid * 2", "p tid"]);
    let mut app = replay::start_app(&rec, Keymap::default_map(), None).expect("replays");
    for (i, e) in rec.events.iter().enumerate() {
        assert_eq!(replay::apply_event(&mut app, e, i), None, "event {i} replays as recorded");
    }
    assert_eq!(
        (app.lanes.watches.clone(), app.lanes.printed.clone()),
        (vec!["tid * 2".to_string()], Some("tid".to_string()))
    );
    assert!(app.outbox.iter().all(|e| !matches!(e, EventKind::Command { .. })), "replaying records nothing");
    let text = warpdbg::tui::view::render_text(&app, 120, 40);
    assert!(text.contains(" p tid = 0  (lane 0)") && text.contains(" 1 tid * 2 = 0  (lane 0)"), "{text}");
}

#[test]
fn a_fault_the_evidence_does_not_explain_gets_no_hint_in_the_banner() {
    // `a[2 * i]`: neither the allocation's size nor a missing guard is the bug.
    let mut t = Tui::open_program("tests/programs/hints/wrong_index.cu", 120, 40);
    t.press("c");
    let text = t.text();
    assert!(text.contains("FAULT"), "{text}");
    assert!(!text.contains("Hint:"), "{text}");
}

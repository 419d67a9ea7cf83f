//! The TUI's teaching views, driven as a user drives them (key -> keymap -> action -> update, then a frame
//! drawn into a ratatui `TestBackend`): why a selected lane is inactive, the jump back to the branch that
//! masked it, and the shared-memory bank view. Snapshots under `tests/snapshots/` were read and checked.

use ratatui::style::Modifier;
use warpdbg::sim::Outcome;
use warpdbg::tui::app::Pane;

mod common;

use common::ui::Tui;

const FIG49: &str = "tests/conformance/fig49.cu";
const BANKS: &str = "tests/conformance/bank_conflicts.cu";

fn open(file: &str) -> Tui {
    Tui::open(file, &[], 120, 40)
}

fn press_n(t: &mut Tui, key: &str, n: usize) {
    for _ in 0..n {
        t.press(key);
    }
}

/// The rows of the detail pane (inside its border).
fn detail_pane(t: &Tui) -> String {
    let (y0, x0) = t.find("╭ Warp detail").expect("the detail pane is drawn");
    let screen = t.text();
    let rows: Vec<String> = screen
        .lines()
        .skip(y0 as usize + 1)
        .take_while(|l| l.chars().nth(x0 as usize).is_none_or(|c| c != '╰'))
        .map(|l| l.chars().skip(x0 as usize + 1).collect::<String>().trim_end_matches(['│', ' ']).to_string())
        .collect();
    rows.join("\n")
}

/// fig49 after 4 steps: the `if (tid < 24)` on line 7 has just issued and split the warp.
fn fig49_diverged() -> Tui {
    let mut t = open(FIG49);
    press_n(&mut t, "s", 4);
    assert_eq!(t.steps(), 4);
    t
}

#[test]
fn a_masked_lane_names_its_branch_and_rejoin_line() {
    let mut t = fig49_diverged();
    assert!(!detail_pane(&t).contains("lane "), "no lane is selected before a lane key:\n{}", detail_pane(&t));
    // `.` picks lane 0, then 26 more presses reach lane 26; `<` and `>` move the same cursor.
    press_n(&mut t, ".", 27);
    t.press(">");
    t.press("<");
    assert_eq!(t.app.lane, Some(26));
    let detail = detail_pane(&t);
    assert!(detail.contains("lane 26 (thread 26): inactive"), "{detail}");
    assert!(detail.contains("masked by the `if` on line 7 (`tid < 24`)"), "{detail}");
    assert!(detail.contains("it was false for this thread (tid=26); waits at line 10"), "{detail}");
    assert!(detail.contains("rejoins at line 12 · J: back to step 3"), "{detail}");
    // The lane's cell is highlighted in the lane bars (ITS: the group at line 8, then the one at line 10).
    let (y, x) = t.find("    ░░░░░░░░░░░░░░░░░░░░░░░░████████ 24-31").expect("the else side's lane bar");
    let buf = t.terminal.backend().buffer();
    assert!(buf[(x + 4 + 26, y)].modifier.contains(Modifier::REVERSED), "lane 26 is highlighted");
    assert!(!buf[(x + 4 + 25, y)].modifier.contains(Modifier::REVERSED), "lane 25 is not");
    insta::assert_snapshot!("teaching_fig49_lane26_masked", t.terminal.backend());
}

#[test]
fn an_active_lane_says_so_and_a_click_selects_a_lane() {
    let mut t = fig49_diverged();
    press_n(&mut t, ",", 27);
    assert_eq!(t.app.lane, Some(5), "`,` from nothing picks lane 31, then goes down");
    let detail = detail_pane(&t);
    assert!(detail.contains("lane 5 (thread 5): active"), "{detail}");
    assert!(detail.contains("runs line 8 with its warp's next instruction"), "{detail}");
    assert!(!detail.contains("masked by"), "{detail}");
    insta::assert_snapshot!("teaching_fig49_lane5_active", t.terminal.backend());
    // Clicking lane 30's cell in a lane bar selects it.
    let (y, x) = t.find("    ████████████████████████░░░░░░░░ 0-23").expect("the then side's lane bar");
    t.click(x + 4 + 30, y);
    assert_eq!(t.app.lane, Some(30));
    assert_eq!(t.app.focus, Pane::Detail);
    assert!(detail_pane(&t).contains("lane 30 (thread 30): inactive"), "{}", detail_pane(&t));
    // A click on the pane's text, not on a lane cell, leaves the lane alone.
    let (y, x) = t.find("Threads by PC").expect("detail header");
    t.click(x + 6, y);
    assert_eq!(t.app.lane, Some(30));
}

#[test]
fn the_jump_key_goes_back_to_the_masking_branch() {
    let mut t = fig49_diverged();
    // Lane 5 is active: nothing to jump to, and nothing moves.
    press_n(&mut t, ".", 6);
    t.press("J");
    assert_eq!(t.steps(), 4);
    assert!(t.text().contains("lane 5 is not masked by a divergent branch now"), "{}", t.text());
    press_n(&mut t, ".", 21);
    assert_eq!(t.app.lane, Some(26));
    let branch = t.app.current_why().and_then(|w| w.as_ref().ok()).and_then(|w| w.branch);
    assert_eq!(branch, Some((7, 4)), "the `if` on line 7 issued at step 4");
    t.press("J");
    assert_eq!(t.steps(), 3, "back to just before the branch issued");
    assert_eq!(t.app.cursor, 7);
    let screen = t.text();
    assert!(
        screen.contains("back to step 3: the branch on line 7 that masked lane 26 issues next (at step 4)"),
        "{screen}"
    );
    assert!(screen.contains(" 7 ▶  1w │     if (tid < 24) {"), "the warp is about to run line 7:\n{screen}");
    // There, before the split, lane 26 runs with its warp.
    assert!(detail_pane(&t).contains("lane 26 (thread 26): active"), "{}", detail_pane(&t));
    insta::assert_snapshot!("teaching_fig49_jumped_to_branch", t.terminal.backend());
    // Stepping once more splits the warp again and masks lane 26 by the same branch.
    t.press("s");
    assert!(detail_pane(&t).contains("masked by the `if` on line 7 (`tid < 24`)"), "{}", detail_pane(&t));
}

#[test]
fn the_bank_view_counts_wavefronts_and_shows_the_lane_to_bank_matrix() {
    let mut t = open(BANKS);
    t.press("K");
    assert!(t.text().contains("no shared-memory accesses yet"), "{}", t.text());
    t.press("c");
    assert_eq!(t.app.session.machine.outcome(), Some(&Outcome::Completed));
    let screen = t.text();
    assert!(screen.contains("Metrics · shared banks (64 conflicts)"), "{screen}");
    // line, accesses, wavefronts, conflicts (extra wavefronts), worst N-way.
    for row in [
        "   10        1          2         1  2-way",
        "   11        1         32        31 32-way",
        "   12        1          1         0  1-way",
        "   14        4         36        32 32-way",
    ] {
        assert!(screen.contains(row), "`{row}`:\n{screen}");
    }
    // The source cursor on line 11: its access puts all 32 lanes on bank 0, 32 distinct words.
    t.press("home");
    press_n(&mut t, "j", 10);
    assert_eq!(t.app.cursor, 11);
    let screen = t.text();
    assert!(screen.contains("line 11 (cursor), its last access: 32-way"), "{screen}");
    assert!(screen.contains("│    0    32  0-31 "), "{screen}");
    insta::assert_snapshot!("teaching_banks_line11", t.terminal.backend());
    // Line 10's stride-2 store: two lanes and two words on each even bank.
    t.press("k");
    let screen = t.text();
    assert!(screen.contains("line 10 (cursor), its last access: 2-way"), "{screen}");
    assert!(screen.contains("│    0     2  0,16 ") && screen.contains("│    2     2  1,17 "), "{screen}");
    // `K` again brings the divergence metrics back.
    t.press("K");
    assert!(t.text().contains("branch_efficiency") && !t.text().contains("shared banks"), "{}", t.text());
}

//! The TUI as a user meets it: an [`App`] driven the way the event loop drives it (key -> keymap -> action ->
//! update, then the continue ticks, then `keep_cursor_visible`), drawn by the real drawing code into a ratatui
//! `TestBackend`, and compared with snapshots under `tests/snapshots/` that were read and checked by hand.

use std::collections::HashMap;

use crossterm::event::{KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::{TerminalOptions, Viewport};
use warpdbg::front::launch::Mode;
use warpdbg::sim::Outcome;
use warpdbg::sim::inspect::WarpState;
use warpdbg::tui::action::Action;
use warpdbg::tui::app::{App, Overlay, Pane, PromptKind, WarpRef};
use warpdbg::tui::keymap::{KeyCodeRepr, Keymap};
use warpdbg::tui::view::layout::layout;
use warpdbg::tui::{scroll, update, view};

mod common;

use common::ui::{Tui, new_app};

const DEADLOCK: &str = "kernels/deadlock.cu";

/// Steps until warp 0 of block 0 has diverged (at most 100 instructions).
fn step_until_warp0_diverged(t: &mut Tui) {
    for _ in 0..100 {
        if t.selected_state() == WarpState::Diverged {
            return;
        }
        t.press("s");
    }
    panic!("warp 0 did not diverge within 100 steps");
}

/// The banner's rows (between its thick borders), joined by spaces.
fn banner_text(screen: &str) -> String {
    let rows: Vec<&str> = screen
        .lines()
        .filter(|l| l.starts_with('┃'))
        .map(|l| l.trim_start_matches('┃').trim_end_matches('┃').trim())
        .collect();
    rows.join(" ")
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn deadlock_at_open() {
    let t = Tui::open(DEADLOCK, &[], 120, 40);
    let screen = t.text();
    assert!(screen.contains("step 0") && screen.contains("paused"), "{screen}");
    assert!(screen.contains("mode ITS (Volta+)"), "{screen}");
    // Both warps ready on line 19 with all 32 lanes active; the cursor marker on line 19.
    assert_eq!(screen.matches(&format!("ready      19 {}", "█".repeat(32))).count(), 2, "{screen}");
    assert!(screen.contains("19 ▶  2w │     unsigned int tid = threadIdx.x;"), "{screen}");
    insta::assert_snapshot!("deadlock_open_120x40", t.terminal.backend());
}

#[test]
fn deadlock_mid_divergence() {
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    step_until_warp0_diverged(&mut t);
    let steps = t.steps();
    assert!(steps > 0 && steps < 100);
    let screen = t.text();
    // Even lanes active, odd lanes masked, and the reconvergence point (line 40) announced.
    assert!(screen.contains(&format!("0    0 diverged   23 {}", "█░".repeat(16))), "{screen}");
    assert!(screen.contains("⤓ reconverges at 40"), "{screen}");
    assert!(screen.contains("convergence barrier: lanes 0-31 reconverge at L40"), "{screen}");
    assert!(screen.contains("branches          1 (1 divergent)"), "{screen}");
    insta::assert_snapshot!("deadlock_mid_divergence_120x40", t.terminal.backend());
}

#[test]
fn deadlock_in_its_shows_the_whole_explanation() {
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    t.press("c");
    let Some(Outcome::Deadlock(stuck)) = t.app.session.machine.outcome().cloned() else { panic!("ITS deadlocks") };
    let screen = t.text();
    assert!(screen.contains("step 380") && screen.contains(" DEADLOCK "), "{screen}");
    assert!(screen.contains(" DEADLOCK: no thread can issue "), "{screen}");
    // Every word of the explanation is in the banner, none cut off by wrapping.
    assert_eq!(words(&banner_text(&screen)), words(&stuck.explanation), "{screen}");
    // Both warps are stuck and the other waiting line (37) is marked too.
    assert_eq!(screen.matches("stuck      28").count(), 2, "{screen}");
    insta::assert_snapshot!("deadlock_its_120x40", t.terminal.backend());
}

#[test]
fn waiting_lines_are_highlighted_at_the_deadlock() {
    let mut t = Tui::open(DEADLOCK, &[], 200, 60);
    t.press("c");
    let wait_bg = t.app.theme.wait_line.0;
    for line in ["28 ▶  2w", "37    2w"] {
        let (y, x) = t.find(line).unwrap_or_else(|| panic!("line {line} shown:\n{}", t.text()));
        assert_eq!(t.buffer()[(x + 12, y)].bg, wait_bg, "line `{line}` has the wait highlight");
    }
    let (y, x) = t.find(" 29       │").expect("line 29 shown");
    assert_ne!(t.buffer()[(x + 12, y)].bg, wait_bg, "line 29 is not a waiting line");
}

#[test]
fn pre_volta_divergent_barrier_hazard() {
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    t.press("c");
    assert_eq!(t.steps(), 380);
    // Same kernel, same step, other model: pre-Volta counts whole warps, so it runs on and completes.
    t.press("m");
    assert_eq!(t.app.session.mode(), Mode::PreVolta);
    assert_eq!(t.steps(), 380, "switching mode keeps the step");
    t.press("c");
    assert_eq!(t.app.session.machine.outcome(), Some(&Outcome::Completed));
    let screen = t.text();
    assert!(screen.contains("mode pre-Volta (SIMT stack)") && screen.contains(" completed "), "{screen}");
    assert!(screen.contains(" HAZARD "), "{screen}");
    let hazards = &t.app.session.machine.hazards;
    assert_eq!(hazards.len(), 2, "one hazard per barrier");
    let expect: Vec<String> = hazards.iter().map(|h| format!("hazard ({} times): {}", h.count, h.message)).collect();
    assert_eq!(words(&banner_text(&screen)), words(&expect.join(" ")), "{screen}");
    insta::assert_snapshot!("deadlock_pre_volta_hazard_120x40", t.terminal.backend());
}

#[test]
fn pre_volta_simt_stack_in_the_detail_pane() {
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    t.press("m");
    assert_eq!(t.app.session.mode(), Mode::PreVolta);
    step_until_warp0_diverged(&mut t);
    let screen = t.text();
    assert!(screen.contains("SIMT stack (top first): pc, reconvergence pc, mask"), "{screen}");
    assert!(screen.contains(" stk"), "the warps pane shows stack depth in pre-Volta:\n{screen}");
    insta::assert_snapshot!("deadlock_pre_volta_diverged_120x40", t.terminal.backend());
}

#[test]
fn help_overlay() {
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    t.press("?");
    assert_eq!(t.app.overlay, Some(Overlay::Help));
    let screen = t.text();
    // Every bound action is listed with its description, none cut off: 45 actions are more rows than 40, so
    // on this screen the list scrolls (j) to its end.
    assert!(screen.contains("1-38 of 47, j/↓ for more"), "{screen}");
    insta::assert_snapshot!("help_120x40", t.terminal.backend());
    let mut seen = screen;
    for _ in 0..9 {
        t.press("j");
        seen.push_str(&t.text());
    }
    for (a, keys) in t.app.keymap.by_action() {
        let row = format!("{}  {}", keys.join(" "), a.describe());
        assert!(seen.contains(&row), "help lists `{row}`:\n{seen}");
    }
    t.press("esc");
    assert_eq!(t.app.overlay, None);
    assert!(!t.text().contains("Help"), "Esc closes the help");
}

#[test]
fn help_overlay_scrolls_on_a_small_screen() {
    let mut t = Tui::open(DEADLOCK, &[], 80, 24);
    t.press("?");
    let first = t.text();
    assert!(first.contains("1-22 of 47, j/↓ for more"), "{first}");
    insta::assert_snapshot!("help_80x24", t.terminal.backend());
    // End scrolls to the last keys; the list stays open until Esc.
    t.press("end");
    assert_eq!(t.app.overlay, Some(Overlay::Help));
    let last = t.text();
    assert!(last.contains("q Ctrl-c  quit") && last.contains("Esc  close overlay"), "{last}");
    assert!(last.contains("26-47 of 47"), "{last}");
    t.press("k");
    assert!(t.text().contains("25-46 of 47"));
    t.press("esc");
    assert_eq!(t.app.overlay, None);
}

#[test]
fn layout_80x24() {
    let mut t = Tui::open(DEADLOCK, &[], 80, 24);
    t.press_all(&["s"; 20]);
    let screen = t.text();
    // The narrow warps pane packs two lanes per cell: a diverged warp (even lanes active) is half full.
    assert!(screen.contains("lanes (2/cell)"), "{screen}");
    assert_eq!(t.selected_state(), WarpState::Diverged);
    assert!(screen.contains(&format!("diverged   25 {} ", "▌".repeat(16))), "{screen}");
    assert!(screen.contains("step 20"), "{screen}");
    insta::assert_snapshot!("layout_80x24_step20", t.terminal.backend());
    t.press("c");
    let screen = t.text();
    // The state survives on a narrow title: the long names give way first.
    assert!(screen.lines().next().is_some_and(|l| l.ends_with("step 380   DEADLOCK")), "{screen}");
    // The explanation does not fit: its Fix: line stays on screen, the rest scrolls with `e` (issue 32: it
    // used to end in "... more lines (a taller window shows them all)", which no key scrolled).
    assert!(screen.contains("┃Fix: move __syncthreads() out of the divergent code"), "{screen}");
    assert!(screen.contains("… 4 more lines: e scrolls (lines 1-4 of 8)"), "{screen}");
    insta::assert_snapshot!("layout_80x24_deadlock", t.terminal.backend());
    t.press("e");
    let screen = t.text();
    assert!(screen.contains("┃Fix: move __syncthreads() out of the divergent code"), "{screen}");
    assert!(screen.contains("… lines 5-8 of 8: e goes back to the top"), "{screen}");
    assert!(screen.contains("GPUs; code that really branches hangs.)"), "the end of the explanation:\n{screen}");
}

#[test]
fn layout_200x60() {
    let mut t = Tui::open(DEADLOCK, &[], 200, 60);
    t.press("c");
    let screen = t.text();
    // Both waiting lines are on screen with the cursor.
    assert!(screen.contains("│ 28 ▶  2w │") && screen.contains("│ 37    2w │"), "{screen}");

    insta::assert_snapshot!("layout_200x60_deadlock", t.terminal.backend());
}

#[test]
fn growing_the_window_fills_the_source_pane() {
    let mut t = Tui::open(DEADLOCK, &[], 40, 12);
    t.press("G");
    assert_eq!(t.app.cursor, 40);
    // The event loop's resize: the new size, then keep_cursor_visible, then a frame.
    t.terminal.backend_mut().resize(120, 40);
    t.app.size = (120, 40);
    scroll::keep_cursor_visible(&mut t.app);
    t.draw();
    let screen = t.text();
    let rows: Vec<&str> = screen.lines().collect();
    let last = rows.iter().position(|l| l.starts_with("│ 40       │ }")).expect("line 40 shown");
    assert!(rows[last + 1].starts_with('╰'), "line 40 is the source pane's last row, no blank rows:\n{screen}");
    assert!(rows[2].starts_with("│ 16 "), "24 rows of source, 16 to 40:\n{screen}");
}

/// Colours of `themes/<name>.ron` read straight from the file (`key: "#rrggbb"`).
fn theme_file_colours(name: &str) -> HashMap<String, Color> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("themes/{name}.ron"));
    let text = std::fs::read_to_string(path).expect("theme file");
    let mut out = HashMap::new();
    for line in text.lines() {
        let Some((k, v)) = line.trim().split_once(':') else { continue };
        let v = v.trim().trim_end_matches(',').trim_matches('"');
        if let Some(hex) = v.strip_prefix('#') {
            let n = u32::from_str_radix(hex, 16).expect("hex colour");
            out.insert(k.trim().to_string(), Color::Rgb((n >> 16) as u8, (n >> 8) as u8, n as u8));
        }
    }
    out
}

#[test]
fn light_theme_colours() {
    let c = theme_file_colours("light");
    let mut t = Tui::open_themed(DEADLOCK, &[], "light", 120, 40);
    t.press_all(&["k", "b"]); // a breakpoint on line 18, the cursor line
    step_until_warp0_diverged(&mut t);
    let b = t.buffer().clone();
    let at = |needle: &str| t.find(needle).unwrap_or_else(|| panic!("`{needle}` on screen"));
    // The title's " warpdbg " badge, and the page's white background and dark text.
    assert_eq!((b[(1, 0)].symbol(), b[(1, 0)].fg, b[(1, 0)].bg), ("w", c["ok_fg"], c["ok_bg"]));
    let (y, x) = at("Threads by PC");
    assert_eq!((b[(x, y)].fg, b[(x, y)].bg), (c["dim"], c["background"]));
    let (y, x) = at("unsigned int tid");
    assert_eq!((b[(x, y)].fg, b[(x, y)].bg), (c["type_name"], c["background"]));
    // Warp 0's lanes: even lanes active, odd lanes masked.
    let (y, x) = at(&"█░".repeat(16));
    assert_eq!((b[(x, y)].fg, b[(x + 1, y)].fg), (c["active_lane"], c["inactive_lane"]));
    // The breakpoint dot, the focused pane's border, and the cursor-line highlight... (the cursor follows
    // the selected warp, on line 23; line 18 holds the breakpoint).
    let (y, x) = at("●18 ");
    assert_eq!(b[(x, y)].fg, c["breakpoint"]);
    assert_eq!(b[(0, 1)].fg, c["border_focused"], "the source pane has focus");
    let (y, x) = at("23 ▶");
    assert_eq!((b[(x, y)].fg, b[(x + 10, y)].bg), (c["warp_marker"], c["cursor"]));
    // At the deadlock, the banner is in the error colours.
    t.press("c");
    let b = t.buffer().clone();
    let (y, x) = t.find(" DEADLOCK ━").expect("banner");
    assert_eq!((b[(x + 1, y)].fg, b[(x + 1, y)].bg), (c["error_fg"], c["error_bg"]));
    assert_eq!(b[(x - 1, y)].fg, c["error_fg"], "the banner border");
    insta::assert_snapshot!("light_theme_deadlock_styles", style_map(&b));
}

/// The screen as one letter per cell naming its background (`.` the page, `E` error, `O` ok, `W` a waiting
/// line, `C` the cursor line, `S` the selection, `?` anything else): the light theme's colour layout.
fn style_map(b: &Buffer) -> String {
    let c = theme_file_colours("light");
    let names = [
        (c["background"], '.'),
        (c["error_bg"], 'E'),
        (c["ok_bg"], 'O'),
        (c["wait_line"], 'W'),
        (c["cursor"], 'C'),
        (c["selection"], 'S'),
    ];
    let mut out = String::new();
    for y in 0..b.area.height {
        for x in 0..b.area.width {
            let bg = b[(x, y)].bg;
            out.push(names.iter().find(|(c, _)| *c == bg).map_or('?', |(_, n)| *n));
        }
        out.push('\n');
    }
    out
}

/// The app in the states worth drawing: open, diverged, deadlocked (banner), with the help and a prompt.
fn states() -> Vec<(&'static str, App)> {
    let mut out = vec![];
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    out.push(("open", new_app(DEADLOCK, &[], "dark")));
    step_until_warp0_diverged(&mut t);
    let mut diverged = new_app(DEADLOCK, &[], "dark");
    update::goto_step(&mut diverged, t.steps());
    out.push(("diverged", diverged));
    let mut dead = new_app(DEADLOCK, &[], "dark");
    update::update(&mut dead, Action::Continue);
    update::finish_running(&mut dead);
    out.push(("deadlock", dead));
    let mut help = new_app(DEADLOCK, &[], "dark");
    update::goto_step(&mut help, 380);
    update::update(&mut help, Action::Help);
    out.push(("help", help));
    let mut prompt = new_app(DEADLOCK, &[], "dark");
    update::update(&mut prompt, Action::Goto);
    out.push(("prompt", prompt));
    let mut hazard = new_app(DEADLOCK, &[], "dark");
    update::update(&mut hazard, Action::SwitchMode);
    update::update(&mut hazard, Action::Continue);
    update::finish_running(&mut hazard);
    out.push(("hazard", hazard));
    out
}

#[test]
fn every_size_draws_inside_its_area_without_panicking() {
    let mut sizes = vec![];
    for cols in (20..=250).step_by(23).chain([21, 79, 80, 81, 110, 120, 200, 250]) {
        for rows in (5..=70).step_by(7).chain([6, 23, 24, 25, 34, 40, 60, 70]) {
            sizes.push((cols, rows));
        }
    }
    for (name, mut app) in states() {
        for &(cols, rows) in &sizes {
            app.size = (cols, rows);
            scroll::keep_cursor_visible(&mut app);
            // The screen sits inside a larger terminal: every cell outside it must stay untouched.
            let area = Rect::new(3, 2, cols, rows);
            let backend = TestBackend::new(cols + 6, rows + 4);
            let mut term =
                Terminal::with_options(backend, TerminalOptions { viewport: Viewport::Fixed(area) }).expect("term");
            term.draw(|f| {
                assert_eq!(f.area(), area);
                view::draw(f, &app)
            })
            .unwrap_or_else(|e| panic!("{name} at {cols}x{rows}: {e}"));
            let buf = term.backend().buffer();
            for y in 0..buf.area.height {
                for x in 0..buf.area.width {
                    if !area.contains((x, y).into()) {
                        assert_eq!(buf[(x, y)], Cell::default(), "{name} at {cols}x{rows} wrote at ({x},{y})");
                    }
                }
            }
            // The panes lie inside the screen and do not overlap.
            let a = layout(area, view::banner_height(&app, cols));
            let rects = [a.title, a.source, a.warps, a.detail, a.memory, a.metrics, a.banner, a.footer];
            for (i, r) in rects.iter().enumerate() {
                assert!(r.area() == 0 || area.union(*r) == area, "{name} at {cols}x{rows}: {r:?} outside {area:?}");
                for s in &rects[i + 1..] {
                    assert!(r.intersection(*s).area() == 0, "{name} at {cols}x{rows}: {r:?} overlaps {s:?}");
                }
            }
        }
    }
}

/// kernels/deadlock.cu with `--grid 4`: the same deadlock explained for each of 4 blocks, longer than the
/// banner shows.
fn deadlock_in_4_blocks(cols: u16, rows: u16) -> Tui {
    use warpdbg::debug::session::Session;
    let launch = warpdbg::cli::LaunchArgs { grid: Some("4".into()), ..Default::default() };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DEADLOCK);
    let compiled = warpdbg::cli::load(&path, &launch).expect("compiles");
    let session = Session::new(compiled, warpdbg::sim::Config::default()).expect("launch fits");
    let theme = warpdbg::tui::theme::Theme::load("dark").expect("built-in theme");
    Tui::with_app(App::new(session, Keymap::default_map(), theme), cols, rows)
}

/// What each action visibly does, checked by pressing every key of the default keymap on a fresh app.
fn check_action(key: &str, action: Action) {
    let what = format!("key `{key}` ({action:?})");
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    match action {
        Action::Step => {
            t.press(key);
            assert_eq!(t.steps(), 1, "{what}");
            assert!(t.text().contains("step 1 "), "{what}");
        }
        Action::StepBack => {
            t.press_all(&["s"; 5]);
            t.press(key);
            assert_eq!(t.steps(), 4, "{what}");
            assert!(t.text().contains("back to step 4"), "{what}");
        }
        Action::Goto => {
            t.press(key);
            assert!(matches!(t.app.overlay, Some(Overlay::Prompt { kind: PromptKind::Goto, .. })), "{what}");
            assert!(t.text().contains("go to step N, or p EXPR (print), w EXPR (watch), d N:"), "{what}");
            t.type_text("17");
            t.press("enter");
            assert_eq!((t.steps(), &t.app.overlay), (17, &None), "{what}");
        }
        Action::Note => {
            t.press(key);
            assert!(matches!(t.app.overlay, Some(Overlay::Prompt { kind: PromptKind::Note, .. })), "{what}");
            t.type_text("look here");
            t.press("enter");
            assert_eq!(t.app.note, Some((0, "look here".to_string())), "{what}");
            assert!(t.text().contains("note (step 0): look here"), "{what}");
        }
        Action::StepLine => {
            t.press(key);
            let s = t.app.selected.expect("selection");
            assert!(t.steps() > 0, "{what}");
            assert_ne!(t.app.session.warp_next_line(s.block, s.warp), Some(19), "{what}: left line 19");
        }
        Action::Continue => {
            t.press(key);
            assert!(matches!(t.app.session.machine.outcome(), Some(Outcome::Deadlock(_))), "{what}");
        }
        Action::ToggleBreakpoint | Action::Activate => {
            t.press("k");
            t.press(key);
            assert_eq!(t.app.session.breakpoints.iter().copied().collect::<Vec<_>>(), vec![18], "{what}");
            assert!(t.text().contains("│●18 "), "{what}");
            t.press(key);
            assert!(t.app.session.breakpoints.is_empty(), "{what}: pressed again removes it");
        }
        Action::ToggleBreakOnDivergence => {
            t.press(key);
            assert!(t.app.session.break_on_divergence, "{what}");
            assert!(t.text().contains("⑂ break on divergence"), "{what}");
            t.press("c");
            assert!(t.text().contains("a warp diverged at line 21"), "{what}");
            assert_eq!(t.app.cursor, 21, "{what}");
        }
        Action::NextWarp => {
            t.press(key);
            assert_eq!(t.app.selected, Some(WarpRef { block: 0, warp: 1 }), "{what}");
            assert!(t.text().contains("block (0,0,0) warp 1"), "{what}");
        }
        Action::PrevWarp => {
            t.press(key);
            assert_eq!(t.app.selected, Some(WarpRef { block: 0, warp: 1 }), "{what}: wraps around");
        }
        Action::NextBlock | Action::PrevBlock => {
            let mut t = Tui::open("kernels/reduce_neighbored.cu", &[], 120, 40);
            t.press(key);
            let expect = if action == Action::NextBlock { 1 } else { 15 };
            assert_eq!(t.app.selected, Some(WarpRef { block: expect, warp: 0 }), "{what}");
            assert!(t.text().contains(&format!("block ({expect},0,0) warp 0")), "{what}");
        }
        Action::Up | Action::Down | Action::PageUp | Action::PageDown | Action::Top | Action::Bottom => {
            assert_eq!(t.app.cursor, 19);
            t.press(key);
            let lines = t.app.source_lines().len() as u32;
            let want = match action {
                Action::Up => 18,
                Action::Down => 20,
                Action::PageUp => 1,
                Action::PageDown => 39,
                Action::Top => 1,
                _ => lines,
            };
            assert_eq!(t.app.cursor, want, "{what}");
        }
        Action::FocusNext | Action::FocusPrev => {
            t.press(key);
            let want = if action == Action::FocusNext { Pane::Warps } else { Pane::Metrics };
            assert_eq!(t.app.focus, want, "{what}");
        }
        Action::SwitchMode => {
            t.press("b");
            t.press_all(&["s"; 30]);
            t.press(key);
            assert_eq!(t.app.session.mode(), Mode::PreVolta, "{what}");
            assert_eq!(t.steps(), 30, "{what}: keeps the step");
            assert!(t.app.session.breakpoints.contains(&19), "{what}: keeps the breakpoints");
            assert!(t.text().contains("mode pre-Volta (SIMT stack)"), "{what}");
            t.press(key);
            assert_eq!((t.app.session.mode(), t.steps()), (Mode::Its, 30), "{what}: and back");
        }
        Action::Restart => {
            t.press("b");
            t.press("c");
            t.press(key);
            assert_eq!(t.steps(), 0, "{what}");
            assert!(t.app.session.breakpoints.contains(&19), "{what}: keeps the breakpoints");
            assert!(t.text().contains("restarted at step 0"), "{what}");
        }
        Action::NextTheme => {
            t.press(key);
            assert_eq!(t.app.theme.name, "light", "{what}");
            assert!(t.text().contains("theme light"), "{what}");
        }
        Action::Help => {
            t.press(key);
            assert_eq!(t.app.overlay, Some(Overlay::Help), "{what}");
            t.press(key);
            assert_eq!(t.app.overlay, None, "{what}: pressed again closes it");
        }
        Action::Close => {
            t.press("?");
            t.press(key);
            assert_eq!(t.app.overlay, None, "{what}");
            assert!(!t.text().contains("═ Help ═"), "{what}");
        }
        Action::Quit => {
            t.press(key);
            assert!(t.app.quit, "{what}");
        }
        Action::Compare => {
            t.press(key);
            assert!(t.app.compare.is_some(), "{what}");
            assert!(t.text().contains(" COMPARE "), "{what}");
            t.press(key);
            assert!(t.app.compare.is_none(), "{what}: pressed again closes it");
        }
        Action::BreakSpec => {
            t.press(key);
            assert!(matches!(t.app.overlay, Some(Overlay::Prompt { kind: PromptKind::Break, .. })), "{what}");
            t.type_text("line 34 if tid == 5 && k == 2");
            t.press("enter");
            assert!(t.text().contains("breakpoint set: line 34 if tid == 5 && k == 2"), "{what}");
            t.press("c");
            assert_eq!(t.steps(), 128, "{what}: stopped at thread 5's third iteration");
            assert!(
                t.text().contains("`line 34 if tid == 5 && k == 2` holds for thread 5 (warp 0 of block (0,0,0))"),
                "{what}"
            );
            t.press(key);
            t.type_text("line 28 if tid ==");
            t.press("enter");
            assert!(t.text().contains("bad breakpoint `line 28 if tid ==`: column 18: expected a number"), "{what}");
        }
        Action::QuizHere => {
            t.press_all(&["s"; 3]);
            t.press(key);
            assert!(matches!(t.app.overlay, Some(Overlay::Prompt { kind: PromptKind::QuizPoint, .. })), "{what}");
            t.type_text("m");
            t.press("enter");
            assert!(t.text().contains("quiz point at step 3: next_mask"), "{what}");
        }
        Action::NextLane | Action::PrevLane => {
            t.press(key);
            let first = if action == Action::NextLane { 0 } else { 31 };
            assert_eq!(t.app.lane, Some(first), "{what}");
            assert!(t.text().contains(&format!("lane {first} (thread {first}): active")), "{what}");
            t.press(key);
            let second = if action == Action::NextLane { 1 } else { 30 };
            assert_eq!(t.app.lane, Some(second), "{what}");
        }
        Action::JumpToBranch => {
            step_until_warp0_diverged(&mut t);
            let at = t.steps();
            t.press_all(&[">", ">"]);
            assert_eq!(t.app.lane, Some(1));
            assert!(t.text().contains("masked by the `if` on line 21"), "{what}:\n{}", t.text());
            t.press(key);
            assert_eq!(t.steps(), at - 1, "{what}: back to just before the branch");
            assert!(t.text().contains(&format!("back to step {}: the branch on line 21", at - 1)), "{what}");
        }
        Action::BankView => {
            t.press(key);
            assert!(t.app.bank_view, "{what}");
            assert!(t.text().contains("shared banks (0 conflicts)"), "{what}");
            t.press(key);
            assert!(!t.app.bank_view && t.text().contains("branch_efficiency"), "{what}: pressed again closes it");
        }
        Action::CoalescingView => {
            t.press(key);
            assert!(t.app.coalescing_view, "{what}");
            assert!(t.text().contains("Metrics · global memory"), "{what}:\n{}", t.text());
            t.press("K");
            assert!(t.app.bank_view && !t.app.coalescing_view, "{what}: the bank view replaces it");
            t.press(key);
            assert!(t.app.coalescing_view && !t.app.bank_view, "{what}");
            t.press(key);
            assert!(
                !t.app.coalescing_view && t.text().contains("branch_efficiency"),
                "{what}: pressed again closes it"
            );
        }
        Action::LanesPane => {
            t.press(key);
            assert!(t.app.lanes.open && t.text().contains("╭ Lanes · block (0,0,0) warp 0 · lane 0"), "{what}");
            assert!(t.text().contains(":p EXPR prints an expression across the warp's lanes"), "{what}");
            t.press(key);
            assert!(!t.app.lanes.open && t.text().contains("╭ Memory"), "{what}: pressed again closes it");
        }
        Action::LanesAllWarps => {
            t.press(key);
            assert!(t.app.lanes.open && t.app.lanes.all_warps, "{what}");
            assert!(t.text().contains("╭ Lanes · block (0,0,0) · all warps (warp 0 >)"), "{what}");
            t.press(key);
            assert!(!t.app.lanes.all_warps && t.text().contains("╭ Lanes · block (0,0,0) warp 0"), "{what}");
        }
        Action::Search => {
            t.press(key);
            assert!(matches!(t.app.overlay, Some(Overlay::Prompt { kind: PromptKind::Search, .. })), "{what}");
            assert!(t.text().contains("search source:"), "{what}");
            t.type_text("__syncthreads");
            t.press("enter");
            assert_eq!((t.app.cursor, &t.app.overlay), (28, &None), "{what}");
            assert!(t.text().contains("`__syncthreads` on line 28; F3 finds the next"), "{what}:\n{}", t.text());
        }
        Action::SearchNext => {
            t.press(key);
            assert!(t.text().contains("nothing searched for yet: / asks for text"), "{what}");
            t.press("/");
            t.type_text("sum");
            t.press("enter");
            assert_eq!(t.app.cursor, 22, "{what}: `even threads: sum n neighbours`");
            t.press(key);
            assert_eq!(t.app.cursor, 23, "{what}");
        }
        Action::GotoLine => {
            t.press(key);
            assert!(matches!(t.app.overlay, Some(Overlay::Prompt { kind: PromptKind::Line, .. })), "{what}");
            assert!(t.text().contains("go to line:"), "{what}");
            t.type_text("37");
            t.press("enter");
            assert_eq!((t.app.cursor, &t.app.overlay), (37, &None), "{what}");
            assert!(t.text().contains("│ 37       │"), "{what}");
        }
        Action::ScrollLeft | Action::ScrollRight => {
            // Line 1 (108 characters) is longer than the pane: it ends in a marker.
            t.press("home");
            assert!(t.text().contains("one per side.…") || t.text().contains("…"), "{what}");
            t.press("L");
            assert_eq!(t.app.source_left, 8, "{what}");
            assert!(t.text().contains("Source · from column 9"), "{what}:\n{}", t.text());
            t.press(key);
            let want = if action == Action::ScrollLeft { 0 } else { 16 };
            assert_eq!(t.app.source_left, want, "{what}");
        }
        Action::ScrollBanner => {
            t.press(key);
            assert!(t.text().contains("the banner is empty"), "{what}");
            t.press("c");
            t.press(key);
            assert!(t.text().contains("the banner shows all it has to say"), "{what}: the deadlock of one block fits");
            let mut t = deadlock_in_4_blocks(80, 24);
            t.press("c");
            assert!(t.text().contains("e scrolls (lines 1-"), "{what}:\n{}", t.text());
            t.press(key);
            assert_eq!(t.app.banner_scroll, 4, "{what}");
            assert!(t.text().contains("e goes back to the top"), "{what}:\n{}", t.text());
            t.press(key);
            assert_eq!(t.app.banner_scroll, 0, "{what}: after the end, back to the top");
        }
        Action::NextLaunch | Action::PrevLaunch => {
            t.press(key);
            assert!(t.text().contains("not a program"), "{what}: on a kernel file it says what it is for");
            let mut t = Tui::open_program("tests/programs/reduction.cu", 120, 40);
            if action == Action::PrevLaunch {
                t.press("N");
            }
            t.press(key);
            let k = if action == Action::NextLaunch { 2 } else { 1 };
            assert_eq!(t.app.program.as_ref().and_then(|p| p.current), Some(k), "{what}");
            assert!(t.text().contains(&format!("launch {k} ")), "{what}");
        }
    }
}

#[test]
fn every_key_of_the_default_keymap_does_something_visible() {
    let map = Keymap::default_map();
    let bound: std::collections::BTreeSet<String> = map.bindings.values().map(|a| format!("{a:?}")).collect();
    assert_eq!(bound.len(), 45, "every action has a default key: {bound:?}");
    for (key, action) in &map.bindings {
        let name = match key.code {
            KeyCodeRepr::Char(' ') => "space".to_string(),
            KeyCodeRepr::Char(c) => c.to_string(),
            KeyCodeRepr::F(n) => format!("f{n}"),
            KeyCodeRepr::BackTab => "shift-tab".to_string(),
            other => format!("{other:?}").to_ascii_lowercase(),
        };
        let name = if key.ctrl { format!("ctrl-{name}") } else { name };
        let name = if key.alt { format!("alt-{name}") } else { name };
        check_action(&name, *action);
    }
}

#[test]
fn any_key_interrupts_a_running_continue() {
    // 2048 blocks: more than a frame's worth (12 ms) of a whole run even in a release build.
    let mut t = Tui::open("kernels/reduce_neighbored.cu", &["n=1048576"], 120, 40);
    update::update(&mut t.app, Action::Continue);
    update::tick(&mut t.app);
    assert!(t.app.running, "one chunk does not finish the reduction");
    let at = t.steps();
    t.press("j");
    assert!(!t.app.running);
    assert_eq!(t.steps(), at, "the key stopped it where it was");
    assert!(t.text().contains(&format!("interrupted at step {at}")));
}

#[test]
fn clicking_a_warp_selects_the_one_drawn_there_after_scrolling() {
    // 64 blocks of 16 warps: more than the pane shows.
    let mut t = Tui::open("kernels/reduce_neighbored.cu", &["n=32768"], 120, 40);
    t.press("tab");
    assert_eq!(t.app.focus, Pane::Warps);
    for _ in 0..100 {
        t.press("j");
    }
    assert_eq!(t.app.selected, Some(WarpRef { block: 6, warp: 4 }));
    // The list scrolled to keep warp 6/4 visible; click three rows above it.
    let (y, x) = t.find("│6    4 ready").expect("the selected warp is drawn");
    t.click(x + 2, y - 3);
    assert_eq!(t.app.selected, Some(WarpRef { block: 6, warp: 1 }), "{}", t.text());
    // The wheel scrolls the list away from the selection, and the selection stays.
    let ev = MouseEvent { kind: MouseEventKind::ScrollDown, column: x + 2, row: y, modifiers: KeyModifiers::NONE };
    update::mouse(&mut t.app, warpdbg::tui::input::Mouse::from_event(&ev).expect("a wheel turn"));
    scroll::keep_cursor_visible(&mut t.app);
    t.draw();
    let (y2, _) = t.find("│6    4 ready").expect("still drawn");
    assert_eq!(y2, y - 3, "scrolled three rows");
    assert_eq!(t.app.selected, Some(WarpRef { block: 6, warp: 1 }));
}

#[test]
fn clicking_a_source_line_toggles_its_breakpoint() {
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    let (y, x) = t.find(" 24       │").expect("line 24 drawn");
    t.click(x + 3, y);
    assert!(t.app.session.breakpoints.contains(&24));
    assert!(t.text().contains("│●24 "));
    t.press("c");
    assert!(t.text().contains("breakpoint at line 24"), "{}", t.text());
    assert_eq!(t.app.session.machine.outcome(), None);
}

/// The reduction at 128 blocks (341,760 instructions) run to its end by `c`: a step back from there
/// re-executes from step 0, more than the TUI does at once, so it travels in pieces.
fn reduction_at_its_end() -> Tui {
    let mut t = Tui::open("kernels/reduce_neighbored.cu", &["n=65536"], 120, 40);
    t.press("c");
    assert_eq!(t.app.session.machine.outcome(), Some(&Outcome::Completed));
    t
}

#[test]
fn a_repeated_step_back_goes_further_back_instead_of_interrupting() {
    let mut t = reduction_at_its_end();
    let end = t.steps();
    update::update(&mut t.app, Action::StepBack);
    update::tick(&mut t.app);
    assert!(t.app.running && t.app.travel == Some(end - 1), "a long step back in pieces");
    // `S S S` during the trip: three steps back in all, not an interrupt somewhere in between.
    for (k, want) in [(2, end - 2), (3, end - 3)] {
        update::update(&mut t.app, Action::StepBack);
        assert!(t.app.running, "press {k} keeps going");
        assert_eq!(t.app.travel, Some(want), "press {k} goes one further");
        t.draw();
        assert!(t.text().contains(&format!("going back to step {want}... (S: one more, any key stops)")));
        update::tick(&mut t.app);
    }
    update::finish_running(&mut t.app);
    t.draw();
    assert_eq!(t.steps(), end - 3);
    assert!(t.text().contains(&format!("back to step {}", end - 3)), "{}", t.text());
    // The state is the one stepping there gives.
    let mut reference = Tui::open("kernels/reduce_neighbored.cu", &["n=65536"], 120, 40);
    update::goto_step(&mut reference.app, end - 3);
    assert_eq!(
        warpdbg::debug::checksum::state_check(&t.app.session.machine),
        warpdbg::debug::checksum::state_check(&reference.app.session.machine)
    );
}

#[test]
fn an_interrupted_step_back_stays_where_it_started() {
    let mut t = reduction_at_its_end();
    let end = t.steps();
    let before = warpdbg::debug::checksum::state_check(&t.app.session.machine);
    let cursor = t.app.cursor;
    update::update(&mut t.app, Action::StepBack);
    update::tick(&mut t.app);
    assert!(t.app.running && t.app.session.machine.steps < end - 1, "on its way, from step 0");
    // Any other key stops it: back at the end, as before the step back; then the key moves the cursor.
    t.press("k");
    assert!(!t.app.running && t.app.travel.is_none());
    assert_eq!(t.steps(), end);
    assert_eq!(warpdbg::debug::checksum::state_check(&t.app.session.machine), before);
    assert_eq!(t.app.session.machine.outcome(), Some(&Outcome::Completed));
    assert_eq!(t.app.cursor, cursor - 1, "the key that stopped it moved the cursor up");
    assert!(t.text().contains(&format!("stopped going back: still at step {end}")), "{}", t.text());
    // Recorded as a `Goto` to where it stayed, so a replay does the same.
    let gotos: Vec<u64> = t
        .app
        .outbox
        .iter()
        .filter_map(|e| match e {
            warpdbg::tui::recording::EventKind::Action { name, steps, .. } if name == "Goto" => Some(*steps),
            _ => None,
        })
        .collect();
    assert_eq!(gotos.last(), Some(&end));
    // Esc only stops (it has nothing else to do); the `:` prompt's long trip back is interruptible too.
    t.press(":");
    t.type_text("100");
    t.press("enter");
    assert_eq!((t.app.running, t.steps()), (false, 100), "a short trip happens at once");
    let mut t = reduction_at_its_end();
    t.press(":");
    t.type_text("250000");
    update::prompt_key(&mut t.app, warpdbg::tui::keymap::Key::parse("enter").expect("key"));
    assert!(t.app.running && t.app.travel == Some(250_000), "a long goto backwards travels in pieces");
    update::tick(&mut t.app);
    t.press("esc");
    assert_eq!((t.app.running, t.steps()), (false, end), "Esc stopped it where it started");
}

#[test]
fn typing_during_a_continue_interrupts_it_and_keeps_the_key() {
    // 2048 blocks: more than a frame's worth of a whole run.
    let mut t = Tui::open("kernels/reduce_neighbored.cu", &["n=1048576"], 120, 40);
    update::update(&mut t.app, Action::Continue);
    update::tick(&mut t.app);
    assert!(t.app.running);
    // `:` stops the run (a whole run in progress goes back to step 0) and opens its prompt.
    t.press(":");
    assert!(!t.app.running);
    assert!(matches!(t.app.overlay, Some(Overlay::Prompt { kind: PromptKind::Goto, .. })), "{}", t.text());
    assert!(t.text().contains("go to step N, or p EXPR"));
    t.type_text("7");
    t.press("enter");
    assert_eq!(t.steps(), 7);
    assert!(t.app.session.breakpoints.is_empty(), "Enter answered the prompt, it did not toggle a breakpoint");
    // The run's own key only stops it.
    update::update(&mut t.app, Action::Continue);
    update::tick(&mut t.app);
    let at = t.steps();
    t.press("c");
    assert!(!t.app.running);
    assert_eq!(t.steps(), at);
    assert!(t.text().contains(&format!("interrupted at step {at}")));
}

#[test]
fn search_and_go_to_line_prompts() {
    let mut t = Tui::open(DEADLOCK, &[], 120, 40);
    t.press("/");
    t.type_text("acc");
    insta::assert_snapshot!("search_prompt_120x40", t.terminal.backend());
    t.press("enter");
    assert_eq!(t.app.cursor, 32);
    assert!(t.text().contains("│ 32       │         int acc = 1;"), "{}", t.text());
    // Ctrl-N: the next line with it; past the last, from the top.
    t.press("ctrl-n");
    assert_eq!(t.app.cursor, 34);
    t.press("ctrl-n");
    assert_eq!(t.app.cursor, 36);
    t.press("ctrl-n");
    assert_eq!(t.app.cursor, 32, "{}", t.text());
    assert!(t.text().contains("`acc` on line 32 (from the top); F3 finds the next"), "{}", t.text());
    // Not there: said, and the cursor stays.
    t.press("/");
    t.type_text("warpSize");
    t.press("enter");
    assert_eq!(t.app.cursor, 32);
    assert!(t.text().contains("`warpSize` not found in the source"));
    // Go to a line, and a line that is not there.
    t.press("ctrl-g");
    t.type_text("9");
    insta::assert_snapshot!("goto_line_prompt_120x40", t.terminal.backend());
    t.press("enter");
    assert_eq!(t.app.cursor, 9);
    t.press("ctrl-g");
    t.type_text("41");
    t.press("enter");
    assert_eq!(t.app.cursor, 9);
    assert!(t.text().contains("no line `41`: the source has lines 1 to 40"), "{}", t.text());
}

#[test]
fn long_source_lines_scroll_horizontally() {
    let mut t = Tui::open(DEADLOCK, &[], 80, 24);
    t.press("home");
    // The pane shows 26 columns of text: line 1 goes on, and says so.
    assert!(t.text().contains("│  1       │ // deadlock.cu - the text…│"), "{}", t.text());
    t.press_all(&["L", "L"]);
    assert_eq!(t.app.source_left, 16);
    let screen = t.text();
    assert!(screen.contains("Source · from column 17"), "{screen}");
    assert!(screen.contains("│  1       │ … the textbook even/odd _…│"), "{screen}");
    insta::assert_snapshot!("source_scrolled_80x24", t.terminal.backend());
    // Far right: the longest line's end shows, no further.
    for _ in 0..20 {
        t.press("L");
    }
    assert_eq!(t.app.source_left, 88);
    assert!(t.text().contains("that."), "{}", t.text());
    t.press_all(&["H"; 20]);
    assert_eq!(t.app.source_left, 0);
    assert!(!t.text().contains("Source · from column"), "{}", t.text());
    // A search scrolls to the text it finds beyond the pane's right edge.
    t.press("/");
    t.type_text("textbook version");
    t.press("enter");
    assert_eq!(t.app.cursor, 7);
    assert!(t.text().contains("textbook version"), "{}", t.text());
}

#[test]
fn the_banner_scrolls_and_keeps_the_fix_on_screen() {
    // The four blocks' deadlock explanation, grouped ("blocks 0-3"), is still more than an 80x24 banner holds.
    let mut t = deadlock_in_4_blocks(80, 24);
    t.press("c");
    let screen = t.text();
    assert!(screen.contains("┃Deadlock: no thread of blocks 0-3 can issue."), "{screen}");
    assert!(screen.contains("┃Fix: move __syncthreads() out of the divergent code"), "{screen}");
    assert!(screen.contains("… 4 more lines: e scrolls (lines 1-4 of 8)"), "{screen}");
    insta::assert_snapshot!("banner_long_80x24", t.terminal.backend());
    t.press("e");
    let screen = t.text();
    assert!(!screen.contains("┃Deadlock: no thread of blocks 0-3 can issue."), "{screen}");
    assert!(screen.contains("┃Fix: move __syncthreads() out of the divergent code"), "{screen}");
    assert!(screen.contains("… lines 5-8 of 8: e goes back to the top"), "{screen}");
    insta::assert_snapshot!("banner_scrolled_80x24", t.terminal.backend());
    t.press("e");
    assert!(t.text().contains("… 4 more lines: e scrolls (lines 1-4 of 8)"));
    // A new stop starts at the banner's top.
    t.press("e");
    t.press("S");
    t.press("c");
    assert_eq!(t.app.banner_scroll, 0);
}

/// The Metrics pane's rows, inside its border.
fn metrics_rows(t: &Tui) -> Vec<String> {
    let areas = warpdbg::tui::view::areas(&t.app, Rect::new(0, 0, t.app.size.0, t.app.size.1));
    let r = areas.metrics;
    let b = t.buffer();
    (r.y + 1..r.y + r.height - 1)
        .map(|y| (r.x + 1..r.x + r.width - 1).map(|x| b[(x, y)].symbol()).collect::<String>().trim_end().to_string())
        .collect()
}

#[test]
fn metrics_columns_fit_at_80_and_120_columns() {
    // (screen width, a whole program's layout, the figures' first rows, the bank view's first rows; then the
    // coalescing view's): at 80 columns and in a program's narrow third at 120 the short labels and headers
    // (the coalescing table without requests and sectors); every figure whole. (The per-line table's columns:
    // tests/tui_metrics.rs.)
    let cases: [(u16, bool, &[&str], &[&str]); 3] = [
        (
            80,
            false,
            &[
                "divergence",
                "branch eff. 94.74%",
                "branches    38 (2 div.)",
                "div. warps  2 of 2",
                "thr / instr 16.34",
                "warp instrs 380",
                "memory",
                "gld eff.     42.11%",
                "gld sect/req 4.75",
            ],
            &[
                "line acc. wfs confl. worst",
                "  27    2   2      0 1-way",
                "  36    2   2      0 1-way",
                "line 27 (worst), its last",
                "access: 1-way",
            ],
        ),
        (
            120,
            false,
            &[
                "branch_efficiency 94.74%",
                "branches          38 (2 divergent)",
                "gld_efficiency                        42.11%",
                "gld_transactions_per_request          4.75",
            ],
            &[
                " line accesses wavefronts conflicts  worst",
                "   27        2          2         0  1-way",
                "   36        2          2         0  1-way",
                "line 27 (worst), its last access: 1-way",
            ],
        ),
        (
            120,
            true,
            &[
                "branch eff. 64.71%",
                "branches    2176 (768 div.)",
                "div. warps  128 of 128",
                "gld eff.     25.10%",
                "gst eff.     25.00%",
            ],
            &["line acc. wfs confl. worst", "no shared-memory accesses", "yet"],
        ),
    ];
    for (cols, program, divergence, banks) in cases {
        let mut t = if program {
            Tui::open_program("tests/programs/reduction.cu", cols, 60)
        } else {
            Tui::open(DEADLOCK, &[], cols, 60)
        };
        t.press("c");
        let rows = metrics_rows(&t);
        for want in divergence {
            assert!(rows.iter().any(|r| r == want), "{cols} columns: `{want}` in\n{}", rows.join("\n"));
        }
        t.press("K");
        let rows = metrics_rows(&t);
        for want in banks {
            assert!(rows.iter().any(|r| r == want), "{cols} columns, banks: `{want}` in\n{}", rows.join("\n"));
        }
        t.press("C");
        let rows = metrics_rows(&t);
        let want: &[&str] = match (cols, program) {
            (80, _) => &["line kind s/req best  eff.", "  25   ld  4.75    4 42.1%", " n  lanes            elements"],
            (_, false) => &[
                "line kind req. sect. s/req best  eff.",
                "  25   ld   16    76  4.75    4 42.1%",
                " 4  8,10,12,...,14   in[8,10,12,14]",
            ],
            _ => &[
                "line kind s/req best  eff.",
                "  35   st  2.74    4 25.2%",
                " 1  0      d_in[0]",
                "1 sector for this request,",
            ],
        };
        for want in want {
            assert!(rows.iter().any(|r| r == want), "{cols} columns, coalescing: `{want}` in\n{}", rows.join("\n"));
        }
    }
}

//! TUI benchmarks: `cargo bench --bench tui`. Figures and the machine are in `benches/tui.md`.
//!
//! Each `key_*` bench is one frame of the event loop for one key press: keymap -> action -> `update`, the
//! continue's tick, `keep_cursor_visible`, then `view::draw` into an in-memory terminal (ratatui's
//! `TestBackend`, so the cost of writing escape codes to a real terminal is not included). `startup` is
//! `warpdbg FILE` up to its first frame: read and compile the kernel, launch the machine, build the app, draw.

use std::cell::RefCell;
use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use divan::{Bencher, black_box};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use warpdbg::cli::{LaunchArgs, UiArgs, make_app};
use warpdbg::tui::app::App;
use warpdbg::tui::{scroll, update, view};

fn main() {
    divan::main();
}

const DEADLOCK: &str = "kernels/deadlock.cu";
const REDUCE: &str = "kernels/reduce_neighbored.cu";
/// 32,768 elements in blocks of 512: 64 blocks, 1,024 warps (512 resident at a time: 16,384 threads).
const WARPS_1024: &str = "n=32768";

fn open(file: &str, args: &[&str], cols: u16, rows: u16) -> (App, Terminal<TestBackend>) {
    let launch = LaunchArgs { args: args.iter().map(|s| s.to_string()).collect(), ..Default::default() };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let mut app = make_app(&path, &launch, &UiArgs::default()).unwrap_or_else(|_| panic!("{file} opens"));
    app.size = (cols, rows);
    scroll::keep_cursor_visible(&mut app);
    let mut term = Terminal::new(TestBackend::new(cols, rows)).expect("terminal");
    term.draw(|f| view::draw(f, &app)).expect("draw");
    (app, term)
}

/// One frame for one key, as the event loop runs it.
fn frame(app: &mut App, term: &mut Terminal<TestBackend>, key: KeyCode) {
    let key = warpdbg::tui::input::Key::from_event(&KeyEvent::new(key, KeyModifiers::NONE)).expect("a bound key");
    if let Some(a) = app.keymap.action(&key) {
        update::update(app, a);
    }
    update::tick(app);
    scroll::keep_cursor_visible(app);
    term.draw(|f| view::draw(f, app)).expect("draw");
}

/// Times one frame per key press, the keys cycling through `keys`, on one app that carries on between frames.
fn bench_keys(bencher: Bencher, file: &str, args: &[&str], cols: u16, rows: u16, keys: &[KeyCode], before: &[KeyCode]) {
    let (mut app, mut term) = open(file, args, cols, rows);
    for k in before {
        frame(&mut app, &mut term, *k);
    }
    let state = RefCell::new((app, term, 0usize));
    bencher.bench_local(|| {
        let (app, term, i) = &mut *state.borrow_mut();
        frame(app, term, keys[*i % keys.len()]);
        *i += 1;
        black_box(app.session.machine.steps);
    });
}

/// `s`: step one instruction, deadlock.cu at 120x40 (restarting with `r` every 300 steps, before the deadlock).
#[divan::bench]
fn key_step_deadlock(bencher: Bencher) {
    let mut keys = vec![KeyCode::Char('s'); 299];
    keys.push(KeyCode::Char('r'));
    bench_keys(bencher, DEADLOCK, &[], 120, 40, &keys, &[]);
}

/// `w` / `j` / `k` / `b`: selection, cursor and breakpoint keys, deadlock.cu at 120x40 after 100 steps.
#[divan::bench]
fn key_navigate_deadlock(bencher: Bencher) {
    let keys = [KeyCode::Char('w'), KeyCode::Char('j'), KeyCode::Char('k'), KeyCode::Char('b')];
    bench_keys(bencher, DEADLOCK, &[], 120, 40, &keys, &[KeyCode::Char('s'); 100]);
}

/// Every frame of `c` on deadlock.cu: the continue runs to the deadlock within one frame, then `r`.
#[divan::bench]
fn key_continue_deadlock(bencher: Bencher) {
    bench_keys(bencher, DEADLOCK, &[], 120, 40, &[KeyCode::Char('c'), KeyCode::Char('r')], &[]);
}

/// `?` then Esc: the help overlay, deadlock.cu at 120x40.
#[divan::bench]
fn key_help_deadlock(bencher: Bencher) {
    bench_keys(bencher, DEADLOCK, &[], 120, 40, &[KeyCode::Char('?'), KeyCode::Esc], &[]);
}

/// `s` on the 1,024-warp reduction at 200x60.
#[divan::bench]
fn key_step_1024_warps(bencher: Bencher) {
    bench_keys(bencher, REDUCE, &[WARPS_1024], 200, 60, &[KeyCode::Char('s')], &[]);
}

/// `w`: next warp, walking through all 512 resident warps (the warps pane scrolls), 1,024-warp launch.
#[divan::bench]
fn key_next_warp_1024_warps(bencher: Bencher) {
    bench_keys(bencher, REDUCE, &[WARPS_1024], 200, 60, &[KeyCode::Char('w')], &[KeyCode::Char('s'); 50]);
}

/// `n`: step a source line of the selected warp (each one issues many instructions), 1,024-warp launch.
#[divan::bench]
fn key_step_line_1024_warps(bencher: Bencher) {
    let mut keys = vec![KeyCode::Char('n'); 20];
    keys.push(KeyCode::Char('r'));
    bench_keys(bencher, REDUCE, &[WARPS_1024], 200, 60, &keys, &[]);
}

/// One frame of a running `c` on the 1,024-warp launch: a tick (pieces of 2,000 instructions until 12 ms have passed) and
/// a draw. The frame after the last chunk is timed too (it restarts with `r`).
#[divan::bench]
fn continue_frame_1024_warps(bencher: Bencher) {
    let (mut app, term) = open(REDUCE, &[WARPS_1024], 200, 60);
    update::update(&mut app, warpdbg::tui::action::Action::Continue);
    let state = RefCell::new((app, term));
    bencher.bench_local(|| {
        let (app, term) = &mut *state.borrow_mut();
        if !app.running {
            update::update(app, warpdbg::tui::action::Action::Restart);
            update::update(app, warpdbg::tui::action::Action::Continue);
        }
        update::tick(app);
        scroll::keep_cursor_visible(app);
        term.draw(|f| view::draw(f, app)).expect("draw");
    });
}

/// Draw only (no state change), 1,024-warp launch at 200x60 after 2,000 steps.
#[divan::bench]
fn draw_only_1024_warps(bencher: Bencher) {
    let (mut app, mut term) = open(REDUCE, &[WARPS_1024], 200, 60);
    update::goto_step(&mut app, 2000);
    bencher.bench_local(|| {
        term.draw(|f| view::draw(f, &app)).expect("draw");
    });
}

/// `warpdbg kernels/deadlock.cu` to its first frame (120x40): compile, launch, app, draw.
#[divan::bench]
fn startup_deadlock(bencher: Bencher) {
    bencher.bench_local(|| black_box(open(DEADLOCK, &[], 120, 40)));
}

/// The same for the 1,024-warp launch (200x60).
#[divan::bench]
fn startup_1024_warps(bencher: Bencher) {
    bencher.bench_local(|| black_box(open(REDUCE, &[WARPS_1024], 200, 60)));
}

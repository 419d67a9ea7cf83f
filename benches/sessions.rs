//! Time travel and recording figures (issue 7): `cargo bench --bench sessions`. Results in `sessions.md`.
//!
//! - stepping back at step 1,000,000 of a long kernel (target: under 50 ms), and the worst case there (the
//!   step just before a snapshot, so a whole interval is re-executed);
//! - the cost of recording one action (target: under 1 ms): a step with and without the recorder;
//! - snapshot memory for a 10,000,000-step run (printed before the timings; checked against the budget).

use std::cell::RefCell;

use warpdbg::debug::history::DEFAULT_BUDGET;
use warpdbg::debug::session::Session;
use warpdbg::front::launch::Overrides;
use warpdbg::sim::Config;
use warpdbg::tui::action::Action;
use warpdbg::tui::app::App;
use warpdbg::tui::keymap::Keymap;
use warpdbg::tui::recording::{EventKind, Header, Recorder};
use warpdbg::tui::theme::Theme;
use warpdbg::tui::update;

/// 16 warps in a loop: about 80 warp instructions per iteration of all warps, so `n` sets the length.
const LONG: &str = r#"// @grid 4
// @block 128
// @arg out int[512] = 0
// @arg n = 200000
__global__ void spin(int *out, int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += i ^ threadIdx.x;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
"#;

const AT: u64 = 1_000_000;

fn long_session() -> Session {
    let compiled = warpdbg::compile::compile("long.cu", LONG.as_bytes(), &Overrides::default()).expect("compiles");
    Session::new(compiled, Config { max_steps: Some(100_000_000), ..Config::default() }).expect("launch")
}

thread_local! {
    static AT_1M: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// The shared session, put back at step 1,000,000 (not timed).
fn at_1m() {
    AT_1M.with(|s| {
        let mut s = s.borrow_mut();
        let s = s.get_or_insert_with(long_session);
        s.goto(AT);
        assert_eq!(s.machine.steps, AT);
    })
}

fn main() {
    snapshot_memory_10m();
    divan::main();
}

/// Step back one instruction from step 1,000,000.
#[divan::bench(sample_size = 1, sample_count = 100)]
fn step_back_one_at_1m(b: divan::Bencher) {
    b.with_inputs(at_1m).bench_local_values(|()| {
        AT_1M.with(|s| s.borrow_mut().as_mut().unwrap().step_back(1));
    });
}

/// The worst case near step 1,000,000: going to the step just before a snapshot re-executes a whole interval.
#[divan::bench(sample_size = 1, sample_count = 100)]
fn goto_worst_case_near_1m(b: divan::Bencher) {
    b.with_inputs(at_1m).bench_local_values(|()| {
        AT_1M.with(|s| {
            let mut s = s.borrow_mut();
            let s = s.as_mut().unwrap();
            let iv = s.history.interval;
            let target = (AT / iv) * iv - 1;
            s.goto(target);
        });
    });
}

fn app() -> App {
    App::new(long_session(), Keymap::default_map(), Theme::default_dark())
}

fn header(app: &App) -> Header {
    warpdbg::cli::recording_header("long.cu".into(), app, &warpdbg::cli::LaunchArgs::default())
}

/// One step as the TUI does it, recorded: the action, its checksum, one JSON line appended and flushed.
#[divan::bench]
fn action_step_recorded(b: divan::Bencher) {
    let dir = std::env::temp_dir().join(format!("warpdbg-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut app = app();
    let mut rec = Recorder::create(&dir.join("bench.wdbg"), &header(&app)).unwrap();
    b.bench_local(|| {
        update::update(&mut app, Action::Step);
        for e in app.outbox.drain(..) {
            rec.write(e).unwrap();
        }
    });
    drop(rec);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same step without a recorder: the difference is the recording overhead per action.
#[divan::bench]
fn action_step_unrecorded(b: divan::Bencher) {
    let mut app = app();
    b.bench_local(|| {
        update::update(&mut app, Action::Step);
        app.outbox.clear();
    });
}

/// Only the recorder's part: writing (and flushing) one action event.
#[divan::bench]
fn recorder_write_one_event(b: divan::Bencher) {
    let dir = std::env::temp_dir().join(format!("warpdbg-bench-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let app = app();
    let mut rec = Recorder::create(&dir.join("bench.wdbg"), &header(&app)).unwrap();
    let check = warpdbg::debug::checksum::state_check(&app.session.machine);
    b.bench_local(|| {
        rec.write(EventKind::Action { name: "Step".into(), steps: 12345, check: check.clone() }).unwrap();
    });
    drop(rec);
    let _ = std::fs::remove_dir_all(&dir);
}

fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Runs the long kernel 10,000,000 steps with time travel on and reports what its snapshots hold.
fn snapshot_memory_10m() {
    const STEPS: u64 = 10_000_000;
    let mib = |b: u64| b as f64 / (1 << 20) as f64;
    let before = rss();
    let t = std::time::Instant::now();
    let mut s = long_session();
    let each = s.machine.approx_bytes();
    s.run_to(STEPS);
    let run = t.elapsed();
    assert_eq!(s.machine.steps, STEPS, "the long kernel runs 10M steps");
    let h = &s.history;
    let after = rss();
    println!("snapshot memory after {STEPS} steps ({:.1} s to run with snapshots):", run.as_secs_f64());
    println!("  one snapshot (approx_bytes)  {each} bytes");
    println!("  snapshots kept               {} (interval {} steps)", h.len(), h.interval);
    println!("  counted by the history       {:.1} MiB (budget {:.0} MiB)", mib(h.bytes()), mib(DEFAULT_BUDGET));
    println!("  process RSS growth           {:.1} MiB", mib(after.saturating_sub(before)));
    assert!(h.bytes() <= DEFAULT_BUDGET, "snapshots exceed the budget");
    // Going back anywhere re-executes at most one interval.
    let t = std::time::Instant::now();
    let iv = h.interval;
    s.goto(STEPS - iv / 2);
    println!("  goto {} (back {}) took     {:.2} ms", STEPS - iv / 2, iv / 2, t.elapsed().as_secs_f64() * 1e3);
}

/// Issue 19's compare target: `--compare` on reduceNeighbored at 1<<16 (block 512) reaches the end of both
/// sides (the analysis that finds the first difference, then `c` to it and `c` to the ends) within 2 s.
#[divan::bench(sample_count = 3)]
fn compare_reduce_neighbored_1_16_to_the_end(b: divan::Bencher) {
    let o = Overrides { args: vec!["n=65536".into()], block: Some("512".into()), ..Overrides::default() };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/kernels/reduce_neighbored.cu");
    let compiled = warpdbg::compile::compile(path, &std::fs::read(path).unwrap(), &o).expect("compiles");
    b.bench_local(|| {
        let mut c = warpdbg::debug::compare::Compare::new(&compiled, &Config::default()).expect("launch");
        c.cont();
        c.cont();
        assert!(c.sides.iter().all(|s| s.machine.outcome().is_some()));
    });
}

/// reduceNeighbored at 1<<20 ints, block 512 (2048 blocks, 5,468,160 instructions), as the TUI opens it.
fn reduce_neighbored_1_20_app() -> App {
    let o = Overrides { args: vec!["n=1048576".into()], block: Some("512".into()), ..Overrides::default() };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/kernels/reduce_neighbored.cu");
    let compiled = warpdbg::compile::compile(path, &std::fs::read(path).unwrap(), &o).expect("compiles");
    let session = Session::new(compiled, Config::default()).expect("launch");
    App::new(session, Keymap::default_map(), Theme::default_dark())
}

/// Issue 19 item 2: `c` in the TUI to the end of reduceNeighbored at 1<<20 (no breakpoint): the update and
/// every tick of the event loop until it stops (drawing left out). Target: at most 3 s.
#[divan::bench(sample_count = 3)]
fn tui_continue_reduce_neighbored_1_20(b: divan::Bencher) {
    b.with_inputs(reduce_neighbored_1_20_app).bench_local_values(|mut app| {
        update::update(&mut app, Action::Continue);
        update::finish_running(&mut app);
        assert!(app.session.machine.outcome().is_some());
        app
    });
}

/// `S` right after that continue: back one step (re-executed from the nearest snapshot, in pieces).
#[divan::bench(sample_count = 3)]
fn tui_step_back_after_continue_1_20(b: divan::Bencher) {
    let at_end = || {
        let mut app = reduce_neighbored_1_20_app();
        update::update(&mut app, Action::Continue);
        update::finish_running(&mut app);
        app
    };
    b.with_inputs(at_end).bench_local_values(|mut app| {
        let end = app.session.machine.steps;
        update::update(&mut app, Action::StepBack);
        update::finish_running(&mut app);
        assert_eq!(app.session.machine.steps, end - 1);
        app
    });
}

/// `c` with a line breakpoint that first hits in the last block (`line 41 if block == 2047`: its `if (tid ==
/// 0)` line). Target: within 2x of the continue without one.
#[divan::bench(sample_count = 3)]
fn tui_continue_breakpoint_in_last_block_1_20(b: divan::Bencher) {
    let with_breakpoint = || {
        let mut app = reduce_neighbored_1_20_app();
        let bp = warpdbg::debug::breakpoint::Breakpoint::parse("line 41 if block == 2047", &app.session.compiled)
            .expect("breakpoint");
        app.session.add_breakpoint(bp);
        app
    };
    b.with_inputs(with_breakpoint).bench_local_values(|mut app| {
        update::update(&mut app, Action::Continue);
        update::finish_running(&mut app);
        assert!(app.session.machine.outcome().is_none(), "stopped at the breakpoint");
        app
    });
}

//! The fast continue (issue 19 item 2): `c` with nothing that could stop it takes the machine's whole run (on
//! every core, in pieces), and a continue with line breakpoints or break-on-divergence checks them inside the
//! machine. Both must land on exactly the state single-stepping reaches: memory, counters, outcome, hazards,
//! output, the step count and the screen that shows them; `S` right after must give the state of stepping to
//! that step.

use std::path::PathBuf;

use warpdbg::debug::session::{Session, Stop};
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::Config;
use warpdbg::tui::action::Action;
use warpdbg::tui::app::App;
use warpdbg::tui::keymap::Keymap;
use warpdbg::tui::theme::Theme;
use warpdbg::tui::update;

fn repo(p: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn session(file: &str, mode: Mode, args: &[&str]) -> Session {
    let bytes = std::fs::read(repo(file)).unwrap();
    let o = Overrides { mode: Some(mode), args: args.iter().map(|a| a.to_string()).collect(), ..Default::default() };
    let compiled = warpdbg::compile::compile(file, &bytes, &o).unwrap_or_else(|e| panic!("{file}: {e}"));
    Session::new(compiled, Config::default()).unwrap()
}

/// Everything a user can see of where a session is: memory, every resident block's registers, shared memory
/// and warps, counters, hazards, output, outcome, the step count, and the session's last issue.
fn state(s: &Session) -> String {
    let m = &s.machine;
    let mut out = format!("step {} outcome {:?}\n", m.steps, m.outcome());
    for a in &m.global.allocs {
        out += &format!("{} {:?}\n", a.name, a.data);
    }
    for b in &m.blocks {
        out += &format!("block {} {:?} {:?} {:?} {:?}\n", b.linear, b.regs, b.shared, b.warps, b.last_issued);
    }
    out += &format!("{:?}\n{:?}\n{:?}\nlast {:?}\n", m.metrics, m.hazards, m.output, s.last_issue);
    out
}

/// Single-steps to the end, one `step_instruction` at a time.
fn single_stepped(file: &str, mode: Mode, args: &[&str]) -> Session {
    let mut s = session(file, mode, args);
    while !matches!(s.step_instruction(), Stop::Finished(_)) {}
    s
}

/// `c` as the TUI runs it: pieces of a continue until it stops.
fn fast_continued(s: &mut Session) -> Stop {
    let mut first = true;
    loop {
        if let Some(stop) = s.cont_fast(2_000, first) {
            return stop;
        }
        first = false;
    }
}

/// Kernels with barriers (the reductions), 2-D blocks (grayscale), plain ones, atomics whose order cannot show
/// (histograms' bins, a float sum of whole numbers), and ones the whole run must refuse (a deadlock, a spin
/// lock's atomics, float sums that round differently in another order), in both modes.
const KERNELS: [(&str, &[&str], bool); 13] = [
    ("kernels/reduce_neighbored.cu", &[], true),
    ("kernels/reduce_interleaved.cu", &[], true),
    ("kernels/vec_add.cu", &[], true),
    ("kernels/grayscale.cu", &[], true),
    ("benches/kernels/histogram_global.cu", &[], true),
    ("benches/kernels/histogram_shared.cu", &[], true),
    ("tests/kernels/atomic_sums.cu", &["scale=1"], true),
    ("tests/kernels/atomic_sums.cu", &["scale=0.1"], false),
    ("tests/kernels/shared_float_sum.cu", &["scale=1"], true),
    ("tests/kernels/shared_float_sum.cu", &["scale=0.1"], false),
    ("tests/conformance/racy_counter.cu", &[], false),
    ("kernels/deadlock.cu", &[], false),
    ("kernels/spin_lock.cu", &[], false),
];

#[test]
fn fast_continue_lands_on_the_single_stepped_state() {
    for (file, args, whole) in KERNELS {
        for mode in [Mode::Its, Mode::PreVolta] {
            let reference = single_stepped(file, mode, args);
            let mut s = session(file, mode, args);
            let stop = fast_continued(&mut s);
            assert!(matches!(stop, Stop::Finished(_)), "{file} {mode:?}: {stop:?}");
            if whole {
                assert!(s.machine.ran_parallel(), "{file} {mode:?}: the whole-run path was taken");
            }
            assert_eq!(state(&s), state(&reference), "{file} {mode:?}");
        }
    }
}

/// Line breakpoints (checked inside the machine) stop where the per-step check of a single-stepping session
/// stops, every time, to the end.
#[test]
fn continue_with_a_line_breakpoint_stops_where_single_stepping_does() {
    for (file, line) in
        [("kernels/reduce_neighbored.cu", 41), ("kernels/reduce_neighbored.cu", 31), ("kernels/deadlock.cu", 28)]
    {
        let mut fast = session(file, Mode::Its, &[]);
        let mut slow = session(file, Mode::Its, &[]);
        fast.breakpoints.insert(line);
        slow.breakpoints.insert(line);
        let mut stops = 0;
        loop {
            let stop = fast_continued(&mut fast);
            // The reference: one instruction at a time, asking before each whether a warp arrives at the line.
            let mut first = true;
            let expected = loop {
                if let Some(o) = slow.machine.outcome() {
                    break Stop::Finished(o.clone());
                }
                if !first && let Some(l) = slow.breakpoint_ahead() {
                    break Stop::Breakpoint { line: l };
                }
                first = false;
                if let Stop::Finished(o) = slow.step_instruction() {
                    break Stop::Finished(o);
                }
            };
            assert_eq!(stop, expected, "{file} line {line}: stop {stops}");
            assert_eq!(state(&fast), state(&slow), "{file} line {line}: stop {stops}");
            stops += 1;
            if matches!(stop, Stop::Finished(_)) {
                break;
            }
            if stops == 60 {
                // Enough stops: the rest of the way with the breakpoint off.
                fast.breakpoints.clear();
                slow.breakpoints.clear();
            }
        }
        assert!(stops > 1, "{file} line {line}: the breakpoint hit");
        assert!(fast.machine.outcome().is_some());
    }
}

/// Break on divergence, checked inside the machine, stops where the per-step check stops.
#[test]
fn continue_with_break_on_divergence_stops_where_single_stepping_does() {
    let mut fast = session("kernels/reduce_neighbored.cu", Mode::PreVolta, &[]);
    let mut slow = session("kernels/reduce_neighbored.cu", Mode::PreVolta, &[]);
    fast.break_on_divergence = true;
    for _ in 0..40 {
        let stop = fast_continued(&mut fast);
        let expected = loop {
            let before = slow.machine.metrics.divergent_branches;
            match slow.step_instruction() {
                Stop::Finished(o) => break Stop::Finished(o),
                _ if slow.machine.metrics.divergent_branches > before => {
                    break Stop::Divergence { line: slow.last_issue.unwrap().line };
                }
                _ => {}
            }
        };
        assert_eq!(stop, expected);
        assert_eq!(state(&fast), state(&slow));
    }
}

/// `S` right after a fast continue gives the state of single-stepping to that step (the history has only the
/// snapshot of step 0 then: it re-executes the whole launch); so does going back further and forward again.
#[test]
fn step_back_after_a_fast_continue_is_the_stepped_state() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let mut s = session("kernels/reduce_neighbored.cu", mode, &[]);
        fast_continued(&mut s);
        assert!(s.machine.ran_parallel());
        let end = s.machine.steps;
        s.step_back(1);
        let mut reference = session("kernels/reduce_neighbored.cu", mode, &[]);
        for _ in 0..end - 1 {
            reference.step_instruction();
        }
        assert_eq!(s.machine.steps, end - 1);
        assert_eq!(state(&s), state(&reference), "{mode:?}: S after c");
        s.step_instruction();
        reference.step_instruction();
        assert_eq!(state(&s), state(&reference), "{mode:?}: S then s");
    }
}

fn app(args: &[&str]) -> App {
    App::new(session("kernels/reduce_neighbored.cu", Mode::Its, args), Keymap::default_map(), Theme::default_dark())
}

/// The TUI's `c` then `S` at a size whose step back re-executes in pieces with progress: the screens are
/// those of a continue that single-steps (replay's bounded continue) and of stepping to that step.
#[test]
fn tui_continue_then_step_back_shows_the_stepped_screens() {
    // 128 blocks, 341,760 instructions: more than the TUI re-executes at once for `S`.
    let args = ["n=65536"];
    let mut fast = app(&args);
    update::update(&mut fast, Action::Continue);
    update::finish_running(&mut fast);
    assert!(fast.session.machine.ran_parallel());
    let mut stepped = app(&args);
    update::update(&mut stepped, Action::Continue);
    while stepped.running {
        update::tick_bounded(&mut stepped, 1 << 20);
    }
    assert!(!stepped.session.machine.ran_parallel());
    let screen = |a: &App| warpdbg::tui::view::render_text(a, 120, 40);
    assert_eq!(state(&fast.session), state(&stepped.session));
    assert_eq!(screen(&fast), screen(&stepped));
    let end = fast.session.machine.steps;
    assert!(screen(&fast).contains(&format!("step {end}")));

    update::update(&mut fast, Action::StepBack);
    assert!(fast.running && fast.travel == Some(end - 1), "a long step back runs in pieces");
    let mut frames = 0;
    while fast.running {
        update::tick(&mut fast);
        frames += 1;
        if fast.running {
            let shown = screen(&fast);
            assert!(shown.contains("going back to step"), "progress is shown: {shown}");
        }
    }
    assert!(frames > 0);
    update::update(&mut stepped, Action::StepBack);
    update::finish_running(&mut stepped);
    assert_eq!(fast.session.machine.steps, end - 1);
    assert_eq!(state(&fast.session), state(&stepped.session));
    assert_eq!(screen(&fast), screen(&stepped));
    // Recorded as where it arrived, so a replay goes there at once.
    let last = fast.outbox.iter().rev().find_map(|e| match e {
        warpdbg::tui::recording::EventKind::Action { name, steps, .. } => Some((name.clone(), *steps)),
        _ => None,
    });
    assert_eq!(last, Some(("Goto".to_string(), end - 1)));
}

/// A key pressed during a whole run abandons it: the machine is back at step 0, as before the continue; then
/// the key does what it does (issue 32: it used to be swallowed), here one step from step 0.
#[test]
fn interrupting_a_whole_run_goes_back_to_where_it_started() {
    let mut a = app(&["n=65536"]);
    let mut stepped = app(&["n=65536"]);
    update::update(&mut stepped, Action::Step);
    let before = state(&stepped.session);
    update::update(&mut a, Action::Continue);
    let first = a.session.cont_fast(2_000, true);
    assert!(first.is_none() && a.session.whole_run_progress().is_some(), "a whole run is in progress");
    update::update(&mut a, Action::Step);
    assert!(!a.running);
    assert_eq!(a.session.whole_run_progress(), None);
    assert_eq!(state(&a.session), before);
    // And continuing again finishes.
    update::update(&mut a, Action::Continue);
    update::finish_running(&mut a);
    assert!(a.session.machine.outcome().is_some());
}

/// A conditional line breakpoint (`line N if ...`), checked inside the machine, stops where checking every
/// instruction (`before_issue`) stops, with the same hit; here first in the last block.
#[test]
fn continue_with_a_conditional_line_breakpoint_stops_where_checking_each_instruction_does() {
    use warpdbg::debug::breakpoint::Breakpoint;
    use warpdbg::debug::session::before_issue;
    for spec in ["line 41 if block == 15", "line 33 if tid == 64 && stride == 4", "line 31 if warp == 3"] {
        let mut fast = session("kernels/reduce_neighbored.cu", Mode::Its, &[]);
        let mut slow = session("kernels/reduce_neighbored.cu", Mode::Its, &[]);
        let bp = Breakpoint::parse(spec, &fast.compiled).unwrap_or_else(|e| panic!("{spec}: {e:?}"));
        fast.add_breakpoint(bp.clone());
        slow.add_breakpoint(bp);
        for k in 0..4 {
            let stop = fast_continued(&mut fast);
            let mut first = true;
            let expected = loop {
                if let Some(o) = slow.machine.outcome() {
                    break Stop::Finished(o.clone());
                }
                if let Err(hit) = before_issue(&mut slow, !first) {
                    break Stop::Hit(hit);
                }
                first = false;
                if let Stop::Finished(o) = slow.step_instruction() {
                    break Stop::Finished(o);
                }
            };
            assert_eq!(stop, expected, "{spec}: stop {k}");
            assert_eq!(state(&fast), state(&slow), "{spec}: stop {k}");
            if k == 0 && spec.contains("block == 15") {
                let Stop::Hit(h) = &stop else { panic!("{stop:?}") };
                assert_eq!(h.block, 15);
            }
        }
    }
}

//! Breakpoints on SIMT events (issue 10, part 3): each kind stops at the exact step and line on the seed
//! kernels, conditional line breakpoints stop only for the named thread, the watchpoint names the writer,
//! bad specs get kernel-style diagnostics (line:column, caret), and `run --break` reports `stopped_at`.

mod common;

use common::{compile, warpdbg};
use warpdbg::debug::breakpoint::{Breakpoint, Hit, variable};
use warpdbg::debug::session::{Session, Stop};
use warpdbg::front::launch::Mode;
use warpdbg::sim::{Config, Outcome};

const DEADLOCK: &str = "kernels/deadlock.cu";
const FIG49: &str = "tests/conformance/fig49.cu";

fn session(file: &str, mode: Mode, specs: &[&str]) -> Session {
    let compiled = compile(file, mode, &[]);
    let bps: Vec<Breakpoint> = specs
        .iter()
        .map(|s| Breakpoint::parse(s, &compiled).unwrap_or_else(|e| panic!("`{s}` parses:\n{e}")))
        .collect();
    let mut s = Session::new(compiled, Config::default()).expect("launch fits");
    for bp in bps {
        s.add_breakpoint(bp);
    }
    s
}

/// One `continue` to its stop (as the TUI runs it, in chunks).
fn cont(s: &mut Session, first: bool) -> Stop {
    let mut first = first;
    loop {
        if let Some(stop) = s.cont(warpdbg::debug::session::CONTINUE_CHUNK, first) {
            return stop;
        }
        first = false;
    }
}

fn hit(stop: Stop) -> Hit {
    match stop {
        Stop::Hit(h) => h,
        other => panic!("expected a breakpoint hit, got {other:?}"),
    }
}

fn all_hits(s: &mut Session) -> (Vec<Hit>, Stop) {
    let mut hits = vec![];
    loop {
        // Each continue starts anew: the point it stopped at does not stop it again.
        match cont(s, true) {
            Stop::Hit(h) => hits.push(h),
            other => return (hits, other),
        }
        assert!(hits.len() < 1000, "runaway");
    }
}

fn odd_tids(lo: u32, hi: u32) -> Vec<u32> {
    (lo..=hi).filter(|t| t % 2 == 1).collect()
}

#[test]
fn divergence_stops_after_the_branch_of_figure_4_9_in_both_models() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let mut s = session(FIG49, mode, &["divergence"]);
        let h = hit(cont(&mut s, true));
        // Steps 1-3 compute tid, v and the condition; step 4 is the branch on line 7.
        assert_eq!((h.kind, h.step, h.line, h.block, h.warp), ("divergence", 4, 7, 0, 0), "{mode:?}");
        assert_eq!(s.machine.steps, 4);
        assert_eq!(h.threads, (0..32).collect::<Vec<_>>());
        assert!(
            h.message.ends_with("diverged at line 7: lanes 0-23 go to line 8, lanes 24-31 go to line 10"),
            "{}",
            h.message
        );
        // One divergent branch in the whole kernel: the next continue runs to the end.
        assert_eq!(cont(&mut s, true), Stop::Finished(Outcome::Completed));
    }
}

#[test]
fn reconvergence_stops_before_the_whole_warp_runs_line_12_together() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let mut s = session(FIG49, mode, &["reconvergence"]);
        let h = hit(cont(&mut s, true));
        assert_eq!((h.kind, h.step, h.line, h.warp), ("reconvergence", 8, 12, 0), "{mode:?}");
        // Before it issues: the next instruction is line 12's, with all 32 lanes.
        let (_, _, pc, mask) = s.machine.peek().expect("can issue");
        assert_eq!((s.machine.kernel.line(pc), mask.count()), (12, 32));
        // The side that ran first (then: lanes 0-23) rejoins the else side (24-31) that ran last.
        assert_eq!(h.threads, (0..24).collect::<Vec<_>>());
        assert!(h.message.contains("lanes 0-23 rejoin lanes 24-31 (32 active, 8 before)"), "{}", h.message);
        assert_eq!(cont(&mut s, true), Stop::Finished(Outcome::Completed));
    }
    // deadlock.cu never reconverges under ITS: it deadlocks first.
    let mut s = session(DEADLOCK, Mode::Its, &["reconvergence"]);
    assert!(matches!(cont(&mut s, true), Stop::Finished(Outcome::Deadlock(_))));
}

#[test]
fn barrier_mismatch_stops_where_odd_threads_reach_the_other_barrier() {
    // ITS: the even threads of both warps wait at line 28; the odd threads of warp 0 arrive at line 37.
    let mut s = session(DEADLOCK, Mode::Its, &["barrier-mismatch"]);
    let h = hit(cont(&mut s, true));
    assert_eq!((h.kind, h.step, h.line, h.warp), ("barrier_mismatch", 379, 37, 0));
    assert_eq!(h.threads, odd_tids(0, 31));
    assert_eq!(
        h.message,
        "barrier mismatch in block (0,0,0): threads 1,3,5,...,31 arrived at the __syncthreads() on line 37 while \
         threads 0,2,4,...,62 wait at the one on line 28"
    );
    // The next instruction (warp 1's odd threads arriving too) is a mismatch as well, and the last one.
    let h = hit(cont(&mut s, true));
    assert_eq!((h.step, h.line, h.warp), (380, 37, 1));
    assert_eq!(h.threads, odd_tids(32, 63));
    assert!(matches!(cont(&mut s, true), Stop::Finished(Outcome::Deadlock(_))));

    // Pre-Volta: part of a warp reaching a barrier is the divergent-barrier hazard.
    let mut s = session(DEADLOCK, Mode::PreVolta, &["barrier-mismatch"]);
    let h = hit(cont(&mut s, true));
    assert_eq!((h.step, h.line, h.warp), (185, 28, 0));
    assert_eq!(h.threads, (0..32).step_by(2).collect::<Vec<_>>());
    assert!(
        h.message.contains("only lanes 0,2,4,...,30 of warp 0 reached the __syncthreads() on line 28"),
        "{}",
        h.message
    );
    // A kernel with uniform barriers never stops.
    let mut s = session("tests/conformance/shared_scan.cu", Mode::Its, &["barrier-mismatch"]);
    assert!(matches!(cont(&mut s, true), Stop::Finished(Outcome::Completed)));
}

#[test]
fn mask_condition_stops_when_it_becomes_true_for_a_warp() {
    let mut s = session(FIG49, Mode::Its, &["active < 16"]);
    let h = hit(cont(&mut s, true));
    // 24 lanes run the then side (not < 16); the else side's 8 lanes are the first time it holds.
    assert_eq!((h.kind, h.step, h.line), ("mask", 6, 10));
    assert_eq!(h.threads, (24..32).collect::<Vec<_>>());
    assert_eq!(cont(&mut s, true), Stop::Finished(Outcome::Completed));

    // deadlock.cu: each warp splits 16/16 at the `if`; `active < 16` never holds, `active <= 16` holds once
    // per warp (it stays true while the halves alternate, so it does not stop again).
    let mut s = session(DEADLOCK, Mode::Its, &["active < 16"]);
    assert!(matches!(cont(&mut s, true), Stop::Finished(Outcome::Deadlock(_))));
    let mut s = session(DEADLOCK, Mode::Its, &["active <= 16 && warp == 1"]);
    let (hits, end) = all_hits(&mut s);
    assert!(matches!(end, Stop::Finished(Outcome::Deadlock(_))));
    let at: Vec<(u64, u32, u32)> = hits.iter().map(|h| (h.step, h.line, h.warp)).collect();
    assert_eq!(at, vec![(9, 23, 1)]);
}

#[test]
fn conditional_line_breakpoint_stops_only_for_the_named_thread() {
    let mut s = session(DEADLOCK, Mode::Its, &["line 34 if tid == 5 && k == 2"]);
    let h = hit(cont(&mut s, true));
    assert_eq!((h.kind, h.step, h.line, h.warp, h.threads.clone()), ("line", 128, 34, 0, vec![5]));
    // Stopped before line 34 runs, with thread 5's `k` (the odd side's loop counter) at 2.
    let (reg, _) = variable(&s.machine.kernel, "k", 34).expect("k");
    let b = &s.machine.blocks[0];
    assert_eq!(b.reg(reg, 5), 2);
    let (_, w, pc, mask) = s.machine.peek().expect("can issue");
    assert_eq!((w, s.machine.kernel.line(pc)), (0, 34));
    assert!(mask.contains(5));
    // Once only: the run goes on to the deadlock.
    assert!(matches!(cont(&mut s, true), Stop::Finished(Outcome::Deadlock(_))));

    // Thread 37 is in warp 1: the stop is there, one step later.
    let mut s = session(DEADLOCK, Mode::Its, &["line 34 if tid == 37 && k == 2"]);
    let h = hit(cont(&mut s, true));
    assert_eq!((h.step, h.warp, h.threads.clone()), (129, 1, vec![37]));

    // Without the `k` clause: once per loop iteration (k = 0..7), every time for thread 5 only.
    let mut s = session(DEADLOCK, Mode::Its, &["line 34 if tid == 5"]);
    let (hits, _) = all_hits(&mut s);
    assert_eq!(hits.len(), 8);
    assert!(hits.iter().all(|h| h.threads == vec![5] && h.warp == 0 && h.line == 34), "{hits:?}");
    // An even thread never runs line 34.
    let mut s = session(DEADLOCK, Mode::Its, &["line 34 if tid == 4"]);
    assert!(matches!(cont(&mut s, true), Stop::Finished(Outcome::Deadlock(_))));
    // The kernel's `sum` (declared on line 23) is readable on line 25: it stops when thread 0's sum first
    // exceeds 3 (in[i] = i: 0, 1, 3, 6: after three iterations).
    let mut s = session(DEADLOCK, Mode::Its, &["line 25 if tid == 0 && sum > 3"]);
    let h = hit(cont(&mut s, true));
    let (reg, _) = variable(&s.machine.kernel, "sum", 25).expect("sum");
    assert_eq!(s.machine.blocks[0].reg(reg, 0), 6);
    assert_eq!(h.threads, vec![0]);
}

#[test]
fn watchpoint_reports_the_writing_thread_line_and_values() {
    let mut s = session(FIG49, Mode::Its, &["write out[30]"]);
    let h = hit(cont(&mut s, true));
    assert_eq!((h.kind, h.step, h.line, h.threads.clone()), ("write", 10, 12, vec![30]));
    assert_eq!(h.message, "out[30] written by thread 30 of block (0,0,0) (warp 0) at line 12: 0 -> 90");
    // Stopped after the store: the memory holds the new value.
    assert_eq!(s.machine.global.find("out").expect("out").element(30), 90);

    // Pre-Volta deadlock.cu: out[3] is written by odd thread 3 on line 38.
    let mut s = session(DEADLOCK, Mode::PreVolta, &["write out[3]"]);
    let h = hit(cont(&mut s, true));
    assert_eq!((h.line, h.warp, h.threads.clone()), (38, 0, vec![3]));
    assert!(
        h.message.starts_with("out[3] written by thread 3 of block (0,0,0) (warp 0) at line 38: 0 -> "),
        "{}",
        h.message
    );
    // A reduction: g_odata[1] is written by thread 0 of block 1.
    let mut s = session("kernels/reduce_neighbored.cu", Mode::Its, &["write g_odata[1]"]);
    let h = hit(cont(&mut s, true));
    assert_eq!((h.block, h.threads.clone()), (1, vec![0]));
}

fn diag(file: &str, spec: &str) -> String {
    let compiled = compile(file, Mode::Its, &[]);
    Breakpoint::parse(spec, &compiled).expect_err("a bad spec").render()
}

#[test]
fn bad_specs_get_kernel_style_diagnostics_with_a_caret() {
    assert_eq!(
        diag(DEADLOCK, "line 28 if tid == 5 &&"),
        "error[E-syntax]: expected a number, a name or `(`, found the end of the breakpoint
  ┌─ breakpoint:1:23
  │
1 │ line 28 if tid == 5 &&
  │                       ^ expected a number, a name or `(`

"
    );
    assert_eq!(
        diag(DEADLOCK, "line 28 if tid = 5"),
        "error[E-lex]: unexpected character `=` in a breakpoint
  ┌─ breakpoint:1:16
  │
1 │ line 28 if tid = 5
  │                ^ assignment is not a comparison
  │
  = hint: compare with `==`

"
    );
    assert_eq!(
        diag(DEADLOCK, "line 28 if foo > 2"),
        "error[E-name]: unknown name `foo` in a breakpoint condition
  ┌─ breakpoint:1:12
  │
1 │ line 28 if foo > 2
  │            ^^^ not a variable of the kernel
  │
  = hint: names: tid, lane, warp, block, active, and the kernel's variables: acc, in, k, n, out, sum, tid

"
    );
    assert_eq!(
        diag(DEADLOCK, "write out[64]"),
        "error[E-name]: index 64 is out of range: `out` has 64 elements (0 to 63)
  ┌─ breakpoint:1:11
  │
1 │ write out[64]
  │           ^^ out of range

"
    );
    assert_eq!(
        diag(DEADLOCK, "line 22"),
        "error[E-name]: line 22 has no code of kernel `evenOdd`: a breakpoint there never stops
  ┌─ breakpoint:1:6
  │
1 │ line 22
  │      ^^ no instructions on this line
  │
  = hint: lines with code nearby: 21 and 23

"
    );
    let d = diag(DEADLOCK, "active < 16 && tid == 3");
    assert!(d.starts_with("error[E-name]: `tid` is not a warp-level value"), "{d}");
    assert!(d.contains("breakpoint:1:16") && d.contains("1 │ active < 16 && tid == 3\n  │                ^^^"), "{d}");
    let d = diag(DEADLOCK, "lines 28");
    assert!(d.starts_with("error[E-syntax]: unknown breakpoint kind `lines`") && d.contains("^^^^^"), "{d}");
    let d = diag(DEADLOCK, "write s[3]");
    assert!(d.contains("`s` is a __shared__ array"), "{d}");
    let d = diag(DEADLOCK, "line 28 if (tid == 1");
    assert!(d.contains("expected `)`, found the end of the breakpoint") && d.contains("breakpoint:1:21"), "{d}");
    // Pointers are not compared (the expression language has integers only); unsigned chars are.
    let d = diag("kernels/grayscale.cu", "line 35 if Pin > 1");
    assert!(d.starts_with("error[E-type]: `Pin` is a pointer: breakpoint conditions compare integers"), "{d}");
    let compiled = compile("kernels/grayscale.cu", Mode::Its, &[]);
    assert!(Breakpoint::parse("line 35 if r > 200 && g < 10", &compiled).is_ok());
}

#[test]
fn expressions_follow_c_precedence_and_arithmetic() {
    // `tid % 4 == 1 || !(tid < 30) && lane - 1 >= 0`: C precedence gives threads 1,5,...,29 and 30,31.
    let mut s = session(FIG49, Mode::Its, &["line 12 if tid % 4 == 1 || !(tid < 30) && lane - 1 >= 0"]);
    let h = hit(cont(&mut s, true));
    let mut want: Vec<u32> = (0..32).filter(|t| t % 4 == 1).collect();
    want.extend([30, 31]);
    assert_eq!(h.threads, want);
    // Division by zero makes the condition false for the thread rather than stopping the run.
    let mut s = session(FIG49, Mode::Its, &["line 12 if 10 / (tid - 3) == -5 || active * 2 == 64 && tid == 0x1f"]);
    let h = hit(cont(&mut s, true));
    assert_eq!(h.threads, vec![1, 31]);
}

#[test]
fn run_break_reports_stopped_at_in_the_json() {
    let out = warpdbg(&["run", FIG49, "--json", "--break", "write out[30]", "--break", "line 10 if tid == 99"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["outcome"], "paused");
    assert_eq!(v["steps"], 10);
    let at = &v["stopped_at"];
    assert_eq!(at["kind"], "write");
    assert_eq!(at["spec"], "write out[30]");
    assert_eq!((at["step"].as_u64(), at["line"].as_u64(), at["warp"].as_u64()), (Some(10), Some(12), Some(0)));
    assert_eq!(at["threads"], serde_json::json!([30]));
    // The usual fields are all still there.
    for k in ["kernel", "mode", "grid", "block", "metrics", "memory", "hazards", "waits", "faults"] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    assert_eq!(v["memory"]["out"][30], 90);

    // A plain line breakpoint; and no hit: null, and the run's own outcome and exit status.
    let out = warpdbg(&["run", DEADLOCK, "--json", "--break", "line 37"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!((v["stopped_at"]["kind"].as_str(), v["stopped_at"]["line"].as_u64()), (Some("line"), Some(37)));
    let out = warpdbg(&["run", DEADLOCK, "--json", "--break", "reconvergence"]);
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!((v["outcome"].as_str(), &v["stopped_at"]), (Some("deadlock"), &serde_json::Value::Null));
    // Without --break the report has no stopped_at.
    let out = warpdbg(&["run", FIG49, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(v.get("stopped_at").is_none());

    // A bad spec: the diagnostic on stderr, exit 2.
    let out = warpdbg(&["run", DEADLOCK, "--break", "line 28 if tid == "]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("┌─ breakpoint:1:19") && err.contains("error: bad breakpoint `line 28 if tid == `"), "{err}");
}

//! The memo of a program's repeated launches (`src/program/device/launch_memo.rs`): a launch that repeats
//! an earlier one on the same memory is answered without running, and the program prints what running every
//! launch prints, byte for byte.

use warpdbg::program::{self, RunOptions};
use warpdbg::sim::Tuning;

/// Runs `tests/fixtures/launch_memo/NAME.cu` with the memo on or off: stdout, stderr, status and the number
/// of launches answered from the memo.
fn run(name: &str, memo: bool) -> (String, String, u8, usize) {
    let path = format!("{}/tests/fixtures/launch_memo/{name}.cu", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read(&path).expect("fixture");
    let compiled = program::compile(&format!("{name}.cu"), &src, &Default::default())
        .unwrap_or_else(|e| panic!("{name} does not compile: {:?}", e.diags));
    let mut options = RunOptions::default();
    options.config.tuning = Tuning { no_launch_memo: !memo, ..Tuning::default() };
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &options, &mut out, &mut err);
    (String::from_utf8_lossy(&out).into(), String::from_utf8_lossy(&err).into(), r.status, r.answered)
}

#[test]
fn a_timing_loop_is_answered_from_the_memo_and_prints_what_running_it_prints() {
    let (fast, plain) = (run("timing_loop", true), run("timing_loop", false));
    assert_eq!((&fast.0, &fast.1, fast.2), (&plain.0, &plain.1, plain.2));
    assert_eq!(plain.3, 0);
    // Launch 1 runs, launch 2 runs and is measured (memory as it found it), launches 3 to 21 are answered;
    // the scaling launches change memory each time and run, as does the last, on new inputs.
    assert_eq!(fast.3, 19);
    assert_eq!(
        fast.0,
        "add: 0.0033 ms per launch\nafter scaling: c[3] = 48.0, c[n-1] = 560.0\nnew input: c[3] = 1003.0\n"
    );
    assert!(
        fast.1.contains("warpdbg: launch 21: add<<<(256,1,1), (256,1,1)>>> at line 35: completed after 32768 steps\n")
    );
}

#[test]
fn printing_launches_print_again_and_findings_or_faults_always_run() {
    let (fast, plain) = (run("printing_and_faults", true), run("printing_and_faults", false));
    assert_eq!((&fast.0, &fast.1, fast.2), (&plain.0, &plain.1, plain.2));
    // The first `hello` is measured (no memory to read: a digest costs nothing), the other three are
    // answered; the copies of memory nothing wrote report an uninitialised read each time, and the
    // out-of-bounds writes fault.
    assert_eq!(fast.3, 3);
    assert_eq!(fast.0.matches("hello 7 from block 1\n").count(), 4, "{}", fast.0);
    assert_eq!(fast.1.matches("which nothing wrote").count(), 3, "{}", fast.1);
}

#[test]
fn managed_memory_the_host_changes_makes_the_launch_run_again() {
    let (fast, plain) = (run("managed", true), run("managed", false));
    assert_eq!((&fast.0, &fast.1, fast.2), (&plain.0, &plain.1, plain.2));
    // Rounds 0 and 1 run (the second is measured), 2 is answered; the host's write before round 3 makes it
    // run, round 4 is measured again, and 5 to 7 are answered.
    assert_eq!(fast.3, 4);
    let expected: String =
        (0..8).map(|r| format!("round {r}: y[0] = {}, y[n-1] = 12285\n", if r < 3 { 0 } else { 9 })).collect();
    assert_eq!(fast.0, expected);
}

#[test]
fn launches_that_change_memory_are_answered_with_their_changes() {
    let (fast, plain) = (run("reset_each_time", true), run("reset_each_time", false));
    assert_eq!((&fast.0, &fast.1, fast.2), (&plain.0, &plain.1, plain.2));
    // The first reduction and the first histogram are measured (memory is small next to their warps) and the
    // next five and four answered, each writing the sum or the bins as the run did; the histograms without a
    // reset and the launch counter start from other memory every time and run.
    assert_eq!(fast.3, 9);
    let sums: String = (0..6).map(|r| format!("repeat {r}: sum = 98296.0\n")).collect();
    let bins = [2522, 2521, 2520, 2520, 2520, 1260, 1260, 1261];
    let bins: String = bins.iter().enumerate().map(|(b, c)| format!("bin {b}: {c}\n")).collect();
    assert_eq!(fast.0, format!("{sums}{bins}bin 0 after three more: 10088\nlaunches counted: 4\n"));
}

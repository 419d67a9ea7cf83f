//! Clock spins in whole runs (`sim/machine/clock_spin.rs`): a warp that spins on `clock()`/`clock64()` alone
//! skips the iterations that provably repeat, and everything a run reports (memory, steps, metrics, the
//! outcome and its explanation, the registers of a run stopped inside the loop) is what the run that issues
//! every instruction gives.

mod common;

use common::{compile, run_compiled};
use warpdbg::front::launch::Mode;
use warpdbg::sim::{Config, Tuning};

const DIR: &str = "tests/fixtures/clock_spin";

fn config(skip: bool, max_steps: Option<u64>) -> Config {
    Config { tuning: Tuning { no_spin_skip: !skip, ..Tuning::default() }, max_steps, ..Config::default() }
}

/// Runs `file` with and without skipping; asserts the same report and registers, and returns the steps
/// skipped and the report.
fn both(file: &str, mode: Mode, max_steps: Option<u64>) -> (u64, common::Run) {
    let compiled = compile(&format!("{DIR}/{file}"), mode, &[]);
    let plain = run_compiled(&compiled, config(false, max_steps));
    let fast = run_compiled(&compiled, config(true, max_steps));
    assert_eq!(plain.machine.spin_steps_skipped(), 0, "{file} {mode:?}");
    assert_eq!(fast.json, plain.json, "{file} {mode:?}: the reports differ");
    let regs = |r: &common::Run| r.machine.blocks.iter().map(|b| b.regs.clone()).collect::<Vec<_>>();
    assert_eq!(regs(&fast), regs(&plain), "{file} {mode:?}: the registers differ");
    assert_eq!(fast.machine.steps, plain.machine.steps);
    (fast.machine.spin_steps_skipped(), fast)
}

#[test]
fn a_lone_sleeping_warp_skips_and_reports_what_every_step_gives() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let (skipped, run) = both("sleep64.cu", mode, None);
        assert!(skipped > 190_000, "{mode:?}: skipped {skipped}");
        // The wait it measured: the 200,000 cycles, then the loop's exit and the second clock read.
        assert_eq!(run.ints("out"), vec![200_009, 42], "{mode:?}");
        let (skipped, run) = both("sleep_carried.cu", mode, None);
        assert!(skipped > 190_000, "{mode:?}: skipped {skipped}");
        assert_eq!(run.ints("out"), vec![200_001, 43], "{mode:?}");
        let (skipped, run) = both("sleep32.cu", mode, None);
        assert!(skipped > 400_000, "{mode:?}: skipped {skipped}");
        assert_eq!(run.ints("out"), vec![150_000, 150_007, 7], "{mode:?}");
        let (skipped, run) = both("clock_block.cu", Mode::Its, None);
        assert_eq!(skipped, 0, "four blocks spin at once: each steps in turn");
        assert_eq!(run.ints("d_o"), vec![250_008; 4]);
        let (skipped, run) = both("sleep_warp.cu", mode, None);
        assert!(skipped > 40_000, "{mode:?}: skipped {skipped}");
        assert_eq!(run.ints("out"), vec![82_018; 32], "{mode:?}");
    }
}

#[test]
fn warps_that_share_the_scheduler_or_wait_for_the_spinner_step_as_before() {
    for mode in [Mode::Its, Mode::PreVolta] {
        // Two warps spin together (nothing skipped), then thread 0 alone once the other warps are done.
        let (skipped, run) = both("sleep_blocks.cu", mode, None);
        assert!(skipped > 250_000, "{mode:?}: skipped {skipped}");
        assert_eq!((run.outcome(), run.ints("out")[0]), ("completed", 320_038), "{mode:?}");
        // ITS: the other lanes wait at the if's reconvergence for lane 0; pre-Volta they wait on the stack.
        let (skipped, _) = both("sleep_diverged.cu", mode, None);
        assert_eq!(skipped > 0, mode == Mode::PreVolta, "{mode:?}: skipped {skipped}");
    }
}

#[test]
fn the_step_limit_and_a_livelock_after_a_sleep_come_at_the_same_step() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let (skipped, run) = both("sleep_limit.cu", mode, Some(3_000_000));
        assert!(skipped > 2_900_000, "{mode:?}: skipped {skipped}");
        assert_eq!((run.outcome(), run.machine.steps), ("step_limit", 3_000_000));
        let (skipped, run) = both("sleep_livelock.cu", mode, None);
        assert!(skipped > 290_000, "{mode:?}: skipped {skipped}");
        assert_eq!(run.outcome(), "livelock");
    }
}

#[test]
fn a_program_that_sleeps_in_streams_prints_the_same_with_and_without_the_skip() {
    let file = format!("{DIR}/streams_sleep.cu");
    let run = |skip: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_warpdbg"));
        cmd.args(["run", &file]).current_dir(env!("CARGO_MANIFEST_DIR"));
        if !skip {
            cmd.env("WARPDBG_NO_SPIN_SKIP", "1");
        }
        let out = cmd.output().expect("warpdbg runs");
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (fast, plain) = (run(true), run(false));
    assert_eq!(fast, plain);
    assert_eq!(
        fast.0,
        "kernel 0 awake\nkernel 1 awake\nkernel 2 awake\nkernel 3 awake\ndone: 1 2 3 4\n\
         sequential 8.089 ms, streams 8.089 ms\n"
    );
    assert_eq!(fast.1.matches("completed after 2000014 steps").count(), 4, "{}", fast.1);
}

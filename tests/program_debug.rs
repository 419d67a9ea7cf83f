//! The debugger on whole programs, headless: `warpdbg::debug::program` runs the host code to a launch and
//! hands that launch to a normal session; continuing goes to the next launch; time travel, the mode switch
//! and the host's variables.

use warpdbg::debug::program::{Advance, ProgramDebug, Target};
use warpdbg::debug::session::Stop;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::program::{RunOptions, compile};
use warpdbg::sim::{Config, Outcome};

fn open(file: &str, target: Target) -> (ProgramDebug, warpdbg::debug::session::Session) {
    open_mode(file, target, Mode::Its)
}

fn open_mode(file: &str, target: Target, mode: Mode) -> (ProgramDebug, warpdbg::debug::session::Session) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let bytes = std::fs::read(&path).expect("test program");
    let compiled = compile(file, &bytes, &Overrides::default()).expect("compiles");
    let options = RunOptions { mode, ..RunOptions::default() };
    ProgramDebug::open(compiled, options, Config::default(), &target).expect("reaches the launch")
}

const REDUCTION: &str = "tests/programs/reduction.cu";

#[test]
fn opens_at_the_first_launch_with_the_host_run_up_to_it() {
    let (p, s) = open(REDUCTION, Target::Index(1));
    let l = p.current_launch().expect("at a launch");
    assert_eq!((l.index, l.kernel.as_str()), (1, "sumNeighbored"));
    assert_eq!(l.config(), "sumNeighbored<<<32, 128>>>");
    assert_eq!(l.host_line, 100);
    assert_eq!(s.machine.steps, 0);
    assert_eq!(s.machine.kernel.name, "sumNeighbored");
    assert_eq!(p.output_text(), "array size 4096, block 128\ncpu sum: 517140\n");
    let var = |n: &str| p.host_vars.iter().find(|v| v.name == n).map(|v| v.value.clone());
    assert_eq!(var("size").as_deref(), Some("4096"));
    assert_eq!(var("cpu").as_deref(), Some("517140"));
    assert!(var("d_in").is_some_and(|v| v.ends_with("(device, line 96)")), "{:?}", p.host_vars);
    assert!(var("grid").is_some_and(|v| v == "{32, 1, 1}"), "{:?}", p.host_vars);
    // The device memory is the program's: d_in holds what the host copied there.
    let d_in = s.machine.global.allocs.iter().find(|a| a.name == "d_in").expect("d_in is allocated");
    assert_eq!(d_in.len, 4096);
    // A program's launch gets the program step limit (docs/programs.md): 32 blocks of 4 warps are 128 warps,
    // at 100,000 steps each under the floor of 2^28, and so are 2 steps per byte of its few KiB of device
    // memory and what its argument n = 4096 asks for; a kernel file keeps 10,000 per warp, at least 10^7
    // (tests/step_limit.rs tests the arguments' part).
    assert_eq!(s.machine.max_steps, 1 << 28);
    use warpdbg::sim::program_step_limit;
    assert_eq!(program_step_limit(32_768, 0, 0), 1 << 30);
    assert_eq!(program_step_limit(4_096, 1 << 20, 0), 409_600_000);
    // One thread adding two 32M-float vectors (384 MiB of device memory, 570 million instructions).
    assert_eq!(program_step_limit(1, 3 << 27, 0), 805_306_368);
    assert_eq!(program_step_limit(1, 1 << 40, 0), 1 << 30);
    assert_eq!(warpdbg::sim::kernel_file_step_limit(4_096, 0), 40_960_000);
}

#[test]
fn continue_at_the_end_goes_to_the_next_launch_and_the_end_shows_the_exit() {
    let (mut p, mut s) = open(REDUCTION, Target::Index(1));
    s.breakpoints.insert(33);
    assert_eq!(p.advance(&mut s), Ok(Advance::Launch(2)));
    assert_eq!(p.current_launch().map(|l| l.kernel.as_str()), Some("sumNeighboredLess"));
    assert_eq!(p.launches[0].outcome, Some("completed"));
    assert!(p.output_text().contains("gpu Neighbored     sum: 517140"), "{}", p.output_text());
    assert!(s.breakpoints.contains(&33), "breakpoints carry over to the next launch");
    assert_eq!(p.advance(&mut s), Ok(Advance::Launch(3)));
    assert_eq!(p.advance(&mut s), Ok(Advance::Ended));
    let end = p.ended.clone().expect("ended");
    assert_eq!(end.status, 0);
    assert!(p.output_text().ends_with("Test PASSED\n"), "{}", p.output_text());
    assert_eq!(p.current, None);
    assert_eq!(p.launches.len(), 3);
}

#[test]
fn launch_k_and_kernel_name_targets() {
    let (p, s) = open(REDUCTION, Target::Index(3));
    assert_eq!(p.current, Some(3));
    assert_eq!(s.machine.kernel.name, "sumInterleaved");
    assert_eq!(p.launches[..2].iter().map(|l| l.outcome).collect::<Vec<_>>(), [Some("completed"); 2]);
    let (p, _) = open(REDUCTION, Target::Kernel("sumNeighboredLess".into()));
    assert_eq!(p.current, Some(2));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(REDUCTION);
    let compiled = compile(REDUCTION, &std::fs::read(path).unwrap(), &Overrides::default()).unwrap();
    let err = ProgramDebug::open(compiled, RunOptions::default(), Config::default(), &Target::Index(9))
        .err()
        .expect("there is no launch 9");
    assert!(err.contains("it made 3 launches"), "{err}");
}

#[test]
fn stepping_in_a_launch_then_back_across_the_launch_boundary() {
    let (mut p, mut s) = open(REDUCTION, Target::Index(1));
    p.advance(&mut s).expect("to launch 2");
    for _ in 0..10 {
        assert_eq!(s.step_instruction(), Stop::Stepped);
    }
    let check = warpdbg::debug::checksum::state_check(&s.machine);
    s.step_back(10);
    assert_eq!(s.machine.steps, 0);
    // At launch 2's start: back to launch 1's start (the host runs again from main).
    p.goto_launch(1, &mut s).expect("back to launch 1");
    assert_eq!((p.current, s.machine.kernel.name.as_str(), s.machine.steps), (Some(1), "sumNeighbored", 0));
    assert_eq!(p.launches.len(), 1);
    // And forward again to the same state.
    p.advance(&mut s).expect("to launch 2");
    s.run_to(10);
    assert_eq!(warpdbg::debug::checksum::state_check(&s.machine), check);
}

#[test]
fn mode_switch_reruns_the_program_to_the_same_launch_and_step() {
    let (mut p, mut s) = open(REDUCTION, Target::Index(2));
    s.run_to(100);
    p.set_mode(Mode::PreVolta, &mut s).expect("switch");
    assert_eq!((p.current, s.mode(), s.machine.steps), (Some(2), Mode::PreVolta, 100));
    assert_eq!(s.machine.kernel.name, "sumNeighboredLess");
    let cont = loop {
        if let Some(stop) = s.cont(1 << 20, true) {
            break stop;
        }
    };
    assert_eq!(cont, Stop::Finished(Outcome::Completed));
    let [pv, its] = p.start_machines(&s).expect("both models");
    assert_eq!((pv.mode(), its.mode()), (Mode::PreVolta, Mode::Its));
    assert_eq!((pv.steps, its.steps), (0, 0));
}

fn warpdbg(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_warpdbg"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .output()
        .expect("warpdbg runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

#[test]
fn trace_why_and_view_take_launch_k() {
    let (rc, out, err) = warpdbg(&["trace", REDUCTION, "--launch", "2"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.lines().next().is_some_and(|l| l.contains("line   43")), "sumNeighboredLess's first line");
    assert!(err.contains("outcome: completed after 15552 steps"), "{err}");
    let (rc, out, _) = warpdbg(&["why", REDUCTION, "--launch", "1", "--steps", "3500", "--lane", "1"]);
    assert_eq!(rc, 0);
    assert!(out.contains("masked by the `if` on line 34") && out.contains("(tid=1, stride=1)"), "{out}");
    assert!(out.contains("warpdbg view tests/programs/reduction.cu --launch 1 --steps 2560"), "{out}");
    let (rc, out, _) = warpdbg(&["view", REDUCTION, "--launch", "3", "--size", "120x40"]);
    assert_eq!(rc, 0);
    assert!(out.contains("launch 3 sumInterleaved<<<32, 128>>> at reduction.cu:112"), "{out}");
    let (rc, out, _) = warpdbg(&["view", REDUCTION, "--kernel", "sumNeighboredLess", "--size", "120x40"]);
    assert_eq!(rc, 0);
    assert!(out.contains("launch 2 sumNeighboredLess"), "{out}");
    let (rc, _, err) = warpdbg(&["view", REDUCTION, "--launch", "7"]);
    assert_eq!(rc, 2);
    assert!(err.contains("before launch 7: it made 3 launches") && err.contains("Test PASSED"), "{err}");
}

#[test]
fn program_arguments_reach_argv() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("argv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("argv.cu");
    std::fs::write(
        &file,
        "#include <stdio.h>\n#include <stdlib.h>\n__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }\n\
         int main(int argc, char **argv) {\n    int n = argc > 1 ? atoi(argv[1]) : 32;\n    int *d;\n\
         cudaMalloc(&d, n * sizeof(int));\n    printf(\"n=%d\\n\", n);\n    k<<<1, n>>>(d);\n    return 0;\n}\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let (rc, out, err) = warpdbg(&["view", f, "--size", "120x40", "--", "64"]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("k<<<1, 64>>>") && out.contains(" n=64"), "{out}");
    assert!(out.contains(" n    64") && out.contains(" argc 2"), "the host variables are shown:\n{out}");
}

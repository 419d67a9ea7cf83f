//! The page's API, run natively: compile from strings with a header in memory, step, draw, finish.

use super::*;

const KERNEL: &str = r#"// @kernel scale
// @arg n = 40
// @block 64
// @grid 1
// @arg a float[n] = i
#include "common/factor.h"

__global__ void scale(float *a, int n)
{
    int i = threadIdx.x;
    if (i < n)
        a[i] = a[i] * FACTOR;
}
"#;

fn files() -> Files {
    let mut f = Files::new();
    f.insert("src/common/factor.h", "#define FACTOR 3.0f\n");
    f
}

#[test]
fn compiles_with_a_header_from_memory_steps_and_draws() {
    let mut s = WebSession::compile("src/scale.cu", KERNEL, &files(), &Options::default()).expect("compiles");
    assert_eq!(s.steps(), 0);
    let before = s.render_text();
    assert!(before.starts_with("kernel scale (src/scale.cu)"), "{before}");
    assert!(before.contains("step 0: running"), "{before}");
    // Two warps, both about to run the first line of the body.
    assert!(before.contains(">   2w   10 |     int i = threadIdx.x;"), "{before}");
    assert!(before.contains("block (0,0,0) warp  1  ready"), "{before}");

    assert_eq!(s.step(), "stepped");
    assert_eq!(s.steps(), 1);
    assert!(s.render_text().contains("step 1: running"));
    s.step_back(1);
    assert_eq!(s.steps(), 0);

    let mut stop = None;
    for _ in 0..10 {
        stop = s.cont();
        if stop.is_some() {
            break;
        }
    }
    assert_eq!(stop.as_deref(), Some("completed"));
    assert!(s.finished());
    let report = s.report().expect("finished");
    assert!(report.contains("outcome: completed"), "{report}");
    assert!(s.render_text().contains("no resident warps"));
}

#[test]
fn a_breakpoint_stops_a_continue() {
    let mut s = WebSession::compile("src/scale.cu", KERNEL, &files(), &Options::default()).expect("compiles");
    s.toggle_breakpoint(12);
    assert_eq!(s.cont().as_deref(), Some("breakpoint at line 12"));
    s.toggle_breakpoint(12);
    assert_eq!(s.cont().as_deref(), Some("completed"));
}

#[test]
fn options_reach_the_launch() {
    let options = Options { mode: Some(Mode::PreVolta), args: vec!["n=64".into()], schedule_seed: Some(7) };
    let s = WebSession::compile("src/scale.cu", KERNEL, &files(), &options).expect("compiles");
    let m = &s.session().machine;
    assert_eq!(m.launch.mode, Mode::PreVolta);
    assert!(s.render_text().contains("mode pre-volta"), "{}", s.render_text());
}

#[test]
fn errors_come_back_as_text() {
    let missing = WebSession::compile("src/scale.cu", KERNEL, &Files::new(), &Options::default())
        .err()
        .expect("the header is missing");
    assert!(missing.contains("cannot open included file \"common/factor.h\""), "{missing}");

    let bad = WebSession::compile("k.cu", "__global__ void k() { int x = ; }", &Files::new(), &Options::default())
        .err()
        .expect("a syntax error");
    assert!(bad.contains("error"), "{bad}");
    assert!(bad.contains("k.cu:1"), "{bad}");
}

#[test]
fn the_keymaps_activate_and_restart_keys_run_an_interrupted_program_again() {
    assert!(Playground::reruns("enter"));
    assert!(Playground::reruns("r"));
    assert!(!Playground::reruns("j"), "j is Down");
    assert!(!Playground::reruns("R"), "R is not Restart");
    assert!(!Playground::reruns("no such key"));
    assert_eq!(Playground::rerun_keys(), "Enter or r");
}

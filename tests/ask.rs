//! Asking the debugger: `--print EXPR` for `run` and `view`, the expressions' values in any thread (locals,
//! parameters, built-ins, shared and global arrays, C arithmetic), and bad expressions' diagnostics.

mod common;

use common::{compile, warpdbg};
use serde_json::Value;
use warpdbg::debug::session::Session;
use warpdbg::front::launch::Mode;
use warpdbg::sim::Config;
use warpdbg::sim::expr::{Expression, LaneState, Thread, across_warp};

const UNGUARDED: &str = "tests/fixtures/ask/vec_unguarded.cu";
const TILE: &str = "tests/fixtures/ask/tile_shift.cu";

fn stdout(args: &[&str]) -> (String, String, Option<i32>) {
    let out = warpdbg(args);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

fn lanes(from: i64) -> Vec<Value> {
    (from..from + 32).map(Value::from).collect()
}

#[test]
fn run_prints_the_faulting_warps_values_of_a_program() {
    let (_, err, code) = stdout(&["run", UNGUARDED, "--print", "idx", "--print", "count - idx"]);
    assert_eq!(code, Some(1));
    let printed: Vec<&str> = err.lines().filter(|l| l.starts_with("print ")).collect();
    let idx: Vec<String> = (992..1024).map(|v| v.to_string()).collect();
    let rest: Vec<String> = (992..1024).map(|v| (1000 - v).to_string()).collect();
    assert_eq!(
        printed,
        [
            format!("print idx: 1000 in thread (232,0,0) of block (3,0,0); warp 7 lanes 0-31: {}", idx.join(" ")),
            format!("print count - idx: 0 in thread (232,0,0) of block (3,0,0); warp 7 lanes 0-31: {}", rest.join(" ")),
        ]
    );
    // The faulting thread is named, the hint is the guard (not the allocation's size), and the frees the
    // fault made fail are not leaks.
    assert!(err.contains("=========     by thread (232,0,0) in block (3,0,0)"), "{err}");
    assert!(
        err.contains(
            "warpdbg:   hint: add `if (idx < count)` around the body of sumArrays: the grid has 4 x 256 = 1024 \
             threads for count = 1000 elements"
        ),
        "{err}"
    );
    assert!(!err.contains("sizeof") && !err.contains("warpdbg: leak") && !err.contains("LEAK SUMMARY"), "{err}");
    let (out, _, code) = stdout(&["run", UNGUARDED, "--print", "idx", "--print", "x[idx]", "--json"]);
    assert_eq!(code, Some(1));
    let report: Value = serde_json::from_str(&out).expect("JSON");
    let printed = &report["launches"][0]["printed"];
    assert_eq!(printed[0]["expr"], "idx");
    assert_eq!(printed[0]["block"], serde_json::json!([3, 0, 0]));
    assert_eq!(printed[0]["warp"], 7);
    assert_eq!(printed[0]["values"], Value::Array(lanes(992)));
    // x[idx] reads 992.0 .. 999.0, then past the end of dx.
    let x = printed[1]["values"].as_array().expect("values");
    assert_eq!(x.len(), 32);
    assert_eq!(x[..8], (992..1000).map(|v| Value::from(v as f64)).collect::<Vec<_>>()[..]);
    assert!(
        x[8]["error"].as_str().is_some_and(|e| e == "out of bounds: element 1000 of `dx`, which has 1000 elements"),
        "{}",
        x[8]
    );
}

#[test]
fn run_prints_in_the_warp_a_breakpoint_stopped() {
    let (out, _, code) =
        stdout(&["run", TILE, "--break", "line 19 if tid == 9", "--print", "tile[ty][tx] - left", "--json"]);
    assert_eq!(code, Some(0));
    let report: Value = serde_json::from_str(&out).expect("JSON");
    let p = &report["printed"][0];
    assert_eq!((p["expr"].as_str(), p["warp"].as_u64()), (Some("tile[ty][tx] - left"), Some(0)));
    // Every thread's tile element is in[gid] and its left neighbour in[gid - 1]: 0.5 apart.
    assert_eq!(p["values"], Value::Array(vec![Value::from(0.5); 32]));
    assert_eq!(report["stopped_at"]["threads"], serde_json::json!([9]));
}

#[test]
fn view_at_the_fault_shows_the_faulting_thread() {
    let (out, _, code) = stdout(&["view", UNGUARDED, "--steps", "1e9", "--size", "120x40", "--print", "idx"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("╭ Warp detail · block (3,0,0) warp 7"), "{out}");
    assert!(out.contains("lane 8 (thread 232): active"), "{out}");
    assert!(out.contains("thread 232: x=0x7f4000000000  y=0x7f4000002000"), "{out}");
    assert!(out.contains("count=1000  idx=1000"), "{out}");
    assert!(out.contains("╭ Lanes · block (3,0,0) warp 7 · lane 8"), "{out}");
    assert!(out.contains(" 1 idx = 1000  (lane 8)"), "{out}");
    assert!(out.contains("print idx: 1000 in thread (232,0,0) of block (3,0,0); warp 7 lanes 0-31: 992 993"), "{out}");
}

#[test]
fn bad_expressions_get_a_caret_and_exit_2() {
    let (_, err, code) = stdout(&["run", TILE, "--print", "tile[ty][tx] + lft"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "error[E-name]: `lft` is not a variable of kernel `tileShift`\n  ┌─ print:1:16\n  │\n1 │ tile[ty][tx] + \
         lft\n  │                ^^^ unknown name\n  │\n  = hint: its names: in, out, n, bias, tx, ty, gid, left, \
         tile; and threadIdx, blockIdx, blockDim, gridDim, warpSize\n\nerror: bad --print expression `tile[ty][tx] + \
         lft`\n"
    );
    for (expr, message) in [
        ("gid +", "expected an expression"),
        ("gid = 3", "an expression to print cannot change the program"),
        ("gid++", "an expression to print cannot change the program"),
        ("sqrtf(left)", "calls are not evaluated"),
        ("gid gid", "expected the end of the expression"),
        ("\"text\"", "not an expression the debugger evaluates"),
        ("#define X", "expected an expression"),
    ] {
        let (_, err, code) = stdout(&["run", TILE, "--print", expr]);
        assert_eq!(code, Some(2), "{expr}");
        assert!(err.contains(message), "{expr}: {err}");
        assert!(err.contains("─ print:1:"), "{expr}: {err}");
    }
}

/// A session of the tile kernel stopped where the first warp's odd columns are about to store: every thread
/// of the warp has staged its element and read its neighbour; the even columns wait at the `else`.
/// Returns the session and the slot of the block that stopped (the first thread the stop is about).
fn tile_session() -> (Session, usize) {
    let compiled = compile(TILE, Mode::Its, &[]);
    let mut s = Session::new(compiled, Config::default()).expect("session");
    let line = common::line_of(TILE, "out[gid] = tile[ty][tx] - left;") as u32;
    s.breakpoints.insert(line);
    let mut first = true;
    let stop = loop {
        if let Some(stop) = s.cont(1 << 20, first) {
            break stop;
        }
        first = false;
    };
    let focus = warpdbg::debug::focus::of_stop(&mut s.machine, &stop).expect("the stop is about a thread");
    assert_eq!((focus.warp, focus.lane), (0, 1), "the odd columns of warp 0 arrive first");
    let slot = focus.slot(&s.machine).expect("resident");
    (s, slot)
}

fn show_in(s: &Session, slot: usize, expr: &str, tid: u32) -> String {
    let e = Expression::parse(expr, &s.machine.kernel).unwrap_or_else(|e| panic!("{expr}: {e}"));
    e.show(&s.machine, Thread { slot, tid })
}

fn show(s: &Session, expr: &str, tid: u32) -> String {
    show_in(s, 0, expr, tid)
}

#[test]
fn expressions_read_what_the_thread_sees() {
    let (s, slot) = tile_session();
    let b = &s.machine.blocks[slot];
    let show = |s: &Session, expr: &str, tid: u32| show_in(s, slot, expr, tid);
    let gid = |tid: u32| b.idx.x * 32 + tid;
    for tid in [0u32, 5, 9, 31] {
        let g = gid(tid);
        for (expr, want) in [
            ("gid", g.to_string()),
            ("threadIdx.x + threadIdx.y * blockDim.x", tid.to_string()),
            ("tile[ty][tx]", format!("{:?}", g as f32 * 0.5)),
            ("in[gid]", format!("{:?}", g as f32 * 0.5)),
            ("*(in + gid) == tile[ty][tx]", "1".to_string()),
            ("left", format!("{:?}", if g == 0 { 0.0 } else { (g - 1) as f32 * 0.5 })),
            ("tx % 2 ? -bias : bias", if tid % 2 == 1 { "-3" } else { "3" }.to_string()),
            ("(float)gid / 4", format!("{:?}", g as f32 / 4.0)),
            ("gid / 4", (g / 4).to_string()),
            ("gid >= 4 && gid < 8 || !tx", (((4..8).contains(&g) || tid % 8 == 0) as u8).to_string()),
            ("sizeof(tile) / sizeof(tile[0])", "4".to_string()),
            ("&tile[ty][tx] - &tile[0][0]", tid.to_string()),
            ("warpSize - 1", "31".to_string()),
            ("blockDim", "(8,4,1)".to_string()),
            ("-1u", "4294967295".to_string()),
            ("1.0 / 4", "0.25".to_string()),
            ("0x10 << 2 ^ 1", "65".to_string()),
        ] {
            assert_eq!(show(&s, expr, tid), want, "`{expr}` in thread {tid}");
        }
    }
    let row0: Vec<String> = (0..8).map(|t| format!("{:?}", gid(t) as f32 * 0.5)).collect();
    assert_eq!(show(&s, "tile[0]", 0), format!("[{}]", row0.join(", ")));
    assert_eq!(show(&s, "gid / (tx - tx)", 3), "<division by zero>");
    assert_eq!(show(&s, "in[n + 100]", 3), "<out of bounds: element 164 of `in`, which has 64 elements>");
    // Found by the property test: an address at the top of memory is an error, not an overflow.
    assert_eq!(
        show(&s, "*(float *)0xfffffffffffffffe", 3),
        "<cannot read 0xfffffffffffffffe: 0xfffffffffffffffe is outside memory>"
    );
    assert!(show(&s, "tile[100][0]", 3).starts_with("<cannot read 0x7e0000000c80: out-of-bounds __shared__ access"));
}

#[test]
fn lanes_are_marked_active_masked_or_exited() {
    let (s, slot) = tile_session();
    let e = Expression::parse("tx", &s.machine.kernel).expect("parses");
    let row = across_warp(&e, &s.machine, slot, 0);
    assert_eq!(row.len(), 32);
    let states: Vec<LaneState> = row.iter().map(|l| l.state).collect();
    let active = states.iter().filter(|s| **s == LaneState::Active).count();
    let masked = states.iter().filter(|s| **s == LaneState::Inactive).count();
    assert_eq!((active, masked), (16, 16), "{states:?}");
    assert!(row.iter().all(|l| (l.state == LaneState::Active) == (l.lane % 2 == 1)), "{states:?}");
    // Every lane still has its value, masked or not.
    let values: Vec<String> =
        row.iter().map(|l| l.value.clone().expect("present").expect("ok").display(&s.machine, slot)).collect();
    assert_eq!(values, (0..32).map(|l| (l % 8).to_string()).collect::<Vec<_>>());
}

#[test]
fn a_variable_out_of_scope_says_where() {
    let compiled = compile(TILE, Mode::Its, &[]);
    let s = Session::new(compiled, Config::default()).expect("session");
    assert_eq!(show(&s, "left", 0), "<`left` is not in scope at line 14>");
    assert_eq!(show(&s, "gid", 0), "<`gid` is not in scope at line 14>");
    assert_eq!(show(&s, "blockIdx.x * 32", 0), "0");
}

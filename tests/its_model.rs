//! The ITS model (Volta and later) and deadlock explanations (issue 5): the rows measured on an H100 in the
//! execution-model reference, convergence barriers, `__syncwarp`, per-thread `__syncthreads`, the
//! intra-warp shared-memory race, and the scheduler pinned by an exact trace.

mod common;

use common::{line_of, run, trace};
use warpdbg::front::launch::Mode;

const ITS: Mode = Mode::Its;

#[test]
fn deadlock_kernel_deadlocks_in_its_naming_both_barriers() {
    let path = "kernels/deadlock.cu";
    let r = run(path, ITS, &[]);
    assert_eq!(r.outcome(), "deadlock");
    let (even, odd) = (line_of(path, "// even threads wait here"), line_of(path, "// ... odd threads wait here"));
    assert_eq!((even, odd), (28, 37));
    assert_eq!(
        r.waits(),
        vec![(even, "barrier".into(), "0,2,4,...,62".into()), (odd, "barrier".into(), "1,3,5,...,63".into())]
    );
    let e = r.explanation();
    for want in [
        "Deadlock: no thread of block (0,0,0) can issue.",
        "- threads 0,2,4,...,62 are waiting at the __syncthreads() on line 28.",
        "- threads 1,3,5,...,63 are waiting at the __syncthreads() on line 37.",
        "Fix: move __syncthreads() out of the divergent code (after the if/else)",
    ] {
        assert!(e.contains(want), "{want:?} missing from\n{e}");
    }
    // Each wait also says where the threads it waits for are.
    let msg = r.json["waits"][0]["message"].as_str().expect("message");
    assert!(msg.ends_with("threads 1,3,5,...,63 are waiting at the __syncthreads() on line 37"), "{msg}");
    // Nothing was written: every thread waits before its store.
    assert_eq!(r.ints("out"), vec![0; 64]);
}

#[test]
fn deadlock_kernel_completes_in_pre_volta_with_divergent_barrier_hazards() {
    let r = run("kernels/deadlock.cu", Mode::PreVolta, &[]);
    assert_eq!(r.outcome(), "completed");
    assert_eq!(r.hazards(), vec![("divergent_barrier".into(), 28), ("divergent_barrier".into(), 37)]);
    let first = r.json["hazards"][0]["message"].as_str().expect("message");
    assert!(
        first.contains("threads 0,2,4,...,30 arrived, but threads 1,3,5,...,31 are waiting in the SIMT stack"),
        "{first}"
    );
    assert_eq!(r.json["hazards"][0]["count"], 2, "both warps pass the barrier divergently");
}

#[test]
fn even_odd_looping_barriers_deadlock_with_blocks_of_32_and_64() {
    let path = "tests/conformance/looping_barriers.cu";
    for (block, even, odd) in [(32, "0,2,4,...,30", "1,3,5,...,31"), (64, "0,2,4,...,62", "1,3,5,...,63")] {
        let mut ov = common::overrides(ITS, &[&format!("out=int[{block}]=0")]);
        ov.block = Some(block.to_string());
        let r = common::run_compiled(&common::compile_with(path, &ov), Default::default());
        assert_eq!(r.json["block"][0], block);
        assert_eq!(r.outcome(), "deadlock", "block {block}");
        assert_eq!(r.waits(), vec![(10, "barrier".into(), even.into()), (14, "barrier".into(), odd.into())]);
        // Pre-Volta counts whole warps: the same kernel completes there, with the hazard.
        let pv = run(path, Mode::PreVolta, &[]);
        assert_eq!(pv.outcome(), "completed");
        assert_eq!(pv.ints("out"), (0..64).map(|t| if t % 2 == 0 { 6 } else { 12 }).collect::<Vec<_>>());
        assert!(pv.hazards().iter().all(|(k, _)| k == "divergent_barrier") && !pv.hazards().is_empty());
    }
}

#[test]
fn barrier_reached_by_some_threads_while_the_rest_exit_completes() {
    let r = run("tests/conformance/half_barrier.cu", ITS, &[]);
    assert_eq!(r.outcome(), "completed");
    assert_eq!(r.ints("out"), (0..32).map(|t| if t < 16 { t * (t + 1) / 2 } else { 0 }).collect::<Vec<_>>());
    assert!(r.hazards().is_empty(), "{:?}", r.hazards());
}

#[test]
fn a_whole_warp_returning_before_the_barrier_counts_as_arrived() {
    let r = run("tests/conformance/warp_returns.cu", ITS, &[]);
    assert_eq!(r.outcome(), "completed");
    assert_eq!(r.ints("out"), (0..64).map(|t| if t < 32 { t + 1 } else { 0 }).collect::<Vec<_>>());
}

#[test]
fn looping_if_else_sides_keep_their_order_and_reconverge_before_the_next_statement() {
    let path = "tests/conformance/atomic_log.cu";
    let r = run(path, ITS, &[]);
    assert_eq!(r.outcome(), "completed");
    let log = r.ints("log");
    assert_eq!(r.ints("pos"), vec![40]);
    let then_side: Vec<i64> = log[..8].iter().copied().filter(|v| (100..200).contains(v)).collect();
    let else_side: Vec<i64> = log[..8].iter().copied().filter(|v| (200..300).contains(v)).collect();
    assert_eq!((then_side, else_side), (vec![100, 101, 102, 103], vec![200, 201, 202, 203]));
    let mut after = log[8..40].to_vec();
    after.sort();
    assert_eq!(after, (1000..1032).collect::<Vec<_>>(), "the 32 entries after the if/else come last");
    assert_eq!(&log[40..], &[-1; 56]);
    // All 32 threads issue the statement after the if/else together: they reconverged.
    let line = line_of(path, "log[atomicAdd(pos, 1)] = 1000 + tid;") as u32;
    let masks: Vec<u32> = trace(path, ITS, &[]).iter().filter(|i| i.line == line).map(|i| i.mask.0).collect();
    assert!(!masks.is_empty() && masks.iter().all(|m| *m == u32::MAX), "{masks:x?}");
}

#[test]
fn scheduler_trace_prefix_is_pinned() {
    // Documented order: the taken side first; a group runs until it yields at a loop back edge or waits, then
    // the warp's next group runs. `if (tid == 0)` inside the loop splits lane 0 off until the group rejoins.
    let got: Vec<String> = trace("tests/conformance/atomic_log.cu", ITS, &[])
        .iter()
        .take(32)
        .map(|i| format!("{}:{}:{:x}", i.line, i.pc.0, i.mask.0))
        .collect();
    let want = "6:0:ffffffff 7:1:ffffffff 7:2:ffffffff 7:3:ffffffff \
                8:4:55555555 8:5:55555555 8:6:55555555 8:7:55555555 9:8:55555555 9:9:55555555 \
                9:10:1 9:11:1 9:12:1 9:13:1 9:14:1 8:15:55555555 8:16:55555555 \
                12:17:aaaaaaaa 12:18:aaaaaaaa 12:19:aaaaaaaa 12:20:aaaaaaaa 13:21:aaaaaaaa 13:22:aaaaaaaa \
                13:23:2 13:24:2 13:25:2 13:26:2 13:27:2 12:28:aaaaaaaa 12:29:aaaaaaaa \
                8:6:55555555 8:7:55555555";
    assert_eq!(got.join(" "), want);
    // Deterministic: the same run gives the same trace.
    assert_eq!(trace("tests/conformance/atomic_log.cu", ITS, &[]), trace("tests/conformance/atomic_log.cu", ITS, &[]));
}

#[test]
fn figure_4_9_in_its_runs_each_side_then_all_together() {
    let rows: Vec<(u32, u32)> =
        trace("tests/conformance/fig49.cu", ITS, &[]).iter().map(|i| (i.line, i.mask.0)).collect();
    assert_eq!(
        rows,
        vec![
            (5, 0xffff_ffff),
            (6, 0xffff_ffff),
            (7, 0xffff_ffff),
            (7, 0xffff_ffff),
            (8, 0x00ff_ffff),
            (7, 0x00ff_ffff),
            (10, 0xff00_0000),
            (7, 0xff00_0000),
            (12, 0xffff_ffff),
            (12, 0xffff_ffff),
            (13, 0xffff_ffff),
        ]
    );
    assert!(trace("tests/conformance/fig49.cu", ITS, &[]).iter().all(|i| i.stack_depth.is_none()));
}

#[test]
fn syncwarp_rejoins_the_named_lanes() {
    let path = "tests/conformance/syncwarp.cu";
    let r = run(path, ITS, &[]);
    assert_eq!(r.ints("out"), (0..32).map(|t| if t < 10 { 3 } else { 0 }).collect::<Vec<_>>());
    let sync = line_of(path, "__syncwarp();") as u32;
    let rows = trace(path, ITS, &[]);
    let at_sync: Vec<u32> = rows.iter().filter(|i| i.line == sync).map(|i| i.mask.0).collect();
    assert_eq!(at_sync, vec![u32::MAX]);
    assert!(rows.iter().skip_while(|i| i.line != sync).all(|i| i.mask.0 == u32::MAX));
}

#[test]
fn syncwarp_at_different_call_sites_meets_on_volta_and_later() {
    // bar.warp.sync on sm_70+ waits for the lanes of the same mask at any __syncwarp.
    let path = "tests/conformance/syncwarp_sides.cu";
    let r = run(path, ITS, &[]);
    assert_eq!(r.outcome(), "completed");
    let want: Vec<i64> = (0..32)
        .map(|t: i64| {
            let o = t ^ 1;
            if o % 2 == 0 { o * 10 } else { o * 10 + 1 }
        })
        .collect();
    assert_eq!(r.ints("out"), want);
    assert!(r.hazards().is_empty(), "{:?}", r.hazards());
}

#[test]
fn warp_synchronous_reduction_runs_and_the_its_race_is_reported() {
    let path = "tests/conformance/warp_reduce.cu";
    let r = run(path, ITS, &[]);
    assert_eq!(r.outcome(), "completed");
    assert_eq!(r.ints("g_odata"), vec![(0..64).sum::<i64>()]);
    let races: Vec<u64> = r.hazards().iter().filter(|(k, _)| k == "shared_race").map(|(_, line)| *line).collect();
    assert_eq!(races, vec![13, 14, 15, 16, 17]);
    let msg = r.json["hazards"][0]["message"].as_str().expect("message");
    for want in [
        format!("Race reported between Write access at {path}:12 and Read access at {path}:13"),
        "thread 16 wrote __shared__ smem[16] (address 0x7e0000000040) and thread 0 read it".to_string(),
        "needs __syncwarp()".to_string(),
    ] {
        assert!(msg.contains(&want), "{want:?} missing from\n{msg}");
    }
    // Pre-Volta warps run in lockstep: the same code is race-free there.
    let pv = run(path, Mode::PreVolta, &[]);
    assert_eq!((pv.ints("g_odata"), pv.hazards()), (vec![2016], vec![]));
}

#[test]
fn modes_come_from_the_file_and_the_command_line() {
    let dir = std::env::temp_dir().join(format!("warpdbg-mode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("spin.cu");
    let src = std::fs::read_to_string(common::repo("kernels/spin_lock.cu")).expect("kernel");
    std::fs::write(&file, format!("// @mode pre-volta\n{src}")).expect("write");
    let f = file.to_str().expect("utf-8 path");
    let mode_and_exit = |extra: &[&str]| {
        let mut args = vec!["run", f, "--json"];
        args.extend_from_slice(extra);
        let out = common::warpdbg(&args);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
        (
            json["mode"].as_str().expect("mode").to_string(),
            json["outcome"].as_str().expect("o").to_string(),
            out.status.code(),
        )
    };
    assert_eq!(mode_and_exit(&[]), ("pre-volta".into(), "livelock".into(), Some(3)));
    assert_eq!(mode_and_exit(&["--mode", "its"]), ("its".into(), "completed".into(), Some(0)));
    let plain = common::warpdbg(&["run", "kernels/spin_lock.cu", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&plain.stdout).expect("json");
    assert_eq!(json["mode"], "its", "ITS is the default");
    std::fs::remove_dir_all(&dir).ok();
}

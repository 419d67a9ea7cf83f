//! The simulator's behaviour pinned bit for bit: for every kernel of `kernels/` and `tests/conformance/`, in
//! both execution models, a hash of the full single-step instruction trace (every `Issue` of
//! `Machine::step_traced`), the final outcome and final memory, and a hash of the whole-run result
//! (`Machine::run`: steps, outcome, final memory and the complete `run --json` report with metrics, hazards
//! and explanations). The hashes in `tests/trace_hashes.txt` were computed before the simulator's
//! performance work, so any change in what the machine does, single-stepped or run whole (possibly on several
//! cores), fails here.
//!
//! A kernel whose source changed since it was pinned, or one added since, is reported and not compared.
//! Regenerate (only for an intended change of behaviour, or to pin new kernels): `WARPDBG_BLESS_TRACES=1 cargo
//! test --release --test trace_identity`.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use warpdbg::compile;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::{Config, GlobalMemory, InitShadow, Issue, Machine, Outcome, report};

/// Kernels that never finish stop here (runaway.cu); every other kernel finishes well before.
const MAX_STEPS: u64 = 1_000_000;

/// FNV-1a, 64 bits: stable across platforms and Rust versions (unlike `DefaultHasher`).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.bytes(s.as_bytes());
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn kernel_files() -> Vec<String> {
    common::cu_files(&["kernels", "tests/conformance"])
}

fn machine(path: &str, mode: Mode) -> Machine {
    let bytes = std::fs::read(root().join(path)).expect("kernel file exists");
    let overrides = Overrides { mode: Some(mode), ..Default::default() };
    let compiled = compile::compile(path, &bytes, &overrides).unwrap_or_else(|e| panic!("{path} compiles:\n{e}"));
    Machine::new(&compiled, &Config { max_steps: Some(MAX_STEPS), ..Config::default() }).expect("launch fits")
}

fn hash_issue(h: &mut Fnv, i: &Issue) {
    h.u64(i.step);
    for v in [i.block.x, i.block.y, i.block.z, i.warp.0, i.pc.0, i.line, i.mask.0] {
        h.u64(v as u64);
    }
    h.u64(i.stack_depth.map_or(u64::MAX, |d| d as u64));
}

fn hash_memory(h: &mut Fnv, m: &Machine) {
    for a in &m.global.allocs {
        h.str(&a.name);
        h.u64(a.data.len() as u64);
        h.bytes(&a.data);
    }
}

/// Single-stepped: every issue, the outcome's name, the final memory.
fn trace_hash(path: &str, mode: Mode) -> u64 {
    let mut m = machine(path, mode);
    let mut h = Fnv::new();
    let outcome = loop {
        // Small budgets, as the TUI steps: the budget must not matter.
        let o = m.step_traced(997, &mut |i| hash_issue(&mut h, i));
        if o.is_final() {
            break o;
        }
    };
    h.str(outcome.name());
    hash_memory(&mut h, &m);
    h.0
}

/// Run whole: steps, the outcome, final memory and the complete report.
fn run_hash(path: &str, mode: Mode) -> u64 {
    let mut m = machine(path, mode);
    let outcome: Outcome = m.run();
    let mut h = Fnv::new();
    h.u64(m.steps);
    h.str(outcome.name());
    hash_memory(&mut h, &m);
    h.str(&report::json(&m, &outcome).to_string());
    h.str(&report::text(&m, &outcome));
    h.0
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::PreVolta => "pre-volta",
        Mode::Its => "its",
    }
}

fn compute() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for path in kernel_files() {
        for mode in [Mode::PreVolta, Mode::Its] {
            let key = format!("{path} {}", mode_name(mode));
            let mut src = Fnv::new();
            src.bytes(&std::fs::read(root().join(&path)).expect("kernel file exists"));
            let value =
                format!("src={:016x} trace={:016x} run={:016x}", src.0, trace_hash(&path, mode), run_hash(&path, mode));
            out.insert(key, value);
        }
    }
    out
}

#[test]
fn traces_and_results_are_unchanged() {
    let file = root().join("tests/trace_hashes.txt");
    let now = compute();
    if std::env::var_os("WARPDBG_BLESS_TRACES").is_some() {
        let text: String = now.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
        std::fs::write(&file, text).expect("write trace_hashes.txt");
        return;
    }
    let text = std::fs::read_to_string(&file).expect("tests/trace_hashes.txt exists");
    let mut pinned = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.splitn(3, ' ');
        let (path, mode, value) = (parts.next(), parts.next(), parts.next());
        let (Some(path), Some(mode), Some(value)) = (path, mode, value) else {
            panic!("bad line in trace_hashes.txt: {line}");
        };
        pinned.insert(format!("{path} {mode}"), value.to_string());
    }
    let mut diffs = vec![];
    for (k, v) in &now {
        match pinned.get(k) {
            Some(p) if p == v => {}
            // A kernel added or edited since the pins were taken pins nothing yet: say so, bless to pin it.
            Some(p) if p.split(' ').next() != v.split(' ').next() => {
                eprintln!("note: {k}: the kernel's source changed since it was pinned; not compared")
            }
            Some(p) => diffs.push(format!("{k}: pinned {p}, now {v}")),
            None => eprintln!("note: {k}: not pinned yet (now {v})"),
        }
    }
    for k in pinned.keys().filter(|k| !now.contains_key(*k)) {
        diffs.push(format!("{k}: pinned, but the kernel is gone"));
    }
    assert!(diffs.is_empty(), "traces or results changed:\n{}", diffs.join("\n"));
}

/// Whole runs at a size with many block windows (several waves of resident blocks) agree with single-stepping.
/// The same launch run whole (`Machine::run`, in parallel where the rule allows) and single-stepped `chunk`
/// instructions at a time: (whole, its outcome, stepped, its outcome).
fn whole_and_stepped(
    compiled: &compile::Compiled,
    config: &Config,
    chunk: u64,
) -> (Machine, Outcome, Machine, Outcome) {
    let mut whole = Machine::new(compiled, config).expect("fits");
    let o1 = whole.run();
    let mut stepped = Machine::new(compiled, config).expect("fits");
    let o2 = loop {
        let o = stepped.step(chunk);
        if o.is_final() {
            break o;
        }
    };
    (whole, o1, stepped, o2)
}

/// A whole run ended as single-stepping ended: the same outcome, memory and report.
fn assert_same_end(what: &str, whole: &Machine, o1: &Outcome, stepped: &Machine, o2: &Outcome) {
    assert_eq!(o1, o2, "{what}");
    for (a, b) in whole.global.allocs.iter().zip(&stepped.global.allocs) {
        assert!(a.data == b.data, "{what}: {} differs", a.name);
    }
    assert_eq!(report::json(whole, o1), report::json(stepped, o2), "{what}");
    // Bank statistics in full: the samples and the last access the screen shows, which the report leaves out.
    assert_eq!(whole.metrics.banks, stepped.metrics.banks, "{what}");
}

/// The kernel `src`, in both models, runs whole on several cores exactly as it runs single-stepped
/// (`chunk` steps at a time).
fn assert_inline_kernel_runs_whole_as_stepped(src: &str, chunk: u64) {
    for mode in [Mode::PreVolta, Mode::Its] {
        let overrides = Overrides { mode: Some(mode), ..Default::default() };
        let compiled = compile::compile("inline.cu", src.as_bytes(), &overrides).unwrap_or_else(|e| panic!("{e}"));
        let (whole, o1, stepped, o2) = whole_and_stepped(&compiled, &Config::default(), chunk);
        assert!(whole.ran_parallel(), "{mode:?}: the whole run fell back to one core");
        assert_same_end(&format!("{mode:?}"), &whole, &o1, &stepped, &o2);
    }
}

#[test]
fn whole_run_matches_single_stepping_on_many_blocks() {
    // The four kernels of the performance figures; grayscale's 2-D blocks make each warp's accesses two
    // ranges (two image rows), which the parallel rule must tell apart from other blocks' rows.
    // An image 128 pixels wide puts the two rows of a warp 112 bytes apart, with other blocks' pixels between.
    let launches: [(&str, &[&str]); 5] = [
        ("kernels/reduce_neighbored.cu", &["n=131072"]),
        ("kernels/reduce_interleaved.cu", &["n=131072"]),
        ("kernels/vec_add.cu", &["n=131072"]),
        ("kernels/grayscale.cu", &["width=300", "height=200"]),
        ("kernels/grayscale.cu", &["width=128", "height=64"]),
    ];
    for (path, args) in launches {
        for mode in [Mode::PreVolta, Mode::Its] {
            let bytes = std::fs::read(root().join(path)).expect("kernel file exists");
            let args = args.iter().map(|a| a.to_string()).collect();
            let overrides = Overrides { mode: Some(mode), args, ..Default::default() };
            let compiled = compile::compile(path, &bytes, &overrides).expect("compiles");
            let (whole, o1, stepped, o2) = whole_and_stepped(&compiled, &Config::default(), 4099);
            assert!(whole.ran_parallel(), "{path} {mode:?}: the whole run fell back to one core");
            assert_eq!(whole.steps, stepped.steps, "{path} {mode:?}");
            assert_eq!(whole.metrics, stepped.metrics, "{path} {mode:?}");
            assert_eq!(whole.hazards, stepped.hazards, "{path} {mode:?}");
            assert_same_end(&format!("{path} {mode:?}"), &whole, &o1, &stepped, &o2);
        }
    }
}

/// The pre-decoded data path off its common cases: scattered and strided accesses (lane by lane), 1- and
/// 8-byte elements, signed indices counting down, float arithmetic, division by a divisor that is not a power
/// of two and by one that differs between lanes, partial warps. Whole runs must still equal single-stepping.
#[test]
fn whole_run_matches_single_stepping_off_the_fast_paths() {
    let src = "// @block 80\n// @grid 6\n// @arg a float[480] = i\n// @arg b unsigned char[960] = i\n\
               // @arg c double[480] = i\n// @arg out float[960] = 0\n\
               __global__ void k(float *a, unsigned char *b, double *c, float *out) {\n\
               int i = blockIdx.x * 80 + threadIdx.x;\n\
               unsigned int u = i;\n\
               float x = a[i] * 0.5f + b[2 * i] - (float)(u / 3) + (float)(u % (threadIdx.x % 5 + 1));\n\
               if (threadIdx.x % 3 == 0) x = x - (float)c[(i * 7) % 480];\n\
               int j = 479 - i;\n\
               out[2 * i] = x + a[j];\n\
               out[2 * i + 1] = (float)(i - 40) / 3.0f;\n\
               }\n";
    assert_inline_kernel_runs_whole_as_stepped(src, 1013);
}

/// Each thread sums a row of its own (`a[i * 64 + j]`: a warp's lanes 256 bytes apart, 32 ranges a step,
/// each continuing the lane's range of the step before) and, 2-D, a warp of a 16 x 16 block reads two rows
/// and two broadcasts per step: whole runs equal single-stepping.
#[test]
fn whole_run_matches_single_stepping_on_rows_per_lane() {
    let rows = "// @block 64\n// @grid 4\n// @arg a int[16384] = i\n// @arg out int[256] = 0\n\
                __global__ void k(int *a, int *out) {\n    int i = blockIdx.x * 64 + threadIdx.x;\n    int s = 0;\n    \
                for (int j = 0; j < 64; j++) s += a[i * 64 + j];\n    out[i] = s;\n}\n";
    assert_inline_kernel_runs_whole_as_stepped(rows, 997);
    let tiles = "// @block 16 16\n// @grid 2 2\n// @arg a float[1024] = i\n// @arg b float[1024] = i % 7\n\
                 // @arg c float[1024] = 0\n\
                 __global__ void k(float *a, float *b, float *c) {\n    int r = blockIdx.y * 16 + threadIdx.y;\n    \
                 int col = blockIdx.x * 16 + threadIdx.x;\n    float s = 0.0f;\n    \
                 for (int i = 0; i < 32; i++) s += a[r * 32 + i] * b[i * 32 + col];\n    c[r * 32 + col] = s;\n}\n";
    assert_inline_kernel_runs_whole_as_stepped(tiles, 1013);
}

/// Warps issuing in groups (`gang.rs`): every integer ALU operation of the fast path over a group whose warps
/// all have partial masks (signs, shift counts past 31, signed and unsigned order), groups of two warps and of
/// every other warp (not consecutive), scattered loads, and in ITS warps leaving their group at divergent
/// branches and joining again. Whole runs must equal single-stepping.
#[test]
fn whole_run_matches_single_stepping_in_groups() {
    let src = "// @block 256\n\
               // @grid 4\n\
               // @arg a int[1024] = rand(-100000, 100000)\n\
               // @arg out int[2048] = 0\n\
               __global__ void k(int *a, int *out) {\n\
                   int i = blockIdx.x * 256 + threadIdx.x;\n\
                   unsigned int t = threadIdx.x;\n\
                   int x = a[i];\n\
                   int y = a[(i * 7) % 1024];\n\
                   unsigned int ux = x;\n\
                   unsigned int uy = y;\n\
                   int r = 0;\n\
                   if (t % 3 == 1) {\n\
                       r = x + y;\n\
                       r = r * (y - x);\n\
                       r = r ^ (x & y);\n\
                       r = r | (int)(ux >> (t % 40));\n\
                       r = r + (int)(ux << (t % 37));\n\
                       r = r - (x >> (t % 35));\n\
                       if (x < y) r = r + 1;\n\
                       if (x <= y) r = r + 2;\n\
                       if (x > y) r = r + 4;\n\
                       if (x >= y) r = r + 8;\n\
                       if (x == y) r = r + 16;\n\
                       if (x != y) r = r + 32;\n\
                       if (ux < uy) r = r + 64;\n\
                       if (ux <= uy) r = r + 128;\n\
                       if (ux > uy) r = r + 256;\n\
                       if (ux >= uy) r = r + 512;\n\
                   }\n\
                   if (t / 64 == 1) r = r + (int)(t / 8) + (int)(t % 16) + (int)blockDim.x + (int)gridDim.x;\n\
                   if ((t / 32) % 2 == 0) r = r * 3;\n\
                   out[i] = r;\n\
                   out[1024 + i] = x - y;\n\
               }\n";
    assert_inline_kernel_runs_whole_as_stepped(src, 997);
}

/// ITS warps issue in groups while their threads are diverged (`gang.rs`): nested divergent branches, an
/// if/else whose sides rejoin by falling through (the group stops where its model would let the other side
/// join), shared memory, and barriers reached by whole warps after reconverging; then loops whose back edges
/// are taken while other lanes wait to reconverge (such a back edge may be a spin loop, whose release depends
/// on other blocks' progress), with and without a state that repeats. Whole runs equal single-stepping.
#[test]
fn its_warps_issue_in_groups_while_diverged() {
    let groups = "// @block 128\n\
                  // @grid 6\n\
                  // @arg a int[768] = rand(0, 1000)\n\
                  // @arg out int[768] = 0\n\
                  __global__ void k(int *a, int *out) {\n\
                      __shared__ int s[128];\n\
                      unsigned int t = threadIdx.x;\n\
                      int i = blockIdx.x * 128 + t;\n\
                      int x = a[i];\n\
                      s[t] = x;\n\
                      __syncthreads();\n\
                      for (unsigned int d = 64; d > 0; d >>= 1) {\n\
                          if (t < d) {\n\
                              int v = s[t] + s[t + d];\n\
                              if (v % 2 == 0) v = v / 2; else v = v * 3 + 1;\n\
                              s[t] = v;\n\
                          }\n\
                          __syncthreads();\n\
                      }\n\
                      int r = x;\n\
                      if (t % 4 == 1) r = r + s[0];\n\
                      else if (t % 4 == 2) r = r - 7;\n\
                      r = r * 2;\n\
                      out[i] = r;\n\
                  }\n";
    assert_inline_kernel_runs_whole_as_stepped(groups, 997);
    // Loops whose back edges are taken while other lanes wait to reconverge: the spin check finds no repeated
    // state (the counters change), so the run stays whole (`machine/spin.rs`).
    let waiting = "// @block 64\n\
                   // @grid 3\n\
                   // @arg out int[192] = 0\n\
                   __global__ void k(int *out) {\n\
                       int i = blockIdx.x * 64 + threadIdx.x;\n\
                       int r = 0;\n\
                       if (threadIdx.x % 2 == 0) { for (int j = 0; j < 5; j++) r += j * i; }\n\
                       for (int j = 0; j < i % 5; j++) r += j;\n\
                       out[i] = r;\n\
                   }\n";
    assert_inline_kernel_runs_whole_as_stepped(waiting, 997);
    // A loop whose state repeats while other lanes wait (it spins until another block's write): the whole run
    // cannot know when the sequential run releases the waiters, and falls back; the ends agree.
    let spinning = "// @block 64\n\
                    // @grid 2\n\
                    // @arg flag int[1] = 0\n\
                    // @arg out int[128] = 0\n\
                    __global__ void k(volatile int *flag, int *out) {\n\
                        int i = blockIdx.x * 64 + threadIdx.x;\n\
                        if (threadIdx.x == 1 && blockIdx.x == 0) { while (flag[0] == 0) { } }\n\
                        if (threadIdx.x == 0 && blockIdx.x == 1) flag[0] = 1;\n\
                        out[i] = i;\n\
                    }\n";
    for mode in [Mode::PreVolta, Mode::Its] {
        let overrides = Overrides { mode: Some(mode), ..Default::default() };
        let compiled = compile::compile("inline.cu", spinning.as_bytes(), &overrides).expect("compiles");
        let (whole, o1, stepped, o2) = whole_and_stepped(&compiled, &Config::default(), 997);
        assert!(!whole.ran_parallel(), "{mode:?}: blocks that wait for each other ran whole");
        assert_same_end(&format!("{mode:?}"), &whole, &o1, &stepped, &o2);
    }
}

/// Whole runs pack registers that are never live at once into one row (`ir::pack`): values live across
/// divergent branches whose two sides write their own temporaries, loop-carried values with a trip count
/// that differs per warp, a variable some threads read before any write (it must read 0 in every block,
/// although the register file is the last block's, with other registers' values in shared rows), and a
/// parameter no thread reads. Whole runs must equal single-stepping.
#[test]
fn whole_run_matches_single_stepping_with_packed_registers() {
    let src = "// @block 96\n\
               // @grid 5\n\
               // @arg a int[480] = rand(-1000, 1000)\n\
               // @arg unused = 7\n\
               // @arg out int[1440] = 0\n\
               __global__ void k(int *a, int unused, int *out) {\n\
                   int i = blockIdx.x * 96 + threadIdx.x;\n\
                   int t = threadIdx.x;\n\
                   int x = a[i];\n\
                   int keep = x * 3 + t;\n\
                   int late;\n\
                   if (t % 4 == 1) {\n\
                       int p = x + 11;\n\
                       int q = p * p - keep;\n\
                       late = q ^ p;\n\
                   } else {\n\
                       int r = x - 5;\n\
                       int s = r * 7 + (t >> 2);\n\
                       x = s - r;\n\
                   }\n\
                   int acc = 0;\n\
                   for (int j = 0; j < t / 32 + 2; j++) {\n\
                       int u = acc * 5 + j;\n\
                       acc = u - keep;\n\
                   }\n\
                   out[i] = keep + acc;\n\
                   out[480 + i] = x;\n\
                   out[960 + i] = late;\n\
               }\n";
    assert_inline_kernel_runs_whole_as_stepped(src, 991);
}

/// Values every thread of a block shares (`exec::Uniform`: computed once, written to their rows only when
/// something else reads them): a loop counter across barriers, `blockDim.x` and `blockIdx.x` arithmetic, a parameter, a uniform
/// power-of-two divisor and branch condition; then such a variable (the parameter too) written by part of the
/// block, or by one lane per warp, and read again by all threads together. Whole runs must equal
/// single-stepping.
#[test]
fn whole_run_matches_single_stepping_with_uniform_values() {
    let src = "// @block 128\n\
               // @grid 3\n\
               // @arg a int[384] = rand(0, 1000)\n\
               // @arg out int[768] = 0\n\
               // @arg m = 5\n\
               __global__ void k(int *a, int *out, int m) {\n\
                   int t = threadIdx.x;\n\
                   int i = blockIdx.x * 128 + t;\n\
                   if (t >= 96) { m = m * 3; }\n\
                   int s = blockDim.x / 4;\n\
                   int acc = 0;\n\
                   for (int j = 1; j < 9; j *= 2) {\n\
                       int u = j * 3 + blockIdx.x;\n\
                       if (t < 64) { s = s + j; }\n\
                       int v = s * 2 + (int)blockIdx.x;\n\
                       acc += (int)((unsigned int)a[i] % (unsigned int)(j * 2)) + u + v;\n\
                       __syncthreads();\n\
                       if (t % 32 == 0) { u = 7; }\n\
                       int w = u + j;\n\
                       if (j > 2) { acc += w; }\n\
                   }\n\
                   out[i] = acc + m * 2;\n\
                   out[384 + i] = s;\n\
               }\n";
    assert_inline_kernel_runs_whole_as_stepped(src, 1009);
}

/// Every kernel of `kernels/` and `tests/conformance/` launched with several blocks (most of them are single
/// blocks as written, which never take the parallel path): whatever the parallel rule decides, a whole run
/// ends as single-stepping ends, with the same memory and report. Kernels whose arrays do not grow with the
/// grid fault or race in the extra blocks and must be refused.
#[test]
fn every_kernel_on_several_blocks_runs_whole_as_stepped() {
    let mut parallel = 0;
    for path in kernel_files() {
        let bytes = std::fs::read(root().join(&path)).expect("kernel file exists");
        for grid in ["2", "3"] {
            for mode in [Mode::PreVolta, Mode::Its] {
                let overrides = Overrides { mode: Some(mode), grid: Some(grid.into()), ..Default::default() };
                let Ok(compiled) = compile::compile(&path, &bytes, &overrides) else { continue };
                let config = Config { max_steps: Some(MAX_STEPS), ..Default::default() };
                // (A launch too large for a machine is not this test's business.)
                if Machine::new(&compiled, &config).is_err() {
                    continue;
                }
                let (whole, o1, stepped, o2) = whole_and_stepped(&compiled, &config, 997);
                parallel += whole.ran_parallel() as u32;
                assert_same_end(&format!("{path} grid {grid} {mode:?}"), &whole, &o1, &stepped, &o2);
            }
        }
    }
    // The test means something only if many of these launches take the parallel path.
    assert!(parallel >= 20, "only {parallel} launches ran in parallel");
}

/// The data path has an AVX2 build and a portable one (`WARPDBG_NO_AVX2` forces the portable one): both give
/// the same report, whole runs and single steps, for every kernel in both models. (Where the CPU lacks AVX2
/// both runs are portable.)
#[test]
fn the_portable_data_path_agrees_with_the_avx2_one() {
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    let run = |args: &[&str], portable: bool| {
        let mut cmd = std::process::Command::new(bin);
        cmd.current_dir(root()).args(args);
        if portable {
            cmd.env("WARPDBG_NO_AVX2", "1");
        }
        let out = cmd.output().expect("warpdbg runs");
        (out.status.code(), out.stdout)
    };
    let mut launches: Vec<Vec<String>> = vec![];
    for path in kernel_files() {
        for mode in ["its", "pre-volta"] {
            let common = vec!["--max-steps".into(), "200000".into(), "--mode".into(), mode.into(), path.clone()];
            launches.push([vec!["run".to_string(), "--json".into()], common.clone()].concat());
            // On three blocks: the whole run takes the parallel path where the rule allows.
            launches
                .push([vec!["run".to_string(), "--json".into(), "--grid".into(), "3".into()], common.clone()].concat());
            launches.push([vec!["trace".to_string(), "--jsonl".into()], common].concat());
        }
    }
    launches.push(["run", "--json", "kernels/reduce_neighbored.cu", "--arg", "n=65536"].map(String::from).to_vec());
    launches.push(["run", "--json", "kernels/grayscale.cu", "--arg", "width=200"].map(String::from).to_vec());
    for args in &launches {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(run(&args, false), run(&args, true), "warpdbg {}", args.join(" "));
    }
}

/// Launches the parallel whole run must refuse (blocks that see each other's writes, a fault in one block, a
/// race inside a block) end exactly as single-stepping ends them.
#[test]
fn whole_run_falls_back_where_blocks_interact() {
    let kernels = [
        // Each block reads what the next block writes.
        "// @block 64\n// @grid 8\n// @arg out int[512] = i\n\
         __global__ void k(int *out) {\n    int i = blockIdx.x * 64 + threadIdx.x;\n    \
         int v = out[(i + 64) % 512];\n    out[i] = v + 1;\n}\n",
        // Block 5 writes past the end.
        "// @block 32\n// @grid 8\n// @arg out int[256] = 0\n\
         __global__ void k(int *out) {\n    int i = blockIdx.x * 32 + threadIdx.x;\n    \
         if (blockIdx.x == 5) i = i + 4096;\n    out[i] = 1;\n}\n",
        // Threads sum rows of their own, and block 1's last thread writes into a row block 0 reads late in
        // its loop (a warp's 32 ranges a step, each grown step by step, must still meet that write).
        "// @block 64\n// @grid 4\n// @arg a int[16384] = i\n// @arg out int[256] = 0\n\
         __global__ void k(int *a, int *out) {\n    int i = blockIdx.x * 64 + threadIdx.x;\n    int s = 0;\n    \
         for (int j = 0; j < 64; j++) s += a[i * 64 + j];\n    if (i == 127) a[5 * 64 + 61] = s;\n    \
         out[i] = s;\n}\n",
        // Warps of one block race on global memory without a barrier.
        "// @block 64\n// @grid 4\n// @arg out int[256] = i\n\
         __global__ void k(int *out) {\n    int i = blockIdx.x * 64 + threadIdx.x;\n    \
         out[i] = out[blockIdx.x * 64 + (threadIdx.x + 32) % 64] * 2;\n}\n",
    ];
    for (n, src) in kernels.iter().enumerate() {
        for mode in [Mode::PreVolta, Mode::Its] {
            let overrides = Overrides { mode: Some(mode), ..Default::default() };
            let compiled = compile::compile("inline.cu", src.as_bytes(), &overrides)
                .unwrap_or_else(|e| panic!("kernel {n} compiles:\n{e}"));
            let (whole, o1, stepped, o2) = whole_and_stepped(&compiled, &Config::default(), 7);
            assert_eq!(o1, o2, "kernel {n} {mode:?}");
            assert!(!whole.ran_parallel(), "kernel {n} {mode:?}: the parallel result should have been refused");
            assert_eq!(whole.steps, stepped.steps, "kernel {n} {mode:?}");
            assert_eq!(report::json(&whole, &o1), report::json(&stepped, &o2), "kernel {n} {mode:?}");
        }
    }
}

/// A launch of a whole program (`Machine::with_memory`: device memory the host made, checked for
/// uninitialised reads) of the kernel `src`: every allocation tracked by the initialisation shadow, the first
/// `written` bytes of each written.
fn program_machine(src: &str, mode: Mode, written: &[u64]) -> Machine {
    let overrides = Overrides { mode: Some(mode), ..Default::default() };
    let compiled = compile::compile("inline.cu", src.as_bytes(), &overrides).unwrap_or_else(|e| panic!("{e}"));
    let (mut global, params) = GlobalMemory::from_launch(&compiled.launch);
    let mut init = InitShadow::default();
    for (a, &n) in global.allocs.iter().zip(written) {
        init.track(a.base, a.bytes());
        init.mark(a.base, n);
    }
    global.init = Some(Box::new(init));
    let kernel = std::sync::Arc::new(compiled.kernel.clone());
    Machine::with_memory(kernel, compiled.launch.clone(), "inline.cu".into(), global, params, &Config::default())
}

/// A program's launch runs whole on several cores when the rule holds, as single-stepping runs it (memory,
/// report, and what the initialisation shadow records); when it does not (a read of bytes the host never
/// wrote, blocks that see each other), memory is put back from the copy and the launch runs one step at a
/// time, reporting what single-stepping reports.
#[test]
fn program_launches_run_whole_as_stepped() {
    let copy = "// @block 64\n// @grid 16\n// @arg in int[1024] = i\n// @arg out int[1024] = 0\n\
                __global__ void k(int *in, int *out) {\n    int i = blockIdx.x * 64 + threadIdx.x;\n    \
                out[i] = in[i] * 2;\n}\n";
    let neighbours = "// @block 64\n// @grid 8\n// @arg out int[512] = i\n\
                      __global__ void k(int *out) {\n    int i = blockIdx.x * 64 + threadIdx.x;\n    \
                      int v = out[(i + 64) % 512];\n    out[i] = v + 1;\n}\n";
    // `out` is never written by the host: each thread clears its element before adding to it.
    let accumulate = "// @block 64\n// @grid 16\n// @arg in int[1024] = i\n// @arg out int[1024] = 0\n\
                      __global__ void k(int *in, int *out) {\n    int i = blockIdx.x * 64 + threadIdx.x;\n    \
                      out[i] = 0;\n    for (int k = 0; k < 4; k++) out[i] += in[(i + k) % 1024];\n}\n";
    // Each block reads the element the next block cleared: it was written, but by another block.
    let cleared_by_next = "// @block 64\n// @grid 16\n// @arg in int[1024] = i\n// @arg out int[1024] = 0\n\
                           __global__ void k(int *in, int *out) {\n    int i = blockIdx.x * 64 + threadIdx.x;\n    \
                           out[i] = 0;\n    out[i] += out[(i + 64) % 1024] + in[i];\n}\n";
    // Blocks 0-7 read the half of `in` the host never wrote; block 7 without a loop first, so the sequential
    // run meets block 7's read before block 0's: the report describes the lowest-numbered thread's all the same.
    let late = "// @block 64\n// @grid 16\n// @arg in int[1024] = i\n// @arg out int[1024] = 0\n\
                __global__ void k(int *in, int *out) {\n    int i = blockIdx.x * 64 + threadIdx.x;\n    \
                int s = 0;\n    for (int k = 0; k < (blockIdx.x == 7 ? 0 : 50); k++) s += k;\n    \
                out[i] = in[(i + 512) % 1024] + s;\n}\n";
    // A 16 x 16 block's warps read two rows each (`in[r * 32 + c]`: two runs of 16 lanes), a broadcast per
    // row (`in[r * 32]`) and a column (`in[c * 32 + r]`) of a matrix the host wrote in part (1000 bytes: a
    // row ends mid-warp), so whole warps, some of their lanes and none read unwritten bytes.
    let tile = "// @block 16 16\n// @grid 2 2\n// @arg in int[1024] = i\n// @arg out int[1024] = 0\n\
                __global__ void k(int *in, int *out) {\n    int r = blockIdx.y * 16 + threadIdx.y;\n    \
                int c = blockIdx.x * 16 + threadIdx.x;\n    \
                out[r * 32 + c] = in[r * 32 + c] + in[r * 32] + in[c * 32 + r];\n}\n";
    // (kernel, bytes of each array the host wrote, whether the rule holds)
    let cases = [
        (tile, [1000, 0], true),
        (tile, [4096, 0], true),
        (tile, [0, 0], true),
        (copy, [4096, 0], true),
        // Uninitialised reads are reported the same from a whole run.
        (copy, [2048, 0], true),
        (late, [2048, 0], true),
        (neighbours, [2048, 0], false),
        (accumulate, [4096, 0], true),
        (cleared_by_next, [4096, 0], false),
    ];
    for (n, (src, written, parallel)) in cases.iter().enumerate() {
        for mode in [Mode::PreVolta, Mode::Its] {
            let what = format!("case {n} {mode:?}");
            let mut whole = program_machine(src, mode, written);
            let o1 = whole.run();
            let mut stepped = program_machine(src, mode, written);
            let o2 = loop {
                let o = stepped.step(7);
                if o.is_final() {
                    break o;
                }
            };
            assert_eq!(whole.ran_parallel(), *parallel, "{what}");
            assert_eq!(whole.steps, stepped.steps, "{what}");
            assert_same_end(&what, &whole, &o1, &stepped, &o2);
            let (a, b) = (whole.global.init.as_deref().unwrap(), stepped.global.init.as_deref().unwrap());
            for alloc in &whole.global.allocs {
                assert_eq!(a.written_prefix(alloc.base), b.written_prefix(alloc.base), "{what}: {}", alloc.name);
            }
        }
    }
    // The uninitialised half of `in` is reported, as compute-sanitizer's initcheck would.
    let mut m = program_machine(copy, Mode::Its, &[2048, 0]);
    m.run();
    assert!(m.ran_parallel());
    assert_eq!(m.hazards.len(), 1, "one uninitialised-read finding: {:?}", m.hazards);
    assert_eq!(m.hazards[0].count, 512);
    assert!(
        m.hazards[0].message.starts_with("line 7: thread (0,0,0) of block (8,0,0) reads in[512]"),
        "{:?}",
        m.hazards
    );
    assert_eq!(m.global.init.as_deref().unwrap().written_prefix(m.global.allocs[1].base), Some(4096));
    for mode in [Mode::PreVolta, Mode::Its] {
        let mut stepped = program_machine(late, mode, &[2048, 0]);
        while !stepped.step(7).is_final() {}
        let h = &stepped.hazards[0];
        assert_eq!(h.count, 512);
        assert!(h.message.starts_with("line 9: thread (0,0,0) of block (0,0,0) reads in[512]"), "{mode:?} {h:?}");
    }
}

/// Kernels with `__shared__` arrays run whole when a block's warps share no shared bytes within a barrier
/// interval (a tile loaded, a barrier, then read across warps), with the same memory, report and bank
/// statistics as single-stepping; a race between warps refuses the whole run, which then reports what
/// single-stepping reports; races between an ITS warp's own threads (warp-synchronous code without
/// `__syncwarp`) run whole and are reported as single-stepping reports them.
#[test]
fn shared_memory_kernels_run_whole_as_stepped() {
    let tile = "// @block 64\n// @grid 8\n// @arg in int[512] = i\n// @arg out int[512] = 0\n\
                __global__ void k(int *in, int *out) {\n    __shared__ int t[64];\n    \
                int i = blockIdx.x * 64 + threadIdx.x;\n    t[threadIdx.x] = in[i];\n    __syncthreads();\n    \
                out[i] = t[63 - threadIdx.x] + t[(threadIdx.x * 2) % 64];\n}\n";
    let race = "// @block 64\n// @grid 8\n// @arg in int[512] = i\n// @arg out int[512] = 0\n\
                __global__ void k(int *in, int *out) {\n    __shared__ int t[64];\n    \
                int i = blockIdx.x * 64 + threadIdx.x;\n    t[threadIdx.x] = in[i];\n    \
                out[i] = t[63 - threadIdx.x];\n}\n";
    let warp_sync = "// @block 32\n// @grid 6\n// @arg in int[192] = i\n// @arg out int[6] = 0\n\
                     __global__ void k(int *in, int *out) {\n    __shared__ int s[32];\n    \
                     int t = threadIdx.x;\n    s[t] = in[blockIdx.x * 32 + t];\n    __syncthreads();\n    \
                     if (t < 16) s[t] += s[t + 16];\n    if (t < 8) s[t] += s[t + 8];\n    \
                     if (t < 4) s[t] += s[t + 4];\n    if (t == 0) out[blockIdx.x] = s[0] + s[1] + s[2] + s[3];\n}\n";
    // A course's reduction whose last warp goes on without barriers (`volatile`, no `__syncwarp`): four warps
    // to a block, races on five lines in every block's first warp under ITS.
    let last_warp = "// @block 128\n// @grid 24\n// @arg in int[6144] = i % 7\n// @arg out int[24] = 0\n\
                     __device__ void last(volatile int *s, int t) {\n    s[t] += s[t + 32];\n    \
                     s[t] += s[t + 16];\n    s[t] += s[t + 8];\n    s[t] += s[t + 4];\n    s[t] += s[t + 2];\n    \
                     s[t] += s[t + 1];\n}\n__global__ void k(int *in, int *out) {\n    __shared__ int s[128];\n    \
                     int t = threadIdx.x;\n    s[t] = in[blockIdx.x * 128 + t];\n    __syncthreads();\n    \
                     if (t < 64) s[t] += s[t + 64];\n    __syncthreads();\n    if (t < 32) last(s, t);\n    \
                     if (t == 0) out[blockIdx.x] = s[0];\n}\n";
    // (kernel, whether the rule holds and whether there are hazards, in pre-Volta and in ITS): the ITS warp's
    // races among its own threads run whole and are reported as single-stepping reports them.
    let cases = [
        (tile, [true, true], [false, false]),
        (race, [false, false], [true, true]),
        (warp_sync, [true, true], [false, true]),
        (last_warp, [true, true], [false, true]),
    ];
    for (n, (src, parallel, racy)) in cases.iter().enumerate() {
        for ((mode, parallel), racy) in [Mode::PreVolta, Mode::Its].into_iter().zip(parallel).zip(racy) {
            let what = format!("case {n} {mode:?}");
            let overrides = Overrides { mode: Some(mode), ..Default::default() };
            let compiled = compile::compile("inline.cu", src.as_bytes(), &overrides).unwrap_or_else(|e| panic!("{e}"));
            let (whole, o1, stepped, o2) = whole_and_stepped(&compiled, &Config::default(), 5);
            assert_eq!(whole.ran_parallel(), *parallel, "{what}");
            assert_same_end(&what, &whole, &o1, &stepped, &o2);
            assert_eq!(whole.hazards.is_empty(), !*racy, "{what}: {:?}", whole.hazards);
        }
    }
    // The tile's second read is a two-way bank conflict in every warp: 8 blocks of 2 warps.
    let compiled = compile::compile("inline.cu", tile.as_bytes(), &Overrides::default()).unwrap();
    let mut m = Machine::new(&compiled, &Config::default()).unwrap();
    m.run();
    let line = &m.metrics.banks.per_line[&10];
    assert_eq!((line.accesses, line.conflicts, line.max_ways), (32, 16, 2), "{line:?}");
    assert_eq!(line.sample_warp, 0);
    assert_eq!(line.last_warp, 15);
}

/// Shared loads and stores take the whole run's fast path (`exec::shared_bulk`): a course's tree reduction
/// (`sdata[tid] += sdata[tid + s]`), elements of 1, 2, 4 and 8 bytes, a broadcast, a stride-2 bank conflict and
/// a column of a 32 x 32 tile (32-way) end as single-stepping ends, bank statistics included; an access past
/// the shared arrays faults as it does single-stepped.
#[test]
fn shared_fast_path_runs_whole_as_stepped() {
    let reduce = "// @block 128\n// @grid 24\n// @arg in float[3072] = i % 8\n// @arg out float[24] = 0\n\
                  __global__ void k(const float *in, float *out) {\n    __shared__ float sdata[128];\n    \
                  unsigned int tid = threadIdx.x;\n    sdata[tid] = in[blockIdx.x * blockDim.x + tid];\n    \
                  __syncthreads();\n    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {\n        \
                  if (tid < s) sdata[tid] += sdata[tid + s];\n        __syncthreads();\n    }\n    \
                  if (tid == 0) out[blockIdx.x] = sdata[0];\n}\n";
    // (ITS finds a race where neighbouring lanes write bytes of one word: single bytes and shorts go one to
    // a word.)
    let sizes = "// @block 64\n// @grid 6\n// @arg in int[384] = i\n// @arg out int[384] = 0\n\
                 __global__ void k(int *in, int *out) {\n    __shared__ int w[128];\n    \
                 __shared__ unsigned char c[256];\n    __shared__ short h[128];\n    __shared__ double d[64];\n    \
                 __shared__ int tile[32][32];\n    int t = threadIdx.x, i = blockIdx.x * 64 + t;\n    \
                 w[t * 2] = in[i];\n    c[t * 4] = (unsigned char)(in[i] * 3);\n    h[t * 2] = (short)(in[i] - 7);\n    \
                 d[t] = in[i] * 0.5;\n    tile[t % 32][t / 32] = in[i];\n    __syncthreads();\n    \
                 out[i] = w[0] + w[(t * 2 + 2) % 128] + c[t] + c[255 - t] + h[(t + 1) % 64 * 2] + (int)d[t ^ 1]\n        \
                 + tile[t / 32][t % 32];\n}\n";
    for src in [reduce, sizes] {
        assert_inline_kernel_runs_whole_as_stepped(src, 7);
    }
    let compiled = compile::compile("inline.cu", sizes.as_bytes(), &Overrides::default()).unwrap();
    let mut m = Machine::new(&compiled, &Config::default()).unwrap();
    m.run();
    // 6 blocks of 2 warps; the stride-2 store is two-way, the tile's column store 32-way.
    let ways = |line: u32| m.metrics.banks.per_line[&line].max_ways;
    assert_eq!((ways(12), ways(16)), (2, 32));
    let past = "// @block 64\n// @grid 4\n// @arg out int[256] = 0\n\
                __global__ void k(int *out) {\n    __shared__ int t[64];\n    \
                t[threadIdx.x] = threadIdx.x;\n    __syncthreads();\n    \
                out[blockIdx.x * 64 + threadIdx.x] = t[threadIdx.x + 1];\n}\n";
    for mode in [Mode::PreVolta, Mode::Its] {
        let overrides = Overrides { mode: Some(mode), ..Default::default() };
        let compiled = compile::compile("inline.cu", past.as_bytes(), &overrides).unwrap();
        let (whole, o1, stepped, o2) = whole_and_stepped(&compiled, &Config::default(), 7);
        assert!(matches!(o1, Outcome::Fault(_)), "{mode:?}: {o1:?}");
        assert_same_end(&format!("{mode:?}"), &whole, &o1, &stepped, &o2);
    }
}

/// A launch of one block takes the whole-run path too (olcf's `vadd<<<1, 1>>>` over 2^25 elements ran one
/// instruction per scheduler step), with the end single-stepping gives; a block whose warps race still falls
/// back.
#[test]
fn one_block_launches_run_whole_as_stepped() {
    let one_thread = "// @block 1\n// @grid 1\n// @arg a float[300] = i\n// @arg c float[300] = 0\n\
                      __global__ void k(float *a, float *c) {\n    \
                      for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < 300; i += gridDim.x * blockDim.x)\n        \
                      c[i] = a[i] * 2.0f;\n}\n";
    let tile = "// @block 64\n// @grid 1\n// @arg in int[64] = i\n// @arg out int[64] = 0\n\
                __global__ void k(int *in, int *out) {\n    __shared__ int t[64];\n    \
                t[threadIdx.x] = in[threadIdx.x];\n    __syncthreads();\n    out[threadIdx.x] = t[63 - threadIdx.x];\n}\n";
    let race = "// @block 64\n// @grid 1\n// @arg out int[64] = i\n\
                __global__ void k(int *out) {\n    out[threadIdx.x] = out[(threadIdx.x + 32) % 64] + 1;\n}\n";
    for (n, (src, parallel)) in [(one_thread, true), (tile, true), (race, false)].iter().enumerate() {
        for mode in [Mode::PreVolta, Mode::Its] {
            let what = format!("case {n} {mode:?}");
            let overrides = Overrides { mode: Some(mode), ..Default::default() };
            let compiled = compile::compile("inline.cu", src.as_bytes(), &overrides).unwrap_or_else(|e| panic!("{e}"));
            let (whole, o1, stepped, o2) = whole_and_stepped(&compiled, &Config::default(), 3);
            assert_eq!(whole.ran_parallel(), *parallel, "{what}");
            assert_eq!(whole.steps, stepped.steps, "{what}");
            assert_same_end(&what, &whole, &o1, &stepped, &o2);
        }
    }
}

//! Cooperative groups and the barrier and clock intrinsics that go with them, in kernels written as course
//! code writes them: tile reductions with `shfl_down`, `cg::reduce`, a `thread_group` parameter holding a
//! block or a runtime tile, the global index from `group_index()`, atomic aggregation with
//! `coalesced_threads()`, `__syncthreads_count` counting, a `clock64()` timing loop. Each is checked for exact
//! final memory; a tile's `sync()` for being a convergence point over the tile's lanes only; every diagnostic
//! for its text and position. The kernels of `tests/conformance/` are waiting to be recorded on a GPU.

mod common;

use warpdbg::compile;
use warpdbg::front::CompileError;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::inspect;
use warpdbg::sim::{Config, Machine};

fn compile_err(text: &str) -> String {
    let o = Overrides { mode: Some(Mode::Its), ..Overrides::default() };
    match compile::compile("k.cu", text.as_bytes(), &o) {
        Ok(_) => panic!("compiled, but should not:\n{text}"),
        Err(e) => CompileError::render(&e),
    }
}

fn run_text(text: &str, mode: Mode) -> common::Run {
    let o = Overrides { mode: Some(mode), ..Overrides::default() };
    let c = compile::compile("k.cu", text.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"));
    common::run_compiled(&c, Config::default())
}

const HEAD: &str =
    "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\nnamespace cg = cooperative_groups;\n";

#[test]
fn thread_group_parameters_runtime_tiles_cg_reduce_and_coalesced_aggregation() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let r = common::run("tests/conformance/coop_reduce.cu", mode, &[]);
        assert_eq!(r.outcome(), "completed", "{mode:?}: {}", r.explanation());
        assert!(r.hazards().is_empty(), "{mode:?}: {:?}", r.hazards());
        let input: Vec<i64> = (0..128).map(|g| (g * 37) % 101).collect();
        let sum = |a: usize, n: usize| input[a..a + n].iter().sum::<i64>();
        // The block's sum through `const thread_group &`, then three 16-thread runtime tiles' sums.
        let mut sums = vec![];
        for b in 0..2 {
            sums.push(sum(b * 64, 64));
            sums.extend((0..3).map(|k| sum(b * 64 + 16 * k, 16)));
        }
        assert_eq!(r.ints("sums"), sums, "{mode:?}");
        let tiles: Vec<i64> = (0..128)
            .map(|g| {
                let t = g / 8 * 8;
                sum(t, 8) * 1000 + input[t..t + 8].iter().max().expect("tile")
            })
            .collect();
        assert_eq!(r.ints("tiles"), tiles, "{mode:?}");
        // One atomicAdd per warp, by the coalesced group's rank 0; the rest get its old value by shfl.
        let picked = |g: usize| input[g] % 3 == 0;
        let counter: Vec<i64> = (0..4)
            .map(|w| w * 1000 + (w as usize * 32..w as usize * 32 + 32).filter(|&g| picked(g)).count() as i64)
            .collect();
        assert_eq!(r.ints("counter"), counter, "{mode:?}");
        let slot: Vec<i64> = (0..128)
            .map(|g| {
                let w = g / 32;
                if picked(g) { (w * 1000 + (w * 32..g).filter(|&x| picked(x)).count()) as i64 } else { -1 }
            })
            .collect();
        assert_eq!(r.ints("slot"), slot, "{mode:?}");
    }
}

#[test]
fn syncthreads_count_and_or_reduce_a_predicate_over_the_block() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let r = common::run("tests/conformance/sync_count.cu", mode, &[]);
        assert_eq!(r.outcome(), "completed", "{mode:?}");
        let input: Vec<i64> = (0..96).map(|i| (i * 5 + i / 7) % 8).collect();
        let hist: Vec<i64> = (0..8).map(|b| input.iter().filter(|&&v| v == b).count() as i64).collect();
        assert_eq!(r.ints("hist"), hist);
        assert_eq!(hist.iter().sum::<i64>(), 96);
        // all < 8 (1), some 7 (2), none > 7 (4), clock64 never went back (8), in every thread.
        assert_eq!(r.ints("flags"), vec![15; 96], "{mode:?}");
    }
}

#[test]
fn a_reducing_barrier_keeps_the_barrier_diagnostics() {
    // Each side of a real branch has its own barrier: a reducing one, or the plain one it is made of.
    let text = |stmt: &str| {
        format!(
            "// @block 64\n// @arg out int[64] = 0\n__global__ void k(int *out) {{\n    int n = 0;\n    \
             if (threadIdx.x % 2 == 0) {{\n        for (int i = 0; i < 3; i++) {stmt}\n    }} else {{\n        \
             for (int i = 0; i < 2; i++) {stmt}\n    }}\n    out[threadIdx.x] = n;\n}}\n"
        )
    };
    let (counted, plain) = (text("n += __syncthreads_count(1);"), text("{ __syncthreads(); n += 1; }"));
    for mode in [Mode::Its, Mode::PreVolta] {
        let (c, p) = (run_text(&counted, mode), run_text(&plain, mode));
        assert_eq!(c.outcome(), p.outcome(), "{mode:?}");
        assert_eq!(c.explanation(), p.explanation(), "{mode:?}");
        assert_eq!(c.waits(), p.waits(), "{mode:?}");
        assert_eq!(c.hazards(), p.hazards(), "{mode:?}");
    }
    let its = run_text(&counted, Mode::Its);
    assert_eq!(its.outcome(), "deadlock");
    assert!(its.explanation().contains("waiting at the __syncthreads() on line 6"), "{}", its.explanation());
    // Pre-Volta a warp arrives whole (a divergent barrier, reported): the even lanes' three barriers, then
    // the odd lanes' two, each met by both warps; each counts the 32 threads that executed it.
    let pre = run_text(&counted, Mode::PreVolta);
    assert_eq!(pre.outcome(), "completed");
    assert_eq!(pre.hazards(), vec![("divergent_barrier".to_string(), 6), ("divergent_barrier".to_string(), 8)]);
    assert_eq!(pre.ints("out"), (0..64).map(|t| if t % 2 == 0 { 96 } else { 64 }).collect::<Vec<i64>>());
}

#[test]
fn a_tile_sync_is_a_convergence_point_over_the_tiles_lanes_only() {
    let text = format!(
        "{HEAD}// @block 32\n// @arg out int[32] = 0\n__global__ void k(int *out) {{\n    \
         cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());\n    \
         int v = t.thread_rank();\n    if (t.meta_group_rank() == 1 && t.thread_rank() < 4) {{\n        \
         for (int i = 0; i < 4; i++) v += i;\n        t.sync();\n    }} else {{\n        t.sync();\n    }}\n    \
         out[threadIdx.x] = t.shfl(v, 7) * 100 + v;\n}}\n"
    );
    let sync_line = 11;
    let o = Overrides { mode: Some(Mode::Its), ..Overrides::default() };
    let c = compile::compile("k.cu", text.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"));
    let mut m = Machine::new(&c, &Config::default()).expect("launch");
    // Step by step: which lanes ever wait at the tile's sync, and where.
    let mut waited = 0u32;
    while !m.step(1).is_final() {
        for (pc, lanes, what) in inspect::thread_groups(&m.blocks[0].warps[0]) {
            if what == "at warp sync" {
                assert!([sync_line, sync_line + 2].contains(&m.kernel.line(pc)), "{}", m.kernel.line(pc));
                waited |= lanes.0;
            }
        }
    }
    // Only tile 1's lanes that did not loop wait there, for the four that did; tiles 0, 2 and 3 go on.
    assert_eq!(waited, 0x0000_f000, "{waited:#010x}");
    let r = run_text(&text, Mode::Its);
    let want: Vec<i64> = (0..32).map(|t| 700 + t % 8 + if (8..12).contains(&t) { 6 } else { 0 }).collect();
    assert_eq!(r.ints("out"), want);
    assert_eq!(r.line(9)["divergent_branches"], 1);
    assert_eq!(run_text(&text, Mode::PreVolta).ints("out"), want);
}

#[test]
fn tile_votes_and_shuffles_stay_inside_the_tile() {
    let r = run_text(
        &format!(
            "{HEAD}// @block 32\n// @arg a int[32] = 0\n// @arg b int[32] = 0\n__global__ void k(int *a, int *b) {{\n    \
             auto block = cg::this_thread_block();\n    auto t = cg::tiled_partition<4>(block);\n    \
             int x = threadIdx.x;\n    int p = x % 5 == 0;\n    \
             a[x] = t.any(p) + 2 * t.all(x < 30) + 4 * (int)t.ballot(p) + 100 * t.meta_group_size();\n    \
             b[x] = t.shfl_down(x, 1) * 10000 + t.shfl_up(x, 1) * 100 + t.shfl_xor(x, 3);\n}}\n"
        ),
        Mode::Its,
    );
    assert_eq!(r.outcome(), "completed");
    let a: Vec<i64> = (0..32)
        .map(|x: i64| {
            let tile = x / 4 * 4;
            let p = |y: i64| y % 5 == 0;
            let any = (tile..tile + 4).any(p) as i64;
            let all = (tile..tile + 4).all(|y| y < 30) as i64;
            let ballot: i64 = (0..4).filter(|k| p(tile + k)).map(|k| 1 << k).sum();
            any + 2 * all + 4 * ballot + 800
        })
        .collect();
    assert_eq!(r.ints("a"), a);
    let b: Vec<i64> = (0..32)
        .map(|x: i64| {
            let tile = x / 4 * 4;
            let down = if x + 1 < tile + 4 { x + 1 } else { x };
            let up = if x > tile { x - 1 } else { x };
            down * 10000 + up * 100 + (x ^ 3)
        })
        .collect();
    assert_eq!(r.ints("b"), b);
}

#[test]
fn clock64_times_a_loop_in_steps() {
    // clock64() is the number of instructions the simulated SM issued before it: with one warp, every
    // iteration of this loop issues the same few, so it runs until the count passes 100.
    let text = "// @block 32\n// @arg out long long[32] = 0\n// @arg c int[32] = 0\n\
                __global__ void k(long long *out, int *c) {\n    long long start = clock64();\n    \
                clock_t c0 = clock();\n    int iters = 0;\n    while (clock64() - start < 100) iters++;\n    \
                out[threadIdx.x] = iters;\n    c[threadIdx.x] = clock() > c0;\n    __nanosleep(1000);\n}\n";
    let r = run_text(text, Mode::Its);
    assert_eq!(r.outcome(), "completed");
    let iters = r.ints("out");
    assert!(iters.iter().all(|&n| n == iters[0]), "{iters:?}");
    // `start` is 0; the loop's test reads clock64() at step 4 + 6k on iteration k (six instructions an
    // iteration: read, subtract, compare, branch, add, jump), so 16 iterations run before it reaches 100.
    assert_eq!(iters[0], 16);
    assert_eq!(r.ints("c"), vec![1; 32]);
    // Deterministic: the same run gives the same counts.
    assert_eq!(run_text(text, Mode::Its).ints("out"), iters);
}

#[test]
fn the_grid_group_gives_ranks_and_sizes() {
    let r = run_text(
        &format!(
            "{HEAD}// @grid 3\n// @block 8 2\n// @arg out unsigned long long[48] = 0\n\
             __global__ void k(unsigned long long *out) {{\n    cg::grid_group grid = cg::this_grid();\n    \
             unsigned long long r = grid.thread_rank();\n    \
             out[r] = grid.size() * 1000000 + grid.num_blocks() * 10000 + grid.block_rank() * 100 + \
             grid.block_index().x * 10 + grid.dim_blocks().x;\n}}\n"
        ),
        Mode::Its,
    );
    let want: Vec<i64> = (0..48).map(|r| 48 * 1_000_000 + 3 * 10000 + (r / 16) * 100 + (r / 16) * 10 + 3).collect();
    assert_eq!(r.ints("out"), want);
}

#[test]
fn a_thread_group_copies_any_group_and_shows_its_fields() {
    let r = run_text(
        &format!(
            "{HEAD}// @block 64\n// @arg out int[64] = 0\n__global__ void k(int *out) {{\n    \
             cg::thread_group g = cg::this_thread_block();\n    cg::thread_group w = cg::tiled_partition<32>(g);\n    \
             auto four = cg::tiled_partition(g, 4);\n    dim3 t = cg::this_thread_block().thread_index();\n    \
             out[t.x] = g.size() * 1000000 + w.size() * 10000 + w.thread_rank() * 100 + four.thread_rank() * 10 + four.size();\n}}\n"
        ),
        Mode::Its,
    );
    let want: Vec<i64> = (0..64).map(|t| 64_000_000 + 320_000 + (t % 32) * 100 + (t % 4) * 10 + 4).collect();
    assert_eq!(r.ints("out"), want);
}

#[test]
fn cooperative_group_mistakes_are_diagnosed_where_they_are() {
    let cases = [
        ("auto t = cg::tiled_partition<48>(cg::this_thread_block());", "k.cu:6:18", "a tile of 48 threads"),
        ("auto t = cg::tiled_partition(cg::this_thread_block(), 12);", "k.cu:6:59", "a tile of 12 threads"),
        (
            "cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 4);\n    out[0] = g.shfl_down(1, 1);",
            "k.cu:7:16",
            "a `thread_group` has no method `shfl_down`",
        ),
        (
            "cg::thread_block_tile<32> t = cg::tiled_partition<16>(cg::this_thread_block());",
            "k.cu:6:39",
            "cannot convert a `thread_block_tile<16>` to a `thread_block_tile<32>`",
        ),
        (
            "out[0] = cg::reduce(cg::this_thread_block(), 1, cg::plus<int>());",
            "k.cu:6:29",
            "not supported by warpdbg: `cg::reduce` over a `thread_block`",
        ),
        (
            "auto t = cg::tiled_partition<8>(cg::this_thread_block());\n    out[0] = cg::reduce(t, 1.5f, cg::bit_or<float>());",
            "k.cu:7:28",
            "a bitwise `cg::reduce` needs an integer value",
        ),
        (
            "auto b = cg::this_thread_block();\n    out[0] = b.group_index();",
            "k.cu:7:14",
            "`group_index()` is a `dim3`",
        ),
        (
            "auto t = cg::tiled_partition<8>(cg::this_thread_block());\n    out[0] = t.thread_index().x;",
            "k.cu:7:16",
            "`thread_block_tile<8>` has no `thread_index()`",
        ),
        (
            "auto b = cg::this_thread_block();\n    out[0] = b.group_index().w;",
            "k.cu:7:30",
            "a `dim3` has no field `w`",
        ),
        ("cg::thread_block_tile<48> t;\n    t.sync();", "k.cu:7:5", "a tile of 48 threads"),
        ("float4 f;\n    f.sync();", "k.cu:7:7", "`float4` has no member function `sync`"),
        (
            "auto t = cg::tiled_partition<4>(cg::this_thread_block());\n    out[0] = cg::reduce(t, 1);",
            "k.cu:7:18",
            "`cg::reduce` takes 3 arguments (group, value, operation), 2 given",
        ),
        ("out[0] = __syncthreads_count();", "k.cu:6:14", "`__syncthreads_count` takes 1 argument(s) but 0 were given"),
        ("out[0] = clock64(1);", "k.cu:6:14", "`clock64` takes 0 argument(s) but 1 were given"),
        (
            "auto t = cg::tiled_partition<8>(cg::this_thread_block());\n    out[0] = cg::reduce(t, 1, [](int a, int b, int c) { return a; });",
            "k.cu:7:31",
            "a collective's operation takes 2 parameters, this lambda 3",
        ),
        (
            "auto t = cg::tiled_partition<8>(cg::this_thread_block());\n    out[0] = cg::inclusive_scan(t, 1, [](int a, int b) { int c = a; return c + b; });",
            "k.cu:7:39",
            "not supported by warpdbg: a device lambda whose body is more than one `return`",
        ),
        (
            "auto g = cg::labeled_partition(cg::this_thread_block(), 3u);",
            "k.cu:6:40",
            "`labeled_partition` of a `thread_block`",
        ),
        (
            "auto t = cg::tiled_partition<8>(cg::this_thread_block());\n    auto g = cg::labeled_partition(t, 1.5f);",
            "k.cu:7:39",
            "a `labeled_partition`'s label is an unsigned integer",
        ),
        (
            "auto t = cg::tiled_partition<8>(cg::this_thread_block());\n    out[0] = cg::exclusive_scan(t);",
            "k.cu:7:18",
            "`cg::exclusive_scan` takes 2 or 3 arguments (group, value, operation), 1 given",
        ),
        (
            "auto t = cg::tiled_partition(cg::this_thread_block(), 16);\n    out[0] = t.num_threads();",
            "k.cu:7:16",
            "`thread_group::num_threads()` is declared but never defined",
        ),
        (
            "auto c = cg::coalesced_threads();\n    auto t = cg::tiled_partition(c, 4);",
            "k.cu:7:34",
            "not supported by warpdbg: partitioning a `coalesced_group`",
        ),
    ];
    for (body, at, message) in cases {
        let text = format!("{HEAD}// @arg out int[32] = 0\n__global__ void k(int *out) {{\n    {body}\n}}\n");
        let r = compile_err(&text);
        assert!(r.contains(message), "{body}:\n{r}");
        assert!(r.contains(at), "{body}: expected at {at}\n{r}");
    }
}

#[test]
fn a_files_own_reduce_over_a_copied_runtime_tile_is_that_function() {
    // Partitions of partitions, copied with `auto`, passed by value to the file's own `reduce`.
    let r = run_text(
        "#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n\
         __device__ int reduce(thread_group g, int *x, int val) {\n    int lane = g.thread_rank();\n    \
         for (int i = g.size() / 2; i > 0; i /= 2) {\n        x[lane] = val;\n        g.sync();\n        \
         if (lane < i) val += x[lane + i];\n        g.sync();\n    }\n    return val;\n}\n\
         // @block 64\n// @arg data int[64] = i % 7\n// @arg out int[4] = 0\n\
         __global__ void k(int *data, int *out) {\n    __shared__ int s[64];\n    auto b = this_thread_block();\n    \
         auto w = tiled_partition(b, 32);\n    auto h = tiled_partition(w, 16);\n    auto g = h;\n    \
         int base = b.thread_index().x / g.size() * g.size();\n    int v = reduce(g, s + base, data[b.thread_rank()]);\n    \
         if (g.thread_rank() == 0) out[base / 16] = v;\n}\n",
        Mode::Its,
    );
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    let want: Vec<i64> = (0..4).map(|q| (q * 16..q * 16 + 16).map(|i| i % 7).sum()).collect();
    assert_eq!(r.ints("out"), want);
}

#[test]
fn partitions_reduce_and_scan_by_rank_in_both_models() {
    // Lanes grouped by `v % 4` (labeled_partition) and by parity (binary_partition): each group's sum, each
    // thread's rank-ordered inclusive scan, and `__match_any_sync` agreeing with the labeled group's mask.
    let text = format!(
        "{HEAD}#include <cooperative_groups/scan.h>\n// @block 64\n// @arg v int[64] = (i * 7) % 13\n\
         // @arg out int[256] = 0\n__global__ void k(int *v, int *out) {{\n    \
         auto warp = cg::tiled_partition<32>(cg::this_thread_block());\n    int x = v[threadIdx.x];\n    \
         auto g = cg::labeled_partition(warp, (unsigned)(x % 4));\n    \
         out[threadIdx.x] = cg::reduce(g, x, cg::plus<int>());\n    \
         out[64 + threadIdx.x] = cg::inclusive_scan(g, x);\n    \
         out[128 + threadIdx.x] = __match_any_sync(0xffffffff, x % 4) == __match_any_sync(0xffffffff, x % 4) \
         ? (int)__popc(__match_any_sync(0xffffffff, x % 4)) * 100 + g.size() : -1;\n    \
         auto p = cg::binary_partition(warp, x > 6);\n    \
         out[192 + threadIdx.x] = cg::exclusive_scan(p, 1) * 1000 + cg::reduce(p, x, cg::greater<int>());\n}}\n"
    );
    let v: Vec<i64> = (0..64).map(|i| (i * 7) % 13).collect();
    let mut want = vec![0i64; 256];
    for t in 0..64usize {
        let w = t / 32 * 32;
        let same: Vec<usize> = (w..w + 32).filter(|&u| v[u] % 4 == v[t] % 4).collect();
        want[t] = same.iter().map(|&u| v[u]).sum();
        want[64 + t] = same.iter().filter(|&&u| u <= t).map(|&u| v[u]).sum();
        want[128 + t] = same.len() as i64 * 101;
        let side: Vec<usize> = (w..w + 32).filter(|&u| (v[u] > 6) == (v[t] > 6)).collect();
        let below = side.iter().filter(|&&u| u < t).count() as i64;
        want[192 + t] = below * 1000 + side.iter().map(|&u| v[u]).max().expect("a group holds its thread");
    }
    for mode in [Mode::Its, Mode::PreVolta] {
        let r = run_text(&text, mode);
        assert_eq!(r.outcome(), "completed", "{mode:?}: {}", r.explanation());
        assert_eq!(r.ints("out"), want, "{mode:?}");
    }
}

#[test]
fn tile_scans_combine_their_own_value_with_the_one_below_and_keep_no_branch() {
    // `2 * a - b` is neither commutative nor associative: the result shows CUDA's order (a rank at least
    // `d` computes `op(mine, value d ranks below)` for d = 1, 2, 4). The scan adds no branch to the counts.
    let text = format!(
        "{HEAD}#include <cooperative_groups/scan.h>\n// @block 16\n// @arg out int[16] = 0\n\
         __global__ void k(int *out) {{\n    auto t = cg::tiled_partition<8>(cg::this_thread_block());\n    \
         out[threadIdx.x] = cg::inclusive_scan(t, (int)threadIdx.x + 1, [](int a, int b) {{ return 2 * a - b; }});\n}}\n"
    );
    let r = run_text(&text, Mode::Its);
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    let mut want = vec![];
    for tile in 0..2i64 {
        let mut x: Vec<i64> = (0..8).map(|k| tile * 8 + k + 1).collect();
        for d in [1usize, 2, 4] {
            let before = x.clone();
            for k in d..8 {
                x[k] = 2 * before[k] - before[k - d];
            }
        }
        want.extend(x);
    }
    assert_eq!(r.ints("out"), want);
    let rows = r.json["metrics"]["per_line"].as_array().expect("per_line");
    assert!(rows.iter().all(|row| row["branches"].as_u64().unwrap_or(0) == 0), "{rows:?}");
}

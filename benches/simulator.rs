//! Simulator benchmarks: `cargo bench --bench simulator`. Whole runs (`Machine::run`, what `warpdbg run` does)
//! of the four kernels of the performance figures in both execution models, at a size that keeps one sample
//! under a second, counted in thread-instructions so divan prints them per second; and single-stepping
//! (`Machine::step`, the TUI's path) for comparison. The textbook sizes are measured with
//! `warpdbg run --bench` (`benches/simulator.md`).

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use warpdbg::compile::{self, Compiled};

use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::{Config, Machine};

fn main() {
    divan::main();
}

const KERNELS: &[(&str, &[&str])] = &[
    ("reduce_neighbored", &["n=1048576"]),
    ("reduce_interleaved", &["n=1048576"]),
    ("vec_add", &["n=1048576"]),
    ("grayscale", &["width=1024", "height=1024"]),
];

/// `cargo test --all-targets` runs each benchmark once in an unoptimised build: small launches there.
const TEST_KERNELS: &[(&str, &[&str])] = &[
    ("reduce_neighbored", &["n=16384"]),
    ("reduce_interleaved", &["n=16384"]),
    ("vec_add", &["n=16384"]),
    ("grayscale", &["width=128", "height=128"]),
];

fn compile(name: &str, mode: Mode) -> Compiled {
    let kernels = if cfg!(debug_assertions) { TEST_KERNELS } else { KERNELS };
    let (_, args) = kernels.iter().find(|(k, _)| *k == name).expect("a benchmarked kernel");
    let path = format!("{}/kernels/{name}.cu", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("kernel file exists");
    let overrides =
        Overrides { mode: Some(mode), args: args.iter().map(|a| a.to_string()).collect(), ..Default::default() };
    compile::compile(&path, &bytes, &overrides).expect("compiles")
}

/// Thread-instructions of one whole run (the counter divan turns into a rate).
fn thread_instructions(c: &Compiled) -> u64 {
    let mut m = Machine::new(c, &Config::default()).expect("fits");
    m.run();
    m.metrics.thread_instructions
}

const KERNEL_NAMES: [&str; 4] = ["reduce_neighbored", "reduce_interleaved", "vec_add", "grayscale"];

#[divan::bench(args = KERNEL_NAMES, sample_count = 5)]
fn whole_run_pre_volta(bencher: Bencher, name: &str) {
    whole_run(bencher, name, Mode::PreVolta);
}

#[divan::bench(args = KERNEL_NAMES, sample_count = 5)]
fn whole_run_its(bencher: Bencher, name: &str) {
    whole_run(bencher, name, Mode::Its);
}

fn whole_run(bencher: Bencher, name: &str, mode: Mode) {
    let c = compile(name, mode);
    let work = thread_instructions(&c);
    bencher
        .counter(ItemsCount::new(work))
        .with_inputs(|| Machine::new(&c, &Config::default()).expect("fits"))
        .bench_local_values(|mut m| {
            let o = m.run();
            assert!(m.ran_parallel(), "{name}: the whole run fell back to one core");
            black_box(o)
        });
}

#[divan::bench(sample_count = 5)]
fn single_step_pre_volta(bencher: Bencher) {
    single_step(bencher, Mode::PreVolta);
}

#[divan::bench(sample_count = 5)]
fn single_step_its(bencher: Bencher) {
    single_step(bencher, Mode::Its);
}

/// One instruction at a time through the engine API, 100,000 steps of reduceNeighbored (the TUI's path).
fn single_step(bencher: Bencher, mode: Mode) {
    let c = compile("reduce_neighbored", mode);
    let steps: u64 = if cfg!(debug_assertions) { 1_000 } else { 100_000 };
    bencher
        .counter(ItemsCount::new(steps))
        .with_inputs(|| Machine::new(&c, &Config::default()).expect("fits"))
        .bench_local_values(|mut m| {
            for _ in 0..steps {
                m.step(1);
            }
            black_box(m.steps)
        });
}

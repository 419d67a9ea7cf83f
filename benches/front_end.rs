//! Front-end benchmarks: `cargo bench --bench front_end`. Figures and the machine are in `benches/README.md`.
//!
//! `compile_10k_lines` runs `compile::compile` (lexing, parsing, type checking, directives, lowering with
//! inlining, post-dominators) on a generated 10,000-line kernel file; the `phase_*` benches split that time up.
//! `seed_kernel` compiles each file of `kernels/`.

use std::path::Path;
use std::sync::LazyLock;

use divan::counter::BytesCount;
use divan::{Bencher, black_box};
use warpdbg::compile;
use warpdbg::front::launch::Overrides;
use warpdbg::front::source::FileId;
use warpdbg::front::{lexer, parser, typeck};
use warpdbg::ir::lower::lower_kernel;

fn main() {
    divan::main();
}

const DEVICE_FUNCTIONS: usize = 50;

/// A valid kernel file of about `lines` lines: `DEVICE_FUNCTIONS` device functions, then one kernel made of
/// blocks that each run a loop with an if/else-if chain, call a device function, go through shared memory with
/// barriers, and do integer and float arithmetic.
fn generate(lines: usize) -> String {
    let mut s = String::from(
        "// Generated for benches/front_end.rs.\n// @arg data int[1024] = rand(0, 255)\n// @arg out float[1024] = 0\n\
         // @arg n = 1024\n// @block 256\n// @grid 4\n\n",
    );
    for i in 0..DEVICE_FUNCTIONS {
        s.push_str(&format!(
            "__device__ int dev{i}(int a, int b)\n{{\n    int r = a * {m} + b;\n    for (int j = 0; j < 4; j++) {{\n        \
             if ((r & 1) == 0) {{\n            r = r / 2 + j;\n        }} else {{\n            r = 3 * r + 1;\n        \
             }}\n    }}\n    if (r > 1000) {{\n        return r % 1000;\n    }}\n    return r;\n}}\n\n",
            m = i + 1
        ));
    }
    s.push_str(
        "__global__ void big(const int *data, float *out, int n)\n{\n    __shared__ int smem[256];\n    \
         int tid = threadIdx.x;\n    int gid = blockIdx.x * blockDim.x + tid;\n    int acc = 0;\n    float fv = 0.0f;\n",
    );
    let mut i = 0;
    let mut count = s.lines().count();
    while count + 20 < lines {
        let chunk = format!(
            "    {{\n        int v{i} = data[(gid + {i}) % n];\n        for (int k = 0; k < {trips}; k++) {{\n            \
             if (v{i} > {i}) {{\n                v{i} = v{i} - k * 3;\n            }} else if (v{i} < {i} / 2) {{\n                \
             v{i} = v{i} + dev{f}(k, v{i});\n            }} else {{\n                v{i} ^= k << 1;\n            }}\n        \
             }}\n        smem[tid] = v{i};\n        __syncthreads();\n        acc += smem[(tid + 1) % 256] * {m};\n        \
             __syncthreads();\n        fv = fv * 0.5f + (float)acc;\n        if (acc > 1000000 && tid % 2 == 0) acc = acc % 1000;\n    \
             }}\n",
            trips = i % 5 + 1,
            f = i % DEVICE_FUNCTIONS,
            m = i % 7 + 1
        );
        count += chunk.lines().count();
        s.push_str(&chunk);
        i += 1;
    }
    for _ in count + 2..lines {
        s.push_str("    acc = acc + 1;\n");
    }
    s.push_str("    out[gid % n] = fv + (float)acc;\n}\n");
    s
}

static BIG: LazyLock<String> = LazyLock::new(|| {
    let s = generate(10_000);
    assert_eq!(s.lines().count(), 10_000);
    if let Err(e) = compile::compile("big.cu", s.as_bytes(), &Overrides::default()) {
        panic!("the generated kernel does not compile:\n{e}");
    }
    s
});

#[divan::bench(sample_count = 30)]
fn compile_10k_lines(bencher: Bencher) {
    let src = BIG.as_bytes();
    bencher
        .counter(BytesCount::of_slice(src))
        .bench(|| compile::compile("big.cu", black_box(src), &Overrides::default()));
}

/// About 1 MB of valid kernel text whose very last statement names an undeclared variable: every phase up to
/// type checking runs, and the one diagnostic is rendered.
static MEGABYTE_WITH_ERROR: LazyLock<String> = LazyLock::new(|| {
    let good = generate(36_000);
    let bad = good.replace("out[gid % n] = fv + (float)acc;", "out[gid % n] = fv + (float)accc;");
    assert!(bad.len() >= 1 << 20 && bad != good);
    bad
});

#[divan::bench(sample_count = 10)]
fn check_1mb_with_one_error(bencher: Bencher) {
    let src = MEGABYTE_WITH_ERROR.as_bytes();
    bencher.counter(BytesCount::of_slice(src)).bench(|| {
        let e = compile::compile("big.cu", black_box(src), &Overrides::default()).expect_err("one error");
        e.render()
    });
}

#[divan::bench(sample_count = 30)]
fn phase_lex(bencher: Bencher) {
    let text = BIG.as_str();
    bencher.bench(|| lexer::lex(FileId(0), black_box(text), 0));
}

#[divan::bench(sample_count = 30)]
fn phase_parse(bencher: Bencher) {
    let text = BIG.as_str();
    let lexed = lexer::lex(FileId(0), text, 0);
    bencher.bench(|| parser::Parser::new(black_box(&lexed.tokens), text, 0).translation_unit());
}

#[divan::bench(sample_count = 30)]
fn phase_typeck(bencher: Bencher) {
    let text = BIG.as_str();
    let lexed = lexer::lex(FileId(0), text, 0);
    let tu = parser::Parser::new(&lexed.tokens, text, 0).translation_unit();
    let templates = Default::default();
    bencher.bench(|| typeck::check(black_box(&tu), warpdbg::front::launch::Mode::Its, &templates));
}

#[divan::bench(sample_count = 30)]
fn phase_lower(bencher: Bencher) {
    let c = compile::compile("big.cu", BIG.as_bytes(), &Overrides::default()).expect("compiles");
    let id = c.program.find("big").expect("kernel");
    bencher.bench(|| lower_kernel(black_box(&c.program), id, &c.sources));
}

fn seed_kernels() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok()?.file_name().into_string().ok()).filter(|n| n.ends_with(".cu")).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[divan::bench(args = seed_kernels())]
fn seed_kernel(bencher: Bencher, name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels").join(name);
    let src = std::fs::read(path).expect("readable kernel");
    bencher.bench(|| compile::compile(name, black_box(&src), &Overrides::default()));
}

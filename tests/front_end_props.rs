//! Property tests: the front end never panics, whatever it is fed, and what it accepts is a sound IR.
//!
//! Inputs go through `compile::compile` (and, when that succeeds, `print_kernel` and the IR's structural invariants
//! for every kernel): arbitrary bytes and text, soup built from the language's own tokens (alone, and inside a
//! valid kernel, which gets further into the parser, type checker and lowering than random bytes do), and the
//! seed kernels mutated by deleting, duplicating and swapping ranges or inserting tokens and bytes. Programs
//! generated from the grammar, well-typed by construction, must compile, with one conditional branch per
//! source branch. Case counts are kept small for CI on a two-core machine (`WARPDBG_PROP_CASES` raises them);
//! the cargo-fuzz target in `fuzz/` runs the same checks for as long as one likes.
//!
//! Inputs that once broke the front end are kept at the bottom as ordinary tests.

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};

use warpdbg::compile;
use warpdbg::front::launch::Overrides;
use warpdbg::ir::print::print_kernel;
use warpdbg::ir::{BlockId, BranchKind, Instr, Kernel, Pc};

/// Everything a successful compilation offers that could still panic: the IR text of every kernel; and the
/// IR's structural invariants, which the simulator relies on.
fn exercise(bytes: &[u8]) {
    match compile::compile("fuzz.cu", bytes, &Overrides::default()) {
        Ok(c) => {
            for k in c.all_kernels() {
                let text = print_kernel(&k);
                assert!(text.starts_with("kernel "), "IR text starts with the kernel header");
                check_invariants(&k);
            }
        }
        Err(e) => {
            // Rendering walks every span through the line index: a span out of range shows up here.
            let text = e.render();
            assert!(!e.diags.is_empty(), "an error carries at least one diagnostic");
            assert!(text.contains("error"), "rendered diagnostics say `error`: {text}");
        }
    }
}

/// What the simulator assumes of a kernel: blocks tile the instructions, each ends in its one terminator,
/// branch targets and reconvergence points are block starts, the CFG edges match the terminators, and a
/// branch reconverges at its block's immediate post-dominator.
fn check_invariants(k: &Kernel) {
    let n = k.instrs.len();
    assert!(n > 0 && k.spans.len() == n && k.lines.len() == n, "{}: per-instruction tables", k.name);
    assert_eq!(k.blocks.first().map(|b| b.start), Some(Pc(0)), "{}: entry block at pc 0", k.name);
    assert_eq!(k.blocks.last().map(|b| b.end.0 as usize), Some(n), "{}: blocks cover every pc", k.name);
    let is_start = |pc: Pc| k.blocks.iter().any(|b| b.start == pc);
    let mut preds = vec![vec![]; k.blocks.len()];
    for (bi, b) in k.blocks.iter().enumerate() {
        assert!(b.start < b.end, "{}: bb{bi} is empty", k.name);
        if let Some(next) = k.blocks.get(bi + 1) {
            assert_eq!(b.end, next.start, "{}: bb{bi} and bb{} are not adjacent", k.name, bi + 1);
        }
        for pc in b.start.0..b.end.0 - 1 {
            assert!(!k.instrs[pc as usize].is_terminator(), "{}: terminator inside bb{bi} at pc {pc}", k.name);
        }
        let term = &k.instrs[b.terminator().0 as usize];
        let targets: Vec<Pc> = match term {
            Instr::Jump { target } => vec![*target],
            Instr::Branch { then_pc, else_pc, reconv, site, .. } => {
                let want = b.ipdom.map_or(Pc::EXIT, |d| k.block(d).start);
                assert_eq!(*reconv, want, "{}: bb{bi} reconverges at its immediate post-dominator", k.name);
                assert!(*reconv == Pc::EXIT || is_start(*reconv), "{}: bb{bi} reconv", k.name);
                assert_eq!(site.line, k.lines[b.terminator().0 as usize], "{}: bb{bi} site line", k.name);
                vec![*then_pc, *else_pc]
            }
            Instr::Exit => vec![],
            other => panic!("{}: bb{bi} ends with {other:?}, not a terminator", k.name),
        };
        for t in &targets {
            assert!(is_start(*t), "{}: bb{bi} jumps to pc {}, not a block start", k.name, t.0);
        }
        let succ_starts: Vec<Pc> = b.succs.iter().map(|s| k.block(*s).start).collect();
        assert_eq!(succ_starts, targets, "{}: bb{bi} successors", k.name);
        for s in &b.succs {
            preds[s.0 as usize].push(BlockId(bi as u32));
        }
        if let Some(d) = b.ipdom {
            assert!((d.0 as usize) < k.blocks.len() && d.0 as usize != bi, "{}: bb{bi} ipdom", k.name);
        }
        for i in &k.instrs[b.start.0 as usize..b.end.0 as usize] {
            if let Some(r) = i.dst() {
                assert!((r.0 as usize) < k.regs.len(), "{}: register out of range", k.name);
            }
        }
    }
    for (bi, b) in k.blocks.iter().enumerate() {
        assert_eq!(b.preds, preds[bi], "{}: bb{bi} predecessors", k.name);
    }
    // Every block is reachable from the entry (unreachable code is dropped at layout).
    let mut seen = vec![false; k.blocks.len()];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(b) = stack.pop() {
        for s in &k.blocks[b].succs {
            if !std::mem::replace(&mut seen[s.0 as usize], true) {
                stack.push(s.0 as usize);
            }
        }
    }
    assert!(seen.iter().all(|&s| s), "{}: unreachable blocks", k.name);
}

fn seed_kernels() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let mut out = vec![];
    for entry in std::fs::read_dir(&dir).expect("kernels/ exists") {
        let path = entry.expect("readable directory entry").path();
        if path.extension().is_some_and(|e| e == "cu") {
            let text = std::fs::read_to_string(&path).expect("seed kernels are UTF-8");
            out.push((path.file_name().expect("file name").to_string_lossy().into_owned(), text));
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no seed kernels in {}", dir.display());
    out
}

/// Pieces of kernel text: keywords, punctuation, names the checker knows, literals, directives, line breaks.
const TOKENS: &[&str] = &[
    "__global__",
    "__device__",
    "__host__",
    "__shared__",
    "__constant__",
    "__restrict__",
    "__forceinline__",
    "inline",
    "static",
    "extern",
    "const",
    "volatile",
    "unsigned",
    "signed",
    "int",
    "short",
    "long",
    "char",
    "float",
    "double",
    "bool",
    "void",
    "auto",
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "return",
    "true",
    "false",
    "struct",
    "typedef",
    "template",
    "switch",
    "case",
    "default",
    "goto",
    "sizeof",
    "static_cast",
    "reinterpret_cast",
    "uint32_t",
    "int8_t",
    "size_t",
    "float4",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    "->",
    "::",
    "?",
    ":",
    "~",
    "!",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "|",
    "^",
    "<",
    ">",
    "=",
    "++",
    "--",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "&=",
    "|=",
    "^=",
    "<<=",
    ">>=",
    "<<",
    ">>",
    "<=",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    ".x",
    ".y",
    ".z",
    "__syncthreads",
    "__syncwarp",
    "__threadfence",
    "atomicAdd",
    "atomicCAS",
    "atomicExch",
    "atomicMin",
    "__shfl_sync",
    "__shfl_down_sync",
    "__ballot_sync",
    "__any_sync",
    "__activemask",
    "min",
    "max",
    "sqrtf",
    "powf",
    "fabs",
    "printf",
    "k",
    "n",
    "i",
    "x",
    "y",
    "s",
    "a",
    "f",
    "g",
    "main",
    "tid",
    "0",
    "1",
    "2",
    "32",
    "0x1f",
    "0b101",
    "017",
    "4294967295",
    "4294967296u",
    "2147483648",
    "1u",
    "1.5",
    "0.5f",
    "1e10",
    "1e",
    "3.f",
    ".5",
    "0xffffffffffffffff",
    "99999999999999999999",
    "'a'",
    "'\\n'",
    "'",
    "\"%d\\n\"",
    "\"",
    "\"unterminated",
    "/*",
    "*/",
    "//",
    "\n",
    "\n",
    "\n",
    " ",
    "\t",
    "\\\n",
    "#include <cstdio>",
    "#define N 4",
    "#define F(x) x",
    "#if 0",
    "#pragma unroll",
    "// @grid 2",
    "// @block 1024 2",
    "// @arg n = 3",
    "// @arg a int[n] = rand(0, 9)",
    "// @arg a float[4] = i * 0.5",
    "// @kernel f",
    "// @seed 1",
    "// @mode pre-volta",
    "// @bogus",
    "// @arg",
    "// @grid (n + 1) / 0",
    "$",
    "`",
    "@",
    "\u{0}",
    "\u{7f}",
    "é",
    "\u{fffd}",
];

/// A small, valid kernel that token soup can be spliced into.
const FRAME_HEAD: &str = "// @arg a int[64] = i\n// @arg n = 3\n__device__ int f(int x) { return x + 1; }\n\
                          __global__ void g(int *a, int n) {\n    int k = threadIdx.x;\n";
const FRAME_TAIL: &str = "\n}\n";

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..120).prop_map(|toks| {
        let mut s = String::new();
        for t in toks {
            s.push_str(t);
            s.push(' ');
        }
        s
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete { at: usize, len: usize },
    Duplicate { at: usize, len: usize, to: usize },
    InsertToken { at: usize, tok: &'static str },
    InsertBytes { at: usize, bytes: Vec<u8> },
    SwapLines { a: usize, b: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Positions are fractions of the text (per mille), resolved against the kernel at hand.
    let pos = 0usize..1000;
    prop_oneof![
        (pos.clone(), 1usize..60).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (pos.clone(), 1usize..80, pos.clone()).prop_map(|(at, len, to)| Mutation::Duplicate { at, len, to }),
        (pos.clone(), prop::sample::select(TOKENS)).prop_map(|(at, tok)| Mutation::InsertToken { at, tok }),
        (pos.clone(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Mutation::InsertBytes { at, bytes }),
        (pos.clone(), pos).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
    ]
}

fn apply(text: &[u8], muts: &[Mutation]) -> Vec<u8> {
    let mut v = text.to_vec();
    let at = |v: &Vec<u8>, per_mille: usize| v.len() * per_mille / 1000;
    for m in muts {
        match m {
            Mutation::Delete { at: p, len } => {
                let s = at(&v, *p);
                let e = (s + len).min(v.len());
                v.drain(s..e);
            }
            Mutation::Duplicate { at: p, len, to } => {
                let s = at(&v, *p);
                let e = (s + len).min(v.len());
                let piece = v[s..e].to_vec();
                let t = at(&v, *to);
                v.splice(t..t, piece);
            }
            Mutation::InsertToken { at: p, tok } => {
                let s = at(&v, *p);
                v.splice(s..s, format!(" {tok} ").into_bytes());
            }
            Mutation::InsertBytes { at: p, bytes } => {
                let s = at(&v, *p);
                v.splice(s..s, bytes.iter().copied());
            }
            Mutation::SwapLines { a, b } => {
                let mut lines: Vec<Vec<u8>> = v.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let n = lines.len();
                lines.swap(a * n / 1000, b * n / 1000);
                v = lines.join(&b'\n');
            }
        }
    }
    v
}

/// `WARPDBG_PROP_CASES=100000 cargo test --release --test front_end_props` runs a longer search.
fn config(cases: u32) -> Config {
    let cases = std::env::var("WARPDBG_PROP_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(cases);
    // Failures are reported with their shrunk input; regressions are kept below as plain tests, not in files.
    Config { cases, failure_persistence: Some(Box::new(FileFailurePersistence::Off)), ..Config::default() }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        exercise(&bytes);
    }

    #[test]
    fn random_text_never_panics(text in "(?s).{0,300}") {
        exercise(text.as_bytes());
    }

    #[test]
    fn token_soup_never_panics(soup in token_soup()) {
        exercise(soup.as_bytes());
    }

    #[test]
    fn token_soup_inside_a_kernel_never_panics(soup in token_soup()) {
        exercise(format!("{FRAME_HEAD}{soup}{FRAME_TAIL}").as_bytes());
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn mutated_seed_kernels_never_panic(
        which in any::<prop::sample::Index>(),
        muts in prop::collection::vec(mutation(), 1..6),
    ) {
        let kernels = seed_kernels();
        let (_, text) = which.get(&kernels);
        exercise(&apply(text.as_bytes(), &muts));
    }
}

// ---- well-typed programs, generated from the grammar ----

/// An `int` expression over the kernel's variables (see `program`).
fn int_expr() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        Just("x".to_string()),
        Just("tid".to_string()),
        Just("n".to_string()),
        (0i32..100).prop_map(|v| v.to_string()),
        Just("a[tid]".to_string()),
        Just("s[tid % 32]".to_string()),
        Just("(int)threadIdx.x".to_string()),
    ];
    leaf.prop_recursive(3, 16, 3, |e| {
        const OPS: &[&str] = &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"];
        prop_oneof![
            (e.clone(), prop::sample::select(OPS), e.clone()).prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (cond_of(e.clone()), e.clone(), e.clone()).prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
            e.clone().prop_map(|a| format!("g({a})")),
            e.clone().prop_map(|a| format!("a[({a}) & 63]")),
            e.clone().prop_map(|a| format!("(-({a}))")),
            e.prop_map(|a| format!("min({a}, 7)")),
        ]
    })
    .boxed()
}

/// A condition over `e`: comparisons joined by `&&`, `||` and `!`.
fn cond_of(e: BoxedStrategy<String>) -> BoxedStrategy<String> {
    let cmp = (e.clone(), prop::sample::select(&["<", "<=", ">", ">=", "==", "!="][..]), e)
        .prop_map(|(a, op, b)| format!("({a} {op} {b})"));
    cmp.prop_recursive(2, 6, 2, |c| {
        prop_oneof![
            (c.clone(), c.clone()).prop_map(|(a, b)| format!("({a} && {b})")),
            (c.clone(), c.clone()).prop_map(|(a, b)| format!("({a} || {b})")),
            c.prop_map(|a| format!("!{a}")),
        ]
    })
    .boxed()
}

fn cond() -> BoxedStrategy<String> {
    cond_of(int_expr())
}

fn block(depth: u32, in_loop: bool) -> BoxedStrategy<String> {
    prop::collection::vec(stmt(depth, in_loop), 1..4).prop_map(|v| v.join("\n")).boxed()
}

/// A statement; `break` and `continue` only inside loops, so that every program is valid.
fn stmt(depth: u32, in_loop: bool) -> BoxedStrategy<String> {
    let simple = prop_oneof![
        int_expr().prop_map(|e| format!("x = {e};")),
        (int_expr(), int_expr()).prop_map(|(i, e)| format!("a[({i}) & 63] = {e};")),
        int_expr().prop_map(|e| format!("s[tid % 32] = {e};")),
        int_expr().prop_map(|e| format!("f = f * 0.5f + {e};")),
        int_expr().prop_map(|e| format!("atomicAdd(&a[0], {e});")),
        Just("__syncthreads();".to_string()),
        Just("x++;".to_string()),
        Just("return;".to_string()),
    ];
    let simple = if in_loop {
        prop_oneof![6 => simple, 1 => Just("break;".to_string()), 1 => Just("continue;".to_string())].boxed()
    } else {
        simple.boxed()
    };
    if depth == 0 {
        return simple;
    }
    let d = depth - 1;
    prop_oneof![
        3 => simple,
        1 => (cond(), block(d, in_loop)).prop_map(|(c, b)| format!("if ({c}) {{\n{b}\n}}")),
        1 => (cond(), block(d, in_loop), block(d, in_loop))
            .prop_map(|(c, t, e)| format!("if ({c}) {{\n{t}\n}} else {{\n{e}\n}}")),
        1 => (cond(), block(d, true)).prop_map(|(c, b)| format!("while ({c}) {{\n{b}\n}}")),
        1 => block(d, true).prop_map(|b| format!("for (int k = 0; k < n; k++) {{\n{b}\n}}")),
        1 => (block(d, true), cond()).prop_map(|(b, c)| format!("do {{\n{b}\n}} while ({c});")),
    ]
    .boxed()
}

/// A whole kernel file around a generated body.
fn program() -> impl Strategy<Value = String> {
    block(3, false).prop_map(|body| {
        format!(
            "// @arg a int[64] = i\n// @arg n = 5\n__device__ int g(int v)\n{{\n    if (v > 3) return v - 1;\n    \
             return v + 1;\n}}\n__global__ void k(int *a, int n)\n{{\n    __shared__ int s[32];\n    \
             int tid = threadIdx.x;\n    int x = 0;\n    float f = 1.0f;\n{body}\n    a[tid & 63] = x + (int)f;\n}}\n"
        )
    })
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn generated_programs_compile_with_one_branch_per_source_branch(src in program()) {
        let c = compile::compile("gen.cu", src.as_bytes(), &Overrides::default())
            .unwrap_or_else(|e| panic!("a well-typed program failed to compile:\n{src}\n{}", e.render()));
        let k = &c.kernel;
        check_invariants(k);
        print_kernel(k);
        // Each source branch becomes one conditional branch of its kind (the device function's `if` once per
        // inlined call); code after `return`, `break` or `continue` may be unreachable and dropped.
        let body = &src[src.find("__global__").expect("kernel")..];
        let count = |kind: BranchKind| {
            k.instrs.iter().filter(|i| matches!(i, Instr::Branch { site, .. } if site.kind == kind)).count()
        };
        let expected = [
            (BranchKind::If, body.matches("if (").count() + body.matches("g(").count()),
            (BranchKind::Loop, body.matches("while (").count() + body.matches("for (").count()),
            (BranchKind::Ternary, body.matches('?').count()),
            (BranchKind::ShortCircuit, body.matches("&&").count() + body.matches("||").count()),
        ];
        let all_reachable = !["return;", "break;", "continue;"].iter().any(|s| body.contains(s));
        for (kind, want) in expected {
            let got = count(kind);
            if all_reachable {
                prop_assert_eq!(got, want, "{:?} branches in\n{}", kind, src);
            } else {
                prop_assert!(got <= want, "{:?}: {} branches for {} in the source\n{}", kind, got, want, src);
            }
        }
    }
}

#[test]
fn seed_kernels_compile_through_the_harness() {
    // The harness itself must reach the success path, or the properties above test only error paths.
    for (name, text) in seed_kernels() {
        let c = compile::compile(&name, text.as_bytes(), &Overrides::default());
        let c = c.unwrap_or_else(|e| panic!("{name} does not compile: {}", e.render()));
        for k in c.all_kernels() {
            check_invariants(&k);
        }
    }
    let framed = format!("{FRAME_HEAD}a[k] = f(k) + n;{FRAME_TAIL}");
    assert!(compile::compile("framed.cu", framed.as_bytes(), &Overrides::default()).is_ok(), "{framed}");
}

// ---- regressions: inputs that once panicked, overflowed the stack or exhausted memory ----

/// Compiles on a thread with the 2 MiB stack of a test thread, as callers (the test harness, a TUI thread) may.
fn compile_on_small_stack(src: String) -> Result<usize, String> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || match compile::compile("deep.cu", src.as_bytes(), &Overrides::default()) {
            Ok(c) => Ok(c.all_kernels().iter().map(|k| print_kernel(k).len()).sum()),
            Err(e) => Err(e.render()),
        })
        .expect("thread")
        .join()
        .expect("no panic")
}

#[test]
fn pointer_levels_past_255_do_not_overflow() {
    // Was: `attempt to add with overflow` adding the declarator's pointer levels to the specifier's (u8).
    let src = format!("__global__ void g() {{ int {} a, {} b; }}\n", "*".repeat(200), "*".repeat(100));
    exercise(src.as_bytes());
}

#[test]
fn long_operator_chains_are_bounded_not_a_stack_overflow() {
    // Was: a stack overflow (abort) in the type checker: `x + x + ... + x` nests the tree as deep as it is long,
    // and only parentheses counted against the parser's depth bound.
    for op in ["+", "&&", "*", "<<", "=="] {
        let long = format!("__global__ void g() {{ int x = 1; x = x {}; }}\n", format!("{op} x ").repeat(5000));
        let e = compile_on_small_stack(long).expect_err("too deep");
        assert!(e.contains("nesting too deep"), "{op}: {e}");
        // A long but reasonable chain still compiles.
        let ok = format!("__global__ void g() {{ int x = 1; x = x {}; }}\n", format!("{op} x ").repeat(150));
        compile_on_small_stack(ok).unwrap_or_else(|e| panic!("{op}: {e}"));
    }
    let idx = format!("// @arg a int[1] = 0\n__global__ void g(int *a) {{ int x = a{}; }}\n", "[0]".repeat(5000));
    assert!(compile_on_small_stack(idx).expect_err("too deep").contains("nesting too deep"));
}

#[test]
fn nesting_at_the_bound_fits_a_small_stack() {
    // The phases recurse over the tree; `compile` gives them their own stack, so the deepest tree the parser
    // accepts is fine even from a 2 MiB thread in an unoptimised build.
    let shapes = [
        ("{ ", "x = 2;", " }"),
        ("if (x) ", "x = 2;", ""),
        ("while (x) ", "x = 2;", ""),
        ("for (;x;) ", "x = 2;", ""),
        ("x = x ? 1 : ", "1;", ""),
        ("x = ", "1;", ""),
        ("x = (", "1", ");"),
        ("x = -", "1;", ""),
        ("x = (int)", "x;", ""),
    ];
    for (open, mid, close) in shapes {
        for n in [190, 1000] {
            let src = format!("__global__ void g() {{ int x = 1; {}{mid}{} }}\n", open.repeat(n), close.repeat(n));
            match compile_on_small_stack(src) {
                Ok(_) => {}
                Err(e) => assert!(e.contains("nesting too deep") || n < 1000 && e.contains("error"), "{open}: {e}"),
            }
        }
    }
}

#[test]
fn a_nesting_error_does_not_shrink_the_budget_of_later_code() {
    // Was: a failed `enter` left the depth counter one higher, so each "nesting too deep" made later code fail
    // earlier.
    let parens = |n: usize| format!("    x = {}1{};\n", "(".repeat(n), ")".repeat(n));
    let kernel = |name: &str, body: &str| format!("__global__ void {name}() {{\n    int x = 0;\n{body}}}\n");
    let fits = |src: &str| compile::compile("fits.cu", src.as_bytes(), &Overrides::default()).is_ok();
    // The deepest parenthesised expression accepted on its own ...
    let deepest = (1..400).take_while(|&n| fits(&kernel("only", &parens(n)))).last().expect("some depth fits");
    assert!((50..400).contains(&deepest), "{deepest}");
    // ... is still accepted after 15 errors for nesting too deep.
    let src = format!(
        "// @kernel second\n{}{}",
        kernel("first", &parens(deepest + 50).repeat(15)),
        kernel("second", &parens(deepest))
    );
    let e = compile::compile("leak.cu", src.as_bytes(), &Overrides::default()).expect_err("nesting errors");
    assert_eq!(e.diags.len(), 15, "{}", e.render());
    assert!(e.diags.iter().all(|d| d.message == "nesting too deep"));
}

#[test]
fn doubling_macros_are_bounded() {
    // Was: each `#define` doubling the last one; expanding line 40 would need 2^40 tokens.
    let mut src = String::from("#define A0 x x\n");
    for i in 1..64 {
        src.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    src.push_str("__global__ void g() { A63; }\n");
    let start = std::time::Instant::now();
    let e = compile::compile("bomb.cu", src.as_bytes(), &Overrides::default()).expect_err("bounded");
    assert!(e.render().contains("macros that expand to more than"), "{}", e.render());
    assert!(start.elapsed() < std::time::Duration::from_secs(60));
    // One use of a big macro many times over is bounded too.
    let mut src = format!("#define BIG {}\n__global__ void g() {{ int x = 0; ", "x + ".repeat(1000) + "1");
    src.push_str(&"x = BIG; ".repeat(2000));
    src.push_str("}\n");
    let e = compile::compile("uses.cu", src.as_bytes(), &Overrides::default()).expect_err("bounded");
    assert!(e.render().contains("macros that expand to more than"), "{}", e.render());
}

#[test]
fn did_you_mean_on_huge_names_is_not_quadratic() {
    // Was: the edit distance behind "did you mean" takes time in the product of the two names' lengths, so two
    // different 50,000-character names cost 2.5 billion steps (minutes unoptimised).
    let declared = "a".repeat(50_000);
    let used = format!("{}b", "a".repeat(49_999));
    let src = format!("__global__ void g() {{ int {declared} = 1; int x = {used}; }}\n");
    let start = std::time::Instant::now();
    let e = compile::compile("long.cu", src.as_bytes(), &Overrides::default()).expect_err("undeclared");
    assert_eq!(e.diags.len(), 1, "{}", e.render());
    assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
    // Typo-sized names still get their hint.
    let e =
        compile::compile("short.cu", b"__global__ void g() { int count = 1; int x = cuont; }\n", &Overrides::default())
            .expect_err("undeclared");
    assert!(e.render().contains("did you mean `count`?"), "{}", e.render());
}

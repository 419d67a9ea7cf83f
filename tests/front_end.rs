//! The front end on real input: every seed kernel compiles and its IR is pinned as a snapshot; reconvergence
//! points, branch sites, launch directives and C's typing rules are pinned with exact expected values.

use std::path::{Path, PathBuf};

use warpdbg::compile::{self, Compiled};

use warpdbg::front::launch::{ArgValue, Dim3, InitExpr, Launch, Mode, Overrides, Value};
use warpdbg::ir::print::print_kernel;
use warpdbg::ir::{ArithOp, BranchKind, CmpOp, Instr, Kernel, Pc, Ty};

// ---- helpers ----

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels")
}

/// Every `kernels/*.cu`, sorted, so kernels added later are covered without touching this file.
fn seed_kernels() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(kernels_dir())
        .expect("kernels/ exists")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    v.sort();
    v
}

fn read_kernel(file: &str) -> Option<String> {
    std::fs::read_to_string(kernels_dir().join(file)).ok()
}

fn compile_with(name: &str, src: &str, o: &Overrides) -> Compiled {
    compile::compile(name, src.as_bytes(), o).unwrap_or_else(|e| panic!("{name} does not compile:\n{}", e.render()))
}

fn compile(name: &str, src: &str) -> Compiled {
    compile_with(name, src, &Overrides::default())
}

/// 1-based line of the only line of `src` containing `needle`.
fn line_of(src: &str, needle: &str) -> u32 {
    let lines = lines_of(src, needle);
    assert_eq!(lines.len(), 1, "`{needle}` should occur on exactly one line, found on {lines:?}");
    lines[0]
}

/// 1-based lines of `src` containing `needle` in code (not in a `//` comment line), in order.
fn lines_of(src: &str, needle: &str) -> Vec<u32> {
    src.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//") && l.contains(needle))
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

/// Where a branch reconverges: the source line of the first instruction at its reconvergence pc, or the
/// virtual exit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    Line(u32),
    Exit,
}

fn kind_name(k: BranchKind) -> &'static str {
    match k {
        BranchKind::If => "if",
        BranchKind::Loop => "loop",
        BranchKind::Ternary => "?:",
        BranchKind::ShortCircuit => "&&",
        BranchKind::GroupSync => "thread_group sync",
    }
}

/// (statement line, kind, reconvergence) of every conditional branch, in pc order.
fn branches(k: &Kernel) -> Vec<(u32, &'static str, At)> {
    k.instrs
        .iter()
        .filter_map(|i| match i {
            Instr::Branch { reconv, site, .. } => {
                let at = if *reconv == Pc::EXIT { At::Exit } else { At::Line(k.lines[reconv.0 as usize]) };
                Some((site.line, kind_name(site.kind), at))
            }
            _ => None,
        })
        .collect()
}

/// Instructions whose source line is `line`.
fn instrs_on(k: &Kernel, line: u32) -> Vec<&Instr> {
    k.instrs.iter().zip(&k.lines).filter(|(_, l)| **l == line).map(|(i, _)| i).collect()
}

fn scalar_arg(l: &Launch, name: &str) -> u64 {
    match l.args.iter().find(|a| a.name == name).map(|a| &a.value) {
        Some(ArgValue::Scalar { bits, .. }) => *bits,
        other => panic!("`{name}` is not a scalar argument: {other:?}"),
    }
}

fn array_arg<'a>(l: &'a Launch, name: &str) -> (u64, &'a InitExpr) {
    match l.args.iter().find(|a| a.name == name).map(|a| &a.value) {
        Some(ArgValue::Array { len, init, .. }) => (*len, init),
        other => panic!("`{name}` is not an array argument: {other:?}"),
    }
}

// ---- every seed kernel ----

#[test]
fn every_seed_kernel_compiles_and_its_ir_is_pinned() {
    let files = seed_kernels();
    assert!(files.len() >= 5, "expected the seed kernels in {}, found {files:?}", kernels_dir().display());
    for path in files {
        let name = format!("kernels/{}", path.file_name().expect("name").to_string_lossy());
        let src = std::fs::read_to_string(&path).expect("readable");
        let c = compile(&name, &src);
        let all = c.all_kernels();
        // The launched kernel first, then every other __global__ of the file.
        assert_eq!(all[0].name, c.launch.kernel);
        assert_eq!(all.len(), c.program.kernels().count(), "{name}: every kernel lowers");
        let text: String = all.iter().map(print_kernel).collect::<Vec<_>>().join("\n");
        let stem = path.file_stem().expect("stem").to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("ir_{stem}"), text);
    }
}

#[test]
fn branch_sites_are_statement_lines_of_their_own_kernel() {
    // Every branch carries the line of a statement that is in the file, and it is the line of its own pc.
    for path in seed_kernels() {
        let src = std::fs::read_to_string(&path).expect("readable");
        let c = compile(&path.display().to_string(), &src);
        let nlines = src.lines().count() as u32;
        for k in c.all_kernels() {
            for (pc, i) in k.instrs.iter().enumerate() {
                if let Instr::Branch { site, .. } = i {
                    assert!((1..=nlines).contains(&site.line), "{}: branch at pc {pc} on line {}", k.name, site.line);
                    assert_eq!(site.line, k.lines[pc], "{}: pc {pc}", k.name);
                    assert_eq!(site.counted, site.kind != BranchKind::ShortCircuit, "{}: pc {pc}", k.name);
                }
            }
        }
    }
}

// ---- reconvergence points ----

#[test]
fn deadlock_reconvergence() {
    let Some(src) = read_kernel("deadlock.cu") else { return };
    let c = compile("deadlock.cu", &src);
    let fors = lines_of(&src, "for (int k = 0; k < n; k++)");
    assert_eq!(fors.len(), 2);
    let closing = src.lines().count() as u32; // the kernel's closing brace, where its exit instruction sits
    assert_eq!(src.lines().last(), Some("}"));
    assert_eq!(
        branches(&c.kernel),
        vec![
            // The even/odd split: the two sides only meet again at the kernel's end, past both barriers.
            (line_of(&src, "if (tid % 2 == 0)"), "if", At::Line(closing)),
            (fors[0], "loop", At::Line(line_of(&src, "s[tid] = sum;"))),
            (fors[1], "loop", At::Line(line_of(&src, "s[tid] = acc;"))),
        ]
    );
}

#[test]
fn reduce_neighbored_reconvergence() {
    let Some(src) = read_kernel("reduce_neighbored.cu") else { return };
    let c = compile("reduce_neighbored.cu", &src);
    assert_eq!(
        branches(&c.kernel),
        vec![
            // Threads past the end leave for good: no reconvergence before the exit.
            (line_of(&src, "if (idx >= n) return;"), "if", At::Exit),
            (line_of(&src, "for (int stride = 1;"), "loop", At::Line(line_of(&src, "if (tid == 0)"))),
            (line_of(&src, "if ((tid % (2 * stride)) == 0)"), "if", At::Line(line_of(&src, "__syncthreads();")),),
            (line_of(&src, "if (tid == 0)"), "if", At::Line(src.lines().count() as u32)),
        ]
    );
}

const NESTED: &str = "\
// @arg out int[64] = 0
// @arg n = 10
__global__ void nested(int *out, int n)
{
    int tid = threadIdx.x;
    int acc = 0;
    if (tid >= n) return;
    for (int k = 0; k < n; k++) {
        if (k == tid) {
            break;
        } else if (k % 3 == 0) {
            continue;
        } else {
            acc += k;
        }
        acc *= 2;
    }
    out[tid] = acc;
}
";

#[test]
fn nested_if_else_in_a_loop_with_break_continue_and_return() {
    let c = compile("nested.cu", NESTED);
    let l = |needle| line_of(NESTED, needle);
    assert_eq!(
        branches(&c.kernel),
        vec![
            (l("if (tid >= n) return;"), "if", At::Exit),
            // Leaving by the condition or by `break`, threads meet after the loop.
            (l("for (int k = 0;"), "loop", At::Line(l("out[tid] = acc;"))),
            // `break` skips the rest of the iteration, so the earliest common point is after the loop too.
            (l("if (k == tid)"), "if", At::Line(l("out[tid] = acc;"))),
            // `continue` and the fall-through both reach the step `k++`, which carries the `for` line.
            (l("else if (k % 3 == 0)"), "if", At::Line(l("for (int k = 0;"))),
        ]
    );
}

const RETURN_IN_LOOP: &str = "\
// @arg out int[64] = 0
__global__ void early(int *out)
{
    int tid = threadIdx.x;
    int x = tid;
    while (x > 0) {
        if (x == 7) return;
        x = x - 2;
    }
    do {
        x++;
    } while (x < tid);
    out[tid] = tid > 3 ? x : -x;
}
";

#[test]
fn a_return_inside_a_loop_moves_the_loops_reconvergence_to_the_exit() {
    let c = compile("early.cu", RETURN_IN_LOOP);
    let l = |needle| line_of(RETURN_IN_LOOP, needle);
    assert_eq!(
        branches(&c.kernel),
        vec![
            // A thread may leave the loop by `return`: the loop's exit no longer post-dominates its branch.
            (l("while (x > 0)"), "loop", At::Exit),
            (l("if (x == 7) return;"), "if", At::Exit),
            // The do-while's branch sits on its `while` line and reconverges after the loop.
            (l("} while (x < tid);"), "loop", At::Line(l("out[tid] = tid > 3"))),
            // `?:` counts with its statement and reconverges within it.
            (l("out[tid] = tid > 3"), "?:", At::Line(l("out[tid] = tid > 3"))),
        ]
    );
}

const DEVICE_CALL: &str = "\
// @arg out int[64] = 0
__device__ int clampit(int v)
{
    if (v > 10) return 10;
    return v;
}
__global__ void caller(int *out)
{
    int tid = threadIdx.x;
    out[tid] = clampit(tid) + clampit(tid * 2);
}
";

#[test]
fn a_return_in_an_inlined_device_function_reconverges_in_the_caller_not_at_the_exit() {
    let c = compile("call.cu", DEVICE_CALL);
    let (inside, call) = (line_of(DEVICE_CALL, "if (v > 10)"), line_of(DEVICE_CALL, "out[tid] = clampit"));
    // Inlined twice: two branches on the device function's line, each reconverging where the call returns to,
    // back on the caller's line (its `return`s are jumps to the call's continuation, not exits).
    assert_eq!(branches(&c.kernel), vec![(inside, "if", At::Line(call)), (inside, "if", At::Line(call))]);
}

#[test]
fn an_infinite_loop_still_has_a_reconvergence_point() {
    let src =
        "__global__ void spin()\n{\n    int x = threadIdx.x;\n    if (x == 0) {\n        while (true) { }\n    }\n}\n";
    let c = compile("spin.cu", src);
    // The spinning side never reaches the end: the `if` reconverges only at the exit; `while (true)` is a jump.
    assert_eq!(branches(&c.kernel), vec![(4, "if", At::Exit)]);
}

// ---- short-circuit operators ----

#[test]
fn short_circuit_operand_is_a_real_branch_that_counts_with_its_statement() {
    let Some(src) = read_kernel("grayscale.cu") else { return };
    let c = compile("grayscale.cu", &src);
    let line = line_of(&src, "if (col < width && row < height)");
    let sites: Vec<_> = c
        .kernel
        .instrs
        .iter()
        .filter_map(|i| match i {
            Instr::Branch { site, .. } => Some((site.line, site.kind, site.counted)),
            _ => None,
        })
        .collect();
    assert_eq!(sites, vec![(line, BranchKind::ShortCircuit, false), (line, BranchKind::If, true)]);
}

#[test]
fn or_in_a_loop_condition() {
    let src = "// @arg out int[64] = 0\n__global__ void k(int *out)\n{\n    int i = 0;\n    \
               while (i < 3 || out[i] != 0) {\n        i++;\n    }\n    out[0] = i;\n}\n";
    let c = compile("or.cu", src);
    let sites: Vec<_> = c
        .kernel
        .instrs
        .iter()
        .filter_map(|i| match i {
            Instr::Branch { site, .. } => Some((site.line, site.kind, site.counted)),
            _ => None,
        })
        .collect();
    assert_eq!(sites, vec![(5, BranchKind::ShortCircuit, false), (5, BranchKind::Loop, true)]);
}

// ---- directives and overrides ----

#[test]
fn vec_add_directives_and_a_scalar_override() {
    let Some(src) = read_kernel("vec_add.cu") else { return };
    let c = compile("vec_add.cu", &src);
    let l = &c.launch;
    assert_eq!(l.kernel, "vecAdd");
    assert_eq!((l.grid, l.block), (Dim3::new(16, 1, 1), Dim3::new(64, 1, 1)));
    assert_eq!(scalar_arg(l, "n"), 1003);
    assert_eq!(array_arg(l, "A").0, 1003);
    assert_eq!(l.args.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["A", "B", "C", "n"]);

    // `@grid (n + 63) / 64` and `float[n]` follow the overridden n.
    let o = Overrides { args: vec!["n=100".into()], ..Overrides::default() };
    let c = compile_with("vec_add.cu", &src, &o);
    assert_eq!(scalar_arg(&c.launch, "n"), 100);
    assert_eq!(c.launch.grid, Dim3::new(2, 1, 1));
    assert_eq!(array_arg(&c.launch, "C").0, 100);
    // The initialisers: A[i] = i * 0.5, B[i] = 2 * i.
    assert_eq!(array_arg(&c.launch, "A").1.eval(7, 0, 0), Value::Float(3.5));
    assert_eq!(array_arg(&c.launch, "B").1.eval(7, 0, 1), Value::Int(14));
}

#[test]
fn grid_block_seed_mode_and_kernel_overrides() {
    let Some(src) = read_kernel("vec_add.cu") else { return };
    let o = Overrides {
        grid: Some("7,5".into()),
        block: Some("16 8".into()),
        seed: Some("3".into()),
        mode: Some(Mode::PreVolta),
        ..Overrides::default()
    };
    let l = compile_with("vec_add.cu", &src, &o).launch;
    assert_eq!((l.grid, l.block, l.seed, l.mode), (Dim3::new(7, 5, 1), Dim3::new(16, 8, 1), 3, Mode::PreVolta));
    assert_eq!(l.warps_per_block(), 4);

    let Some(math) = read_kernel("math_kernels.cu") else { return };
    assert_eq!(compile("math_kernels.cu", &math).launch.kernel, "mathKernel1");
    let o = Overrides { kernel: Some("mathKernel3".into()), ..Overrides::default() };
    let c = compile_with("math_kernels.cu", &math, &o);
    assert_eq!(c.launch.kernel, "mathKernel3");
    assert_eq!(c.kernel.name, "mathKernel3");
}

#[test]
fn reduce_grid_follows_n() {
    let Some(src) = read_kernel("reduce_neighbored.cu") else { return };
    let l = compile("reduce_neighbored.cu", &src).launch;
    assert_eq!((l.grid.x, l.block.x, scalar_arg(&l, "n")), (16, 512, 8192));
    let o = Overrides { args: vec!["n=16777216".into()], ..Overrides::default() };
    let l = compile_with("reduce_neighbored.cu", &src, &o).launch;
    assert_eq!((l.grid.x, array_arg(&l, "g_idata").0, array_arg(&l, "g_odata").0), (32768, 16777216, 32768));
}

#[test]
fn rand_initialisers_are_deterministic_and_in_range() {
    let src = "// @arg a int[256] = rand(0, 255)\n// @arg b int[256] = rand(0, 255)\n// @arg f float[64] = rand(-1, 1.5)\n\
               // @seed 7\n__global__ void k(int *a, int *b, float *f) { }\n";
    let l = compile("rand.cu", src).launch;
    assert_eq!(l.seed, 7);
    let (len, a) = array_arg(&l, "a");
    let (_, b) = array_arg(&l, "b");
    let vals = |e: &InitExpr, seed: u64, stream: u64| -> Vec<i64> {
        (0..len)
            .map(|i| match e.eval(i, seed, stream) {
                Value::Int(v) => v,
                v => panic!("rand of integers gives integers, got {v:?}"),
            })
            .collect()
    };
    let first = vals(a, l.seed, 0);
    assert!(first.iter().all(|v| (0..=255).contains(v)), "{first:?}");
    // The same seed gives the same numbers (in a second compilation too) ...
    let again = compile("rand.cu", src).launch;
    assert_eq!(vals(array_arg(&again, "a").1, again.seed, 0), first);
    // ... which are not constant, and cover the range reasonably.
    assert!(first.iter().any(|&v| v < 64) && first.iter().any(|&v| v > 191), "{first:?}");
    // Another seed, or another argument (stream), gives other numbers.
    assert_ne!(vals(a, 8, 0), first);
    assert_ne!(vals(b, l.seed, 1), first);
    // A float range gives floats inside it.
    let (flen, f) = array_arg(&l, "f");
    for i in 0..flen {
        match f.eval(i, l.seed, 2) {
            Value::Float(x) => assert!((-1.0..1.5).contains(&x), "{x}"),
            v => panic!("float rand gave {v:?}"),
        }
    }
    // The seed override changes it.
    let o = Overrides { seed: Some("8".into()), ..Overrides::default() };
    let l8 = compile_with("rand.cu", src, &o).launch;
    assert_eq!(l8.seed, 8);
    assert_eq!(vals(array_arg(&l8, "a").1, l8.seed, 0), vals(a, 8, 0));
}

#[test]
fn grayscale_directives_with_two_dimensions_and_unsigned_char_arrays() {
    let Some(src) = read_kernel("grayscale.cu") else { return };
    let l = compile("grayscale.cu", &src).launch;
    assert_eq!((l.grid, l.block, l.seed), (Dim3::new(5, 4, 1), Dim3::new(16, 16, 1), 1));
    assert_eq!(array_arg(&l, "Pin").0, 76 * 62 * 3);
    assert!(matches!(
        l.args.iter().find(|a| a.name == "Pout").map(|a| &a.value),
        Some(ArgValue::Array { elem: warpdbg::front::types::Scalar::U8, len: 4712, .. })
    ));
}

// ---- C's typing rules, as the IR shows them ----

/// Compiles `body` inside a kernel with locals of several types, returning the kernel and the body's first line.
fn typed(body: &str) -> (Kernel, u32) {
    let src = format!(
        "// @arg out int[4] = 0\n__global__ void t(int *out)\n{{\n    unsigned int u = threadIdx.x;\n    int i = \
         -1;\n    unsigned char c = 200;\n    float f = 1.0f;\n    {body}\n}}\n"
    );
    (compile("typed.cu", &src).kernel, 8)
}

fn cmps(k: &Kernel, line: u32) -> Vec<(CmpOp, Ty)> {
    instrs_on(k, line)
        .into_iter()
        .filter_map(|i| if let Instr::Cmp { op, ty, .. } = i { Some((*op, *ty)) } else { None })
        .collect()
}

fn ariths(k: &Kernel, line: u32) -> Vec<(ArithOp, Ty)> {
    instrs_on(k, line)
        .into_iter()
        .filter_map(|i| if let Instr::Binary { op, ty, .. } = i { Some((*op, *ty)) } else { None })
        .collect()
}

fn converts(k: &Kernel, line: u32) -> Vec<(Ty, Ty)> {
    instrs_on(k, line)
        .into_iter()
        .filter_map(|i| if let Instr::Convert { from, to, .. } = i { Some((*from, *to)) } else { None })
        .collect()
}

#[test]
fn unsigned_against_int_compares_unsigned() {
    // -1 converts to 4294967295: `u < i` is true for every thread, as in C.
    let (k, line) = typed("out[0] = u < i;");
    assert_eq!(cmps(&k, line), vec![(CmpOp::Lt, Ty::U32)]);
    let (k, line) = typed("out[0] = i < 5;");
    assert_eq!(cmps(&k, line), vec![(CmpOp::Lt, Ty::I32)]);
    // A literal with a `u` suffix makes the comparison unsigned too.
    let (k, line) = typed("out[0] = i < 5u;");
    assert_eq!(cmps(&k, line), vec![(CmpOp::Lt, Ty::U32)]);
}

#[test]
fn unsigned_char_promotes_to_int() {
    let (k, line) = typed("out[0] = c + c;");
    assert_eq!(converts(&k, line), vec![(Ty::U8, Ty::I32), (Ty::U8, Ty::I32)]);
    assert_eq!(ariths(&k, line), vec![(ArithOp::Add, Ty::I32)]);
    // With an unsigned operand the sum is unsigned.
    let (k, line) = typed("out[0] = c + u;");
    assert_eq!(ariths(&k, line), vec![(ArithOp::Add, Ty::U32)]);
    // Storing back into an unsigned char narrows.
    let (k, line) = typed("c = c * 2;");
    assert_eq!(ariths(&k, line), vec![(ArithOp::Mul, Ty::I32)]);
    assert_eq!(converts(&k, line), vec![(Ty::U8, Ty::I32), (Ty::I32, Ty::U8)]);
}

#[test]
fn float_literals_double_unless_suffixed() {
    // `0.5` is a double: the float is widened, multiplied in double, narrowed back.
    let (k, line) = typed("f = f * 0.5;");
    assert_eq!(ariths(&k, line), vec![(ArithOp::Mul, Ty::F64)]);
    assert_eq!(converts(&k, line), vec![(Ty::F32, Ty::F64), (Ty::F64, Ty::F32)]);
    // `0.5f` stays in float.
    let (k, line) = typed("f = f * 0.5f;");
    assert_eq!(ariths(&k, line), vec![(ArithOp::Mul, Ty::F32)]);
    assert_eq!(converts(&k, line), vec![]);
    // int * float is float.
    let (k, line) = typed("f = i * 2.0f;");
    assert_eq!(ariths(&k, line), vec![(ArithOp::Mul, Ty::F32)]);
    assert_eq!(converts(&k, line), vec![(Ty::I32, Ty::F32)]);
}

#[test]
fn shifts_and_division_follow_the_left_operand_and_signedness() {
    let (k, line) = typed("out[0] = (u >> 1) + (i >> 1);");
    assert_eq!(ariths(&k, line), vec![(ArithOp::Shr, Ty::U32), (ArithOp::Shr, Ty::I32), (ArithOp::Add, Ty::U32)]);
    let (k, line) = typed("out[0] = i / 2 + i % 2;");
    assert_eq!(ariths(&k, line), vec![(ArithOp::Div, Ty::I32), (ArithOp::Rem, Ty::I32), (ArithOp::Add, Ty::I32)]);
    let (k, line) = typed("out[0] = u / 2;");
    assert_eq!(ariths(&k, line), vec![(ArithOp::Div, Ty::U32)]);
}

#[test]
fn integer_literal_types() {
    // 0x80000000 does not fit int, so it is unsigned int: the comparison is unsigned.
    let (k, line) = typed("out[0] = i < 0x80000000;");
    assert_eq!(cmps(&k, line), vec![(CmpOp::Lt, Ty::U32)]);
    // A decimal literal past INT_MAX is a long (64 bits), as in C: the comparison is 64-bit and signed.
    let (k, line) = typed("out[0] = i < 2147483648;");
    assert_eq!(converts(&k, line)[0], (Ty::I32, Ty::I64));
    assert_eq!(cmps(&k, line), vec![(CmpOp::Lt, Ty::I64)]);
    // `ull` makes it unsigned long long, which wins over int.
    let (k, line) = typed("out[0] = i < 1ull;");
    assert_eq!(cmps(&k, line), vec![(CmpOp::Lt, Ty::U64)]);
    // A hex literal past LONG_MAX is unsigned long.
    let (k, line) = typed("out[0] = i < 0x8000000000000000;");
    assert_eq!(cmps(&k, line), vec![(CmpOp::Lt, Ty::U64)]);
    compile("big.cu", "__global__ void t() { unsigned x = 2147483648u; }\n");
}

#[test]
fn logical_not_and_comparisons_yield_bool() {
    let (k, line) = typed("out[0] = !(i == 3);");
    assert_eq!(cmps(&k, line), vec![(CmpOp::Eq, Ty::I32)]);
    // bool -> int when stored into an int array.
    assert_eq!(converts(&k, line), vec![(Ty::Bool, Ty::I32)]);
}

// ---- small things C++ accepts ----

#[test]
fn empty_declarations_at_file_scope() {
    // `};` after a function and a lone `;` are empty declarations in C++ (nvcc accepts them).
    let c = compile("semi.cu", ";\n__device__ int f(int x) { return x; };\n__global__ void k() { f(1); };\n");
    assert_eq!(c.kernel.name, "k");
}

#[test]
fn macros_and_prototypes() {
    let src = "#include <cstdio>\n#define N 8\n#define TWICE_N N * 2\n__device__ int f(int x);\n\
               // @arg a int[16] = 0\n__global__ void k(int *a)\n{\n    a[threadIdx.x % TWICE_N] = f(N);\n}\n\
               __device__ int f(int x) { return x + 1; }\n";
    let c = compile("macros.cu", src);
    let text = print_kernel(&c.kernel);
    // `threadIdx.x % N * 2` is `(threadIdx.x % 8) * 2`: object-like macros are token substitution, as in C.
    assert!(text.contains("rem.u32 %") && text.contains(", 8"), "{text}");
    assert!(ariths_all(&c.kernel).contains(&(ArithOp::Mul, Ty::U32)), "{text}");
}

fn ariths_all(k: &Kernel) -> Vec<(ArithOp, Ty)> {
    k.instrs.iter().filter_map(|i| if let Instr::Binary { op, ty, .. } = i { Some((*op, *ty)) } else { None }).collect()
}

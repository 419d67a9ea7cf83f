//! The CUDA that course code is written in, one kernel per construct, checked for exact final memory: 64- and
//! 16-bit integers and C's rules for them, 64-bit and floating-point atomics, the integer and float
//! intrinsics, the warp functions of CUDA 8 (pre-Volta only, a lesson under ITS), typedefs. The kernels of
//! `tests/conformance/` named here were also run on an H100 (tests/conformance.rs compares them).

mod common;

use warpdbg::compile;
use warpdbg::debug::session::Session;
use warpdbg::front::CompileError;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::Config;

fn compile_err(text: &str, mode: Mode) -> CompileError {
    let o = Overrides { mode: Some(mode), ..Overrides::default() };
    match compile::compile("k.cu", text.as_bytes(), &o) {
        Ok(_) => panic!("compiled, but should not:\n{text}"),
        Err(e) => e,
    }
}

fn run_text(text: &str, mode: Mode) -> common::Run {
    let o = Overrides { mode: Some(mode), ..Overrides::default() };
    let c = compile::compile("k.cu", text.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"));
    common::run_compiled(&c, Config::default())
}

#[test]
fn sixty_four_bit_atomics_floating_atomics_and_wrapping_increments() {
    let r = common::run("tests/conformance/atomics64.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed");
    let u: Vec<u64> = r.json["memory"]["u"].as_array().expect("u").iter().map(|v| v.as_u64().expect("u64")).collect();
    // 128 threads: t = 0..127.
    let sum_t: u64 = (0..128).sum();
    assert_eq!(u, vec![128 << 33, sum_t * 0x1_0000_0001, 128 * 0x1_0000_0003, 0xfedc_ba98_7654_3210, 127 << 40]);
    assert_eq!(r.ints("m"), vec![-127 * (1i64 << 40), 6 << 35]);
    assert_eq!(r.floats("f"), vec![64.0, 192.0]);
    assert_eq!(r.floats("d"), vec![32.0]);
    // atomicInc wraps to 0 past 9 (128 % 10); atomicDec from 0 goes to 5 and counts down (cycle of 6).
    assert_eq!(r.ints("c"), vec![8, 4]);
}

#[test]
fn size_t_indices_long_long_arithmetic_and_cs_mixed_sign_rules() {
    let r = common::run("tests/conformance/int64_index.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed");
    let (sums, flags) = (r.ints("sums"), r.ints("flags"));
    for i in 0..256usize {
        let x = i as i64 - 100;
        if i >= 250 {
            assert_eq!((sums[i], flags[i]), (0, 0), "element {i} is past n");
            continue;
        }
        let u = (x as u64) << 40;
        assert_eq!(sums[i], x * 3_000_000_000 + (u >> 50) as i64, "sums[{i}]");
        // -1 < 1u is false (int converts to unsigned int); -1L < 1u is true (long holds every unsigned int).
        let short = (x * 1000) as i16;
        let f = 2 | if x * x > 5000 { 4 } else { 0 } | if short < 0 { 8 } else { 0 };
        assert_eq!(flags[i], f + (i as i64 % 3) * 16, "flags[{i}]");
    }
}

#[test]
fn bit_and_integer_intrinsics_compute_like_the_gpu() {
    let r = common::run("tests/conformance/intrinsics.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed");
    let ints = r.ints("ints");
    for t in 0..32u32 {
        let x = t.wrapping_mul(2654435761);
        let i = t as usize;
        assert_eq!(ints[i], x.count_ones() as i64, "__popc {t}");
        assert_eq!(ints[32 + i], (x >> (t % 8)).leading_zeros() as i64, "__clz {t}");
        let masked = x & (0xffu32 << (t % 24));
        assert_eq!(ints[64 + i], if masked == 0 { 0 } else { masked.trailing_zeros() as i64 + 1 }, "__ffs {t}");
        assert_eq!(ints[96 + i], x.reverse_bits() as i32 as i64, "__brev {t}");
        let umulhi = ((x as u64 * 0x9e37_79b9u64) >> 32) as u32 as i32;
        let mulhi = ((x as i32 as i64 * -7) >> 32) as i32;
        assert_eq!(ints[128 + i], (umulhi ^ mulhi) as i64, "__umulhi ^ __mulhi {t}");
        let mul24 = (((x & 0xff_ffff) << 8) as i32 >> 8).wrapping_mul(1000);
        let rn = (t as f32 * 0.5).round_ties_even() as i32;
        let rd = (-0.5 * t as f32).floor() as i32;
        assert_eq!(ints[160 + i], mul24.wrapping_add(rn * 3).wrapping_add(rd) as i64, "__mul24 + rn + rd {t}");
    }
    let floats = r.floats("floats");
    for t in 0..32usize {
        let f = t as f32 / 8.0 - 2.0;
        let sat = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
        assert_eq!(floats[96 + t] as f32, sat + 1.0 / (t as f32 + 1.0).sqrt(), "__saturatef + rsqrtf {t}");
        // `__logf(x)` as nvcc compiles it: the special function unit's log2 (correctly rounded here) times ln 2.
        let logf = ((t as f64 + 1.0).log2() as f32) * std::f32::consts::LN_2;
        assert_eq!(floats[128 + t] as f32, f32::from_bits(0x3f80_0000 + t as u32) + logf, "{t}");
    }
}

#[test]
fn legacy_warp_functions_run_pre_volta_over_the_whole_warp() {
    let r = common::run("tests/kernels/legacy_shfl.cu", Mode::PreVolta, &[]);
    assert_eq!(r.outcome(), "completed");
    let out = r.ints("out");
    for t in 0..64i64 {
        let warp = t / 32;
        // Lane 0 of each warp ends with the warp's sum of t; __shfl(v, 0) hands it to every lane.
        let sum: i64 = (warp * 32..warp * 32 + 32).sum();
        let up = if t % 32 >= 3 { t - 3 } else { t };
        assert_eq!(out[t as usize], sum + (t ^ 1) * 1000 + up * 100_000, "out[{t}]");
    }
    let third = (0..32u32).filter(|l| l % 3 == 0).fold(0u32, |m, l| m | 1 << l) as i64;
    let third_hi = (32..64u32).filter(|t| t % 3 == 0).fold(0u32, |m, t| m | 1 << (t - 32)) as i64;
    assert_eq!(r.ints("votes"), vec![third, 0, 1, third_hi, 1, 0]);
}

#[test]
fn legacy_warp_functions_under_its_teach_why_they_were_removed() {
    let text = std::fs::read_to_string(common::repo("tests/kernels/legacy_shfl.cu")).expect("read");
    let e = compile_err(&text.replace("// @mode pre-volta\n", ""), Mode::Its);
    let r = e.render();
    assert_eq!(e.diags.len(), 7, "{r}");
    assert!(
        r.starts_with(
            "error[E-unsupported]: `__shfl_down` does not exist for Volta and later GPUs (independent thread \
             scheduling)\n  ┌─ k.cu:9:42\n"
        ),
        "{r}"
    );
    assert!(r.contains("removed in CUDA 9 for sm_70 and later"), "{r}");
    assert!(r.contains("the threads of a warp are no longer guaranteed to reach this call together"), "{r}");
    // The lesson once, then only what to write.
    assert_eq!(r.matches("no longer guaranteed").count(), 1, "{r}");
    assert!(r.contains("= hint: write `__ballot_sync(0xffffffff, predicate)`"), "{r}");
    // Compiled for pre-Volta, the debugger refuses to switch the session to ITS, saying why.
    let c = common::compile("tests/kernels/legacy_shfl.cu", Mode::PreVolta, &[]);
    let mut s = Session::new(c, Config::default()).expect("session");
    let err = s.set_mode(Mode::Its).expect_err("no ITS for __shfl_down");
    assert!(err.to_string().starts_with("`__shfl_down` exists only for pre-Volta GPUs"), "{err}");
    assert_eq!(s.mode(), Mode::PreVolta);
}

#[test]
fn typedefs_and_using_aliases_name_scalar_and_pointer_types() {
    let r = run_text(
        "typedef unsigned int uint_t;\ntypedef float real, *real_ptr;\nusing index_t = long long;\n\
         using namespace std;\n// @block 8\n// @arg out float[8] = 0\n\
         __global__ void k(real_ptr out) {\n    typedef int local_int;\n    uint_t t = threadIdx.x;\n\
         index_t big = (index_t)t << 33;\n    local_int back = (local_int)(big >> 33);\n    \
         out[t] = (real)back * 1.5f;\n}\n",
        Mode::Its,
    );
    assert_eq!(r.floats("out"), (0..8).map(|t| t as f64 * 1.5).collect::<Vec<_>>());
}

#[test]
fn sixty_four_bit_printf_and_scalar_arguments() {
    let r = run_text(
        "#include <cstdio>\n// @block 1\n// @arg n = 1ull << 40\n// @arg out unsigned long long[1] = 0\n\
         __global__ void k(size_t n, unsigned long long *out) {\n    long long neg = -(long long)n;\n    \
         out[0] = n + 5;\n    printf(\"%zu %lld %llx %d\\n\", n, neg, n, (int)(n >> 20));\n}\n",
        Mode::Its,
    );
    assert_eq!(r.json["memory"]["out"][0].as_u64(), Some((1u64 << 40) + 5));
    assert_eq!(r.json["printf"][0]["text"], "1099511627776 -1099511627776 10000000000 1048576\n");
}

#[test]
fn atomics_on_types_cuda_has_no_overload_for_are_diagnosed() {
    let cases = [
        (
            "short *p",
            "atomicAdd(p, 1)",
            "`atomicAdd` needs an address of type int * or unsigned int * or unsigned long long * or float * or double *, found `short *`",
        ),
        ("long long *p", "atomicAdd(p, 1)", "found `long long *`"),
        ("int *p", "atomicInc(p, 1)", "`atomicInc` needs an address of type unsigned int *, found `int *`"),
        ("double *p", "atomicSub(p, 1)", "`atomicSub` needs an address of type int * or unsigned int *"),
    ];
    for (param, call, message) in cases {
        let text = format!("// @arg p int[1] = 0\n__global__ void k({param}) {{ {call}; }}\n");
        let r = compile_err(&text, Mode::Its).render();
        assert!(r.contains(message), "{call} on {param}:\n{r}");
    }
}

#[test]
fn extern_shared_arrays_alias_one_buffer_sized_by_the_launch() {
    let r = common::run("tests/conformance/dyn_shared_alias.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed");
    let bits = r.ints("bits");
    let out = r.ints("out");
    for g in 0..128usize {
        let (b, t) = (g / 64, g % 64);
        // s_f[63 - t] was written as a float, read back as an int through s_i: the float's bits.
        assert_eq!(bits[g], ((63 - t) as f32 * 0.5).to_bits() as i64, "bits[{g}]");
        assert_eq!(out[g], (b * 100 + (t ^ 1)) as i64, "out[{g}]");
    }
    // Past the launch's 512 bytes is out of bounds, named after the dynamic array.
    let text = std::fs::read_to_string(common::repo("tests/conformance/dyn_shared_alias.cu")).expect("read");
    let r = run_text(&text.replace("// @shared 512", "// @shared 256"), Mode::Its);
    assert_eq!(r.outcome(), "fault");
    assert!(r.json["faults"][0]["message"].as_str().expect("message").contains("__shared__"), "{}", r.json["faults"]);
}

#[test]
fn dynamic_shared_memory_needs_its_size() {
    let text = "// @arg out int[32] = 0\n__global__ void k(int *out) {\n    extern __shared__ int buf[];\n    \
                buf[threadIdx.x] = 1;\n    out[threadIdx.x] = buf[threadIdx.x];\n}\n";
    let r = compile_err(text, Mode::Its).render();
    assert!(
        r.starts_with(
            "error[E-directive]: `buf` is dynamic shared memory, but the launch gives it no bytes\n  ┌─ k.cu:3:27\n"
        ),
        "{r}"
    );
    assert!(r.contains("hint: add `// @shared BYTES` to the file, or pass --shared BYTES"), "{r}");
    let o = Overrides { shared: Some("32 * 4".into()), ..Overrides::default() };
    let c = compile::compile("k.cu", text.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.launch.dynamic_shared, 128);
    assert_eq!(common::run_compiled(&c, Config::default()).ints("out"), vec![1; 32]);
}

#[test]
fn constant_and_device_variables_live_in_global_memory() {
    let r = common::run("tests/conformance/constant_stencil.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed");
    let coef = [0.0625, 0.125, 0.25, 0.5, 1.0, 0.5, 0.25, 0.125, 0.0625];
    for (g, &got) in r.floats("out").iter().enumerate() {
        let want: f64 = coef.iter().enumerate().map(|(k, c)| c * ((g + k) as f64 * 0.25)).sum();
        assert_eq!(got, want, "out[{g}]");
    }
    // Every thread counted itself in the __device__ variable; the one that saw 127 wrote 128.
    assert_eq!(r.ints("count"), vec![128]);
    assert_eq!(r.ints("visits"), vec![128]);
    assert_eq!(r.floats("coef"), coef.to_vec());
}

#[test]
fn file_scope_constants_host_variables_and_constant_writes() {
    let r = run_text(
        "const int N = 8;\nstatic constexpr float SCALE = 0.5f;\n__device__ int table[N] = {1, 2, 3};\n\
         // @block 8\n// @arg out float[8] = 0\n__global__ void k(float *out) {\n    \
         out[threadIdx.x] = table[threadIdx.x] * SCALE + N;\n}\n",
        Mode::Its,
    );
    assert_eq!(r.floats("out"), vec![8.5, 9.0, 9.5, 8.0, 8.0, 8.0, 8.0, 8.0]);
    let e = compile_err(
        "__constant__ float coef[4];\n// @arg out float[4] = 0\n__global__ void k(float *out) {\n    \
         coef[threadIdx.x] = 1.0f;\n}\n",
        Mode::Its,
    )
    .render();
    assert!(e.starts_with("error[E-type]: cannot write to `coef`: it is __constant__ memory\n"), "{e}");
    assert!(e.contains("kernels can only read constant memory"), "{e}");
    let e = compile_err(
        "int *d_data;\nfloat host_scale = 2;\n// @arg out float[4] = 0\n__global__ void k(float *out) {\n    \
         out[0] = host_scale;\n}\n",
        Mode::Its,
    )
    .render();
    assert!(e.starts_with("error[E-type]: `host_scale` is a host variable\n"), "{e}");
    assert!(e.contains("declare it `__device__` (global memory) or `__constant__`"), "{e}");
}

#[test]
fn a_kernel_template_runs_the_instance_the_directive_names() {
    let c = common::compile("tests/conformance/template_reduce.cu", Mode::Its, &[]);
    assert_eq!(c.kernel.name, "reduceUnroll<256>");
    let input = common::initial_ints(&c, "in");
    let r = common::run_compiled(&c, Config::default());
    let sums: Vec<i64> = input.chunks(256).map(|b| b.iter().sum()).collect();
    assert_eq!(r.ints("out"), sums);
    // The tests on the template constant are decided when the instance is made: no instructions issue for
    // the two that are false at 256 (lines 14 and 16), and line 18 branches on `tid < 128` alone, uniformly.
    let lines: Vec<u64> = r.json["metrics"]["per_line"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|l| l["line"].as_u64().expect("line"))
        .collect();
    assert_eq!(lines, vec![18, 20, 22, 23, 26]);
    assert_eq!((r.line(18)["branches"].as_u64(), r.line(18)["divergent_branches"].as_u64()), (Some(64), Some(0)));
    // Another instance from the command line: a block of 128 sums half as much per block.
    let o = Overrides { kernel: Some("reduceUnroll<128>".into()), block: Some("128".into()), ..Overrides::default() };
    let c = common::compile_with("tests/conformance/template_reduce.cu", &o);
    let r = common::run_compiled(&c, Config::default());
    let halves: Vec<i64> = input.chunks(128).take(8).map(|b| b.iter().sum()).collect();
    assert_eq!(r.ints("out"), halves);
}

#[test]
fn device_function_templates_deduce_their_types_or_take_explicit_arguments() {
    let r = run_text(
        "template <typename T>\n__device__ T twice(T x) { return x + x; }\n\
         template <typename T, int N = 4>\n__device__ T scaled(const T *p, int i) { return p[i] * N; }\n\
         // @block 8\n// @arg a float[8] = i * 0.5\n// @arg b int[8] = i\n// @arg out float[8] = 0\n\
         __global__ void k(const float *a, const int *b, float *out) {\n    int t = threadIdx.x;\n    \
         out[t] = twice(a[t]) + twice(b[t]) + scaled(a, t) + scaled<int, 10>(b, t);\n}\n",
        Mode::Its,
    );
    // twice(0.5t) + twice(t) + 4 * 0.5t + 10t = 15t.
    assert_eq!(r.floats("out"), (0..8).map(|t| 15.0 * t as f64).collect::<Vec<_>>());
}

#[test]
fn template_mistakes_are_diagnosed() {
    let text = std::fs::read_to_string(common::repo("tests/conformance/template_reduce.cu")).expect("read");
    let no_instance = text.replace("// @kernel reduceUnroll<256>\n", "");
    let r = compile_err(&no_instance, Mode::Its).render();
    assert!(
        r.starts_with("error[E-directive]: `reduceUnroll` is a kernel template: which instance should run?"),
        "{r}"
    );
    assert!(
        r.contains("add `// @kernel reduceUnroll<...>` with arguments for template <unsigned int iBlockSize>"),
        "{r}"
    );
    let r = compile_err(&text.replace("reduceUnroll<256>", "reduceUnroll<256, 2>"), Mode::Its).render();
    assert!(r.contains("`reduceUnroll` takes 1 template argument, 2 given"), "{r}");
    let r = compile_err(&text.replace("reduceUnroll<256>", "reduceUnroll<float>"), Mode::Its).render();
    assert!(r.contains("`iBlockSize` takes a constant, not a type"), "{r}");
    let r = compile_err(
        "template <typename T>\n__device__ T zero() { return 0; }\n// @arg o int[1] = 0\n\
         __global__ void k(int *o) { o[0] = zero(); }\n",
        Mode::Its,
    )
    .render();
    assert!(r.contains("cannot tell `T` of template `zero` from the arguments"), "{r}");
    assert!(r.contains("hint: name the arguments: `zero<...>(...)`"), "{r}");
}

#[test]
fn structs_in_memory_in_variables_and_by_value() {
    let r = common::run("tests/conformance/aos_soa.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed");
    let (aos, soa, out) = (r.floats("aos"), r.floats("soa"), r.floats("out"));
    for i in 0..64usize {
        let x = (2 * i + 1) as f64; // p.x += 1 on (2i, 2i + 1), stored back whole
        assert_eq!((aos[2 * i], aos[2 * i + 1]), (x, x), "aos[{i}]");
        assert_eq!(soa[i], (i + 2) as f64, "soa[{i}]");
        let energy = x * x + 0.5 * x;
        assert_eq!(out[i], energy + (i + 2) as f64 * (64 + i) as f64, "out[{i}]");
    }
}

#[test]
fn an_array_of_structs_argument_and_a_struct_copy() {
    let r = run_text(
        "struct innerStruct {\n    float x;\n    float y;\n};\n// @grid 2\n// @block 32\n\
         // @arg data innerStruct[64] = i\n// @arg result innerStruct[64] = 0\n// @arg n = 60\n\
         __global__ void testInnerStruct(innerStruct *data, innerStruct *result, const int n) {\n    \
         unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) {\n        \
         innerStruct tmp = data[i];\n        tmp.x += 10.f;\n        tmp.y += 20.f;\n        result[i] = tmp;\n    }\n}\n",
        Mode::Its,
    );
    // An array of structs of floats is its fields one after another: x0, y0, x1, y1, ...
    let result = r.floats("result");
    assert_eq!(result.len(), 128);
    for i in 0..64usize {
        let want = if i < 60 { ((2 * i) as f64 + 10.0, (2 * i + 1) as f64 + 20.0) } else { (0.0, 0.0) };
        assert_eq!((result[2 * i], result[2 * i + 1]), want, "result[{i}]");
    }
}

#[test]
fn vector_types_load_whole_and_a_misaligned_one_faults_like_the_gpu() {
    let r = common::run("tests/conformance/misaligned_vec.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "fault");
    let f = &r.json["faults"][0];
    assert_eq!((f["line"].as_u64(), f["thread"][0].as_u64()), (Some(13), Some(5)));
    let m = f["message"].as_str().expect("message");
    assert!(m.contains("Invalid __global__ read of size 16 bytes"), "{m}");
    assert!(m.contains("is misaligned"), "{m}");
    // Before the fault, the aligned float4 loads summed their four floats.
    for (t, &v) in r.floats("out").iter().take(32).enumerate() {
        assert_eq!(v, (16 * t + 6) as f64, "out[{t}]");
    }
    let r = run_text(
        "// @block 4\n// @arg out int[8] = 0\n__global__ void k(int *out) {\n    int t = threadIdx.x;\n    \
         int2 v = make_int2(t, -t);\n    uchar4 c = {1, 2, 3, 4};\n    dim3 d = {2, 3, 4};\n    \
         reinterpret_cast<int2 *>(out)[t] = v;\n    out[t] += c.w * d.z;\n}\n",
        Mode::Its,
    );
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    // The int2 stores write (t, -t) at out[2t]; then the first four add c.w * d.z = 16.
    assert_eq!(r.ints("out"), vec![16, 16, 17, 15, 2, -2, 3, -3]);
}

#[test]
fn struct_mistakes_are_diagnosed() {
    let cases = [
        ("struct P { float x; };\n", "P *p", "p->z = 1;", "`P` has no field `z`"),
        ("struct P { float x, y; };\n", "P *p", "p[0].yy = 1;", "did you mean `y`?"),
        ("union U { int i; float f; };\n", "U *p", "p[0].i = 1;", "not supported by warpdbg: unions"),
        (
            "struct P { float x; __device__ virtual float get() { return x; } };\n",
            "P *p",
            "p[0].x = 1;",
            "virtual functions",
        ),
        (
            "struct P { float x; };\nstruct Q { float x; };\n",
            "P *p, Q *q",
            "p[0] = q[0];",
            "cannot assign a `Q` to a `P`",
        ),
    ];
    for (defs, params, body, message) in cases {
        let text = format!("{defs}// @arg p int[1] = 0\n__global__ void k({params}) {{ {body} }}\n");
        let r = compile_err(&text, Mode::Its).render();
        assert!(r.contains(message), "{body}:\n{r}");
    }
}

#[test]
fn cooperative_groups_tiles_ranks_ballots_and_coalesced_threads() {
    let r = common::run("tests/conformance/coop_tile.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    let input: Vec<i64> = (0..64).map(|t| 3 * t + 1).collect();
    let (out, info) = (r.ints("out"), r.ints("info"));
    for t in 0..64usize {
        let warp_sum: i64 = input[t / 32 * 32..t / 32 * 32 + 32].iter().sum();
        assert_eq!(out[t], warp_sum + input[t ^ 1] * 10000, "out[{t}]");
        // The 8-thread tile's ballot of even inputs (odd t), counted from the tile's first lane.
        let tile = t / 8 * 8;
        let ballot = (0..8).filter(|k| input[tile + k] % 2 == 0).fold(0, |m, k| m | 1 << k);
        let mut want = (t / 8) as i64 * 1000 + ballot;
        if t % 3 == 0 {
            let warp = t / 32 * 32;
            let active: Vec<usize> = (warp..warp + 32).filter(|x| x % 3 == 0).collect();
            let rank = active.iter().position(|&x| x == t).expect("active") as i64;
            want += rank * 100_000 + active.len() as i64 * 10_000_000;
        }
        assert_eq!(info[t], want, "info[{t}]");
    }
}

#[test]
fn a_block_sync_in_a_divergent_branch_deadlocks_like_syncthreads() {
    let text = |sync: &str| {
        format!(
            "#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n// @block 64\n// @arg out int[64] = 0\n\
             __global__ void k(int *out) {{\n    thread_block b = this_thread_block();\n    \
             if (threadIdx.x < 32) {{\n        {sync};\n    }}\n    out[threadIdx.x] = 1;\n}}\n"
        )
    };
    let cg = run_text(&text("b.sync()"), Mode::PreVolta);
    let plain = run_text(&text("__syncthreads()"), Mode::PreVolta);
    assert_eq!(cg.outcome(), plain.outcome());
    assert_eq!(cg.explanation(), plain.explanation());
    assert_eq!(cg.waits(), plain.waits());
    // A tile's sync is a __syncwarp over the tile's lanes: the same trace as writing that.
    let tile = run_text(
        "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n// @arg out int[32] = 0\n\
         __global__ void k(int *out) {\n    auto t = cg::tiled_partition<16>(cg::this_thread_block());\n    \
         out[threadIdx.x] = t.thread_rank();\n    t.sync();\n    out[threadIdx.x] += out[t.meta_group_rank() * 16];\n}\n",
        Mode::Its,
    );
    assert_eq!(tile.ints("out"), (0..32).map(|t| t % 16).collect::<Vec<i64>>());
}

#[test]
fn cooperative_groups_warpdbg_does_not_model_are_named() {
    let cases = [(
        "auto t = cooperative_groups::tiled_partition<48>(cooperative_groups::this_thread_block());",
        "a tile of 48 threads",
    )];
    for (stmt, message) in cases {
        let text = format!(
            "#include <cooperative_groups.h>\n// @arg out int[32] = 0\n__global__ void k(int *out) {{\n    {stmt}\n}}\n"
        );
        let r = compile_err(&text, Mode::Its).render();
        assert!(r.contains(message), "{stmt}:\n{r}");
    }
}

#[test]
fn template_parameters_do_not_shadow_fields_or_variables_named_like_templates() {
    // `x` is a template parameter and a field; `twice` is a template and a variable.
    let r = run_text(
        "template <int x>\n__device__ int addx(int v) { return v + x + threadIdx.x; }\n\
         template <typename T>\n__device__ T twice(T v) { return v + v; }\n// @block 4\n// @arg out int[4] = 0\n\
         __global__ void k(int *out) {\n    int twice = 1;\n    if (twice < 3) out[threadIdx.x] = addx<10>(twice);\n}\n",
        Mode::Its,
    );
    assert_eq!(r.ints("out"), vec![11, 12, 13, 14]);
    let e = compile_err(
        "__constant__ float coef[2] = {1, 2, 3};\n// @arg o int[1] = 0\n__global__ void k(int *o) { o[0] = coef[0]; }\n",
        Mode::Its,
    );
    assert!(e.render().contains("too many initialisers for `coef`"), "{}", e.render());
}

#[test]
fn per_thread_local_arrays_are_each_threads_own_and_checked() {
    let text = "// @grid 2\n// @block 32\n// @arg out int[64] = 0\n// @arg k = 4\n\
                __global__ void local(int *out, int k) {\n    int hist[4] = {1, 2};\n    \
                int t = blockIdx.x * blockDim.x + threadIdx.x;\n    for (int i = 0; i < 4; i++) hist[i] += t * i;\n    \
                int sum = 0;\n    for (int i = 0; i < 4; i++) sum += hist[i];\n    out[t] = sum + hist[t % k];\n}\n";
    let r = run_text(text, Mode::Its);
    assert_eq!(r.outcome(), "completed");
    for (t, &v) in r.ints("out").iter().enumerate() {
        let t = t as i64;
        let hist = [1, 2 + t, 2 * t, 3 * t];
        assert_eq!(v, hist.iter().sum::<i64>() + hist[(t % 4) as usize], "out[{t}]");
    }
    // Past the end: the fault names the array and the element, like compute-sanitizer's __local__ report.
    let r = run_text(&text.replace("// @arg k = 4", "// @arg k = 8"), Mode::Its);
    assert_eq!(r.outcome(), "fault");
    let f = &r.json["faults"][0];
    assert_eq!((f["line"].as_u64(), f["thread"][0].as_u64()), (Some(11), Some(4)));
    let m = f["message"].as_str().expect("message");
    assert!(m.contains("Invalid __local__ read of size 4 bytes"), "{m}");
    assert!(m.contains("1 bytes after the nearest allocation hist"), "{m}");
}

#[test]
fn default_arguments_extern_c_blocks_and_inline_assembly() {
    let r = run_text(
        "extern \"C\" {\n__device__ float clip(float p, float eps = 0.25f) { return p < eps ? eps : p; }\n}\n\
         // @block 4\n// @arg out float[4] = 0\n__global__ void k(float *out) {\n    \
         out[threadIdx.x] = clip(threadIdx.x * 0.5f) + clip(1.0f, 2.0f);\n}\n",
        Mode::Its,
    );
    assert_eq!(r.floats("out"), vec![2.25, 2.5, 3.0, 3.5]);
    let e = compile_err(
        "// @arg o int[1] = 0\n__global__ void k(int *o) { int r; asm(\"mov.u32 %0, 1;\" : \"=r\"(r)); o[0] = r; }\n",
        Mode::Its,
    );
    assert!(e.render().contains("not supported by warpdbg: inline PTX assembly (`asm`)"), "{}", e.render());
}

#[test]
fn a_group_passed_to_a_device_function_template() {
    let r = run_text(
        "#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n\
         template <typename group_t>\n__device__ int warp_sum(group_t g, int v) {\n    \
         for (int d = g.size() / 2; d > 0; d /= 2) v += g.shfl_down(v, d);\n    return v;\n}\n\
         // @block 64\n// @arg out int[64] = 0\n__global__ void k(int *out) {\n    \
         thread_block_tile<32> t = tiled_partition<32>(this_thread_block());\n    \
         int s = warp_sum(t, (int)threadIdx.x);\n    if (t.thread_rank() == 0) out[threadIdx.x / 32] = s;\n}\n",
        Mode::Its,
    );
    assert_eq!(&r.ints("out")[..2], &[(0..32).sum::<i64>(), (32..64).sum::<i64>()]);
}

#[test]
fn dim3_and_uint3_take_the_index_vectors_and_struct_arrays_take_the_keyword() {
    let r = run_text(
        "struct P { float a, b; };\n// @block 4\n// @arg p struct P[4] = i\n// @arg out unsigned int[4] = 0\n\
         __global__ void k(P *p, unsigned int *out) {\n    dim3 t = threadIdx;\n    uint3 b = blockDim;\n    \
         out[t.x] = t.x * 100 + b.x + (unsigned)p[t.x].b;\n}\n",
        Mode::Its,
    );
    assert_eq!(r.ints("out"), vec![5, 107, 209, 311]);
}

#[test]
fn namespace_blocks_and_the_correctly_rounded_intrinsics() {
    let r = run_text(
        "namespace util {\n__device__ float half(float x) { return __fdiv_rn(x, 2.0f) + (float)__dadd_rn(0.25, 0.25); }\n}\n\
         // @block 4\n// @arg out float[4] = 0\n\
         __global__ void k(float *out) { out[threadIdx.x] = util::half(threadIdx.x) + __fsqrt_rn(4.0f); }\n",
        Mode::Its,
    );
    assert_eq!(r.floats("out"), vec![2.5, 3.0, 3.5, 4.0]);
}

#[test]
fn overloaded_device_functions_are_chosen_by_argument_types() {
    let r = run_text(
        "__device__ float gpdf(float val, float sigma) { return val * sigma; }\n\
         __device__ double gpdf(double val, double sigma) { return val * sigma + 1000.0; }\n\
         // @block 4\n// @arg out double[8] = 0\n__global__ void k(double *out) {\n    int t = threadIdx.x;\n    \
         out[t] = gpdf((float)t, 2.0f);\n    out[4 + t] = gpdf((double)t, 2.0);\n}\n",
        Mode::Its,
    );
    assert_eq!(r.floats("out"), vec![0.0, 2.0, 4.0, 6.0, 1000.0, 1002.0, 1004.0, 1006.0]);
    let e = compile_err(
        "__device__ int f(int a) { return a; }\n__device__ int f(int b) { return b; }\n// @arg o int[1] = 0\n\
         __global__ void k(int *o) { o[0] = f(1); }\n",
        Mode::Its,
    );
    assert!(e.render().contains("`f` is defined twice"), "{}", e.render());
}

#[test]
fn an_arg_element_type_may_be_a_typedef_of_the_file() {
    let r = run_text(
        "typedef float real;\n// @block 4\n// @arg px real[4] = i\n__global__ void k(real *px) { px[threadIdx.x] *= 2; }\n",
        Mode::Its,
    );
    assert_eq!(r.floats("px"), vec![0.0, 2.0, 4.0, 6.0]);
}

#[test]
fn each_declarator_has_its_own_stars_as_in_c() {
    // `float *a, *b, c;`: a and b are `float *`, c is a `float` (the first `*` is not part of the type).
    let r = run_text(
        "// @grid 1\n// @block 1\n// @arg out float[3] = 0\n\
         struct Pair { float *p, *q; };\n\
         __global__ void k(float *out) {\n    float *a, *b, c = 5.0f;\n    a = out; b = out + 1;\n\
             Pair s; s.p = out + 2; s.q = b;\n    *a = 1.0f; *s.q = 2.0f; *s.p = c;\n}\n",
        Mode::Its,
    );
    assert_eq!(r.outcome(), "completed");
    assert_eq!(r.floats("out"), vec![1.0, 2.0, 5.0]);
}

#[test]
fn a_range_based_for_in_device_code_is_named_with_its_rewrite() {
    // Host code runs it (tests/programs/host_cpp.cu); in a kernel it is an unsupported construct, not a
    // syntax error.
    let text = "// @grid 1\n// @block 32\n// @arg out int[32] = 0\n\
                __global__ void k(int *out) {\n    int w[3] = {1, 2, 3};\n    int s = 0;\n    \
                for (int x : w) s += x;\n    out[threadIdx.x] = s;\n}\n";
    let r = compile_err(text, Mode::Its).render();
    assert!(r.contains("error[E-unsupported]: not supported by warpdbg: range-based `for` in device code"), "{r}");
    assert!(r.contains("k.cu:7:5"), "{r}");
    assert!(r.contains("write it with an index: for (int i = 0; i < n; i++)"), "{r}");
}

#[test]
fn switch_falls_through_breaks_and_continues_like_the_gpu_in_both_models() {
    // The kernel an H100 ran (tests/conformance/switch_cases.cu): threads 0 and 1 worked by hand, 2251 = ((1 + 10)
    // + 10 + 1 + 100 + 2 + 1000) * 2 + 3, negated by `case 'a'`; thread 1 continues its loop at `case 3`.
    for mode in [Mode::Its, Mode::PreVolta] {
        let r = common::run("tests/conformance/switch_cases.cu", mode, &[]);
        assert_eq!(r.outcome(), "completed");
        assert_eq!(r.ints("out")[..6], [-2251, -225, 4514, 117, -127, -227], "{mode:?}");
    }
    // A switch on a 64-bit value with a negative case, `default` first, and an empty switch.
    let r = run_text(
        "// @block 8\n// @arg out long long[8] = 0\n\
         __global__ void k(long long *out) {\n\
             long long v = (long long)threadIdx.x - 4;\n\
             switch (v) { default: out[threadIdx.x] = 9; break; case -4: out[threadIdx.x] = -1; break; case 3000000000LL: break; }\n\
             switch (v) {}\n\
         }\n",
        Mode::Its,
    );
    assert_eq!(r.ints("out"), vec![-1, 9, 9, 9, 9, 9, 9, 9]);
}

#[test]
fn switch_mistakes_are_errors_with_their_place() {
    let cases = [
        ("switch (t) { case 1: break; case 1: break; }", "duplicate `case 1`", "4:29"),
        ("int n = t; switch (t) { case n: break; }", "a `case` value must be a constant", "4:30"),
        ("switch (1.5f) { default: break; }", "a `switch` needs an integer, not `float`", "4:9"),
        ("switch (t) { default: break; default: break; }", "a second `default` in one `switch`", "4:30"),
        ("case 3: t++;", "a `case` or `default` label outside of a `switch`", "4:1"),
    ];
    for (body, message, at) in cases {
        let text = format!(
            "// @block 4\n// @arg out int[4] = 0\n__global__ void k(int *out) {{ int t = threadIdx.x;\n{body}\nout[t] = t; }}\n"
        );
        let e = compile_err(&text, Mode::Its);
        let rendered = warpdbg::front::diagnostic::render_plain(&e.sources, &e.diags);
        assert!(rendered.contains(message), "{body}: {rendered}");
        assert!(rendered.contains(&format!("k.cu:{at}")), "{body}: {rendered}");
    }
}

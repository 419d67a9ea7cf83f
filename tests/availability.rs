//! Unsupported constructs only matter where they run: a function, type or variable that uses one is set aside,
//! its diagnostic an error where the launched kernel reaches it and a warning otherwise, so the plain kernels of
//! a file still run. Also the valid CUDA around them that courses write: host-only library types in host
//! structs, host classes with bases or template parameters, struct parameters by value (`@arg data.r`),
//! `auto`, and the intrinsics spelled out in plain C (`__frcp_rn`, `__dp4a`, `__dp2a_lo/hi`).

mod common;

use warpdbg::compile::{self, Compiled};
use warpdbg::front::CompileError;
use warpdbg::front::diagnostic::render_plain;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::Config;

fn compile(text: &str, kernel: Option<&str>) -> Result<Compiled, CompileError> {
    let o = Overrides { mode: Some(Mode::Its), kernel: kernel.map(str::to_string), ..Overrides::default() };
    compile::compile("k.cu", text.as_bytes(), &o)
}

fn ok(text: &str, kernel: Option<&str>) -> Compiled {
    compile(text, kernel).unwrap_or_else(|e| panic!("{e}"))
}

fn err(text: &str, kernel: Option<&str>) -> String {
    match compile(text, kernel) {
        Ok(c) => panic!("compiled (launching {}), but should not:\n{text}", c.launch.kernel),
        Err(e) => e.render(),
    }
}

fn warnings(c: &Compiled) -> String {
    render_plain(&c.sources, &c.warnings)
}

/// A course file: a plain kernel, a parent that launches it (dynamic parallelism), a device function with
/// inline PTX that only the parent calls, and a host struct holding a stream.
const MIXED: &str = "\
// @grid 1
// @block 4
// @arg out int[4] = 0
struct Pipeline {
    cudaStream_t stream;
    int *buffer;
};

__device__ int lane_id() {
    int id;
    asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(id));
    return id;
}

__global__ void child(int *out) {
    out[threadIdx.x] = threadIdx.x * 3 + 1;
}

__global__ void parent_kernel(int *out) {
    if (lane_id() == 0) child<<<1, 4>>>(out);
}
";

#[test]
fn a_plain_kernel_runs_beside_unsupported_ones_with_one_warning_each() {
    let c = ok(MIXED, Some("child"));
    assert_eq!(
        warnings(&c),
        "\
warning[E-unsupported]: type `Pipeline` is not available: `cudaStream_t` is a host-only type of the CUDA runtime: device code cannot use it
  ┌─ k.cu:5:5
  │
5 │     cudaStream_t stream;
  │     ^^^^^^^^^^^^ host-only type
  │
  = note: the launched kernel does not use `Pipeline`, so the rest of the file still runs

warning[E-unsupported]: function `lane_id` is not available: inline PTX assembly (`asm`) is not supported by warpdbg
   ┌─ k.cu:11:5
   │
11 │     asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(id));
   │     ^^^ here
   │
   = note: the launched kernel does not use `lane_id`, so the rest of the file still runs

warning[E-unsupported]: kernel `parent_kernel` is not available: launching a kernel from a kernel (dynamic parallelism) is not supported by warpdbg
   ┌─ k.cu:20:25
   │
20 │     if (lane_id() == 0) child<<<1, 4>>>(out);
   │                         ^^^^^^^ a launch inside device code
   │
   = hint: warpdbg runs grids launched from device code in whole programs: add the host code, `main()`
   = note: the launched kernel does not use `parent_kernel`, so the rest of the file still runs

"
    );
    let r = common::run_compiled(&c, Config::default());
    assert_eq!(r.ints("out"), vec![1, 4, 7, 10]);
    // `check --ir` lowers every runnable kernel, and only those.
    let names: Vec<String> = c.all_kernels().into_iter().map(|k| k.name).collect();
    assert_eq!(names, vec!["child".to_string()]);
}

#[test]
fn launching_an_unavailable_kernel_reports_its_construct_as_an_error() {
    assert_eq!(
        err(MIXED, Some("parent_kernel")),
        "\
error[E-unsupported]: not supported by warpdbg: launching a kernel from a kernel (dynamic parallelism)
   ┌─ k.cu:20:25
   │
20 │     if (lane_id() == 0) child<<<1, 4>>>(out);
   │                         ^^^^^^^ a launch inside device code
   │
   ┌─ --kernel parent_kernel:1:1
   │
 1 │ parent_kernel
   │ ------------- launched here
   │
   = hint: warpdbg runs grids launched from device code in whole programs: add the host code, `main()`

"
    );
}

#[test]
fn a_reached_unavailable_function_is_an_error_with_its_own_text() {
    let text = "// @arg out int[32] = 0\n\
                __device__ int lane_id() { int id; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(id)); return id; }\n\
                __device__ int twice(int x) { return 2 * x; }\n\
                __global__ void k(int *out) { out[threadIdx.x] = twice(lane_id()); }\n";
    assert_eq!(
        err(text, None),
        "\
error[E-unsupported]: not supported by warpdbg: inline PTX assembly (`asm`)
  ┌─ k.cu:2:36
  │
2 │ __device__ int lane_id() { int id; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(id)); return id; }
  │                                    ^^^
3 │ __device__ int twice(int x) { return 2 * x; }
4 │ __global__ void k(int *out) { out[threadIdx.x] = twice(lane_id()); }
  │                                                        ------- `lane_id` is used here

"
    );
}

#[test]
fn a_host_only_type_in_reached_code_is_an_error() {
    let text = "// @arg out int[4] = 0\n\
                struct Job { cudaEvent_t done; int n; };\n\
                __global__ void k(int *out) { Job j; j.n = 1; out[threadIdx.x] = j.n; }\n";
    assert_eq!(
        err(text, None),
        "\
error[E-unsupported]: `cudaEvent_t` is a host-only type of the CUDA runtime: device code cannot use it
  ┌─ k.cu:2:14
  │
2 │ struct Job { cudaEvent_t done; int n; };
  │              ^^^^^^^^^^^ host-only type
3 │ __global__ void k(int *out) { Job j; j.n = 1; out[threadIdx.x] = j.n; }
  │                               --- `Job` is used here

"
    );
}

#[test]
fn syntax_errors_stay_errors_in_code_the_kernel_does_not_reach() {
    let text = "// @arg out int[4] = 0\n\
                __device__ int unused(int x) { return x + ; }\n\
                __global__ void k(int *out) { out[threadIdx.x] = 1; }\n";
    let e = err(text, None);
    assert!(e.starts_with("error[E-syntax]: expected an expression, found `;`\n  ┌─ k.cu:2:43\n"), "{e}");
    // A real error after an unsupported construct in the same function is not read (the body is skipped), but
    // one before it is.
    let text = "// @arg out int[4] = 0\n\
                __device__ int unused(int x) { x = x + ; asm(\"trap;\"); return x; }\n\
                __global__ void k(int *out) { out[threadIdx.x] = 1; }\n";
    let e = err(text, None);
    assert!(e.starts_with("error[E-syntax]: expected an expression, found `;`\n  ┌─ k.cu:2:40\n"), "{e}");
}

#[test]
fn a_file_whose_only_kernel_is_unavailable_reports_why() {
    let text = "// @arg out int[4] = 0\n__global__ void k(int *out) { asm(\"exit;\"); }\n";
    assert_eq!(
        err(text, None),
        "\
error[E-unsupported]: not supported by warpdbg: inline PTX assembly (`asm`)
  ┌─ k.cu:2:31
  │
2 │ __global__ void k(int *out) { asm(\"exit;\"); }
  │                               ^^^

"
    );
}

#[test]
fn unavailable_types_and_variables_are_errors_only_where_used() {
    // A union, a class template with device members and an MRG32k3a state array: each set aside.
    let text = "// @arg out float[4] = 0\n\
                union Bits { int i; float f; };\n\
                __device__ curandStateMRG32k3a_t states[4];\n\
                __global__ void k(float *out) { out[threadIdx.x] = 0.5f; }\n\
                __global__ void draw(float *out) { out[threadIdx.x] = 1.0f; if (&states[threadIdx.x] == 0) out[0] = 0.0f; }\n";
    let c = ok(text, Some("k"));
    let w = warnings(&c);
    assert!(
        w.starts_with("warning[E-unsupported]: type `Bits` is not available: unions is not supported by warpdbg\n"),
        "{w}"
    );
    // `draw` uses `states`: one warning says both.
    assert!(
        w.ends_with(
            "\
warning[E-unsupported]: kernel `draw` is not available: cuRAND generators other than XORWOW and Philox is not supported by warpdbg
  ┌─ k.cu:3:12
  │
3 │ __device__ curandStateMRG32k3a_t states[4];
  │            ^^^^^^^^^^^^^^^^^^^^^ here
4 │ __global__ void k(float *out) { out[threadIdx.x] = 0.5f; }
5 │ __global__ void draw(float *out) { out[threadIdx.x] = 1.0f; if (&states[threadIdx.x] == 0) out[0] = 0.0f; }
  │                                                                  ------ `states` is used here
  │
  = note: the launched kernel does not use `draw`, so the rest of the file still runs

"
        ),
        "{w}"
    );
    assert_eq!(c.warnings.len(), 2, "{w}");
    assert_eq!(common::run_compiled(&c, Config::default()).floats("out"), vec![0.5; 4]);
    let e = err(text, Some("draw"));
    assert!(
        e.starts_with(
            "error[E-unsupported]: not supported by warpdbg: cuRAND generators other than XORWOW and Philox\n  ┌─ k.cu:3:12\n"
        ),
        "{e}"
    );
    assert!(e.contains("`states` is used here"), "{e}");
}

#[test]
fn a_device_function_defined_in_another_file_is_an_error_only_when_called() {
    let proto = "// @arg out int[4] = 0\n\
                 __device__ unsigned int bit_of(unsigned int *word, int bit);\n\
                 __global__ void k(int *out) { out[threadIdx.x] = 7; }\n";
    let c = ok(proto, None);
    assert_eq!(
        warnings(&c),
        "\
warning[E-unsupported]: function `bit_of` is not available: device functions defined in another file (separate compilation) is not supported by warpdbg
  ┌─ k.cu:2:1
  │
2 │ __device__ unsigned int bit_of(unsigned int *word, int bit);
  │ ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ `bit_of` is declared here but not defined in this file
  │
  = hint: put the definition in this file (or `#include` the file that has it)
  = note: the launched kernel does not use `bit_of`, so the rest of the file still runs

"
    );
    let called = proto.replace("= 7;", "= bit_of((unsigned int *)out, 3);");
    let e = err(&called, None);
    assert!(
        e.starts_with(
            "error[E-unsupported]: not supported by warpdbg: device functions defined in another file (separate compilation)\n"
        ),
        "{e}"
    );
    // Declared, then defined: nothing to say.
    let defined = format!(
        "{proto}__device__ unsigned int bit_of(unsigned int *word, int bit) {{ return (*word >> bit) & 1; }}\n"
    );
    assert!(ok(&defined, None).warnings.is_empty());
}

#[test]
fn host_classes_with_bases_or_template_parameters_are_skipped_like_host_code() {
    let text = "// @arg out int[4] = 0\n\
                class Timer { public: virtual void start() = 0; };\n\
                class GpuTimer : public Timer { cudaEvent_t a, b; public: void start() { } float ms(); };\n\
                template <typename T> class Buffer { T *host; public: Buffer(int n) { } ~Buffer() { } };\n\
                struct Sizes { int w[(4)]; int h; };\n\
                __global__ void k(int *out) { out[threadIdx.x] = sizeof(Sizes) + 2; }\n";
    let c = ok(text, None);
    assert!(c.warnings.is_empty(), "{}", warnings(&c));
    assert_eq!(common::run_compiled(&c, Config::default()).ints("out"), vec![22; 4]);
}

#[test]
fn struct_parameters_by_value_take_dotted_arg_directives() {
    let text = "// @block 4\n\
                // @arg data.r float[4] = i\n\
                // @arg data.n = 3\n\
                // @arg out float[4] = 0\n\
                struct Channels { float *r; int n; };\n\
                __global__ void k(Channels data, float *out) {\n\
                    if (threadIdx.x < data.n) out[threadIdx.x] = data.r[threadIdx.x] * 2.0f;\n\
                }\n";
    let r = common::run_compiled(&ok(text, None), Config::default());
    assert_eq!(r.floats("out"), vec![0.0, 2.0, 4.0, 0.0]);
    assert_eq!(r.floats("data.r"), vec![0.0, 1.0, 2.0, 3.0]);
}

#[test]
fn pointer_to_pointer_parameters_name_the_construct() {
    let text = "// @arg rows int[16] = 0\n__global__ void k(int **rows) { rows[0][threadIdx.x] = 1; }\n";
    let e = err(text, None);
    assert!(
        e.starts_with(
            "error[E-unsupported]: not supported by warpdbg: `@arg` for a pointer to pointers (`int * * rows`): an array of device pointers\n  ┌─ k.cu:2:25\n"
        ),
        "{e}"
    );
}

#[test]
fn auto_variables_and_return_types_are_deduced() {
    let text = "// @block 4\n// @arg out double[4] = 0\n\
                __device__ auto alternating(int n) { return ((n & 1) ? 1 : -1) / (double)n; }\n\
                __device__ auto nothing(double *p) { *p += 0.0; }\n\
                __global__ void k(double *out) {\n\
                    auto i = threadIdx.x + 1;\n\
                    auto term = alternating(i);\n\
                    nothing(&out[threadIdx.x]);\n\
                    out[threadIdx.x] = term * 4.0;\n\
                }\n";
    let r = common::run_compiled(&ok(text, None), Config::default());
    assert_eq!(r.floats("out"), vec![4.0, -2.0, 4.0 / 3.0, -1.0]);
}

#[test]
fn reciprocal_and_integer_dot_product_intrinsics() {
    let text = "// @block 1\n// @arg f float[2] = 0\n// @arg d int[6] = 0\n// @arg u unsigned int[2] = 0\n\
                __global__ void k(float *f, int *d, unsigned int *u) {\n\
                    f[0] = __frcp_rn(3.0f);\n\
                    f[1] = __frcp_rn(-0.5f);\n\
                    int a = 0x80FF0102;  // bytes (low first): 2, 1, -1, -128\n\
                    int b = 0x7F0203FF;  // bytes: -1, 3, 2, 127\n\
                    d[0] = __dp4a(a, b, 10);\n\
                    d[1] = __dp2a_lo(a, b, 0);\n\
                    d[2] = __dp2a_hi(a, b, 0);\n\
                    d[3] = __dp4a(0x7F7F7F7F, 0x7F7F7F7F, 0x7FFFFFFF);\n\
                    d[4] = __dp4a(-1, -1, 0);\n\
                    int a2 = 0x8000FFFF;\n\
                    d[5] = __dp2a_lo(a2, 0x00000180, -1);\n\
                    u[0] = __dp4a(0xFFFFFFFFu, 0x01020304u, 1u);\n\
                    u[1] = __dp2a_hi(0x00020001u, 0x0304FFFFu, 0u);\n\
                }\n";
    let r = common::run_compiled(&ok(text, None), Config::default());
    assert_eq!(r.floats("f"), vec![f64::from(1.0f32 / 3.0), -2.0]);
    // 2*-1 + 1*3 + -1*2 + -128*127 + 10
    let dp4a = -2 + 3 - 2 - 128 * 127 + 10;
    // a's half-words: 0x0102 = 258, 0x80FF = -32513; b's low bytes -1, 3 / high bytes 2, 127
    let lo = -258 + -32513 * 3;
    let hi = 258 * 2 + -32513 * 127;
    // Wraps like the hardware: 4 * 127 * 127 + 0x7FFFFFFF overflows 32 bits.
    let wrap = (4i64 * 127 * 127 + 0x7FFF_FFFF) as i32 as i64;
    // 0x8000FFFF: half-words -1 and -32768; 0x0180: bytes -128 and 1.
    let lo2 = 128 - 32768 - 1;
    assert_eq!(r.ints("d"), vec![dp4a, lo, hi, wrap, 4, lo2]);
    // Unsigned: 255 * (4 + 3 + 2 + 1) + 1; half-words 1, 2 against bytes 4, 3 of b's high half.
    assert_eq!(r.ints("u"), vec![2551, 4 + 2 * 3]);
}

#[test]
fn library_complex_types_are_vector_types_and_host_handles_in_kernels_name_themselves() {
    let text = "// @block 4\n// @arg in float[4] = i\n// @arg out cufftComplex[4] = 0\n\
                __global__ void k(float *in, cufftComplex *out) {\n\
                    cufftComplex c;\n\
                    c.x = in[threadIdx.x];\n\
                    c.y = -1.0f;\n\
                    out[threadIdx.x] = c;\n\
                }\n\
                __global__ void spawn(float *in) { cudaStream_t s; cudaStreamCreate(&s); }\n";
    let c = ok(text, Some("k"));
    assert_eq!(
        common::run_compiled(&c, Config::default()).floats("out"),
        vec![0.0, -1.0, 1.0, -1.0, 2.0, -1.0, 3.0, -1.0]
    );
    let e = err(text, Some("spawn"));
    assert!(
        e.starts_with(
            "error[E-unsupported]: `cudaStream_t` is a host-only type of the CUDA runtime: device code cannot use it\n   ┌─ k.cu:10:36\n"
        ),
        "{e}"
    );
}

#[test]
fn nullptr_is_the_null_pointer_constant() {
    let text = "// @block 2\n// @arg out int[2] = 5\n\
                __device__ int *pick(int *p, int i) { if (i != 0) return nullptr; return p; }\n\
                __global__ void k(int *out) {\n\
                    int *q = pick(out, threadIdx.x);\n\
                    if (q != nullptr) q[0] = 1; else out[1] = 2;\n\
                }\n";
    assert_eq!(common::run_compiled(&ok(text, None), Config::default()).ints("out"), vec![1, 2]);
}

#[test]
fn every_prefix_of_a_file_with_set_aside_items_compiles_or_reports_without_panicking() {
    let extra = "template <class T> class Pool : public Base { void f(); };\n\
                 typedef struct { cudaEvent_t e; } Ev;\n__device__ half h[2] = {0, 1};\n\
                 __device__ int ext(int);\n__global__ void k2(Ev e, int **p) { switch (1) { default: break; } }\n";
    let text = format!("{MIXED}{extra}");
    for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        for kernel in [None, Some("child"), Some("k2"), Some("parent_kernel")] {
            let _ = compile(&text[..end], kernel);
        }
    }
}

#[test]
fn grid_groups_and_const_namespaced_types_parse() {
    let text = "// @block 4\n// @arg out int[4] = 0\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\
                __device__ int rank(const cg::thread_block &b) { return b.thread_rank(); }\n\
                __device__ void total(const cg::grid_group &grid) { grid.sync(); }\n\
                __global__ void whole(int *out) { cg::grid_group grid = cg::this_grid(); total(grid); out[threadIdx.x] = grid.is_valid(); }\n\
                __global__ void k(int *out) { cg::thread_block b = cg::this_thread_block(); out[threadIdx.x] = rank(b) * 2; }\n";
    let c = ok(text, Some("k"));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(common::run_compiled(&c, Config::default()).ints("out"), vec![0, 2, 4, 6]);
    // The grid-wide sync through a `const grid_group &` runs; the grid group is valid in its kernel.
    let w = ok(text, Some("whole"));
    assert_eq!(common::run_compiled(&w, Config::default()).ints("out"), vec![1, 1, 1, 1]);
}

//! Device-code constructs course programs use (issue 33): string literals passed to `__device__` functions
//! and printed with `%s`, reference parameters, the index vectors as `uint3`/`dim3` values, and types
//! declared inside function bodies. Each runs a program of `tests/programs/` and asserts its exact stdout.

use warpdbg::program::{self, RunOptions};

fn run(path: &str) -> (String, String, u8) {
    let src = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let compiled = program::compile(path, &src, &Default::default())
        .unwrap_or_else(|e| panic!("{path} does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    (String::from_utf8_lossy(&out).into(), String::from_utf8_lossy(&err).into(), r.status)
}

#[test]
fn string_literals_are_const_char_pointers_in_device_code() {
    let (out, err, status) = run("tests/programs/device_strings.cu");
    assert_eq!(
        out,
        "Thread A: step 1 (name has 8 letters)\nThread B: step 2 (name has 8 letters)\n\
         message: [hello device] [       right] [hel   ]\nsame: 1 0\nvowels: 5\n"
    );
    assert_eq!(status, 0, "{err}");
}

#[test]
fn reference_parameters_name_the_callers_variable_or_element() {
    let (out, err, status) = run("tests/programs/device_refs.cu");
    let want: String = (0..8).map(|i| format!("{i}: z = {:.2}, out = {}\n", 1.23 * i as f64 + 2.34, 20 * i)).collect();
    assert_eq!(out, want);
    // `z[i]` is only written through the reference: no read of uninitialised memory is reported.
    assert!(!err.contains("hazard"), "{err}");
    assert_eq!(status, 0, "{err}");
}

#[test]
fn index_vectors_are_uint3_values_and_commas_step_loops() {
    let (out, err, status) = run("tests/programs/device_vectors.cu");
    let mut want = String::new();
    for b in 0..2 {
        for (t, (x, y)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
            want += &format!("block {b},0 thread {x},{y} linear {t} of 4\n");
        }
    }
    // `n++, m *= -1.f`: the comma operator steps the series (block 0 prints it while block 1 runs: last).
    want += "pi ~ 3.14\n";
    assert_eq!(out, want);
    assert_eq!(status, 0, "{err}");
}

#[test]
fn types_declared_in_function_bodies() {
    let (out, err, status) = run("tests/programs/device_local_types.cu");
    assert_eq!(out, "0 2 4 6 | 3 1.5 1\n");
    assert_eq!(status, 0, "{err}");
}

#[test]
fn a_reference_to_a_temporary_is_refused_at_its_line() {
    let src = "__device__ void inc(int &x) { x++; }\n__global__ void k(int *p) {\n    inc(p[0] + 1);\n}\n\
               int main() { k<<<1, 1>>>(0); return 0; }\n";
    let Err(err) = program::compile("t.cu", src.as_bytes(), &Default::default()) else {
        panic!("a temporary is refused")
    };
    let text = format!("{:?}", err.diags);
    assert!(text.contains("cannot bind a `int &` to this value"), "{text}");
}

#[test]
fn variables_whose_address_is_taken_live_in_memory() {
    let path = "tests/programs/device_local_address.cu";
    let (out, err, status) = run(path);
    let mut want = "warp size 32, no error\n".to_string();
    for t in (0..64).step_by(7) {
        // Each thread's four elements of `(i * 37) % 101 - 50`.
        let a: Vec<i32> = (0..4).map(|k| ((t * 4 + k) * 37) % 101 - 50).collect();
        let (lo, hi) = (*a.iter().min().unwrap(), *a.iter().max().unwrap());
        let (mut x, mut y) = (t as f32 * 1.5, t as f32 - 3.0);
        if t % 2 == 1 {
            std::mem::swap(&mut x, &mut y);
        }
        let count: i32 = (0..3).map(|i| i + t + t / 32 + 1).sum();
        want += &format!(
            "{t:2}: lo {lo:3} hi {hi:3}  x {x:5.1}  y {:6.1}  quarter {:6.3}  one 1.000\n",
            y + count as f32,
            (x + 1.0) / 4.0
        );
    }
    want += "host sincos 0.47943 0.87758\n";
    assert_eq!(out, want);
    assert_eq!(status, 0, "{err}");
    // The warp pane shows such a variable's value (read from memory), not its address.
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    let screen = std::process::Command::new(bin).args(["view", path, "--steps", "450"]).output().expect("view");
    let screen = String::from_utf8_lossy(&screen.stdout);
    assert!(screen.contains("lo=-50  hi=24  x=0.0  y=-3.0"), "{screen}");
}

#[test]
fn taking_a_pointer_variables_address_is_named_unsupported() {
    let src = "__device__ void set(int **p, int *v) { *p = v; }\n\
               __global__ void k(int *a) { int *q; set(&q, a); *q = 1; }\n\
               int main() { int *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); return 0; }\n";
    let compiled = program::compile("p.cu", src.as_bytes(), &Default::default()).expect("compiles");
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    let err = String::from_utf8_lossy(&err);
    assert!(err.contains("not supported by warpdbg: taking the address of a pointer variable in device code"), "{err}");
    assert!(err.contains("2 │ __global__ void k(int *a) { int *q; set(&q, a); *q = 1; }"), "{err}");
    assert_eq!(r.status, 2, "{err}");
}

#[test]
fn struct_variables_whose_address_is_taken_live_in_memory() {
    let src = "#include <cstdio>\n\
               struct Acc { int n; float sum; };\n\
               __device__ void add(Acc *a, float v) { a->n += 1; a->sum += v; }\n\
               __global__ void k(float *o) {\n\
                   Acc a;\n\
                   a.n = 0; a.sum = 0;\n\
                   for (int i = 0; i < 4; i++) add(&a, i * 0.5f);\n\
                   Acc b = a;\n\
                   o[0] = b.n + b.sum;\n\
                   float3 w = make_float3(1, 2, 3);\n\
                   float3 *pw = &w;\n\
                   pw->y = 5;\n\
                   o[1] = w.x + w.y + w.z;\n\
               }\n\
               int main() { float *d, h[2]; cudaMalloc(&d, 8); k<<<1, 1>>>(d);\n\
                   cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost); printf(\"%g %g\\n\", h[0], h[1]); return 0; }\n";
    let compiled = program::compile("s.cu", src.as_bytes(), &Default::default()).expect("compiles");
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    // 4 calls add 0 + 0.5 + 1 + 1.5 = 3 to the sum; w is (1, 5, 3) after the write through its pointer.
    assert_eq!(String::from_utf8_lossy(&out), "7 9\n", "{}", String::from_utf8_lossy(&err));
    assert_eq!(r.status, 0);
}

#[test]
fn a_local_variables_accesses_are_not_global_memory_traffic() {
    // `c` lives in memory for `inc(&c)`, but nvcc keeps it in a register once `inc` is inlined, and ncu counts
    // local memory apart anyway: the kernel's one global request is the store to `out`.
    let src = "// @block 32\n// @arg out int[32] = 0\n__device__ void inc(int *p) { *p += 1; }\n\
               __global__ void k(int *out) {\n    int c = threadIdx.x;\n    inc(&c);\n    out[threadIdx.x] = c;\n}\n";
    let path = std::env::temp_dir().join(format!("warpdbg-local-traffic-{}.cu", std::process::id()));
    std::fs::write(&path, src).expect("write the kernel");
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    let out = std::process::Command::new(bin).arg("run").arg(&path).arg("--json").output().expect("run");
    std::fs::remove_file(&path).ok();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let g = &json["global_memory"];
    assert_eq!((g["load"]["requests"].as_u64(), g["store"]["requests"].as_u64()), (Some(0), Some(1)), "{g}");
    let out: Vec<i64> = json["memory"]["out"].as_array().expect("out").iter().map(|v| v.as_i64().unwrap()).collect();
    assert_eq!(out, (1..=32).collect::<Vec<i64>>());
}

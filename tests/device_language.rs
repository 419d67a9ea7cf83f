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

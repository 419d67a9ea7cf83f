//! Structs and classes of plain data with behaviour: member functions (in the class and out of line, const,
//! static), constructors, operators as members and as free functions, functions that return a struct. Each
//! kernel is in the style of course code and is checked for its exact final memory.

mod common;

use warpdbg::compile;
use warpdbg::front::CompileError;
use warpdbg::front::launch::{Mode, Overrides};

fn compile_err(text: &str) -> CompileError {
    let o = Overrides { mode: Some(Mode::Its), ..Overrides::default() };
    match compile::compile("k.cu", text.as_bytes(), &o) {
        Ok(_) => panic!("compiled, but should not:\n{text}"),
        Err(e) => e,
    }
}

fn bits(v: &[f64]) -> Vec<u32> {
    v.iter().map(|&x| (x as f32).to_bits()).collect()
}

#[test]
fn a_vec3_class_with_operators_takes_an_n_body_step() {
    let r = common::run("tests/kernels/structs/nbody_vec3.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    // pos[i] = (3i, 3i+1, 3i+2): every difference is 3(j - i) on each axis, so acc is one number per axis.
    let vel = r.floats("vel");
    let want: Vec<f64> =
        [0.09953699f32, 0.027522935, -0.027522936, -0.099536985].iter().flat_map(|&v| [v as f64; 3]).collect();
    assert_eq!(bits(&vel), bits(&want));
    // Close to the sum in exact arithmetic (the kernel's float rounding aside).
    for i in 0..4i32 {
        let acc: f64 = (0..4i32).map(|j| 3.0 * (j - i) as f64 / (27.0 * ((j - i) * (j - i)) as f64 + 1.0)).sum();
        assert!((vel[3 * i as usize] - 0.5 * acc).abs() < 1e-6, "vel[{i}]");
    }
    let out = r.floats("out");
    assert_eq!(bits(&out), bits(&[0.32833382, 0.33254775, -0.5757091, -2.9563866]));
    // The positions were only read (through `const` members of objects in memory).
    assert_eq!(r.floats("pos"), (0..12).map(f64::from).collect::<Vec<_>>());
}

#[test]
fn a_complex_struct_a_static_maker_and_a_matrix_returned_by_value() {
    let r = common::run("tests/kernels/structs/complex_matrix.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    // Mandelbrot iterations for c = (-2 + 0.5t, 0.25), at most 20.
    assert_eq!(r.ints("iters"), vec![1, 5, 20, 20, 20, 5, 2, 2]);
    // GetSubMatrix(A, t / 4, t % 2) of the 4x4 matrix 0..15, element ((t / 2) % 2, t % 2) of the 2x2 block.
    assert_eq!(r.floats("sub"), vec![0.0, 3.0, 4.0, 7.0, 8.0, 11.0, 12.0, 15.0]);
}

#[test]
fn member_mistakes_are_diagnosed() {
    let class = "struct V {\n    float x;\n    __device__ float get() const { return x; }\n    \
                 float host_only() const { return x; }\n};\n";
    let cases = [
        ("V v; v.x = 1; o[0] = v.host_only();", "`V::host_only` is a host function"),
        ("V v; v.x = 1; o[0] = v.gett();", "`V` has no member function `gett`"),
        ("V v; v.x = 1; o[0] = v.get(1);", "`V::get` takes 0 argument(s) but 1 were given"),
        ("V v; v.x = 1; o[0] = v.z;", "`V` has no field `z`"),
        ("V a, b; V c = a + b; o[0] = c.x;", "no `operator+` takes `V` and `V`"),
        ("V v(1.0f, 2.0f); o[0] = v.x;", "no constructor"),
    ];
    let with_ctor = "struct V {\n    float x;\n    __device__ V(float a) : x(a) {}\n};\n";
    for (i, (body, message)) in cases.into_iter().enumerate() {
        let defs = if i == 5 { with_ctor } else { class };
        let text = format!("{defs}// @arg o float[1] = 0\n__global__ void k(float *o) {{ {body} }}\n");
        let r = compile_err(&text).render();
        assert!(r.contains(message), "{body}:\n{r}");
    }
    let r = compile_err(
        "struct V {\n    float x;\n    __device__ virtual float get() { return x; }\n};\n\
         // @arg o float[1] = 0\n__global__ void k(float *o) { V v; v.x = 1; o[0] = v.x; }\n",
    )
    .render();
    // Only a class the kernel uses is an error (an unused one is set aside with a warning).
    assert!(r.contains("not supported by warpdbg: virtual functions"), "{r}");
}

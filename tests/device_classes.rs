//! C++ classes and structs in device code, as courses write them (issue 33): constructors with member
//! initialisers, default member initialisers, members of class type, the implicit default and copy
//! constructors, temporaries, per-thread arrays of objects, operators and methods out of line. Each test
//! asserts the exact stdout of `warpdbg run` (the programs' GPU output is in `tests/programs/expected/`).

use warpdbg::program::{self, RunOptions};

fn run(name: &str, src: &str) -> (String, u8) {
    let compiled = program::compile(name, src.as_bytes(), &Default::default())
        .unwrap_or_else(|e| panic!("{name} does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    assert!(err.is_empty() || r.status == 0, "{}", String::from_utf8_lossy(&err));
    (String::from_utf8_lossy(&out).into(), r.status)
}

fn program(name: &str) -> (String, u8) {
    let path = format!("{}/tests/programs/{name}.cu", env!("CARGO_MANIFEST_DIR"));
    run(name, &std::fs::read_to_string(path).expect("program"))
}

#[test]
fn a_complex_class_draws_the_mandelbrot_set() {
    let (out, status) = program("device_class_julia");
    let want = "  ...:::....\n  .:::-+#-..\n .:::-+##=:.\n ::-=+####=:\n -=#######=:\n##########=:\n \
                -=#######=:\n ::-=+####=:\n .:::-+##=:.\n  .:::-+#-..\n  ...:::....\nchecksum 414\n";
    assert_eq!(out, want);
    assert_eq!(status, 0);
}

#[test]
fn rays_hit_spheres_built_by_constructors_in_shared_memory() {
    let (out, status) = program("device_class_rays");
    let want = "\
.............C..........
............CCC.........
.......a...CCCCC........
.....aAAAa..CCC.........
....aAAAAAa..C..b.......
....AAAAAAA...bbbbb.....
...aAAAAAAAa..bbbbb.....
....AAAAAAA..bbbbbbb....
....aAAAAAa...bbbbb.....
.....aAAAa....bbbbb.....
.......a........b.......
........................
hits: 49 29 13
";
    assert_eq!(out, want);
    assert_eq!(status, 0);
}

#[test]
fn an_n_body_step_with_a_vec3_class() {
    let (out, status) = program("device_class_nbody");
    let want = "0: 0.1727 0.0706 0.0480 (5)\n1: 2.1307 0.1127 0.9012 (5)\n2: 3.8915 0.1162 0.0632 (5)\n\
                3: 0.1727 2.9294 0.9520 (5)\n4: 2.1307 2.8873 0.0988 (5)\n5: 3.8915 2.8838 0.9368 (5)\n";
    assert_eq!(out, want);
    assert_eq!(status, 0);
}

#[test]
fn members_are_initialised_in_declaration_order_as_cpp_does() {
    // Default member initialisers, a member of class type default-constructed or built by its initialiser,
    // a class whose only constructor is the implicit one (still an aggregate for `{1, 1.5f}`), a converting
    // constructor (`Inner z = 4.0f;`), the implicit copy (`Inner w{z};`, `: pos(p)`), a temporary passed by
    // value, and per-thread arrays of objects each default-constructed (3 and 100 elements).
    let src = r#"#include <cstdio>
struct Counter { int hits = 0; float scale = 2.5f; };
struct Inner {
    float v;
    __device__ Inner() : v(7.0f) {}
    __device__ Inner(float a) : v(a) {}
};
struct Outer {
    Inner a, b;
    int tag;
    __device__ Outer(int t) : b(3.0f), tag(t) {}
    __device__ Outer(Inner p, int t) : a(p), tag(t + 1) {}
};
struct Agg { Inner in; int k = 4; };
__device__ Inner twice(Inner x) { return Inner(x.v * 2); }
__global__ void k(float *out) {
    int i = threadIdx.x;
    float *o = out + 10 * i;
    Counter c;
    o[0] = c.hits + c.scale;
    Outer x(5);
    o[1] = x.a.v + x.b.v * 10 + x.tag * 100;
    Inner arr[3];
    o[2] = arr[2].v;
    Agg g;
    o[3] = g.in.v + g.k;
    Counter d = {1, 1.5f};
    o[4] = d.hits + d.scale;
    Inner z = 4.0f + i;
    o[5] = z.v;
    Inner w{z};
    o[6] = w.v + twice(3.0f).v;
    Inner big[100];
    big[50].v += i;
    o[7] = big[99].v + big[50].v;
    Outer y(Inner(9.0f), 1);
    o[8] = y.a.v + y.b.v * 10 + y.tag * 100;
}
int main() {
    float *d, h[20];
    cudaMalloc(&d, sizeof(h));
    k<<<1, 2>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 2; t++) {
        for (int j = 0; j < 9; j++) printf("%g ", h[10 * t + j]);
        printf("\n");
    }
    return 0;
}
"#;
    let (out, status) = run("members.cu", src);
    assert_eq!(out, "2.5 537 7 11 2.5 4 10 14 279 \n2.5 537 7 11 2.5 5 11 15 279 \n");
    assert_eq!(status, 0);
}

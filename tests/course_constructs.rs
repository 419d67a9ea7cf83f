//! Constructs that course code uses and the coverage corpus showed missing: structs and vectors in shared
//! memory and in `__device__` arrays, a struct pointing to its own type, prototypes with unnamed parameters,
//! `__ldg` of vectors, `__dp4a` on `char4`, a `__constant__` array passed as `int *`, and device-side
//! `assert`. Each kernel is checked for its exact final memory (or its exact fault).

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

#[test]
fn shared_float3_tiles_a_shared_struct_and_a_device_array_of_float3() {
    let r = common::run("tests/kernels/course/shared_structs.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    // Thread t of block b reads pos[(t + 1) % 4] = (j, 2j, 3j) for j = 4b + (t + 1) % 4, adds soft (0.5),
    // the block's tile number and acc[i].y = 2j + 0.5.
    let want: Vec<f64> = (0..8)
        .map(|i| {
            let (b, t) = (i / 4, i % 4);
            let j = (4 * b + (t + 1) % 4) as f64;
            6.0 * j + 0.5 + b as f64 + (2.0 * j + 0.5)
        })
        .collect();
    assert_eq!(r.floats("out"), want);
    // The __device__ float3 array is shown as its floats: x and y written, z untouched.
    let acc = r.floats("acc");
    for i in 0..8 {
        let j = (4 * (i / 4) + (i % 4 + 1) % 4) as f64;
        assert_eq!(&acc[3 * i..3 * i + 3], &[j, 2.0 * j + 0.5, 0.0], "acc[{i}]");
    }
}

#[test]
fn a_list_of_nodes_pointing_to_their_own_type_is_walked() {
    let r = common::run("tests/kernels/course/linked_list.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    // Thread t sums the keys from node t to the end: 10(t+1) + ... + 40.
    assert_eq!(r.ints("out"), vec![100, 90, 70, 40]);
    // The loop ends at a different node for each thread: the walk diverges.
    assert_eq!(
        r.line(common::line_of("tests/kernels/course/linked_list.cu", "while (e != nullptr)"))["divergent_branches"],
        3
    );
}

#[test]
fn vector_loads_char4_dot_products_and_a_constant_array_as_int_pointer() {
    let r = common::run("tests/kernels/course/vector_loads.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    let key = [3, 5, 7, 11];
    // in[t] = (4t, 4t+1, 4t+2, 4t+3): a.x + a.w = 8t + 3, b = in[(t+1) % 4] so b.y = 4((t+1) % 4) + 1.
    let out: Vec<i64> = (0..4).map(|t| 8 * t + 3 + 4 * ((t + 1) % 4) + 1 + key[t as usize]).collect();
    assert_eq!(r.ints("out"), out);
    // q[t] = (4t-6, ..., 4t-3) as signed bytes: the dot product with itself, plus 100.
    let dot: Vec<i64> = (0..4).map(|t| 100 + (0..4).map(|k| (4 * t + k - 6) * (4 * t + k - 6)).sum::<i64>()).collect();
    assert_eq!(r.ints("dot"), dot);
}

#[test]
fn a_failed_device_assert_stops_the_kernel_with_cudas_message() {
    let r = common::run("tests/kernels/course/assert_bounds.cu", Mode::Its, &[]);
    assert_eq!(r.outcome(), "fault");
    assert_eq!(
        r.explanation(),
        "tests/kernels/course/assert_bounds.cu:10: void guarded(int *, int): block: [1,0,0], thread: [5,0,0] Assertion `i < n` failed.\n\
         Thread (5,0,0) of block (1,0,0) found `i < n` false at line 10: the kernel stops (cudaErrorAssert, \
         \"device-side assert triggered\")."
    );
    assert_eq!(r.json["faults"][0]["kind"], "assertion");
    // With enough data, nothing fails.
    let r = common::run("tests/kernels/course/assert_bounds.cu", Mode::Its, &["n=16"]);
    assert_eq!(r.outcome(), "completed");
    assert_eq!(r.ints("out"), (0..16).map(|i| 2 * i).collect::<Vec<i64>>());
}

#[test]
fn a_struct_containing_itself_and_a_misused_assert_are_diagnosed() {
    let e = compile_err("struct N { int k; N inner; };\n// @arg o int[1] = 0\n__global__ void k(int *o) { N n; n.k = 1; o[0] = n.k; }\n").render();
    assert!(e.contains("field `inner` has incomplete type `N`"), "{e}");
    assert!(e.contains("a pointer to it (`*`) can be a field"), "{e}");
    let e = compile_err("// @arg o int[1] = 0\n__global__ void k(int *o) { assert(o[0] == 0, 1); }\n").render();
    assert!(e.contains("`assert` takes 1 argument but 2 were given"), "{e}");
}

#[test]
fn struct_and_vector_arrays_take_one_initialiser_per_field() {
    let text = "// @block 4\n// @arg p float4[4] = {i, 0, 1, 2 * i}\n// @arg s Pair[4] = {i + 10, -i}\n\
                // @arg r int2[4] = {rand(0, 1000), rand(0, 1000)}\n// @arg out float[4] = 0\n\
                struct Pair { int a; int b; };\n\
                __global__ void k(float4 *p, Pair *s, int2 *r, float *out) {\n\
                    int t = threadIdx.x;\n    out[t] = p[t].x + p[t].w + s[t].a * 100 + s[t].b;\n}\n";
    let o = Overrides { mode: Some(Mode::Its), ..Overrides::default() };
    let c = compile::compile("k.cu", text.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"));
    let r = common::run_compiled(&c, warpdbg::sim::Config::default());
    // Field f of struct j: p = (j, 0, 1, 2j), s = (j + 10, -j).
    assert_eq!(r.floats("p"), (0..4).flat_map(|j| [j as f64, 0.0, 1.0, 2.0 * j as f64]).collect::<Vec<_>>());
    assert_eq!(r.ints("s"), (0..4).flat_map(|j| [j + 10, -j]).collect::<Vec<i64>>());
    assert_eq!(r.floats("out"), (0..4).map(|j| (3 * j + 100 * (j + 10) - j) as f64).collect::<Vec<_>>());
    // Two fields with the same `rand` draw their own numbers.
    let rs = r.ints("r");
    assert!(rs.chunks(2).any(|xy| xy[0] != xy[1]), "{rs:?}");
    let e = compile_err(&text.replace("{i + 10, -i}", "{i + 10}")).render();
    assert!(e.contains("`Pair` has 2 scalar fields; the list gives 1"), "{e}");
    let e = compile_err(&text.replace("@arg out float[4] = 0", "@arg out float[4] = {1, 2}")).render();
    assert!(e.contains("a brace list initialises the fields of a struct or vector element"), "{e}");
}

#[test]
fn local_arrays_of_structs_are_per_thread_memory_with_checked_indices() {
    let path = "tests/kernels/course/local_structs.cu";
    let r = common::run(path, Mode::Its, &[]);
    assert_eq!(r.outcome(), "fault");
    // pts[2] = (t + 2, 4), pts[0].x = t, v[1].z = 3; thread 3 then reads pts[3].
    assert_eq!(r.floats("out"), vec![9.0, 11.0, 13.0, 15.0]);
    let line = common::line_of(path, "if (t == 3) out[t] = pts[t].x;");
    assert_eq!(
        r.explanation().lines().last(),
        Some(
            format!(
                "Thread (3,0,0) of block (0,0,0) read pts[3], one element past the end of pts (3 elements) at line {line}."
            )
            .as_str()
        )
    );
    // Each thread's copy, thread after thread: thread 1's pts = (1, 0), (2, 2), (3, 4).
    assert_eq!(&r.floats("pts")[6..12], &[1.0, 0.0, 2.0, 2.0, 3.0, 4.0]);
    let e = compile_err(
        "struct P { float x, y; };\n// @arg o float[1] = 0\n__global__ void k(float *o) { P a[2] = {{1, 2}, {3, 4}}; o[0] = a[1].x; }\n",
    )
    .render();
    assert!(e.contains("not supported by warpdbg: initialisers of local arrays of structs"), "{e}");
}

#[test]
fn arrays_of_structs_with_fields_of_different_types_are_bytes() {
    let text = "// @block 4\n// @arg ps Particle[4] = {i, 0.5f * i, 0}\n// @arg nodes Node[4] = 0\n// @arg out float[4] = 0\n\
                struct Particle { int id; float mass; Particle *next; };\n\
                struct Node { int key; Node *next; };\n\
                __global__ void k(Particle *ps, Node *nodes, float *out) {\n\
                    int t = threadIdx.x;\n    nodes[t].key = 7 * t;\n    nodes[t].next = t < 3 ? &nodes[t + 1] : nullptr;\n\
                    __syncthreads();\n\
                    out[t] = ps[t].id + ps[t].mass + (ps[t].next == nullptr) + (t < 3 ? nodes[t].next->key : -1);\n}\n";
    let o = Overrides { mode: Some(Mode::Its), ..Overrides::default() };
    let c = compile::compile("k.cu", text.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"));
    let r = common::run_compiled(&c, warpdbg::sim::Config::default());
    assert_eq!(r.outcome(), "completed", "{}", r.explanation());
    // id = t, mass = t / 2, next = null; node t's successor has key 7(t + 1).
    assert_eq!(r.floats("out"), vec![8.0, 16.5, 25.0, 4.5]);
    // Shown as bytes: Particle 1 is id 1, then 0.5f (0x3f000000, little-endian), then a null pointer.
    assert_eq!(&r.ints("ps")[16..32], &[1, 0, 0, 0, 0, 0, 0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0]);
    let e = compile_err(&text.replace("{i, 0.5f * i, 0}", "{i, 0.5f * i}")).render();
    assert!(e.contains("`Particle` has 3 scalar fields; the list gives 2"), "{e}");
}

//! Templates as course reductions write them (issue 33): non-type parameters folded into kernels, launches
//! with explicit arguments (`reduce6<512><<<...>>>`, `reduce6<THREADS>` of a `const int`), and functor type
//! parameters whose `operator()` is called inside a kernel.

use warpdbg::program::{self, RunOptions};

fn stdout_of(name: &str, src: &str) -> String {
    let compiled = program::compile(name, src.as_bytes(), &Default::default())
        .unwrap_or_else(|e| panic!("{name} does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    String::from_utf8_lossy(&out).into()
}

#[test]
fn block_size_templates_launch_each_instance_and_fold_the_constant() {
    let out = stdout_of("template_nontype.cu", include_str!("programs/template_nontype.cu"));
    assert_eq!(
        out,
        "block size 512: sum 196603\nblock size 256: sum 196603\nblock size 64: sum 196603\n\
         \x1b[32mconst 128: first block 3067\x1b[0m\n"
    );
}

#[test]
fn a_functor_type_parameter_calls_its_operator_in_the_kernel() {
    let out = stdout_of("template_functor.cu", include_str!("programs/template_functor.cu"));
    assert_eq!(out, "sum 50010 max 100\n");
}

#[test]
fn nested_instances_name_the_folded_argument() {
    // `warpSum<blockSize / 2>` inside `total<64>` is `warpSum<32>`, the instance `main` also names.
    let src = r#"#include <cstdio>
template <int N>
__device__ int warpSum(int v) { return v * N; }
template <int N>
__global__ void total(int *out) { out[threadIdx.x] = warpSum<N / 2>(1) + warpSum<32>(0); }
int main() {
    int *d, h[2];
    cudaMalloc(&d, 2 * sizeof(int));
    total<64><<<1, 2>>>(d);
    cudaMemcpy(h, d, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d %d\n", h[0], h[1]);
    cudaFree(d);
    return 0;
}
"#;
    assert_eq!(stdout_of("nested.cu", src), "32 32\n");
}

//! Host classes and the C++ course code writes around CUDA (issue 33): `__managed__` variables, device-side
//! struct methods, inheritance, operators, `operator new` over managed memory, local types, arrays of arrays.
//! Each test asserts the exact stdout of `warpdbg run` (what the same program prints on a GPU).

use warpdbg::program::{self, RunOptions};

struct Run {
    stdout: String,
    stderr: String,
    status: u8,
}

fn run(name: &str, src: &str) -> Run {
    let compiled = program::compile(name, src.as_bytes(), &Default::default())
        .unwrap_or_else(|e| panic!("{name} does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    Run { stdout: String::from_utf8_lossy(&out).into(), stderr: String::from_utf8_lossy(&err).into(), status: r.status }
}

#[test]
fn managed_variables_are_one_value_for_host_and_device() {
    let src = r#"#include <cstdio>
__managed__ int sum;
__managed__ int squares[4] = {9, 9, 9, 9};
__global__ void k(int n) {
    int i = threadIdx.x;
    if (i < n) { atomicAdd(&sum, i); squares[i] = i * i + squares[i] - 9; }
}
void show() { printf("%d: %d %d %d %d\n", sum, squares[0], squares[1], squares[2], squares[3]); }
int main() {
    show();
    sum = 100;
    k<<<1, 32>>>(4);
    cudaDeviceSynchronize();
    show();
    return 0;
}
"#;
    let r = run("managed.cu", src);
    assert_eq!(r.stdout, "0: 9 9 9 9\n106: 0 1 4 9\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
}

//! Half precision (`cuda_fp16.h`, issue 33): `__half` is IEEE binary16 through the whole pipeline (conversions
//! rounded to nearest even with subnormals and overflow to infinity, on host and device alike), `half2` and
//! the intrinsics of the built-in header. Each test asserts the exact stdout of `warpdbg run`.

#[path = "common/program.rs"]
mod program_run;

fn program(name: &str) -> program_run::Run {
    let path = format!("{}/tests/programs/{name}.cu", env!("CARGO_MANIFEST_DIR"));
    program_run::run(name, &std::fs::read_to_string(path).expect("program"))
}

#[test]
fn conversions_and_scalar_intrinsics_round_once_to_nearest_even() {
    let r = program("fp16_ops");
    let want = "\
1.00000000e+00 -> host 1.00000000e+00 device 1.00000000e+00
1.00000001e-01 -> host 9.99755859e-02 device 9.99755859e-02
3.33333343e-01 -> host 3.33251953e-01 device 3.33251953e-01
6.55040000e+04 -> host 6.55040000e+04 device 6.55040000e+04
6.55190000e+04 -> host 6.55040000e+04 device 6.55040000e+04
6.55200000e+04 -> host inf device inf
1.00000000e+05 -> host inf device inf
5.96046448e-08 -> host 5.96046448e-08 device 5.96046448e-08
2.99999989e-08 -> host 5.96046448e-08 device 5.96046448e-08
2.90000006e-08 -> host 0.00000000e+00 device 0.00000000e+00
6.09999988e-05 -> host 6.09755516e-05 device 6.09755516e-05
-2.50000000e+00 -> host -2.50000000e+00 device -2.50000000e+00
0: a=9.99755859e-02 b=3.00000000e+00 sum=3.09960938e+00 prod=2.99804688e-01 fma=1.29980469e+00 quot=3.33251953e-02 less=1
1: a=1.99951172e-01 b=2.30078125e+00 sum=2.50000000e+00 prod=4.59960938e-01 fma=1.45996094e+00 quot=8.69140625e-02 less=1
2: a=3.00048828e-01 b=1.59960938e+00 sum=1.89941406e+00 prod=4.79980469e-01 fma=1.47949219e+00 quot=1.87622070e-01 less=1
3: a=3.99902344e-01 b=8.99902344e-01 sum=1.29980469e+00 prod=3.59863281e-01 fma=1.36035156e+00 quot=4.44335938e-01 less=1
4: a=5.00000000e-01 b=1.99951172e-01 sum=7.00195312e-01 prod=9.99755859e-02 fma=1.09960938e+00 quot=2.50000000e+00 less=0
5: a=6.00097656e-01 b=-5.00000000e-01 sum=1.00097656e-01 prod=-3.00048828e-01 fma=7.00195312e-01 quot=-1.20019531e+00 less=0
6: a=7.00195312e-01 b=-1.20019531e+00 sum=-5.00000000e-01 prod=-8.40332031e-01 fma=1.59667969e-01 quot=-5.83496094e-01 less=0
7: a=7.99804688e-01 b=-1.90039062e+00 sum=-1.10058594e+00 prod=-1.51953125e+00 fma=-5.20019531e-01 quot=-4.20898438e-01 less=0
8: a=8.99902344e-01 b=-2.59960938e+00 sum=-1.69921875e+00 prod=-2.33984375e+00 fma=-1.33984375e+00 quot=-3.46191406e-01 less=0
9: a=1.00000000e+00 b=-3.30078125e+00 sum=-2.30078125e+00 prod=-3.30078125e+00 fma=-2.30078125e+00 quot=-3.02978516e-01 less=0
10: a=1.09960938e+00 b=-4.00000000e+00 sum=-2.90039062e+00 prod=-4.39843750e+00 fma=-3.39843750e+00 quot=-2.74902344e-01 less=0
11: a=1.20019531e+00 b=-4.69921875e+00 sum=-3.50000000e+00 prod=-5.64062500e+00 fma=-4.64062500e+00 quot=-2.55371094e-01 less=0
sizeof(half) = 2
";
    assert_eq!(r.stdout, want, "{}", r.stderr);
    assert_eq!(r.status, 0);
}

#[test]
fn a_half2_dot_product_reduces_in_shared_memory() {
    let r = program("fp16_dot");
    let want = "\
native block 0: 1151.875000
native block 1: 1151.875000
native block 2: 1151.625000
native block 3: 1152.375000
intrinsics block 0: 1151.875000
intrinsics block 1: 1151.875000
intrinsics block 2: 1151.625000
intrinsics block 3: 1152.375000
sizeof(half2) = 4
Result native operators\t: 4607.750000
Result intrinsics\t: 4607.750000
Result on the host\t: 4607.750000
&&&& fp16 dot PASSED
";
    assert_eq!(r.stdout, want, "{}", r.stderr);
    assert_eq!(r.status, 0);
}

#[test]
fn half_arithmetic_in_a_kernel_rounds_each_operation() {
    // 2048 + 1 is a tie between 2048 and 2050: to even, 2048; adding 1 again stays there. In float the
    // sum would reach 2050; stored back to a half each time, it never moves.
    let src = r#"
#include <cstdio>
#include <cuda_fp16.h>
__global__ void k(half *x, float *out) {
    half h = x[0];
    half one = __float2half(1.0f);
    for (int i = 0; i < 4; i++)
        h = __hadd(h, one);
    half g = x[0];
    g += one;
    out[0] = __half2float(h);
    out[1] = g;
    out[2] = __half2float(__hfma(__float2half(3.0f), __float2half(0.5f), __float2half(-1.0f)));
    out[3] = __high2float(__halves2half2(x[0], -x[0]));
}
int main() {
    half *x;
    float *out;
    cudaMallocManaged(&x, sizeof(half));
    cudaMallocManaged(&out, 4 * sizeof(float));
    x[0] = 2048.0f;
    k<<<1, 1>>>(x, out);
    cudaDeviceSynchronize();
    printf("%.1f %.1f %.2f %.1f\n", out[0], out[1], out[2], out[3]);
    half y = __float2half(0.1f);
    printf("%.8e %d\n", __half2float(y), (int)__float2half(7.9f));
    return 0;
}
"#;
    let r = program_run::run("half_round", src);
    assert_eq!(r.stdout, "2048.0 2048.0 0.50 -2048.0\n9.99755859e-02 7\n", "{}", r.stderr);
}

#[test]
fn bfloat16_is_named_at_its_line() {
    let src =
        "#include <cuda_bf16.h>\n__global__ void k(__nv_bfloat16 *x) { }\nint main() { k<<<1, 1>>>(0); return 0; }\n";
    let Err(e) = warpdbg::program::compile("bf", src.as_bytes(), &Default::default()) else { panic!("refused") };
    let text = format!("{:?}", e.diags);
    assert!(text.contains("bfloat16 types"), "{text}");
}

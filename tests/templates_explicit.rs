//! Templates as course drivers and C++11 examples write them (issue 33, round 3): explicit template arguments
//! on host function templates (`runTest<float>(argc, argv)`, `std::max<int>(a, b)`), functions as template
//! arguments (`template <typename T, T (*func)(T)>`, an alias template `func_t<T>`), `static_assert`, and the
//! constructs still refused at their line (variadic templates, `decltype`).

use warpdbg::program::{self, RunOptions};

fn stdout_of(name: &str, src: &str) -> String {
    let compiled = program::compile(name, src.as_bytes(), &Default::default())
        .unwrap_or_else(|e| panic!("{name} does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    String::from_utf8_lossy(&out).into()
}

/// The first error's message of a program that does not compile.
fn error_of(name: &str, src: &str) -> String {
    match program::compile(name, src.as_bytes(), &Default::default()) {
        Ok(_) => panic!("{name} compiles"),
        Err(e) => e.diags.first().map(|d| d.message.clone()).unwrap_or_default(),
    }
}

#[test]
fn explicit_arguments_instantiate_host_templates_and_their_kernels() {
    let out = stdout_of("template_explicit.cu", include_str!("programs/template_explicit.cu"));
    assert_eq!(
        out,
        "square<int>(7) = 49, square<double>(1.5) = 2.25\n\
         std::max<int>(3, 9) = 9, std::min<long>(-4, 2) = -4\n\
         float: argc 1, a[9] = 28.0, 0 errors\n\
         double: argc 1, a[9] = 28.0, 0 errors\n\
         int: argc 1, a[9] = 28.0, 0 errors\n\
         PASSED\n"
    );
}

#[test]
fn function_template_arguments_call_the_function_they_name() {
    let out = stdout_of("template_funcptr.cu", include_str!("programs/template_funcptr.cu"));
    assert_eq!(out, "square on [0, 16): 1363.333984\nlinear on [0, 16): 271.750000\n1 3 9 19 33 51 73 99 \n");
}

#[test]
fn std_max_and_min_read_each_argument_once_in_the_common_type() {
    // libstdc++'s `max` is `(a < b) ? b : a`; an argument with a side effect runs it once.
    let src = r#"#include <cstdio>
#include <algorithm>
__global__ void k() {}
int main() {
    int i = 0;
    int m = std::max(i++, 5);
    double d = std::min(2.5, 1.5);
    printf("%d %d %.1f %u\n", m, i, d, std::max<unsigned>(3, 7));
    return 0;
}
"#;
    assert_eq!(stdout_of("minmax.cu", src), "5 1 1.5 7\n");
}

#[test]
fn a_false_static_assert_is_an_error_at_its_line() {
    let src = "#include <cstdio>\nconstexpr int N = 6;\nstatic_assert(N % 4 == 0, \"N must be a multiple of 4\");\n\
               int main() { return 0; }\n";
    assert_eq!(error_of("assert.cu", src), "static assertion failed: N must be a multiple of 4");
}

#[test]
fn variadic_templates_and_decltype_are_named_and_class_templates_run() {
    let variadic = r#"#include <cstdio>
__global__ void k(int *a, int b) { a[threadIdx.x] = b; }
template <typename... Args>
void launch(void (*kern)(Args...), Args... args) { kern<<<1, 4>>>(args...); }
int main() { int *d; cudaMalloc(&d, 16); launch(k, d, 7); return 0; }
"#;
    assert_eq!(error_of("variadic.cu", variadic), "not supported by warpdbg: variadic templates");
    let class = r#"#include <cstdio>
template <typename T>
struct Buffer {
    T *data;
    int n;
    Buffer(int n_) : n(n_) { data = (T *)malloc(n * sizeof(T)); }
};
int main() { Buffer<float> b(4); printf("%d\n", b.n); b.n = 0; return 0; }
"#;
    // Class templates are read now (`tests/host_class_template.rs`).
    assert_eq!(stdout_of("class.cu", class), "4\n");
    let decl = "int main() { int s = 1; decltype(s) t = s; return t; }\n";
    assert_eq!(error_of("decltype.cu", decl), "not supported by warpdbg: `decltype`");
}

//! The C and C++ of host code beyond what tests/programs/host_cpp.cu (recorded on a GPU) prints: failed
//! `assert`s, struct results, range-based loops with `auto`, and the errors host code gets.

use warpdbg::program::{self, RunOptions};

#[path = "common/program.rs"]
mod program_run;
use program_run::run;

#[test]
fn a_failed_assert_prints_glibcs_line_and_aborts() {
    let r = run(
        "homework.cu",
        "#include <cassert>\n#include <cstdio>\nint main() {\n    int n = 3;\n    printf(\"before\\n\");\n\
         \x20   assert(n == 4 && \"n must be 4\");\n    printf(\"after\\n\");\n    return 0;\n}\n",
    );
    assert_eq!(r.stdout, "before\n");
    assert_eq!(r.stderr, "homework: homework.cu:6: int main(): Assertion `n == 4 && \"n must be 4\"' failed.\n");
    assert_eq!(r.status, 134, "SIGABRT, as a shell reports it");
}

#[test]
fn a_null_pointer_prints_as_glibcs_nil() {
    let src = r#"#include <cstdio>
int main() {
    int *p = NULL;
    int x = 0;
    printf("[%p] [%8p] [%-8p] %d\n", p, p, p, &x != NULL);
    return 0;
}
"#;
    let r = run("nil.cu", src);
    assert_eq!(r.stdout, "[(nil)] [   (nil)] [(nil)   ] 1\n", "{}", r.stderr);
}

#[test]
fn structs_returned_by_value_and_range_loops_over_vectors() {
    let r = run(
        "p.cu",
        "#include <vector>\n#include <cstdio>\nstruct P { int x, y; };\n\
         P make(int a) { P p; p.x = a; p.y = a * 10; return p; }\n\
         int main() {\n    std::vector<int> v;\n    for (int i = 0; i < 5; i++) v.push_back(i * i);\n\
         \x20   int s = make(1).y + make(2).y;\n    P q = make(3);\n\
         \x20   printf(\"%d %d %d %zu\\n\", s, q.x, q.y, v.size());\n\
         \x20   int total = 0;\n    for (const auto &x : v) total += x;\n\
         \x20   for (auto &x : v) x = -x;\n    int w[] = {7, 8, 9};\n    for (long long x : w) total += (int)x;\n\
         \x20   printf(\"total %d, v[4] %d, front %d\\n\", total, v[4], v.front());\n    return 0;\n}\n",
    );
    assert_eq!(r.stdout, "30 3 30 5\ntotal 54, v[4] -16, front 0\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
}

/// `for (auto k : {2, 3})`: a braced list is a hidden array of the loop's scope, of the loop variable's type
/// (with `auto`, the first item's); `break` leaves the whole loop.
#[test]
fn range_loops_over_braced_lists() {
    let r = run(
        "b.cu",
        r#"#include <cstdio>
enum Mode { A = 3, B = 5 };
__global__ void scale(int *x, int k) { x[threadIdx.x] *= k; }
int main() {
    int *d;
    int h[4] = {1, 2, 3, 4};
    cudaMalloc(&d, sizeof(h));
    for (auto k : {2, 3}) {
        cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
        scale<<<1, 4>>>(d, k);
        int r[4];
        cudaMemcpy(r, d, sizeof(r), cudaMemcpyDeviceToHost);
        printf("k=%d: %d %d %d %d\n", k, r[0], r[1], r[2], r[3]);
    }
    for (Mode m : {A, B}) printf("mode %d\n", (int)m);
    for (float f : {0.5f, 1.5f, 0.25f}) {
        if (f > 1.0f) break;
        printf("f %.2f\n", f);
    }
    for (const char *s : {"x", "yz"}) printf("%s\n", s);
    cudaFree(d);
    return 0;
}
"#,
    );
    assert_eq!(r.stdout, "k=2: 2 4 6 8\nk=3: 3 6 9 12\nmode 3\nmode 5\nf 0.50\nx\nyz\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
}

#[test]
fn a_range_loop_over_a_pointer_is_an_error_at_its_range() {
    let compiled = program::compile(
        "r.cu",
        b"int main() {\n    int *p = new int[4];\n    for (int x : p) p[0] += x;\n    return 0;\n}\n",
        &Default::default(),
    );
    let Err(e) = compiled else { panic!("a pointer has no range") };
    let text = format!("{:?}", e.diags);
    assert!(text.contains("a `for (x : range)` loop over a `int *`"), "{text}");
}

#[test]
fn a_pointer_kept_across_realloc_is_a_use_after_free() {
    let r = run(
        "grow.cu",
        "#include <cstdlib>\nint main() {\n    int *a = (int *)malloc(4 * sizeof(int));\n    int *old = a;\n\
         \x20   a = (int *)realloc(a, 64 * sizeof(int));\n    a[10] = 1;\n    return old[0];\n}\n",
    );
    assert_eq!(r.status, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "host code at line 7 reads `old` (byte 0) after it was freed at line 5 (allocated at line 3): use after free"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn host_code_writes_and_reads_back_a_file_and_compares_strings() {
    let dir = std::env::temp_dir().join(format!("warpdbg-host-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("data.bin");
    let src = format!(
        "#include <cstdio>\n#include <cstring>\ntypedef enum {{ ENCRYPT, DECRYPT }} action;\n\
         int main(int argc, char **argv) {{\n    action a = strncmp(\"decrypt-all\", \"decrypt\", 7) == 0 ? DECRYPT : ENCRYPT;\n\
         \x20   FILE *out = fopen(\"{p}\", \"wb\");\n    int v[3] = {{7, 8, 9}};\n    fwrite(v, sizeof(int), 3, out);\n\
         \x20   fprintf(out, \"end\");\n    fclose(out);\n    FILE *in = fopen(\"{p}\", \"rb\");\n    fseek(in, 0, SEEK_END);\n\
         \x20   long n = ftell(in);\n    rewind(in);\n    int w[3];\n    size_t got = fread(w, sizeof(int), 3, in);\n\
         \x20   char tail[4] = {{0}};\n    fread(tail, 1, 8, in);\n    printf(\"%d %ld %zu %d %s %d\\n\", a, n, got, w[2], tail, feof(in));\n\
         \x20   fclose(in);\n    printf(\"%s\\n\", fopen(\"{p}.missing\", \"r\") == NULL ? \"missing\" : \"found\");\n    return 0;\n}}\n",
        p = path.display()
    );
    let r = run("files.cu", &src);
    assert_eq!(r.stdout, "1 15 3 9 end 1\nmissing\n", "{}", r.stderr);
    assert_eq!(std::fs::read(&path).unwrap(), b"\x07\0\0\0\x08\0\0\0\x09\0\0\0end");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An `std::ofstream` written as course code writes its results for gnuplot: declared closed, opened with a
/// mode, written with `<<` (in a range loop), closed; opened by its constructor in append mode twice. The
/// expected output and file are what the same program built with g++ printed and wrote.
#[test]
fn an_ofstream_writes_a_file_as_libstdcxx_does() {
    let dir = std::env::temp_dir().join(format!("warpdbg-ofstream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (data, log) = (dir.join("result.dat"), dir.join("log.txt"));
    let src = format!(
        "#include <cstdio>\n#include <fstream>\n#include <vector>\nusing std::ofstream;\nint main() {{\n\
         \x20   std::vector<int> v(3);\n    for (int i = 0; i < 3; i++) v[i] = i * 7;\n    ofstream out;\n\
         \x20   printf(\"open before: %d\\n\", (int)out.is_open());\n\
         \x20   out.open(\"{d}\", std::ios::out | std::ios::trunc);\n\
         \x20   printf(\"open after: %d\\n\", (int)out.is_open());\n\
         \x20   for (auto i : v) {{\n        out << i << \" \\n\\n\";\n    }}\n\
         \x20   out << 2.5f << ' ' << \"end\" << std::endl;\n    out.close();\n\
         \x20   for (int k = 1; k <= 2; k++) {{\n        std::ofstream log(\"{l}\", std::ios::app);\n\
         \x20       log << \"line \" << k << \"\\n\";\n        log.close();\n    }}\n    return 0;\n}}\n",
        d = data.display(),
        l = log.display()
    );
    let r = run("histogram.cu", &src);
    assert_eq!(r.stdout, "open before: 0\nopen after: 1\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
    assert_eq!(std::fs::read_to_string(&data).unwrap(), "0 \n\n7 \n\n14 \n\n2.5 end\n");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "line 1\nline 2\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The diagnostics of a program that does not compile.
fn errors(src: &str) -> Vec<String> {
    let Err(e) = program::compile("homework.cu", src.as_bytes(), &Default::default()) else {
        panic!("compiles: {src}")
    };
    e.diags.iter().map(|d| d.message.clone()).collect()
}

/// The only diagnostic of a program that does not compile.
fn only_error(src: &str) -> String {
    let e = errors(src);
    assert_eq!(e.len(), 1, "{e:#?}");
    e[0].clone()
}

#[test]
fn host_cxx_not_read_yet_is_named_not_a_syntax_error() {
    // The clocks and durations are read (see below); time-point casts are not yet.
    let chrono = "#include <chrono>\n#include <cstdio>\nusing namespace std::chrono;\nint main() {\n\
                  \x20   auto t0 = time_point_cast<milliseconds>(high_resolution_clock::now());\n\
                  \x20   return 0;\n}\nint after() { return 1; }\n";
    assert_eq!(only_error(chrono), "not supported by warpdbg: `std::chrono` in host code yet");
    let library =
        "#include <cublas_v2.h>\nint main() {\n    cublasHandle_t h;\n    cublasCreate(&h);\n    return 0;\n}\n";
    // (Its uses are errors too: the variable has no type.)
    assert_eq!(errors(library)[0], "not supported by warpdbg: the type `cublasHandle_t` in host code yet");
    // Device code has no variadic functions (host code does: see below).
    let variadic = "// @grid 1\n// @block 1\n// @arg a int[1] = 0\n__device__ int first(int n, ...) { return n; }\n\
                    __global__ void k(int *a) { a[0] = first(1, 2); }\n";
    let Err(e) = warpdbg::compile::compile("k.cu", variadic.as_bytes(), &Default::default()) else {
        panic!("a variadic device function compiled")
    };
    assert_eq!(e.diags[0].message, "not supported by warpdbg: variadic functions (`...`)");
}

/// Variable-length arrays (a GCC extension nvcc accepts): sized when the declaration runs, zeroed, passed
/// on as a pointer, made again each time the declaration runs (in a loop) and gone when the function returns;
/// an access past the end is a host memory error naming the array, and one larger than a real stack is an
/// error of its own.
#[test]
fn variable_length_arrays_live_until_their_block_is_left() {
    let src = "#include <cstdio>\nint fill(int *v, int n) { int s = 0; for (int i = 0; i < n; i++) { v[i] = i * i; s += v[i]; } return s; }\n\
               int sum(int n) {\n    int v[n];\n    return fill(v, n) + v[n - 1];\n}\n\
               int main(int argc, char **argv) {\n    int n = argc + 3;\n    for (int r = 0; r < 3; r++) {\n\
               \x20       double w[n + r];\n        w[n + r - 1] = 1.5 * r;\n        printf(\"%d %.1f %d\\n\", sum(n + r), w[n + r - 1], sum(3000));\n    }\n\
               \x20   int bad[n];\n    bad[n] = 1;\n    return 0;\n}\n";
    let r = run("vla.cu", src);
    assert_eq!(r.stdout, "23 0.0 414559909\n46 1.5 414559909\n80 3.0 414559909\n", "{}", r.stderr);
    assert_eq!(r.status, 1);
    assert!(
        r.stderr.contains("line 15 writes out of bounds")
            && r.stderr.contains("`bad` (16 bytes, allocated at line 14)"),
        "{}",
        r.stderr
    );
    let sized = run(
        "sized.cu",
        "#include <cstdio>\n#include <cstring>\nint main(int argc, char **argv) {\n    int n = argc + 4;\n    float v[n];\n\
         \x20   memset(v, 0, sizeof(v));\n    printf(\"%zu %zu\\n\", sizeof(v), sizeof(v) / sizeof(v[0]));\n    return 0;\n}\n",
    );
    assert_eq!(sized.stdout, "20 5\n", "{}", sized.stderr);
    let huge = run(
        "huge.cu",
        "int main(int argc, char **argv) {\n    long n = 1 << 24;\n    int v[n];\n    v[0] = argc;\n    return v[0];\n}\n",
    );
    assert_eq!(huge.status, 1);
    assert!(
        huge.stderr.contains("line 3 declares `v` with 67108864 bytes on the stack, more than a real machine's 8 MiB"),
        "{}",
        huge.stderr
    );
}

/// Host function templates: a call deduces each type parameter from the argument passed where the function
/// takes it (`T &ptr` binds a pointer local, which then lives in memory; `const T *a`; two parameters by
/// value), and the instance runs as a host function with its own line numbers in findings.
#[test]
fn host_function_templates_are_instantiated_from_their_calls() {
    let r = run(
        "templates.cu",
        "#include <cstdio>\n#include <cstdlib>\nstruct node { int key; node *next; };\ntemplate <typename T> void alloc_bytes(T &ptr, size_t n) { ptr = (T)malloc(n); }\ntemplate <typename T> T biggest(const T *a, int n) {\n    T m = a[0];\n    for (int i = 1; i < n; i++) if (a[i] > m) m = a[i];\n    return m;\n}\ntemplate <typename T, typename U> double mix(T a, U b) { return a * 0.5 + b; }\nint main() {\n    int *v;\n    alloc_bytes(v, 4 * sizeof(int));\n    for (int i = 0; i < 4; i++) v[i] = (i * 7) % 5;\n    node *head;\n    alloc_bytes(head, sizeof(node));\n    head->key = 3;\n    head->next = NULL;\n    float f[3] = {1.5f, -2.0f, 4.25f};\n    printf(\"%d %.2f %d %.1f %.1f\\n\", biggest(v, 4), biggest(f, 3), head->key, mix(3, 1.5f), mix(2.0, 7));\n    free(v);\n    v[0] = 1;\n    return 0;\n}\n",
    );
    assert_eq!(r.stdout, "4 4.25 3 3.0 8.0\n", "{}", r.stderr);
    assert_eq!(r.status, 1);
    assert!(
        r.stderr.contains("line 22 writes `v` (byte 0) after it was freed at line 21 (allocated at line 4)"),
        "{}",
        r.stderr
    );
}

/// CUDA's vector types and cuRAND's device states in host code, laid out as on the device (host code sizes
/// allocations of states and fills vectors it copies).
#[test]
fn vector_types_and_curand_states_have_their_device_layout_on_the_host() {
    let r = run(
        "vectors.cu",
        "#include <cstdio>\n#include <curand_kernel.h>\nint main() {\n    float4 v;\n\
         \x20   v.x = 1.0f; v.y = 2.0f; v.z = 3.0f; v.w = 4.5f;\n    int2 p;\n    p.x = 3; p.y = 4;\n\
         \x20   printf(\"%zu %zu %zu %.1f %d\\n\", sizeof(float4), sizeof(curandState), \
         sizeof(curandStatePhilox4_32_10_t), v.x + v.w, p.x * p.y);\n    return 0;\n}\n",
    );
    assert_eq!(r.stdout, "16 48 64 5.5 12\n", "{}", r.stderr);
}

/// A typedef'd self-referential struct (`typedef struct _chunk { ...; struct _chunk *next; } chunk;`, the
/// shape of C course code) in host code: a linked list built with malloc, walked through `p->next->...`, and
/// freed; a node read after it was freed is a use after free.
#[test]
fn typedefd_self_referential_structs_make_linked_lists() {
    let src = "#include <stdio.h>\n#include <stdlib.h>\n\
               typedef struct _chunk {\n    int key;\n    char *data;\n    struct _chunk *next;\n} chunk;\n\
               struct pair { int a; struct pair *other; };\n\
               static chunk *push(chunk *head, int key) {\n    chunk *c = (chunk *)malloc(sizeof(chunk));\n\
               \x20   c->key = key;\n    c->data = NULL;\n    c->next = head;\n    return c;\n}\n\
               int main() {\n    chunk *head = NULL;\n    for (int i = 1; i <= 4; i++) head = push(head, i * 10);\n\
               \x20   int sum = 0, n = 0;\n    for (chunk *p = head; p != NULL; p = p->next) { sum += p->key; n++; }\n\
               \x20   struct pair x, y;\n    x.a = 1; x.other = &y; y.a = 2; y.other = &x;\n\
               \x20   printf(\"%d nodes, sum %d, second %d, %d %zu\\n\", n, sum, head->next->key, x.other->other->a, sizeof(chunk));\n\
               \x20   chunk *last = head->next->next->next;\n\
               \x20   while (head != NULL) { chunk *next = head->next; free(head); head = next; }\n\
               \x20   return last->key;\n}\n";
    let r = run("list.cu", src);
    assert_eq!(r.stdout, "4 nodes, sum 100, second 30, 1 24\n", "{}", r.stderr);
    assert_eq!(r.status, 1);
    assert!(
        r.stderr.contains(
            "host code at line 26 reads `c` (byte 0) after it was freed at line 25 (allocated at line 10): use after free"
        ),
        "{}",
        r.stderr
    );
}

/// Host function pointers: declared `R (*p)(params)` (locals, parameters, file-scope variables) or through
/// a typedef, set from `f` or `&f`, called as `p(args)` or `(*p)(args)`, compared with NULL and nullptr,
/// passed to host functions; a pointer to a kernel chosen in a `switch` launches the kernel it holds (the
/// launch records name that kernel). Calling a null pointer is a host error at its line.
#[test]
fn function_pointers_call_and_launch_what_they_hold() {
    let src = "#include <stdio.h>\n\
               __global__ void addOne(float *a, int n) { int i = threadIdx.x; if (i < n) a[i] += 1.0f; }\n\
               __global__ void twice(float *a, int n) { int i = threadIdx.x; if (i < n) a[i] *= 2.0f; }\n\
               typedef int (*binop)(int, int);\n\
               int add(int a, int b) { return a + b; }\n\
               int mul(int a, int b) { return a * b; }\n\
               int apply(binop f, int x, int y) { return f(x, y); }\n\
               double half(double x) { return x / 2; }\n\
               void (*report)(const char *) = NULL;\n\
               void say(const char *s) { printf(\"say: %s\\n\", s); }\n\
               int main(int argc, char **argv) {\n\
               \x20   int (*op)(int, int) = add;\n\
               \x20   printf(\"%d %d\\n\", op(3, 4), (*op)(5, 6));\n\
               \x20   op = &mul;\n\
               \x20   printf(\"%d %d %d\\n\", op(3, 4), apply(add, 1, 2), apply(op, 2, 5));\n\
               \x20   double (*h)(double) = half;\n\
               \x20   printf(\"%.2f %d %d\\n\", h(3), h != NULL, op == nullptr);\n\
               \x20   if (report == NULL) report = say;\n\
               \x20   report(\"hello\");\n\
               \x20   float *d;\n    cudaMalloc(&d, 4 * sizeof(float));\n    cudaMemset(d, 0, 4 * sizeof(float));\n\
               \x20   void (*kernel)(float *, int);\n\
               \x20   for (int k = 0; k < 2; k++) {\n\
               \x20       switch (k) { case 0: kernel = &addOne; break; case 1: kernel = twice; break; }\n\
               \x20       kernel<<<1, 4>>>(d, 4);\n    }\n\
               \x20   float h4[4];\n    cudaMemcpy(h4, d, sizeof(h4), cudaMemcpyDeviceToHost);\n\
               \x20   printf(\"%.1f %.1f\\n\", h4[0], h4[3]);\n    cudaFree(d);\n\
               \x20   int (*none)(int, int) = 0;\n    return none(1, 2);\n}\n";
    let compiled = program::compile("fp.cu", src.as_bytes(), &Default::default())
        .unwrap_or_else(|e| panic!("does not compile: {:?}", e.diags));
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    let (stdout, stderr) = (String::from_utf8_lossy(&out), String::from_utf8_lossy(&err));
    assert_eq!(stdout, "7 11\n12 3 10\n1.50 1 0\nsay: hello\n2.0 2.0\n", "{stderr}");
    assert_eq!(r.status, 1);
    let launched: Vec<(&str, &str)> = r.launches.iter().map(|l| (l.kernel.as_str(), l.outcome)).collect();
    assert_eq!(launched, [("addOne", "completed"), ("twice", "completed")]);
    assert!(
        matches!(&r.end, warpdbg::host::HostEnd::Error(e) if e.to_string() == "host code at line 33 calls `none`, a null function pointer"),
        "{:?}",
        r.end
    );
}

/// What a function pointer holds is checked where it is called or launched: a function of another type, a
/// kernel called as a host function, a host function launched, a pointer holding a data address.
#[test]
fn a_function_pointer_holding_the_wrong_function_is_a_host_error() {
    let head = "#include <stdio.h>\n__global__ void k(int *a) { a[0] = 1; }\n\
                float neg(float x) { return -x; }\nvoid hello(int *a) { printf(\"hi\\n\"); }\nint main() {\n";
    let cases = [
        (
            "    int (*f)(int) = neg;\n    return f(1);\n}\n",
            "host code at line 7 calls `neg` through `f`, a `int (*)(int)`, but `neg` is `float (float)`",
        ),
        (
            "    void (*f)(int *) = k;\n    f(0);\n    return 0;\n}\n",
            "host code at line 7 calls `f`, which points to the kernel `k`: launch it with `f<<<grid, block>>>(...)`",
        ),
        (
            "    void (*f)(int *) = hello;\n    f<<<1, 1>>>(0);\n    return 0;\n}\n",
            "host code at line 7 launches `f`, which points to the host function `hello`, not a kernel",
        ),
        (
            "    int x = 0;\n    void *p = &x;\n    void (*f)(int *) = p;\n    f(&x);\n    return 0;\n}\n",
            "host code at line 9 calls `f`, which holds 0x",
        ),
    ];
    for (body, message) in cases {
        let r = run("bad.cu", &format!("{head}{body}"));
        assert_eq!(r.status, 1, "{body}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{body}: {}", r.stderr);
        assert_eq!(r.stdout, "");
    }
}

/// Function pointers are the host's: device code keeps its error, and a host pointer of the wrong shape is
/// a compile error with its line.
#[test]
fn function_pointers_in_device_code_and_misused_ones_are_compile_errors() {
    let device = "__device__ float sq(float x) { return x * x; }\n\
                  __global__ void k(float *a) { float (*f)(float) = sq; a[0] = f(a[0]); }\n\
                  int main() { float *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); return 0; }\n";
    assert_eq!(errors(device)[0], "not supported by warpdbg: function pointers");
    let args = "int add(int a, int b) { return a + b; }\nint main() { int (*f)(int, int) = add; return f(1); }\n";
    assert_eq!(only_error(args), "`f` takes 2 arguments");
    let kernel = "__global__ void k(int *a) { }\nint main() { void (*f)(float) = 0; f<<<1, 1>>>(1.0f); return 0; }\n";
    assert_eq!(only_error(kernel), "`f` is a `void (*)(float)`, and no kernel of this file has that type");
}

/// Variadic host functions with `<cstdarg>`: `va_start`, `va_arg` of promoted types (a `float` argument is
/// read as the `double` it became, a `char` as an `int`), `va_copy`, `va_end`, and `vprintf`/`vsnprintf`
/// wrapping printf; reading past the last argument passed is a host error saying how many were.
#[test]
fn variadic_host_functions_read_their_arguments_with_va_arg() {
    let r = run(
        "va.cu",
        "#include <stdio.h>\n#include <stdarg.h>\n#include <cstdarg>\nvoid print_val(float *h, int n, ...) {\n    va_list argptr;\n    va_start(argptr, n);\n    printf(\"%s\\t\", va_arg(argptr, char *));\n    for (int i = 0; i < n; i++) printf(\"%7.4f\\t\", h[i]);\n    printf(\"\\n\");\n}\ndouble sum(int n, ...) {\n    va_list ap, again;\n    va_start(ap, n);\n    va_copy(again, ap);\n    double s = 0;\n    for (int i = 0; i < n; i++) s += va_arg(ap, double);\n    va_end(ap);\n    s += va_arg(again, double);\n    va_end(again);\n    return s;\n}\nvoid log_msg(const char *tag, const char *fmt, ...) {\n    va_list ap;\n    va_start(ap, fmt);\n    printf(\"[%s] \", tag);\n    vprintf(fmt, ap);\n    va_end(ap);\n    char buf[64];\n    va_start(ap, fmt);\n    int n = vsnprintf(buf, sizeof(buf), fmt, ap);\n    va_end(ap);\n    fprintf(stderr, \"%d:%s\", n, buf);\n}\nlong total(int n, ...) { va_list ap; va_start(ap, n); long t = 0; for (int i = 0; i < n; i++) t += va_arg(ap, int); va_end(ap); return t; }\nint main() {\n    float h[3] = {0.5f, -0.25f, 1.0f};\n    print_val(h, 3, \"input ::\");\n    printf(\"%.2f\\n\", sum(3, 1.5, 2.0f, 3.25));\n    char c = 'x'; short sh = -3; size_t z = 7;\n    log_msg(\"info\", \"%d %c %ld %zu %s %5.1f %x %p\\n\", 42, c, (long)sh, z, \"str\", 2.5f, 255u, (void *)0);\n    printf(\"%ld\\n\", total(2, 1, 2));\n    return (int)total(3, 1, 2);\n}\n",
    );
    assert_eq!(
        r.stdout, "input ::\t 0.5000\t-0.2500\t 1.0000\t\n8.25\n[info] 42 x -3 7 str   2.5 ff (nil)\n3\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 1);
    assert!(
        r.stderr.starts_with("29:42 x -3 7 str   2.5 ff (nil)\n")
            && r.stderr.contains(
                "host code at line 34 reads variadic argument 3 of `total` with va_arg, but the call passed 2"
            ),
        "{}",
        r.stderr
    );
}

/// `va_arg` of a type a call never passes (it was promoted), and `va_start` outside a variadic function, are
/// errors at their line.
#[test]
fn va_arg_of_an_unpromoted_type_is_a_compile_error() {
    let float = "#include <cstdarg>\nfloat f(int n, ...) { va_list ap; va_start(ap, n); return va_arg(ap, float); }\n\
                 int main() { return (int)f(1, 2.0f); }\n";
    assert_eq!(only_error(float), "a `float` is promoted when passed to `...`: read it with `va_arg(ap, double)`");
    let start =
        "#include <cstdarg>\nint f(int n) { va_list ap; va_start(ap, n); return n; }\nint main() { return f(1); }\n";
    assert_eq!(only_error(start), "`va_start` in a function without `...`");
    let few = "#include <cstdarg>\nint f(int a, int b, ...) { return a; }\nint main() { return f(1); }\n";
    assert_eq!(only_error(few), "`f` takes at least 2 arguments");
}

/// A class of a namespace (`uti::Gen gen(0, 10);`, `uti::Gen g{5, 8, 3};`, as a by-value parameter whose copy
/// the callee advances): declared with constructor arguments as an unqualified one is (output as g++ gives).
#[test]
fn namespace_qualified_classes_take_constructor_arguments() {
    let r = run(
        "ns.cu",
        "#include <stdio.h>\nnamespace uti {\n    class Gen {\n        public:\n            Gen(int a, int b, int seed = 7): _seed(seed), _a(a), _b(b) { };\n            int next() { _seed = (_seed * 31 + 11) % 1000; return _seed % (_b - _a) + _a; }\n        private:\n            int _seed;\n            int _a;\n            int _b;\n    };\n}\nvoid fill(int *v, int n, uti::Gen g) { for (int i = 0; i < n; i++) v[i] = g.next(); }\nint main() {\n    uti::Gen gen(0, 10);\n    uti::Gen other{5, 8, 3};\n    int v[4], w[4];\n    fill(v, 4, gen);\n    fill(w, 4, gen);\n    printf(\"%d %d %d %d | %d %d | %d %d\\n\", v[0], v[1], v[2], v[3], w[0], w[3], other.next(), gen.next());\n    return 0;\n}\n",
    );
    assert_eq!(r.stdout, "8 9 0 1 | 8 1 | 7 8\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
}

#[test]
fn a_launch_of_a_kernel_warpdbg_cannot_run_stops_the_program_with_the_construct() {
    // Compiling only warns (the host might never launch it); the launch that does is where the program stops,
    // never a kernel run as if it were empty.
    let r = run(
        "tex.cu",
        "#include <cstdio>\ntexture<float, 1, cudaReadModeElementType> tex;\n\
         __global__ void plain(float *out) { out[threadIdx.x] = 1.0f; }\n\
         __global__ void fetch(float *out) { out[threadIdx.x] = tex1Dfetch(tex, threadIdx.x); }\n\
         int main() {\n    float *d; cudaMalloc(&d, 32 * sizeof(float));\n    plain<<<1, 32>>>(d);\n\
         \x20   printf(\"plain ran\\n\");\n    fetch<<<1, 32>>>(d);\n    cudaDeviceSynchronize();\n\
         \x20   printf(\"done\\n\");\n    return 0;\n}\n",
    );
    assert_eq!(r.stdout, "plain ran\n");
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("warpdbg: launch 2 of `fetch` cannot run:"), "{}", r.stderr);
    assert!(r.stderr.contains("not supported by warpdbg: texture and surface references"), "{}", r.stderr);
    assert!(!r.stderr.contains("launch 2: fetch"), "the kernel never ran: {}", r.stderr);
}

#[test]
fn make_functions_build_vector_values_in_host_code() {
    // As vector_functions.h builds them: each argument converted to the field's type.
    let r = run(
        "mk.cu",
        "#include <cstdio>\n__global__ void k(float4 v, float *out) { out[0] = v.x + v.y * v.z - v.w; }\n\
         int main() {\n    float4 a = make_float4(1, 2, 3, 4);\n    int2 b = make_int2(5.9f, -6);\n\
         \x20   float3 c;\n    c = make_float3(0.5f, 1.5f, 2.5f);\n    float *d;\n    cudaMalloc(&d, sizeof(float));\n\
         \x20   k<<<1, 1>>>(make_float4(c.x, c.y, c.z, a.w), d);\n    float h;\n\
         \x20   cudaMemcpy(&h, d, sizeof(float), cudaMemcpyDeviceToHost);\n\
         \x20   printf(\"%g %d %d %g %g\\n\", a.x + a.w, b.x, b.y, make_double2(7, 8.25).y, h);\n\
         \x20   cudaFree(d);\n    return 0;\n}\n",
    );
    assert_eq!(r.stdout, "5 5 -6 8.25 0.25\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
    let compiled = program::compile(
        "bad.cu",
        b"int main() { float2 v = make_float2(1, 2, 3); return (int)v.x; }\n",
        &Default::default(),
    );
    let Err(e) = compiled else { panic!("three arguments to make_float2 must be refused") };
    let text = warpdbg::front::diagnostic::render_plain(&e.sources, &e.diags);
    assert!(text.contains("`make_float2` takes 2 arguments") && text.contains("bad.cu:1:25"), "{text}");
}

#[test]
fn launching_an_overloaded_kernel_other_than_its_first_definition_is_refused_not_misrun() {
    let src = "__global__ void fill(unsigned char *p) { p[threadIdx.x] = 1; }\n\
               __global__ void fill(uchar4 *p) { p[threadIdx.x].w = 255; }\n\
               int main() { uchar4 *b; cudaMalloc(&b, 16); fill<<<1, 4>>>(b); return 0; }\n";
    let e = program::compile("overload.cu", src.as_bytes(), &Default::default()).expect_err("refused");
    assert_eq!(
        e.diags[0].message,
        "not supported by warpdbg: launching an overload of `fill` other than its first definition yet"
    );
}

#[test]
fn chrono_durations_scale_the_virtual_clock_by_their_period() {
    // 1.5 virtual ms between two reads: each duration's count is that interval in its own unit.
    let r = run(
        "chrono.cu",
        "#include <chrono>\n#include <cstdio>\nusing namespace std::chrono;\nint main() {\n\
         \x20   auto t0 = high_resolution_clock::now();\n    auto t1 = high_resolution_clock::now();\n\
         \x20   long long d = (t1 - t0) + 1500000;\n\
         \x20   duration<double, std::milli> ms = t0 - t0 + d;\n    milliseconds whole = duration_cast<milliseconds>(t0 - t0 + d);\n\
         \x20   printf(\"%.3f %lld %lld %.6f\\n\", ms.count(), whole.count(),\n\
         \x20          duration_cast<microseconds>(t0 - t0 + d).count(), duration<double>(t0 - t0 + d).count());\n\
         \x20   return 0;\n}\n",
    );
    assert_eq!(r.stdout, "1.500 1 1500 0.001500\n");
}

/// Local references and a vector's list initialisers; the expected text is what g++ 12 prints for the same
/// host code (the kernel aside).
const REFERENCES: &str = r#"#include <cstdio>
#include <vector>
#include <string>
struct P { float x, y; };
float sum(const std::vector<float> &v) { float s = 0; for (const float &x : v) s += x; return s; }
__global__ void k(const float *a, float *out) { const float &c = a[1]; out[threadIdx.x] = a[threadIdx.x] + c; }
int main() {
    int a = 1; int &r = a; r = 2; r += 3;
    printf("%d %d\n", a, r);
    std::vector<float> v(4, 1.5f);
    float &e = v[2]; e = 9.0f;
    auto &f = v[3]; f += 1;
    const float &t = v[0] + v[1];
    printf("%g %g %g %g | %g\n", v[0], v[2], v[3], t, sum(v));
    P p = {1, 2}; P &q = p; q.x = 5; const P &cq = p;
    printf("%g %g\n", p.x, cq.y);
    std::string s = "abc"; const std::string &rs = s;
    printf("%s %zu\n", rs.c_str(), rs.size());
    P arr[2] = {{1, 1}, {2, 2}};
    for (int i = 0; i < 2; ++i) { P &it = arr[i]; it.y *= 10; }
    printf("%g %g\n", arr[0].y, arr[1].y);
    int *ptr = &a; int *&rp = ptr; (*rp)++;
    printf("%d\n", a);
    std::vector<int> l = {3, 1, 2}, one{5}, five(5);
    std::vector<float> two{3.0f, 1.0f};
    std::vector<double> three(3, 2.5);
    printf("%zu %d | %zu %d | %zu | %zu %g | %zu %g\n", l.size(), l[2], one.size(), one[0], five.size(), two.size(),
           two[1], three.size(), three[2]);
    float *d, *o;
    cudaMallocManaged(&d, 4 * sizeof(float));
    cudaMallocManaged(&o, 4 * sizeof(float));
    for (int i = 0; i < 4; ++i) d[i] = i + 1;
    k<<<1, 4>>>(d, o);
    cudaDeviceSynchronize();
    printf("%g %g %g %g\n", o[0], o[1], o[2], o[3]);
    cudaFree(d);
    cudaFree(o);
    return 0;
}
"#;

#[test]
fn local_references_name_their_object_and_brace_lists_are_a_vectors_elements() {
    let r = run("refs.cu", REFERENCES);
    assert_eq!(
        r.stdout, "5 5\n1.5 9 2.5 3 | 14.5\n5 2\nabc 3\n10 20\n6\n3 2 | 1 5 | 5 | 2 1 | 3 2.5\n3 4 5 6\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0);
}

#[test]
fn a_non_const_reference_in_device_code_is_named_at_its_line() {
    let src = REFERENCES.replace("const float &c = a[1];", "float &c = a[1];");
    let r = run("refs.cu", &src);
    assert!(
        r.stderr.contains(
            "launch 1 of `k` cannot run:\nerror[E-unsupported]: not supported by warpdbg: a non-const reference \
             variable in device code\n  ┌─ refs.cu:6:56"
        ),
        "{}",
        r.stderr
    );
    assert!(r.stdout.ends_with("3 2 | 1 5 | 5 | 2 1 | 3 2.5\n"), "the host runs up to the launch: {}", r.stdout);
    assert_eq!(r.status, 2);
}

/// `std::string`'s members courses use to split and build text; the expected text is what g++ 12 and
/// libstdc++ print for the same host code.
#[test]
fn string_find_substr_push_back_append_iteration_and_fill_as_libstdcxx() {
    let src = r#"#include <cstdio>
#include <iostream>
#include <string>
#include <algorithm>
#include <stdexcept>
__global__ void k() {}
int main() {
    std::string s = "hello,world,gpu";
    size_t a = s.find(","), b = s.find(',', a + 1), c = s.find("xyz"), d = s.rfind(',');
    std::cout << a << " " << b << " " << (c == std::string::npos) << " " << d << std::endl;
    std::string first = s.substr(0, a), rest = s.substr(a + 1);
    std::cout << first << "|" << rest << "|" << s.substr(b + 1, 2) << "|" << s.substr(d) << std::endl;
    std::string t = "ab";
    t.push_back('c'); t += "d"; t.append("ef");
    std::cout << t << " " << t.size() << " " << t.front() << t.back() << t.at(2) << std::endl;
    std::reverse(t.begin(), t.end());
    std::cout << t << std::endl;
    int vowels = 0;
    for (char ch : s) if (ch == 'o' || ch == 'e') vowels++;
    std::cout << vowels << " " << std::string(5, '=') << std::endl;
    std::string line(3, '-');
    std::cout << line << (s.substr(0, 5) == "hello") << std::endl;
    size_t pos = 0; int parts = 0; std::string rem = s;
    while ((pos = rem.find(',')) != std::string::npos) { std::cout << "[" << rem.substr(0, pos) << "]"; rem = rem.substr(pos + 1); parts++; }
    std::cout << "[" << rem << "] " << parts << std::endl;
    t.clear();
    std::cout << t.empty() << std::endl;
    try { s.substr(99); } catch (const std::out_of_range &e) { std::cout << e.what() << std::endl; }
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
"#;
    let r = run("strings.cu", src);
    assert_eq!(
        r.stdout,
        "5 11 1 11\nhello|world,gpu|gp|,gpu\nabcdef 6 afc\nfedcba\n3 =====\n---1\n[hello][world][gpu] 2\n1\nbasic_string::substr: __pos (which is 99) > this->size() (which is 15)\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0);
}

/// g++ on x86-64 evaluates a call's arguments last first (a function's, a library call's, a member
/// function's, a call through a pointer), and an initialiser list and an operator's operands first to last:
/// the output below is what this program printed built with g++ 12 (at -O0 and -O2 alike).
#[test]
fn arguments_are_evaluated_last_first_as_gcc_does() {
    let src = r#"#include <cstdio>
int f(int x) { printf("f%d ", x); return x; }
int g(int a, int b, int c) { return a * 100 + b * 10 + c; }
struct S { int v; int add(int a, int b) { return v + a + b; } };
int main() { int i = 0;
  printf("%d %d %d\n", f(1), f(2), f(3));
  int r = g(f(4), f(5), f(6)); printf("= %d\n", r);
  printf("%d %d\n", i++, i++);
  S s{1}; printf("%d\n", s.add(f(7), f(8)));
  int arr[3] = {f(9), f(10), f(11)}; printf("\n");
  int x = f(12) + f(13); printf("\n");
  return 0; }
"#;
    let r = run("order.cu", src);
    assert_eq!(r.stdout, "f3 f2 f1 1 2 3\nf6 f5 f4 = 456\n1 0\nf8 f7 16\nf9 f10 f11 \nf12 f13 \n", "{}", r.stderr);
    assert_eq!(r.status, 0);
}

/// The same rule for a constructor, a member function, `std::max`, a call through a pointer, a kernel launch
/// (its configuration first), `new` and `sprintf`: the output an H200 machine printed for this program
/// (nvcc -O2, CUDA 13; the kernel's line comes after its two arguments were evaluated).
#[test]
fn launches_constructors_and_library_calls_evaluate_the_last_argument_first() {
    let src = r#"#include <cstdio>
#include <algorithm>
#include <string>
int f(int x) { printf("f%d ", x); return x; }
struct P { int a, b; P(int x, int y) : a(x), b(y) {} int sum(int c, int d) const { return a + b + c + d; } };
__global__ void k(int a, int b) { printf("k %d %d\n", a, b); }
int main() {
  P p(f(1), f(2)); printf("\n");
  printf("%d\n", p.sum(f(3), f(4)));
  printf("%d\n", std::max(f(5), f(6)));
  int (*fp)(int) = f; printf("%d %d\n", fp(7), fp(8));
  k<<<1, 1>>>(f(9), f(10)); cudaDeviceSynchronize();
  P *q = new P(f(11), f(12)); printf("%d\n", q->a);
  char buf[64]; sprintf(buf, "%d %d", f(13), f(14)); printf("%s\n", buf);
  return 0; }
"#;
    let r = run("order2.cu", src);
    assert_eq!(
        r.stdout, "f2 f1 \nf4 f3 10\nf6 f5 6\nf8 f7 7 8\nf10 f9 k 9 10\nf12 f11 11\nf14 f13 13 14\n",
        "{}",
        r.stderr
    );
}

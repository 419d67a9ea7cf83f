//! The preprocessor: the C standard's own macro examples (C11 6.10.3.5, worked out from the standard's text),
//! conditional groups, includes and CUDA course idioms, checked on the tokens the parser gets and, end to end,
//! on what the kernels compute and print.

mod common;

use std::path::PathBuf;

use warpdbg::compile::{self, Compiled};
use warpdbg::front::CompileError;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::front::preprocess::{self, NoFiles, Options};
use warpdbg::sim::Config;

/// The tokens `text` preprocesses to, separated by single spaces.
fn pp(text: &str) -> String {
    let (out, diags) = preprocess::to_text("t.cu", text, &Options { device: true, ..Options::default() }, &NoFiles);
    assert!(diags.is_empty(), "{text}: {diags:?}");
    out
}

/// Spaces only where two tokens would otherwise merge, so expected texts can be written as C prints them.
fn squeeze(s: &str) -> String {
    let mut out = String::new();
    let words: Vec<&str> = s.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
        if i > 0 && out.ends_with(word_char) && w.starts_with(word_char) {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

fn same(text: &str, want: &str) {
    assert_eq!(squeeze(&pp(text)), squeeze(want), "preprocessing:\n{text}");
}

/// A scratch folder of its own for each test, for includes.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpdbg-pp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn compile_file(path: &std::path::Path, mode: Mode) -> Result<Compiled, CompileError> {
    let bytes = std::fs::read(path).expect("written");
    let o = Overrides { mode: Some(mode), ..Overrides::default() };
    compile::compile(&path.to_string_lossy(), &bytes, &o)
}

#[test]
fn c11_example_3_rescanning_and_painted_names() {
    let text = r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    same(
        text,
        r#"f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };"#,
    );
}

#[test]
fn c11_example_4_stringizing_and_pasting() {
    let text = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
xstr(INCFILE(2).h);
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    // Adjacent string literals are one token by the time the parser sees them.
    same(text, r#"printf("x1= %d, x2= %s", x1, x2); "vers2.h"; "hello"; "hello, world""#);
}

#[test]
fn c11_example_5_hash_hash() {
    let text = "#define hash_hash # ## #\n#define mkstr(a) # a\n#define in_between(a) mkstr(a)\n\
                #define join(c, d) in_between(c hash_hash d)\nchar p[] = join(x, y);\n";
    same(text, r#"char p[] = "x ## y";"#);
}

#[test]
fn c11_example_7_variadic_macros() {
    let text = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    same(
        text,
        r#"fprintf(stderr, "Flag");
fprintf(stderr, "X = %d\n", x);
puts("The first, second, and third items.");
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));"#,
    );
}

#[test]
fn gnu_comma_elision_and_empty_variadic_arguments() {
    same(
        "#define LOG(fmt, ...) printf(fmt, ## __VA_ARGS__)\nLOG(\"a\"); LOG(\"b %d\", 1);",
        r#"printf("a"); printf("b %d", 1);"#,
    );
}

#[test]
fn conditional_groups_with_defined_and_integer_expressions() {
    let text = "#define A 3\n#if defined(A) && A * 2 == 6 && !defined B\nyes1\n#else\nno1\n#endif\n\
                #ifdef B\nno2\n#elif A > 2 ? 1 : 0\nyes2\n#elif 1\nno3\n#else\nno4\n#endif\n\
                #ifndef A\nno5\n#endif\n#if -1 < 0u\nno6\n#else\nyes3\n#endif\n\
                #if 0\n#if 1\nno7\n#endif\n#error not reached\n#else\nyes4\n#endif\n\
                #if (0x10 >> 2) + 'A' - 64 == 5 && UNDEFINED_NAME == 0\nyes5\n#endif";
    same(text, "yes1 yes2 yes3 yes4 yes5");
}

#[test]
fn a_function_like_name_without_parentheses_and_a_macro_inside_its_own_expansion() {
    same("#define f(x) [x]\nint f; f(f)(1)", "int f; [f](1)");
    same("#define foo foo + 1\nfoo", "foo + 1");
    same("#define a b\n#define b a\na b", "a b");
}

#[test]
fn predefined_macros_follow_the_mode() {
    let its = preprocess::to_text(
        "k.cu",
        "__CUDA_ARCH__ __CUDACC__ __LINE__\n__LINE__",
        &Options { device: true, ..Options::default() },
        &NoFiles,
    );
    assert_eq!(its.0, "900 1 1 2");
    let pascal = preprocess::to_text(
        "k.cu",
        "__CUDA_ARCH__",
        &Options { device: true, mode: Mode::PreVolta, ..Options::default() },
        &NoFiles,
    );
    assert_eq!(pascal.0, "600");
    let host =
        preprocess::to_text("k.cu", "#ifdef __CUDA_ARCH__\ndevice\n#else\nhost\n#endif", &Options::default(), &NoFiles);
    assert_eq!(host.0, "host");
}

#[test]
fn skipped_groups_may_hold_text_that_is_not_cuda() {
    same("#if 0\nit's not code, and neither is ` or @\n#endif\nok", "ok");
}

#[test]
fn includes_resolve_beside_the_including_file_with_guards_and_pragma_once() {
    let dir = scratch("include");
    std::fs::create_dir_all(dir.join("common")).expect("dir");
    std::fs::write(
        dir.join("common/book.h"),
        "#ifndef BOOK_H\n#define BOOK_H\n#include \"sizes.h\"\n#define SCALE(x) ((x) * FACTOR)\n#endif\n",
    )
    .expect("write");
    std::fs::write(dir.join("common/sizes.h"), "#pragma once\n#define FACTOR 3\n#define N 64\n").expect("write");
    let kernel = dir.join("kernel.cu");
    std::fs::write(
        &kernel,
        "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n#include <some/unknown_header.h>\n\
         #include \"common/book.h\"\n#include \"common/book.h\"\n#include \"common/sizes.h\"\n\
         // @block 64\n// @arg out int[64] = 0\n\
         __global__ void k(int *out) {\n    __shared__ int s[N];\n    s[threadIdx.x] = SCALE(threadIdx.x);\n\
         __syncthreads();\n    out[threadIdx.x] = s[N - 1 - threadIdx.x];\n}\n",
    )
    .expect("write");
    let c = compile_file(&kernel, Mode::Its).unwrap_or_else(|e| panic!("{e}"));
    let r = common::run_compiled(&c, Config::default());
    let want: Vec<i64> = (0..64).map(|t| (63 - t) * 3).collect();
    assert_eq!(r.ints("out"), want);
    // The header is a source of its own; the kernel's lines are the file's own.
    assert!(c.sources.files().iter().any(|f| f.name.ends_with("common/book.h")));
    assert_eq!(c.kernel.line(warpdbg::ir::Pc(0)), 11);
}

#[test]
fn a_missing_header_and_runaway_includes_are_diagnosed() {
    let dir = scratch("missing");
    let kernel = dir.join("k.cu");
    std::fs::write(&kernel, "#include \"nope.h\"\n__global__ void k(int *o) { o[0] = 1; }\n// @arg o int[1] = 0\n")
        .expect("write");
    let e = compile_file(&kernel, Mode::Its).expect_err("missing header");
    let text = e.render();
    assert!(text.contains("error[E-syntax]: cannot open included file \"nope.h\""), "{text}");
    assert!(text.contains(&format!("looked for {}", dir.join("nope.h").display())), "{text}");
    std::fs::write(dir.join("self.h"), "#include \"self.h\"\n").expect("write");
    std::fs::write(&kernel, "#include \"self.h\"\n__global__ void k(int *o) { o[0] = 1; }\n// @arg o int[1] = 0\n")
        .expect("write");
    let text = compile_file(&kernel, Mode::Its).expect_err("recursive include").render();
    assert!(text.contains("`#include` nested more than 64 deep"), "{text}");
}

#[test]
fn a_check_macro_a_spliced_printf_and_the_arch_choose_what_runs() {
    let dir = scratch("check");
    let kernel = dir.join("k.cu");
    std::fs::write(
        &kernel,
        r#"#include <stdio.h>
#define CHECK(call)                                                    \
    do {                                                               \
        const cudaError_t error = call;                                \
        if (error != cudaSuccess) {                                    \
            printf("Error: %s:%d\n", __FILE__, __LINE__);              \
        }                                                              \
    } while (0)
#define BLOCK 32
#define SQUARE(x) ((x) * (x))
#if __CUDA_ARCH__ >= 700
#define GEN 7
#else
#define GEN 6
#endif
// @block 32
// @arg out int[32] = 0
__global__ void k(int *out) {
    __shared__ int s[BLOCK];
    s[threadIdx.x] = SQUARE(threadIdx.x + 1) + GEN * 1000;
    __syncthreads();
    out[threadIdx.x] = s[BLOCK - 1 - threadIdx.x];
    if (threadIdx.x == 0) printf("block of %d, \
gen " "%d at %s:%d\n", BLOCK, GEN, __FILE__, __LINE__);
}
"#,
    )
    .expect("write");
    for (mode, arch) in [(Mode::Its, 7), (Mode::PreVolta, 6)] {
        let c = compile_file(&kernel, mode).unwrap_or_else(|e| panic!("{e}"));
        let r = common::run_compiled(&c, Config::default());
        let want: Vec<i64> = (0..32).map(|t| (32 - t) * (32 - t) + arch * 1000).collect();
        assert_eq!(r.ints("out"), want);
        let printed = r.json["printf"][0]["text"].as_str().expect("printf").to_string();
        assert_eq!(printed, format!("block of 32, gen {arch} at {}:24\n", kernel.display()));
    }
}

#[test]
fn an_error_inside_a_macro_points_at_its_use_and_names_the_macro() {
    let dir = scratch("note");
    let kernel = dir.join("k.cu");
    std::fs::write(
        &kernel,
        "#define STORE(p, v) p[threadIdx.x] = v + undefined_thing\n// @arg out int[32] = 0\n\
         __global__ void k(int *out) {\n    STORE(out, 1);\n}\n",
    )
    .expect("write");
    let text = compile_file(&kernel, Mode::Its).expect_err("undeclared").render();
    let name = kernel.display().to_string();
    let want = format!(
        "error[E-name]: cannot find `undefined_thing` in this scope
  ┌─ {name}:4:5
  │
1 │ #define STORE(p, v) p[threadIdx.x] = v + undefined_thing
  │ -------------------------------------------------------- macro `STORE` defined here
  ·
4 │     STORE(out, 1);
  │     ^^^^^^^^^^^^^ not declared
  │
  = note: in expansion of macro `STORE`
"
    );
    assert!(text.starts_with(&want), "got:\n{text}\nwant:\n{want}");
}

#[test]
fn directive_errors_are_diagnosed_with_their_place() {
    let cases = [
        ("#error stop right here\n", "error[E-syntax]: #error stop right here", "1:1"),
        ("#if 1\nint x;\n", "unterminated conditional: no `#endif`", "1:1"),
        ("#endif\n", "`#endif` without `#if`", "1:1"),
        ("#frobnicate\n", "unknown preprocessor directive `#frobnicate`", "1:1"),
        ("#define F(a, b) a\nF(1)\n", "macro `F` takes 2 arguments, but 1 was given", "2:1"),
        ("#if 1 / 0\n#endif\n", "division by zero in `#if`", "1:7"),
        ("#define G(x\n", "malformed macro parameter list", "1:1"),
        ("#define P(a) a ## +\nP(1)\n", "pasting gives `1+`, which is not one token", "2:1"),
    ];
    for (text, message, at) in cases {
        let full = format!("{text}// @arg o int[1] = 0\n__global__ void k(int *o) {{ o[0] = 1; }}\n");
        let e = compile::compile("bad.cu", full.as_bytes(), &Overrides::default()).expect_err(text);
        let rendered = e.render();
        assert!(rendered.contains(message), "{text}: {rendered}");
        assert!(rendered.contains(&format!("bad.cu:{at}")), "{text}: {rendered}");
    }
}

mod soup {
    use proptest::prelude::*;
    use warpdbg::compile;
    use warpdbg::front::launch::Overrides;

    /// Lines mixing directives, macro definitions and uses, and kernel code.
    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("#define A 1".to_string()),
            Just("#define F(x) ((x) + A)".to_string()),
            Just("#define G(x, ...) F(x) __VA_ARGS__".to_string()),
            Just("#define P(a, b) a ## b".to_string()),
            Just("#define S(x) #x".to_string()),
            Just("#define R R R".to_string()),
            Just("#undef A".to_string()),
            Just("#if A > 0 && defined(F)".to_string()),
            Just("#ifdef G".to_string()),
            Just("#elif 1 / 0".to_string()),
            Just("#else".to_string()),
            Just("#endif".to_string()),
            Just("#error no".to_string()),
            Just("#include \"missing.h\"".to_string()),
            Just("#pragma unroll 4".to_string()),
            Just("int v = F(G(1, 2)) + P(A, 1) + R;".to_string()),
            Just("printf(S(hello) \"%d\\n\", __LINE__);".to_string()),
            Just("x = F(\\".to_string()),
            Just("out[threadIdx.x] = F(threadIdx.x);".to_string()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
        /// Whatever the directives and macros, compiling gives a result or diagnostics, never a panic.
        #[test]
        fn directives_and_macros_never_panic(lines in proptest::collection::vec(line(), 0..24)) {
            let body = lines.join("\n");
            let text = format!("// @arg out int[32] = 0\n__global__ void k(int *out) {{\n{body}\n}}\n{body}\n");
            let _ = compile::compile("soup.cu", text.as_bytes(), &Overrides::default());
        }
    }
}

#[test]
fn code_from_a_header_runs_on_its_include_line() {
    let dir = scratch("header-code");
    std::fs::write(dir.join("util.h"), "#pragma once\n\n\n__device__ int twice(int v) {\n    return 2 * v;\n}\n")
        .expect("write");
    let kernel = dir.join("k.cu");
    std::fs::write(
        &kernel,
        "#include \"util.h\"\n// @arg out int[32] = 0\n__global__ void k(int *out) {\n    out[threadIdx.x] = twice(threadIdx.x);\n}\n",
    )
    .expect("write");
    let c = compile_file(&kernel, Mode::Its).unwrap_or_else(|e| panic!("{e}"));
    // The header's instructions are shown on line 1 (its #include), never on the header's own line numbers.
    let lines: std::collections::BTreeSet<u32> = c.kernel.lines.iter().copied().collect();
    assert_eq!(lines, [1, 4, 5].into_iter().collect());
    let r = common::run_compiled(&c, Config::default());
    assert_eq!(r.ints("out"), (0..32).map(|t| 2 * t).collect::<Vec<i64>>());
}

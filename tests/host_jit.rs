//! Hot host loops run as machine code (`src/host/jit`) with nothing observable changed: every program here
//! prints the same stdout and stderr and exits with the same status whether its loops are interpreted
//! (`WARPDBG_HOST_JIT=off`), compiled when hot (the default) or compiled when they start (`eager`), including
//! the errors a loop stops at (host memory errors, the step limit, division by zero) and the flows that
//! leave it (`return`, `goto`, `break`, `continue`, `exit`).

use std::path::Path;
use std::process::Command;

use proptest::prelude::*;

struct Out {
    text: String,
}

fn run(dir: &Path, file: &str, mode: &str) -> Out {
    let o = Command::new(env!("CARGO_BIN_EXE_warpdbg"))
        .current_dir(dir)
        .args(["run", file])
        .env("WARPDBG_HOST_JIT", mode)
        .output()
        .expect("warpdbg runs");
    let text = format!(
        "status {:?}\n--- stdout\n{}--- stderr\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    Out { text }
}

/// Runs `src` in the three modes and checks they agree; the interpreter's output.
fn same_in_every_mode(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("warpdbg-jit-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = format!("{name}.cu");
    std::fs::write(dir.join(&file), src).unwrap();
    let off = run(&dir, &file, "off");
    for mode in ["hot", "eager"] {
        let other = run(&dir, &file, mode);
        assert_eq!(other.text, off.text, "{name}: `{mode}` differs from the interpreter");
    }
    let _ = std::fs::remove_dir_all(&dir);
    off.text
}

#[test]
fn the_course_programs_print_the_same_in_every_mode() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        // A program that ends at the step limit (`// status: 4`, a runaway loop) interprets 2^32 host steps
        // with the JIT off: `the_step_limit_stops_a_compiled_loop_where_the_interpreter_does` covers that.
        let runaway = std::fs::read_to_string(&path).is_ok_and(|t| t.contains("\n// status: 4"));
        if path.extension().is_some_and(|e| e == "cu") && !runaway {
            let file = path.file_name().unwrap().to_str().unwrap();
            let off = run(&dir, file, "off");
            assert_eq!(run(&dir, file, "eager").text, off.text, "{file}");
            n += 1;
        }
    }
    assert!(n >= 25, "the course programs are there");
}

/// Loops long enough to be compiled when hot (3000 iterations), each ending in another way.
#[test]
fn loops_stop_and_leave_as_interpreted() {
    let cases = [
        (
            "oob",
            "#include <cstdlib>\nint main() {\n  int *a = (int *)malloc(3000 * sizeof(int));\n\
             \x20 for (int i = 0; i <= 3000; i++) a[i] = i;\n  free(a);\n  return 0;\n}\n",
            "writes out of bounds: 0 bytes after the end of `a`",
        ),
        (
            "uaf",
            "#include <cstdlib>\n#include <cstdio>\nint main() {\n  double *a = (double *)malloc(4000 * sizeof(double));\n\
             \x20 double s = 0;\n  for (int i = 0; i < 4000; i++) { a[i] = i * 0.5; if (i == 3500) free(a); s += a[i]; }\n\
             \x20 printf(\"%f\\n\", s);\n  return 0;\n}\n",
            "use after free",
        ),
        (
            "div",
            "#include <cstdio>\nint main() {\n  int s = 0;\n  for (int i = 0; i < 5000; i++) s += 100000 / (i - 4000);\n\
             \x20 printf(\"%d\\n\", s);\n  return 0;\n}\n",
            "divides an integer by zero",
        ),
        (
            "device",
            "#include <cstdio>\nint main() {\n  int *d;\n  cudaMalloc(&d, 4096 * sizeof(int));\n  long s = 0;\n\
             \x20 for (int i = 0; i < 3000; i++) s += i;\n  for (int i = 0; i < 3000; i++) s += d[i];\n\
             \x20 printf(\"%ld\\n\", s);\n  return 0;\n}\n",
            "points to device memory",
        ),
        (
            // `assert` is compiled inline; the failing one reports as interpreted (and one whose condition
            // has an effect, `k++`, is always the interpreter's).
            "assert",
            "#include <cassert>\n#include <cstdlib>\nint main() {\n  int *a = (int *)malloc(5000 * sizeof(int));\n\
             \x20 int k = 0;\n  for (int i = 0; i < 5000; i++) a[i] = 2 * i - (i == 4321);\n\
             \x20 for (int i = 0; i < 5000; i++) { assert(k++ == i); assert(a[i] == 2 * i && a[i] >= 0); }\n\
             \x20 return 0;\n}\n",
            "assert: assert.cu:7: int main(): assertion `a[i] == 2 * i && a[i] >= 0' failed.",
        ),
        (
            "assert_oob",
            "#include <cassert>\n#include <cstdlib>\nint main() {\n  float *a = (float *)calloc(4000, sizeof(float));\n\
             \x20 for (int i = 0; i <= 4000; i++) assert(a[i] == 0.0f);\n  return 0;\n}\n",
            "reads out of bounds: 0 bytes after the end of `a`",
        ),
    ];
    for (name, src, expect) in cases {
        let text = same_in_every_mode(name, src);
        assert!(text.to_lowercase().contains(expect), "{name}: {text}");
    }
}

/// The host step limit (here 50,000, in process: `warpdbg run` allows 2^32) stops a compiled loop at the
/// interpreter's step and line.
#[test]
fn the_step_limit_stops_a_compiled_loop_where_the_interpreter_does() {
    use warpdbg::program::{self, RunOptions};
    let src = "#include <cstdio>\nint main() {\n  unsigned x = 1;\n  for (int i = 0; i < 10; i++) x += i;\n\
               \x20 while (x != 0) { x = x * 3 + 1; x |= 1; }\n  printf(\"%u\\n\", x);\n  return 0;\n}\n";
    let compiled = program::compile("steps.cu", src.as_bytes(), &Default::default()).expect("compiles");
    let mut seen = vec![];
    for mode in ["off", "hot", "eager"] {
        // SAFETY: the other tests of this file set the variable only for the processes they start.
        unsafe { std::env::set_var("WARPDBG_HOST_JIT", mode) };
        let (mut out, mut err) = (vec![], vec![]);
        let options = RunOptions { host_steps: 50_000, ..Default::default() };
        let r = program::run(&compiled, &options, &mut out, &mut err);
        seen.push((r.status, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned()));
    }
    unsafe { std::env::remove_var("WARPDBG_HOST_JIT") };
    assert!(seen[0].2.contains("step limit") && seen[0].2.contains("line 5"), "{:?}", seen[0]);
    assert_eq!(seen[1], seen[0]);
    assert_eq!(seen[2], seen[0]);
}

#[test]
fn flows_and_callbacks_inside_compiled_loops() {
    let src = r#"#include <cstdio>
#include <cstdlib>
#include <cmath>
int find(const int *a, int n, int x) {
  for (int i = 0; i < n; i++)
    if (a[i] == x) return i;
  return -1;
}
int twice(int v) { return 2 * v; }
int main() {
  int n = 5000;
  int *a = (int *)malloc(n * sizeof(int));
  unsigned char *c = (unsigned char *)malloc(n);
  short *h = (short *)malloc(n * sizeof(short));
  for (int i = 0; i < n; i++) { a[i] = (i * 7919) % n; c[i] = i; h[i] = -i; }
  printf("find %d %d\n", find(a, n, 4321), find(a, n, n + 1));
  long long sum = 0; unsigned u = 0; float f = 0.f; double d = 0.0;
  int *p = a, *end = a + n;
  while (p != end) { sum += *p++; }
  for (int i = 0; i < n; i++) {
    if (i % 1000 == 0) printf("at %d sum %lld\n", i, sum);
    if (i & 1) continue;
    switch (i % 3) { case 0: u += c[i]; break; case 1: u ^= (unsigned)h[i]; break; default: u -= 7; }
    f += 0.1f * (float)c[i];
    d += sqrt((double)i) + (i > 10 && i < 20 ? 1.0 : -0.5) + (i < 3 || i > 4990);
    sum += twice(h[i]) + (a[i] >> 2) + (a[i] << 1) + a[i] / 3 - a[i] % 5;
    a[i] += c[i]; a[i] *= 3; c[i]--; --h[i];
    if (sum > 1000000000000LL) break;
  }
  int k = 0;
  do { k += 3; } while (k < 9000);
  for (int i = 0;; i++) { if (i == 4000) goto out; }
out:
  printf("%lld %u %.6f %.10f %d %d %d %d\n", sum, u, f, d, a[10], c[10], h[10], k);
  for (int i = 0; i < 4000; i++) if (i == 3999) { printf("exit\n"); exit(3); }
  return 0;
}
"#;
    let text = same_in_every_mode("flows", src);
    assert!(text.starts_with("status Some(3)"), "{text}");
    assert!(text.contains("find 959 -1"), "{text}");
}

/// A compiled loop keeps where each access last found its allocation; a function's local array gets the same
/// address on every call but new storage, so what a call frees is forgotten.
#[test]
fn compiled_loops_forget_what_calls_free() {
    let src = "#include <cstdio>\n#include <cstdlib>\n\
               int fill(int k) {\n  int t[64];\n  for (int j = 0; j < 64; j++) t[j] = j * k;\n\
               \x20 int s = 0;\n  for (int j = 0; j < 64; j++) s += t[j];\n  return s;\n}\n\
               int main() {\n  long s = 0;\n  int *a = (int *)malloc(5000 * sizeof(int));\n\
               \x20 for (int i = 0; i < 5000; i++) {\n    a[i] = fill(i);\n    s += a[i];\n\
               \x20   if (i == 4000) { free(a); a = (int *)calloc(5000, sizeof(int)); }\n  }\n\
               \x20 printf(\"%ld %d\\n\", s, a[4999]);\n  free(a);\n  return 0;\n}\n";
    let text = same_in_every_mode("stack", src);
    assert!(text.contains("25194960000 10077984"), "{text}");
}

/// Division, remainder and shifts are compiled inline where the machine's instruction gives `sim::alu`'s
/// result and call it elsewhere (a divisor of -1, a shift count past the width); conversions between integers
/// and floats are compiled inline (NaN, infinities and values past the target's range saturate): hot loops
/// over those edges print what the interpreter prints.
#[test]
fn division_shifts_and_float_conversions_compile_as_interpreted() {
    let src = "#include <cstdio>\n#include <cstdlib>\nint main() {\n\
               \x20 int mins[4] = {-2147483647 - 1, -7, 7, 2147483647};\n  int dens[5] = {-1, 3, -3, 1, 16};\n\
               \x20 long long acc = 0; unsigned long long uacc = 0;\n\
               \x20 for (int i = 0; i < 3000; i++) {\n    int x = mins[i % 4], d = dens[i % 5];\n\
               \x20   acc += x / d + x % d + (x >> (i % 40)) + (int)((unsigned)x >> (i % 36));\n\
               \x20   long long w = (long long)x * 3000000000LL;\n    acc += w / (d == 1 ? -1 : d) + w % (i + 1);\n\
               \x20   uacc += (unsigned long long)w / (unsigned long long)(i + 1) + ((unsigned long long)w >> (i % 70));\n\
               \x20   acc += (long long)((unsigned)(i * 2654435761u) % 1000u) + (x << (i % 34));\n  }\n\
               \x20 float fs[6] = {1e10f, -1e10f, 3.7f, -3.7f, 0.0f / 0.0f, 1.0f / 0.0f};\n\
               \x20 double ds[4] = {1e300, -5e18, 1.999999999999, 4294967295.9};\n  long long conv = 0; double back = 0;\n\
               \x20 for (int i = 0; i < 3000; i++) {\n    float f = fs[i % 6]; double d = ds[i % 4];\n\
               \x20   conv += (int)f + (long long)(unsigned)f + (long long)d + (long long)(unsigned)d;\n\
               \x20   conv += (long long)(unsigned long long)(d < 0 ? -d : d) % 1000;\n\
               \x20   back += (float)(rand() & 0xFF) / 10.0f + (double)(unsigned long long)(18446744073709551615ULL - i)\n\
               \x20       + (float)(long long)(i * 123456789LL) + (float)d + (double)f * 0.0;\n  }\n\
               \x20 printf(\"%lld %llu %lld %.17g\\n\", acc, uacc, conv, back);\n  return 0;\n}\n";
    let text = same_in_every_mode("divconv", src);
    assert!(text.starts_with("status Some(0)\n--- stdout\n"), "{text}");
}

/// One random C statement over variables of every scalar type.
fn statement() -> impl Strategy<Value = String> {
    let vars = prop::sample::select(vec!["i8v", "u8v", "i16v", "u16v", "iv", "uv", "lv", "ulv", "fv", "dv", "a[j]"]);
    let ops = prop::sample::select(vec![
        "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "<", "<=", "==", "!=", ">", ">=",
    ]);
    let assign = prop::sample::select(vec!["=", "+=", "-=", "*=", "|=", "^="]);
    let casts = prop::sample::select(vec![
        "",
        "(int)",
        "(unsigned)",
        "(long long)",
        "(float)",
        "(double)",
        "(char)",
        "(unsigned short)",
    ]);
    let operand = (casts.clone(), vars.clone(), prop::sample::select(vec!["", "", "1", "3", "-2", "1000003"]))
        .prop_map(|(c, v, k)| if k.is_empty() { format!("{c}{v}") } else { format!("{c}({v} + {k})") });
    (vars, assign, operand.clone(), ops.clone(), operand.clone(), ops, operand, any::<u8>()).prop_map(
        |(dst, asg, x, o1, y, o2, z, shape)| {
            let float = |s: &str| s.contains("fv") || s.contains("dv") || s.contains("float") || s.contains("double");
            let int_op = |o: &str| matches!(o, "%" | "&" | "|" | "^" | "<<" | ">>");
            // C forbids the integer-only operators on floats: fall back to `+` there.
            let fix = |o: &'static str, a: &str, b: &str| if int_op(o) && (float(a) || float(b)) { "+" } else { o };
            let o1 = fix(o1, &x, &y);
            let o2 = fix(o2, &format!("{x}{y}"), &z);
            let asg = if matches!(asg, "|=" | "^=") && (float(dst) || float(&x)) { "+=" } else { asg };
            match shape % 4 {
                0 => format!("{dst} {asg} {x} {o1} {y};"),
                1 => format!("{dst} {asg} ({x} {o1} {y}) {o2} {z};"),
                2 => format!("{dst} {asg} {x} ? {y} : {z};"),
                _ => format!("if ({x} {o1} {y} && {z}) {dst}++; else {dst}--;"),
            }
        },
    )
}

/// Hot loops that call through function pointers, call variadic functions (reading their arguments with
/// `va_arg`) and walk a linked list of a self-referential struct: compiled, they print what the interpreter
/// prints, up to the null function pointer the last loop calls.
#[test]
fn function_pointers_varargs_and_lists_in_compiled_loops() {
    let src = "#include <stdio.h>\n#include <stdlib.h>\n#include <stdarg.h>\n\
               typedef struct _node { int key; struct _node *next; } node;\n\
               int add(int a, int b) { return a + b; }\nint sub(int a, int b) { return a - b; }\n\
               long total(int n, ...) { va_list ap; va_start(ap, n); long t = 0;\n\
               \x20 for (int i = 0; i < n; i++) t += va_arg(ap, int);\n  va_end(ap); return t; }\n\
               int main() {\n  int (*op)(int, int) = add;\n  long s = 0;\n  node *head = NULL;\n\
               \x20 for (int i = 0; i < 5000; i++) {\n    op = (i % 3) ? add : sub;\n    s = op((int)s, i) + total(3, i, 1, 2);\n\
               \x20   node *n = (node *)malloc(sizeof(node)); n->key = i; n->next = head; head = n;\n  }\n\
               \x20 long keys = 0;\n  for (node *p = head; p; p = p->next) keys += p->key;\n\
               \x20 printf(\"%ld %ld\\n\", s, keys);\n\
               \x20 while (head) { node *n = head->next; free(head); head = n; }\n\
               \x20 int (*none)(int, int) = NULL;\n  for (int i = 0; i < 4000; i++) { if (i == 3000) op = none; s += op(i, 1); }\n\
               \x20 return (int)s;\n}\n";
    let text = same_in_every_mode("fnptr", src);
    assert!(text.contains("--- stdout\n") && text.contains("16678334 12497500\n"), "{text}");
    assert!(text.contains("host code at line 24 calls `op`, a null function pointer"), "{text}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random statements over every scalar type in a loop: the compiled loop computes exactly what the
    /// interpreter does (wrapping, conversions, float rounding), or stops at the same error.
    #[test]
    fn random_loops_compute_what_the_interpreter_does(body in prop::collection::vec(statement(), 1..6)) {
        let src = format!(
            "#include <cstdio>\nint main() {{\n  signed char i8v = 5; unsigned char u8v = 250; short i16v = -300;\n\
             \x20 unsigned short u16v = 65000; int iv = 123456; unsigned uv = 4000000000u; long long lv = -9;\n\
             \x20 unsigned long long ulv = 77; float fv = 1.5f; double dv = -2.25; int a[8] = {{1, 2, 3, 4, 5, 6, 7, 8}};\n\
             \x20 for (int i = 0; i < 64; i++) {{\n    int j = i & 7;\n    {}\n  }}\n\
             \x20 printf(\"%d %d %d %d %d %u %lld %llu %.9g %.17g %d %d\\n\", i8v, u8v, i16v, u16v, iv, uv, lv, ulv, fv, dv, a[0], a[7]);\n\
             \x20 return 0;\n}}\n",
            body.join("\n    ")
        );
        let dir = std::env::temp_dir().join(format!("warpdbg-jit-prop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("r.cu"), &src).unwrap();
        let off = run(&dir, "r.cu", "off");
        let eager = run(&dir, "r.cu", "eager");
        prop_assert!(!off.text.starts_with("status Some(2)"), "the program compiles: {}\n{}", src, off.text);
        prop_assert_eq!(eager.text, off.text, "{}", src);
    }
}

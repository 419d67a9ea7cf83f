//! Host lambdas (issue 33; the whole programs are `tests/programs/host_lambda.cu` and
//! `host_lambda_algorithm.cu`): captures by copy and by reference, closures stored, copied, called and passed to
//! function templates, and `<algorithm>`'s calls that take a function object. Each test runs the real binary and
//! asserts its exact output and status; the expected values are what g++ 12 and libstdc++ print for the same
//! host code (the kernels are empty).

#[path = "common/run_source.rs"]
mod run_source;

/// `warpdbg run` on `src` (written to a file of its own): (stdout, stderr, status).
fn run(name: &str, src: &str) -> (String, String, i32) {
    run_source::run_source("lambda", name, src, &[])
}

const CAPTURES: &str = r#"#include <cstdio>
__global__ void k() {}
template <class F> void repeat(int n, F f) { for (int i = 0; i < n; i++) f(i); }
template <typename F> float apply(F f, float x) { return f(x); }
struct Acc { int total; };
void addAll(int *xs, int n, int &out) {
    repeat(n, [&](int i) { out += xs[i]; });
}
int main() {
    int sum = 0;
    auto add = [&](int i) { sum += i; };
    add(3);
    add(4);
    printf("sum %d\n", sum);
    int base = 10;
    auto plus = [base](int x) { return x + base; };
    auto plusRef = [&base](int x) { return x + base; };
    base = 100;
    printf("plus %d %d\n", plus(5), plusRef(5));
    auto twice = [=](float x) -> float { return 2 * x + base; };
    printf("twice %.2f\n", twice(1.5f));
    repeat(5, add);
    printf("sum %d\n", sum);
    repeat(3, [&](int i) { sum -= i * base; });
    printf("sum %d\n", sum);
    printf("apply %.1f\n", apply([](float v) { return v * v; }, 3.0f));
    int counter = 0;
    auto next = [&counter]() { return ++counter; };
    next();
    next();
    int third = next();
    printf("counter %d %d\n", counter, third);
    auto nested = [&](int n) { int t = 0; for (int i = 0; i < n; i++) t += plus(i); return t; };
    printf("nested %d\n", nested(3));
    int m = 1;
    auto grow = [m]() mutable { m *= 3; return m; };
    int g1 = grow();
    int g2 = grow();
    printf("grow %d %d m %d\n", g1, g2, m);
    auto copy = grow;
    int g3 = copy();
    int g4 = grow();
    printf("copy %d grow %d\n", g3, g4);
    int xs[4] = {1, 2, 3, 4};
    int total = 0;
    addAll(xs, 4, total);
    int arr[3] = {7, 8, 9};
    auto first = [arr]() { return arr[0] + arr[2]; };
    arr[0] = 0;
    Acc acc = {5};
    auto bump = [&acc](int by) { acc.total += by; };
    bump(2);
    printf("total %d first %d acc %d\n", total, first(), acc.total);
    auto inc = [](int &v) { v++; };
    int w = 1;
    inc(w);
    inc(w);
    const int K = 4;
    auto timesK = [](int v) { return v * K; };
    printf("w %d timesK %d\n", w, timesK(w));
    return 0;
}
"#;

/// A copy is taken when the lambda is made, a reference sees later changes and changes the variable;
/// `mutable` copies are the closure's own (a copied closure has its own); a lambda passed to a template
/// (by value) still changes what it references; parameters and arrays are captured too.
#[test]
fn captures_by_copy_and_by_reference_behave_as_in_cxx() {
    let (out, err, status) = run("captures", CAPTURES);
    assert_eq!(
        out,
        "sum 7
plus 15 105
twice 103.00
sum 17
sum -283
apply 9.0
counter 3 3
nested 33
grow 3 9 m 1
copy 27 grow 27
total 10 first 16 acc 7
w 3 timesK 12
",
        "{err}"
    );
    assert_eq!(status, 0, "{err}");
}

const ALGORITHMS: &str = r#"#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <numeric>
__global__ void k() {}
struct P { int key; int id; };
struct Closer {
    float to;
    bool operator()(float a, float b) const { return (a - to) * (a - to) < (b - to) * (b - to); }
};
int main() {
    std::vector<float> v(8);
    float scale = 0.5f;
    int calls = 0;
    std::generate(v.begin(), v.end(), [&]() { calls++; return calls * scale; });
    std::for_each(v.begin(), v.end(), [&](float &x) { x = x * x; calls++; });
    for (float x : v) printf("%.3f ", x);
    printf("| calls %d\n", calls);
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = (i * 7) % 10 - 5;
    int b[10];
    std::transform(a, a + 10, b, [](int x) { return x * x; });
    long neg = std::count_if(a, a + 10, [](int x) { return x < 0; });
    int total = std::accumulate(a, a + 10, 100, [](int acc, int x) { return acc + 2 * x; });
    printf("neg %ld total %d b:", neg, total);
    for (int i = 0; i < 10; i++) printf(" %d", b[i]);
    printf("\n");
    std::sort(a, a + 10, [](int x, int y) { return abs(x) < abs(y); });
    for (int i = 0; i < 10; i++) printf(" %d", a[i]);
    printf("\n");
    std::vector<int> w(200);
    for (int i = 0; i < 200; i++) w[i] = (i * 37 + 11) % 23 - 11;
    std::sort(w.begin(), w.end(), [](int x, int y) { return x * x < y * y; });
    long check = 0;
    for (int i = 0; i < 200; i++) check = check * 31 % 1000003 + (w[i] + 20) * (i + 1);
    printf("w %d %d %d check %ld\n", w[0], w[100], w[199], check);
    P ps[30];
    for (int i = 0; i < 30; i++) { ps[i].key = (i * 13) % 7; ps[i].id = i; }
    std::sort(ps, ps + 30, [](const P &p, const P &q) { return p.key < q.key; });
    for (int i = 0; i < 30; i++) printf(" %d:%d", ps[i].key, ps[i].id);
    printf("\n");
    std::stable_sort(ps, ps + 30, [](const P &p, const P &q) { return p.id % 3 < q.id % 3; });
    for (int i = 0; i < 30; i++) printf(" %d", ps[i].id);
    printf("\n");
    auto isBig = [](int x) { return x > 3; };
    int *f = std::find_if(a, a + 10, isBig);
    bool any = std::any_of(a, a + 10, isBig);
    bool all = std::all_of(a, a + 10, isBig);
    bool none = std::none_of(a, a + 10, isBig);
    printf("first big %d at %ld any %d all %d none %d\n", *f, (long)(f - a), (int)any, (int)all, (int)none);
    int *m = std::max_element(a, a + 10, [](int x, int y) { return abs(x) < abs(y); });
    printf("max |x| %d\n", *m);
    Closer near = {2.2f};
    float fs[5] = {0.5f, 3.0f, 2.0f, -1.0f, 2.5f};
    printf("closest %.1f\n", *std::min_element(fs, fs + 5, near));
    std::sort(fs, fs + 5, near);
    for (float x : fs) printf(" %.1f", x);
    printf("\n");
    return 0;
}
"#;

/// `<algorithm>` with lambdas, closure variables and a functor: the elements, counts and positions g++ gives,
/// elements that compare equal where libstdc++'s introsort leaves them (30 records by a key with 7 values;
/// 200 numbers by their square).
#[test]
fn algorithms_take_lambdas_and_functors_as_libstdcxx_does() {
    let (out, err, status) = run("algorithms", ALGORITHMS);
    assert_eq!(out, "0.250 1.000 2.250 4.000 6.250 9.000 12.250 16.000 | calls 16
neg 5 total 90 b: 25 4 1 16 9 0 9 16 1 4
 0 -1 1 2 -2 3 -3 -4 4 -5
w 0 -6 11 check 722493
 0:21 0:0 0:7 0:28 0:14 1:27 1:20 1:6 1:13 2:26 2:19 2:12 2:5 3:11 3:18 3:4 3:25 4:10 4:17 4:3 4:24 5:9 5:16 5:2 5:23 6:29 6:15 6:22 6:8 6:1
 21 0 27 6 12 18 3 24 9 15 7 28 13 19 4 25 10 16 22 1 14 20 26 5 11 17 2 23 29 8
first big 4 at 8 any 1 all 0 none 0
max |x| -5
closest 2.0
 2.0 2.5 3.0 0.5 -1.0
", "{err}");
    assert_eq!(status, 0, "{err}");
}

/// `std::function<R(A)>` holding a lambda; `std::for_each` over an array of `std::thread`s joining each (a
/// course's streams program); a lambda inside a function template's instance is a class per instance.
#[test]
fn std_function_threads_and_lambdas_in_templates() {
    let src = r#"#include <cstdio>
#include <functional>
#include <thread>
#include <algorithm>
__global__ void k() {}
template <typename T> T sumBy(const T *xs, int n, T scale) {
    T total = 0;
    auto add = [&](T x) { total += x * scale; };
    for (int i = 0; i < n; i++) add(xs[i]);
    return total;
}
int main() {
    float offset = 0.5f;
    std::function<float(float, float)> mix = [offset](float a, float b) { return a * 0.25f + b + offset; };
    printf("mix %.3f\n", mix(2.0f, 1.0f));
    int done = 0;
    std::thread threads[3];
    for (int i = 0; i < 3; i++) threads[i] = std::thread([&done, i] { done += i + 1; });
    std::for_each(threads, threads + 3, [](std::thread &t) { t.join(); });
    printf("done %d\n", done);
    int is[3] = {1, 2, 3};
    double ds[2] = {0.5, 0.25};
    printf("%d %.3f\n", sumBy(is, 3, 2), sumBy(ds, 2, 4.0));
    return 0;
}
"#;
    let (out, err, status) = run("function", src);
    assert_eq!(out, "mix 2.000\ndone 6\n12 3.000\n", "{err}");
    assert_eq!(status, 0, "{err}");
}

/// What is not read yet is named at its line: capturing `this`, init captures, a lambda returning a struct
/// without `-> T`.
#[test]
fn unsupported_lambdas_are_named_at_their_line() {
    let this = "#include <cstdio>\n__global__ void k() {}\nstruct C {\n    int v;\n    int f() {\n        auto g = [this]() { return v; };\n        return g();\n    }\n};\nint main() { C c; c.v = 1; printf(\"%d\\n\", c.f()); }\n";
    let (_, err, status) = run("this", this);
    assert!(err.contains("not supported by warpdbg: capturing `this` in a lambda yet"), "{err}");
    assert!(err.contains(":6:19"), "{err}");
    assert_eq!(status, 2);
    let init = "#include <cstdio>\n__global__ void k() {}\nint main() {\n    auto h = [q = 3]() { return q; };\n    printf(\"%d\\n\", h());\n}\n";
    let (_, err, status) = run("init", init);
    assert!(err.contains("this lambda capture (`this`, `*this` and `x = value` captures) yet"), "{err}");
    assert!(err.contains(":4:15"), "{err}");
    assert_eq!(status, 2);
    let ret = "#include <cstdio>\n__global__ void k() {}\nstruct P { int a; };\nint main() {\n    auto make = [](int a) { P p = {a}; return p; };\n    printf(\"%d\\n\", make(1).a);\n}\n";
    let (_, err, status) = run("ret", ret);
    assert!(err.contains("a lambda returning a struct without `-> T` yet"), "{err}");
    assert!(err.contains(":5:40"), "{err}");
    assert_eq!(status, 2);
}

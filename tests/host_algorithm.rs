//! `<algorithm>`'s sorting and searching, `throw`, and static data members in host code (issue 33; the whole
//! programs are `tests/programs/host_algorithm.cu`, `host_throw.cu`, `host_static_members.cu`). Each test runs
//! the real binary and asserts its exact output, status and messages; the expected values are what g++ 12 and
//! libstdc++ print for the same host code.

#[path = "common/run_source.rs"]
mod run_source;

/// `warpdbg run` on `src` (written to a file of its own): (stdout, stderr, status).
fn run(name: &str, src: &str, args: &[&str]) -> (String, String, i32) {
    run_source::run_source("algorithm", name, src, args)
}

const THROWS: &str = r#"#include <cstdio>
#include <stdexcept>
#include <string>
__global__ void k() {}
struct Oops { int code; };
int main(int argc, char **argv) {
    printf("start\n");
    std::string why = "bad size";
    Oops oops = {3};
    if (argc == 2) throw 7;
    if (argc == 3) throw "plain text";
    if (argc == 4) throw std::logic_error(why);
    if (argc == 5) throw oops;
    if (argc == 6) throw;
    throw std::out_of_range("index " + std::to_string(argc));
}
"#;

#[test]
fn an_uncaught_throw_prints_libstdcxx_terminate_lines_and_aborts() {
    let cases: [(&[&str], &str); 6] = [
        (&[], "terminate called after throwing an instance of 'std::out_of_range'\n  what():  index 1\n"),
        (&["a"], "terminate called after throwing an instance of 'int'\n"),
        (&["a", "b"], "terminate called after throwing an instance of 'char const*'\n"),
        (&["a", "b", "c"], "terminate called after throwing an instance of 'std::logic_error'\n  what():  bad size\n"),
        (&["a", "b", "c", "d"], "terminate called after throwing an instance of 'Oops'\n"),
        (&["a", "b", "c", "d", "e"], "terminate called without an active exception\n"),
    ];
    for (args, message) in cases {
        let (out, err, status) = run("throws", THROWS, args);
        assert_eq!(out, "start\n", "{args:?}");
        assert!(err.starts_with(message), "{args:?}: {err}");
        assert_eq!(status, 134, "{args:?}");
    }
}

#[test]
fn device_try_and_throw_are_named_with_their_line() {
    let src = "#include <cstdio>\n__global__ void k(int *p) {\n    try {\n        *p = 1;\n    } catch (...) {\n    }\n}\nint main() { k<<<1, 1>>>(nullptr); }\n";
    let (_, err, status) = run("device_try", src, &[]);
    assert!(err.contains("not supported by warpdbg: `try` in device code"), "{err}");
    assert!(err.contains(":3:5"), "{err}");
    assert_eq!(status, 2);
    let src = "#include <cstdio>\n__global__ void k(int *p) {\n    if (!p) throw 1;\n}\nint main() { k<<<1, 1>>>(nullptr); }\n";
    let (_, err, status) = run("device_throw", src, &[]);
    assert!(err.contains("`throw` in device code"), "{err}");
    assert_eq!(status, 2);
}

/// `tests/programs/host_try_catch.cu`: what g++ 12 and libstdc++ print for its host code.
#[test]
fn try_catch_takes_by_class_by_base_by_value_and_all() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/programs/host_try_catch.cu"))
        .expect("test program");
    let (out, err, status) = run("try_catch", &src, &[]);
    assert_eq!(
        out,
        "h[3] = 12.25\nout_of_range: index 9 out of range\n  caught int 42\nstep 0 -> -42\n  caught logic_error: \
         step 1 is invalid\nstep 1 -> -1\nstep 2: classify let something else through\nstep 3 -> 30\n\
         runtime_error: copy back: invalid argument\ndone\n",
        "{err}"
    );
    // The last copy's wrong direction is a finding (the program's own status is 0).
    assert!(err.contains("error: cudaMemcpy at line 74"), "{err}");
    assert_eq!(status, 1, "{err}");
}

/// A handler that does not take the exception lets it go on; none taking it ends as an uncaught throw, and a
/// user class is caught by its name.
#[test]
fn an_exception_no_handler_takes_terminates() {
    let src = r#"#include <cstdio>
#include <stdexcept>
struct Oops { int code; };
__global__ void k() {}
void f(int argc) {
    Oops o = {3};
    try {
        if (argc == 1) throw std::overflow_error("too big");
        if (argc == 2) throw o;
        throw 1.5f;
    } catch (const std::logic_error &e) {
        printf("logic %s\n", e.what());
    } catch (Oops) {
        printf("oops\n");
    }
}
int main(int argc, char **argv) {
    try {
        f(argc);
    } catch (std::runtime_error &e) {
        printf("main: %s\n", e.what());
    }
    printf("after\n");
    f(argc);
}
"#;
    let (out, err, status) = run("uncaught", src, &[]);
    assert_eq!(out, "main: too big\nafter\n");
    assert!(
        err.starts_with("terminate called after throwing an instance of 'std::overflow_error'\n  what():  too big\n"),
        "{err}"
    );
    assert_eq!(status, 134);
    let (out, _, status) = run("uncaught", src, &["a"]);
    assert_eq!(out, "oops\nafter\noops\n");
    assert_eq!(status, 0);
    let (out, err, status) = run("uncaught", src, &["a", "b"]);
    assert_eq!(out, "");
    assert!(err.starts_with("terminate called after throwing an instance of 'float'\n"), "{err}");
    assert_eq!(status, 134);
}

#[test]
fn sorting_searching_and_swapping_as_libstdcxx_does() {
    let src = r#"#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>
__global__ void k() {}
int main() {
    double d[7] = {3.5, -1.0, 2.25, 3.5, -8.0, 0.5, 2.25};
    std::sort(d, d + 7);
    for (double x : d) printf("%g ", x);
    printf("| first max at %ld, first min at %ld\n", (long)(std::max_element(d, d + 7) - d),
           (long)(std::min_element(d, d + 7) - d));
    std::vector<unsigned> u(6);
    std::iota(u.begin(), u.end(), 4294967293u);
    std::sort(u.begin(), u.end(), [](unsigned a, unsigned b) { return b < a; });
    for (unsigned x : u) printf("%u ", x);
    printf("| count 0: %ld, find 2 at %ld, find 9 at end: %d\n", (long)std::count(u.begin(), u.end(), 0u),
           (long)(std::find(u.begin(), u.end(), 2u) - u.begin()), std::find(u.begin(), u.end(), 9u) == u.end());
    std::reverse(u.begin(), u.begin() + 3);
    char s[] = "warpdbg";
    std::sort(s, s + 7, std::greater<char>());
    float *a = nullptr, *b = (float *)d;
    std::swap(a, b);
    printf("%u %u %u %s %d %d\n", u[0], u[1], u[2], s, a == (float *)d, b == nullptr);
    return 0;
}
"#;
    let (out, err, status) = run("sorting", src, &[]);
    assert_eq!(
        out,
        "-8 -1 0.5 2.25 2.25 3.5 3.5 | first max at 5, first min at 0\n\
         4294967295 4294967294 4294967293 2 1 0 | count 0: 1, find 2 at 3, find 9 at end: 1\n\
         4294967293 4294967294 4294967295 wrpgdba 1 1\n",
        "{err}"
    );
    assert_eq!(status, 0);
    // Any lambda sorts as libstdc++'s introsort does (`tests/host_lambda.rs`); a function's name as the
    // comparison is named at its line.
    let src = "#include <algorithm>\n#include <cstdio>\n__global__ void k() {}\nint main() {\n    int a[3] = {3, 1, 2};\n    std::sort(a, a + 3, [](int x, int y) { return x % 2 < y % 2; });\n    printf(\"%d %d %d\\n\", a[0], a[1], a[2]);\n}\n";
    let (out, err, status) = run("sort_by", src, &[]);
    assert_eq!(out, "2 3 1\n", "{err}");
    assert_eq!(status, 0);
    let src = "#include <algorithm>\n__global__ void k() {}\nbool odd(int x, int y) { return x % 2 < y % 2; }\nint main() {\n    int a[3] = {3, 1, 2};\n    std::sort(a, a + 3, odd);\n}\n";
    let (_, err, status) = run("sort_by_fn", src, &[]);
    assert!(err.contains("not supported by warpdbg: a sort comparison other than"), "{err}");
    assert!(err.contains(":6:25"), "{err}");
    assert_eq!(status, 2);
}

#[test]
fn a_static_data_member_is_one_variable_that_hides_a_global_of_its_name() {
    let src = r#"#include <cstdio>
int count = 100;
class Counter {
public:
    static int count;
    int mine;
    Counter() : mine(++count) {}
    static int total() { return count; }
};
int Counter::count = 0;
__global__ void k() {}
int main() {
    Counter a, b, c;
    count += 1;
    printf("%d %d %d %d %d %d %zu\n", a.mine, b.mine, c.mine, Counter::total(), Counter::count, count, sizeof(Counter));
    return 0;
}
"#;
    let (out, err, status) = run("statics", src, &[]);
    assert_eq!(out, "1 2 3 3 3 101 4\n", "{err}");
    assert_eq!(status, 0);
}

#[test]
fn qsort_sorts_as_glibc_with_equal_keys_in_their_first_order() {
    // The expected text is what gcc 12 with glibc 2.36 prints (its qsort is a stable merge sort).
    let src = r#"#include <cstdio>
#include <cstdlib>
__global__ void k() {}
typedef struct { int key; char tag; } item_t;
static int calls = 0;
int by_key(const void *a, const void *b) {
    calls++;
    return ((const item_t *)a)->key - ((const item_t *)b)->key;
}
int desc(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}
int main() {
    item_t items[9] = {{3, 'a'}, {1, 'b'}, {3, 'c'}, {2, 'd'}, {1, 'e'}, {9, 'f'}, {2, 'g'}, {3, 'h'}, {0, 'i'}};
    qsort(items, 9, sizeof(item_t), by_key);
    for (int i = 0; i < 9; i++) printf("%d%c ", items[i].key, items[i].tag);
    printf("| %d calls\n", calls);
    double v[6] = {0.5, -2.0, 7.25, 0.5, 3.0, -1.0};
    qsort(v, 6, sizeof v[0], desc);
    for (int i = 0; i < 6; i++) printf("%g ", v[i]);
    printf("\n");
    qsort(v, 0, sizeof v[0], desc);
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
"#;
    let (out, err, status) = run("qsort", src, &[]);
    assert_eq!(out, "0i 1b 1e 2d 2g 3a 3c 3h 9f | 20 calls\n7.25 3 0.5 0.5 -1 -2 \n", "{err}");
    assert_eq!(status, 0);
}

/// `is_sorted`, `partial_sum`, `adjacent_difference`, `lower_bound`/`upper_bound`/`binary_search`,
/// `inner_product`, `unique` (what it leaves past its result too), `rotate`, `adjacent_find`: the output g++ 12's
/// build of the same program printed.
#[test]
fn sorted_range_and_numeric_algorithms_as_libstdcxx() {
    let src = r#"#include <cstdio>
#include <vector>
#include <algorithm>
#include <numeric>
int main() {
    std::vector<int> v = {1, 1, 2, 3, 3, 3, 7, 9, 9};
    printf("%d %d\n", (int)std::is_sorted(v.begin(), v.end()), (int)std::is_sorted(v.begin() + 2, v.begin() + 1 + 1));
    std::vector<int> ps(v.size()), ad(v.size());
    std::partial_sum(v.begin(), v.end(), ps.begin());
    std::adjacent_difference(v.begin(), v.end(), ad.begin());
    for (size_t i = 0; i < v.size(); i++) printf("%d/%d ", ps[i], ad[i]);
    printf("\n%ld %ld %d %d\n", std::lower_bound(v.begin(), v.end(), 3) - v.begin(), std::upper_bound(v.begin(), v.end(), 3) - v.begin(),
           (int)std::binary_search(v.begin(), v.end(), 7), (int)std::binary_search(v.begin(), v.end(), 8));
    std::vector<float> a = {1.5f, 2.f, 3.f}, b = {2.f, 4.f, 0.5f};
    printf("%g %g\n", std::inner_product(a.begin(), a.end(), b.begin(), 0.0f), std::inner_product(a.begin(), a.end(), b.begin(), 10.0));
    int *e = std::unique(v.data(), v.data() + v.size());
    printf("unique %ld:", e - v.data());
    for (int x : v) printf(" %d", x);
    int *r = std::rotate(v.data(), v.data() + 2, v.data() + 5);
    printf("\nrotate %ld:", r - v.data());
    for (int x : v) printf(" %d", x);
    printf("\n%ld\n", std::adjacent_find(v.begin(), v.end()) - v.begin());
    return 0;
}
"#;
    let (out, err, status) = run("numeric_algorithms", src, &[]);
    assert_eq!(
        out,
        "1 1\n1/1 2/0 4/1 7/1 10/0 13/0 20/4 29/2 38/0 \n3 6 1 0\n12.5 22.5\nunique 5: 1 2 3 7 9 3 7 9 9\nrotate 3: 3 7 9 1 2 3 7 9 9\n7\n",
        "{err}"
    );
    assert_eq!(status, 0);
}

/// A vector as a stack: `pop_back` keeps the storage (`capacity` as libstdc++'s doubling leaves it), for
/// numbers and structs; g++ 12's output.
#[test]
fn pop_back_and_capacity_as_libstdcxx() {
    let src = r#"#include <cstdio>
#include <vector>
struct P { float x, y; };
int main() {
    std::vector<int> st;
    for (int i = 0; i < 5; i++) st.push_back(i * i);
    while (!st.empty()) { printf("%d ", st.back()); st.pop_back(); }
    printf("| %zu %zu\n", st.size(), st.capacity());
    std::vector<P> ps(3, P{1.f, 2.f});
    ps.pop_back();
    printf("%zu %zu %g\n", ps.size(), ps.capacity(), ps.back().y);
    return 0;
}
"#;
    let (out, err, status) = run("pop_back", src, &[]);
    assert_eq!(out, "16 9 4 1 0 | 0 8\n2 3 2\n", "{err}");
    assert_eq!(status, 0);
}

/// `std::vector<T>::iterator` and `const_iterator` loops (an iterator is the element pointer `begin()` gives);
/// g++ 12's output.
#[test]
fn vector_iterators_declared_by_their_type() {
    let src = r#"#include <cstdio>
#include <vector>
int main() {
    std::vector<float> v = {1.5f, 2.5f, 4.f};
    float sum = 0;
    for (std::vector<float>::iterator it = v.begin(); it != v.end(); ++it) { *it *= 2; sum += *it; }
    for (std::vector<float>::const_iterator it = v.begin(); it != v.end(); it++) printf("%g ", *it);
    printf("%g\n", sum);
    return 0;
}
"#;
    let (out, err, status) = run("iterators", src, &[]);
    assert_eq!(out, "3 5 8 16\n", "{err}");
    assert_eq!(status, 0);
}

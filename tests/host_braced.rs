//! Brace lists as values, arrays of `std::string`, `std::numeric_limits` and the `<cfloat>`/`<climits>`
//! constants (issue 33; the whole programs are `tests/programs/host_brace_values.cu`, `host_string_array.cu`,
//! `numeric_limits.cu`), and the C++ library that stays unsupported named at its line. Each test runs the real
//! binary and asserts its exact output and status; the expected values are what g++ and nvcc's programs print.

#[path = "common/run_source.rs"]
mod run_source;

fn run(name: &str, src: &str) -> (String, String, i32) {
    run_source::run_source("braced", name, src, &[])
}

#[test]
fn brace_lists_take_the_type_their_place_expects() {
    let src = r#"#include <cstdio>
#include <vector>
struct P { int x; int y; };
struct Q { P a; float w; };
P make(int a) { return {a, a * 2}; }
Q nest(int i) { return {{i, i + 1}, 0.5f}; }
int sum(P p) { return p.x + p.y; }
int product(const P &p) { return p.x * p.y; }
int main() {
    P p = make(3);
    P arr[3];
    arr[0] = {7, 8};
    arr[1] = P{9, 10};
    arr[2] = {11};
    Q q = nest(4);
    printf("%d %d | %d %d %d %d %d %d | %d %d %.2f\n", p.x, p.y, arr[0].x, arr[0].y, arr[1].x, arr[1].y,
           arr[2].x, arr[2].y, q.a.x, q.a.y, q.w);
    printf("%d %d\n", sum({10, 20}), product({3, 4}));
    std::vector<P> v = {{1, 2}, {3, 4}};
    v.push_back({5, 6});
    v.push_back(P{7, 8});
    for (int i = 0; i < 4; i++) {
        P t = P{i};
        v[i] = {t.x + t.y + 100, v[i].y};
    }
    for (const auto &e : v) printf("(%d,%d)", e.x, e.y);
    printf(" %zu\n", v.size());
    int k = 0;
    k = {5};
    printf("%d\n", k);
    return 0;
}
"#;
    let (out, err, status) = run("values", src);
    assert_eq!(out, "3 6 | 7 8 9 10 11 0 | 4 5 0.50\n30 12\n(100,2)(101,4)(102,6)(103,8) 4\n5\n", "{err}");
    assert_eq!(status, 0, "{err}");
}

#[test]
fn a_temporary_made_again_in_a_loop_starts_zeroed() {
    // `{i}` leaves `y` zero each time, even after an iteration that set it.
    let src = r#"#include <cstdio>
struct P { int x; int y; };
int main() {
    P last = {0, 0};
    for (int i = 0; i < 3; i++) {
        P t = (i % 2 == 0) ? P{i} : P{i, 9};
        last = t;
        printf("%d,%d ", last.x, last.y);
    }
    printf("\n");
    return 0;
}
"#;
    let (out, err, status) = run("loop", src);
    assert_eq!(out, "0,0 1,9 2,0 \n", "{err}");
    assert_eq!(status, 0, "{err}");
}

#[test]
fn arrays_of_strings_take_their_initialisers_and_the_rest_are_empty() {
    let src = r#"#include <cstdio>
#include <string>
#include <iostream>
int main() {
    std::string labels[4] = {"a", "bb", "ccc"};
    for (int i = 0; i < 4; i++) std::cout << "[" << labels[i] << "]" << labels[i].size();
    std::cout << std::endl;
    printf("%s %d\n", labels[2].c_str(), labels[3].empty() ? 1 : 0);
    return 0;
}
"#;
    let (out, err, status) = run("strings", src);
    assert_eq!(out, "[a]1[bb]2[ccc]3[]0\nccc 1\n", "{err}");
    assert_eq!(status, 0, "{err}");
}

#[test]
fn numeric_limits_and_c_limits_are_the_lp64_values_on_both_sides() {
    let src = r#"#include <cstdio>
#include <cfloat>
#include <climits>
#include <limits>
__global__ void k(float *f, int *i, double *d) {
    f[0] = -std::numeric_limits<float>::infinity();
    f[1] = FLT_MAX;
    f[2] = std::numeric_limits<float>::lowest();
    f[3] = std::numeric_limits<float>::epsilon();
    f[4] = INFINITY;
    i[0] = std::numeric_limits<int>::min();
    i[1] = INT_MAX;
    i[2] = std::numeric_limits<unsigned char>::max();
    d[0] = std::numeric_limits<double>::min();
    d[1] = DBL_MAX;
}
int main() {
    float *f; int *i; double *d;
    cudaMallocManaged(&f, 5 * sizeof(float));
    cudaMallocManaged(&i, 3 * sizeof(int));
    cudaMallocManaged(&d, 2 * sizeof(double));
    k<<<1, 1>>>(f, i, d);
    cudaDeviceSynchronize();
    printf("%g %g %g %g %g | %d %d %d | %g %g\n", f[0], f[1], f[2], f[3], f[4], i[0], i[1], i[2], d[0], d[1]);
    printf("%d %d %u %lld %zu\n", std::numeric_limits<int>::max(), std::numeric_limits<int>::lowest(),
           std::numeric_limits<unsigned>::max(), std::numeric_limits<long long>::min(),
           std::numeric_limits<size_t>::max());
    printf("%.9g %.17g %g\n", std::numeric_limits<float>::max(), std::numeric_limits<double>::epsilon(),
           std::numeric_limits<float>::infinity());
    cudaFree(f); cudaFree(i); cudaFree(d);
    return 0;
}
"#;
    let (out, err, status) = run("limits", src);
    assert_eq!(
        out,
        "-inf 3.40282e+38 -3.40282e+38 1.19209e-07 inf | -2147483648 2147483647 255 | 2.22507e-308 1.79769e+308\n\
         2147483647 -2147483648 4294967295 -9223372036854775808 18446744073709551615\n\
         3.40282347e+38 2.2204460492503131e-16 inf\n",
        "{err}"
    );
    assert_eq!(status, 0, "{err}");
}

#[test]
fn the_library_not_modelled_yet_is_named_at_its_line() {
    let cases = [
        ("int main() {\n    std::pair<int, float> p;\n    return 0;\n}\n", ":2:10", "`std::pair` and `std::tuple` yet"),
        (
            "#include <map>\nint main() {\n    std::map<int, int> m;\n    return 0;\n}\n",
            ":3:10",
            "`std::map`, `std::unordered_map` and `std::set` yet",
        ),
        (
            "struct P { int x; int y; };\nint main() {\n    P p{1, 2};\n    auto [a, b] = p;\n    return a + b;\n}\n",
            ":4:10",
            "structured bindings (`auto [a, b] = ...`) yet",
        ),
        (
            "struct P { int x; int y; };\nint main() {\n    P ps[2];\n    for (auto &[a, b] : ps) a = b;\n    return 0;\n}\n",
            ":4:15",
            "structured bindings",
        ),
        (
            "int main() {\n    float m = std::numeric_limits<float>::digits;\n    return 0;\n}\n",
            ":2:20",
            "`std::numeric_limits<...>::digits` of this type",
        ),
    ];
    for (k, (src, at, what)) in cases.iter().enumerate() {
        let (_, err, status) = run(&format!("named{k}"), src);
        assert!(err.contains(&format!("not supported by warpdbg: {what}")), "{src}: {err}");
        assert!(err.contains(at), "{src}: {err}");
        assert_eq!(status, 2, "{src}: {err}");
    }
}

#[test]
fn a_variable_named_like_a_container_is_still_a_variable() {
    let src = "#include <cstdio>\nint main() {\n    int map[3] = {1, 2, 3};\n    int pair = 4;\n    map[1] = pair < 5;\n    printf(\"%d\\n\", map[1] + map[2]);\n    return 0;\n}\n";
    let (out, err, status) = run("names", src);
    assert_eq!(out, "4\n", "{err}");
    assert_eq!(status, 0, "{err}");
}

//! Brace lists as values, strings in arrays and vectors, `std::pair`, structured bindings,
//! `std::numeric_limits` and the `<cfloat>`/`<climits>` constants (issue 33; the whole programs are
//! `tests/programs/host_brace_values.cu`, `host_string_array.cu`, `host_pairs.cu`, `numeric_limits.cu`), and
//! the C++ library that stays unsupported named at its line. Each test runs the real
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
        ("int main() {\n    std::tuple<int, float> p;\n    return 0;\n}\n", ":2:10", "`std::tuple` yet"),
        (
            "#include <map>\nint main() {\n    std::map<int, int> m;\n    return 0;\n}\n",
            ":3:10",
            "`std::map`, `std::unordered_map` and `std::set` yet",
        ),
        (
            "struct P { int x; int y; };\n__global__ void k(P *p) {\n    auto [a, b] = *p;\n}\nint main() {\n    k<<<1, 1>>>(nullptr);\n    return 0;\n}\n",
            ":3:10",
            "structured bindings (`auto [a, b] = ...`) in device code yet",
        ),
        (
            "#include <vector>\nint main() {\n    std::vector<std::vector<int>> v(3, std::vector<int>(2));\n    return 0;\n}\n",
            ":3:36",
            "a vector of vectors filled with copies of one vector yet",
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
fn a_binding_with_the_wrong_number_of_names_is_an_error_at_its_line() {
    let src = "struct P { int x; int y; int z; };\nint main() {\n    P p{1, 2, 3};\n    auto [a, b] = p;\n    return a + b;\n}\n";
    let (_, err, status) = run("binding_count", src);
    assert!(err.contains("`P` has 3 fields; the binding names 2"), "{err}");
    assert!(err.contains(":4:5"), "{err}");
    assert_eq!(status, 2);
}

#[test]
fn vectors_of_strings_hold_copies_made_from_literals_and_strings() {
    let src = r#"#include <cstdio>
#include <vector>
#include <string>
#include <iostream>
#include <algorithm>
int main() {
    std::vector<std::string> names = {"gamma", "alpha"};
    names.push_back("beta");
    std::string d = "delta";
    names.push_back(d);
    d = "changed";
    names.emplace_back(std::string("eps"));
    for (const auto &n : names) std::cout << n << " ";
    std::cout << names.size() << std::endl;
    std::swap(names[0], names[1]);
    for (size_t i = 0; i < names.size(); i++) printf("%s(%zu) ", names[i].c_str(), names[i].size());
    printf("\n");
    names[0] = "zeta";
    names[1] += "!";
    if (names[0] == "zeta" && names[2] < names[3]) std::cout << names[0] + "/" + names[1] << std::endl;
    std::vector<std::string> three(3, "x");
    std::cout << three.size() << three[2] << d << std::endl;
    return 0;
}
"#;
    let (out, err, status) = run("vector_string", src);
    assert_eq!(
        out, "gamma alpha beta delta eps 5\nalpha(5) gamma(5) beta(4) delta(5) eps(3) \nzeta/gamma!\n3xchanged\n",
        "{err}"
    );
    assert_eq!(status, 0, "{err}");
}

#[test]
fn pairs_are_made_converted_stored_and_sorted_lexicographically() {
    let src = r#"#include <cstdio>
#include <vector>
#include <utility>
#include <algorithm>
std::pair<int, float> half(int k) { return {k, k * 0.5f}; }
int main() {
    std::pair<int, float> pr = std::make_pair(1, 2.5f);
    std::pair<int, double> pd = std::make_pair(3, 1.25f);
    pd.second += 1;
    std::pair<int, float> q{4, 5.5f};
    q = half(7);
    printf("%d %g | %d %g %zu | %d %g\n", pr.first, pr.second, pd.first, pd.second, sizeof(pd), q.first, q.second);
    std::vector<std::pair<int, float>> v;
    int keys[8] = {5, 1, 5, 2, 1, 9, 0, 5};
    for (int i = 0; i < 8; i++) v.push_back(std::make_pair(keys[i], (float)(8 - i)));
    v.push_back({1, 0.5f});
    v.push_back(pr);
    std::sort(v.begin(), v.end());
    for (auto &e : v) printf("(%d,%g)", e.first, e.second);
    printf("\n");
    std::pair<int, int> arr[3] = {{2, 1}, {1, 5}, {1, 2}};
    std::stable_sort(arr, arr + 3);
    for (int i = 0; i < 3; i++) printf("(%d,%d)", arr[i].first, arr[i].second);
    printf("\n");
    return 0;
}
"#;
    let (out, err, status) = run("pairs", src);
    assert_eq!(
        out, "1 2.5 | 3 2.25 16 | 7 3.5\n(0,2)(1,0.5)(1,2.5)(1,4)(1,7)(2,5)(5,1)(5,6)(5,8)(9,3)\n(1,2)(1,5)(2,1)\n",
        "{err}"
    );
    assert_eq!(status, 0, "{err}");
}

#[test]
fn structured_bindings_copy_or_refer_to_the_fields() {
    let src = r#"#include <cstdio>
#include <vector>
#include <utility>
struct P { int x; float y; };
int main() {
    P p{1, 2.5f};
    auto [a, b] = p;
    a = 10;
    auto &[c, d] = p;
    c = 7;
    d += 1;
    printf("%d %g %d %g\n", a, b, p.x, p.y);
    auto [k, v] = std::make_pair(3, 0.25);
    printf("%d %g\n", k, v);
    std::vector<P> ps = {{1, 1.5f}, {2, 2.5f}};
    for (auto &[x, y] : ps) { x *= 10; y = -y; }
    for (auto [x, y] : ps) { printf("%d %g;", x, y); x = 0; }
    printf(" %d\n", ps[1].x);
    std::pair<int, int> arr[2] = {{4, 5}, {6, 7}};
    for (const auto &[f, s] : arr) printf("%d-%d ", f, s);
    printf("\n");
    return 0;
}
"#;
    let (out, err, status) = run("bindings", src);
    assert_eq!(out, "10 2.5 7 3.5\n3 0.25\n10 -1.5;20 -2.5; 20\n4-5 6-7 \n", "{err}");
    assert_eq!(status, 0, "{err}");
}

#[test]
fn a_variable_named_like_a_container_is_still_a_variable() {
    let src = "#include <cstdio>\nint main() {\n    int map[3] = {1, 2, 3};\n    int pair = 4;\n    map[1] = pair < 5;\n    printf(\"%d\\n\", map[1] + map[2]);\n    return 0;\n}\n";
    let (out, err, status) = run("names", src);
    assert_eq!(out, "4\n", "{err}");
    assert_eq!(status, 0, "{err}");
}

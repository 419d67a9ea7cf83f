//! Host classes, round three (issue 33): functions and member functions returning references
//! (`float &operator[](int)`, `Grid &operator+=`), overloads by parameter types (free functions, methods,
//! several constructors) and a virtual destructor run through a base pointer. Each test asserts the exact
//! stdout of `warpdbg run` (what g++ and nvcc's program prints).

#[path = "common/program.rs"]
mod program_run;
use program_run::{program_file, run};

#[test]
fn reference_returns_are_assignable_places() {
    let r = program_file("host_class_refs");
    assert_eq!(
        r.stdout,
        "g[0] = 100.0, g(0, 1) = 1.5, g.at(2) = 3.0, g[3] = 7.0, g(2, 3) = 25.0\n\
         sum = 245.5\n\
         \x20200.0   3.0   6.0  14.0\n\
         \x20 20.0  22.0  24.0  26.0\n\
         \x20 40.0  42.0  44.0  50.0\n\
         3 3 2 3 2 20 3 2 \n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn overloads_pick_by_argument_types_and_a_virtual_destructor_runs_the_derived_one() {
    let r = program_file("host_class_overloads");
    assert_eq!(
        r.stdout,
        "6 3.25 3.50 6\nint 7\ntext seven\narray starting 4.5\nsizes 5 4 3\nsum of a = 28.50\n\
         acquire 1\nacquire 2\nbuffer 2 holds 64 floats\n1 is a resource\n2 is a device buffer\n\
         release resource 1\nfree buffer 2\nrelease resource 2\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn a_call_no_overload_fits_is_an_error_at_its_line() {
    let src = "#include <cstdio>\nint f(int x) { return x; }\nint f(int *p) { return *p; }\n\
               struct S { int a; };\nint main() {\n    S s;\n    s.a = 1;\n    return f(s);\n}\n";
    let Err(e) = warpdbg::program::compile("nofit.cu", src.as_bytes(), &Default::default()) else {
        panic!("a struct passed to f(int) or f(int *) must be refused")
    };
    let text = warpdbg::front::diagnostic::render_plain(&e.sources, &e.diags);
    assert!(text.contains("no overload of `f` takes these arguments") && text.contains("nofit.cu:8:12"), "{text}");
}

#[test]
fn std_max_and_min_of_two_pointers_give_the_later_and_the_earlier_address() {
    let src = "#include <cstdio>\n#include <algorithm>\nusing namespace std;\n\
               int main() {\n    int a[4] = {3, 9, 2, 7};\n    int *p = max(a, a + 2);\n\
               \x20   printf(\"%d %d\\n\", *p, *std::min(a + 3, a + 1));\n    return 0;\n}\n";
    let r = run("ptrmax.cu", src);
    assert_eq!(r.stdout, "2 9\n", "{}", r.stderr);
    assert_eq!(r.status, 0, "{}", r.stderr);
}

//! C++ input streams and string streams in host code (issue 33): `std::ifstream` read with `>>` and
//! `std::getline`, `std::istringstream`, `std::ostringstream`, `std::cin`, a stream as a condition, and
//! `std::boolalpha`. Each test runs `warpdbg run` in a folder of its own and asserts its exact standard output.

#[path = "common/in_folder.rs"]
mod in_folder;
use in_folder::program;

/// `warpdbg run NAME.cu` on `src` in a fresh folder, with `input` as its standard input: (stdout, status).
fn run(name: &str, src: &str, input: &str) -> (String, i32) {
    in_folder::run("streams", name, src, input)
}

#[test]
fn a_file_written_with_ofstream_reads_back_with_ifstream_getline_and_string_streams() {
    let src = std::fs::read_to_string(program("host_ifstream.cu")).expect("program");
    let expected = std::fs::read_to_string(program("expected/host_ifstream.stdout")).expect("expected");
    let (out, status) = run("host_ifstream", &src, "");
    assert_eq!(out, expected);
    assert_eq!(status, 0);
}

#[test]
fn extraction_follows_libstdcxx_at_the_end_and_on_bad_input() {
    let src = r#"
#include <iostream>
#include <sstream>
#include <string>
__global__ void k() {}
int main() {
    std::istringstream in("  -7 4000000000 2.5e1 x\nlast");
    int a = 1; unsigned u = 1; float f = 1; char c = 'q'; std::string s = "keep";
    in >> a >> u >> f >> c;
    std::cout << a << " " << u << " " << f << " " << c << " " << in.good() << std::endl;
    std::getline(in, s);
    std::cout << "[" << s << "] ";
    std::getline(in, s);
    std::cout << "[" << s << "] " << in.eof() << in.fail() << std::endl;
    std::getline(in, s);
    std::cout << "[" << s << "] " << in.eof() << in.fail() << std::endl;
    std::istringstream big("99999999999 -5");
    int b = 3; unsigned v = 0;
    big >> b;
    std::cout << b << " " << big.fail() << std::endl;
    big.clear();
    big >> v;
    std::cout << v << " " << (big ? "ok" : "failed") << std::endl;
    std::stringstream ss;
    ss << 3 << " " << 4.5;
    double d = 0; int i = 0;
    ss >> i >> d;
    std::cout << ss.str() << " -> " << i + d << std::endl;
    int n = 5;
    std::cin >> n;
    bool read = n > 9;
    std::cout << "cin " << n << " " << (std::cin ? "ok" : "eof") << std::boolalpha << " " << read << " " << ss.good()
              << std::noboolalpha << " " << true << std::endl;
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
"#;
    let (out, status) = run("extract", src, "");
    assert_eq!(
        out,
        "-7 4000000000 25 x 1\n[] [last] 10\n[last] 11\n2147483647 1\n4294967291 ok\n3 4.5 -> 7.5\ncin 5 eof false false 1\n"
    );
    assert_eq!(status, 0);
}

#[test]
fn reading_a_struct_from_a_stream_is_named_at_its_line() {
    let src = "#include <sstream>\nstruct P { int x; };\n__global__ void k() {}\nint main() {\n    std::istringstream in(\"1\");\n    P p;\n    in >> p;\n    return 0;\n}\n";
    let (_, status) = run("struct_read", src, "");
    assert_eq!(status, 2);
}

#[test]
fn each_stream_keeps_its_own_format_and_the_iomanip_manipulators_work_as_libstdcxx() {
    // The expected text is what g++ 13 with libstdc++ prints for the same program.
    let src = r#"
#include <iostream>
#include <sstream>
#include <iomanip>
__global__ void k() {}
int main() {
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << 3.14159;
    std::cout << os.str() << " " << 1996002.0f << " " << 3.14159 << std::endl;
    std::cout << std::scientific << 12345.678 << std::endl;
    std::cout.precision(3);
    std::cout << std::defaultfloat << 12345.678 << std::endl;
    std::cout << std::hex << 255 << " " << -1 << std::dec << " " << 255 << std::oct << " " << 8 << std::dec << std::endl;
    std::cout << std::left << std::setw(6) << "ab" << "|" << std::right << std::setw(6) << "cd" << "|" << std::endl;
    std::cout << std::setfill('0') << std::setw(5) << 42 << " " << std::setw(5) << -42 << std::setfill(' ') << std::endl;
    std::cout << std::setw(4) << std::endl << 7 << "|" << std::setw(3) << 'c' << "|" << std::endl;
    std::cout.setf(std::ios::fixed, std::ios::floatfield);
    std::cout << 2.5 << " ";
    std::cout.unsetf(std::ios::fixed);
    std::cout.width(6);
    std::cout << 2.5 << "|" << std::endl;
    std::cerr << 0.1 + 0.2 << std::endl;
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
"#;
    let (out, status) = run("iomanip", src, "");
    assert_eq!(
        out,
        "3.1 1.996e+06 3.14159\n1.234568e+04\n1.23e+04\nff ffffffff 255 10\nab    |    cd|\n00042 00-42\n\n   7|  c|\n2.500    2.5|\n"
    );
    assert_eq!(status, 0);
}

//! Class templates in whole programs (issue 33; the whole program is `tests/programs/host_class_template.cu`):
//! each use with new arguments makes the class, its members defined in the class or out of it, for host code
//! and for kernels. Each test runs the real binary and asserts its exact output and status (what g++ 12
//! prints for the host code, and the GPU for the kernels' values).

#[path = "common/run_source.rs"]
mod run_source;

/// `warpdbg run` on `src` (written to a file of its own): (stdout, stderr, status).
fn run(name: &str, src: &str) -> (String, String, i32) {
    run_source::run_source("class-template", name, src, &[])
}

/// `tests/programs/host_class_template.cu`: two instances of a buffer class (members out of the class,
/// `operator[]` by reference, a destructor), and a class with a constant parameter.
#[test]
fn buffer_class_template_runs_with_two_instances() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/programs/host_class_template.cu"))
        .expect("test program");
    let (out, err, status) = run("buffer", &src);
    assert_eq!(
        out,
        "f[3] = 6.0, k[6] = 36\nsum of f = 9900.0, sum of k = 1275\n\
         kept 8 of 10, largest 126.0, sizeof(Stats<float, 8>) = 36\nfreed a buffer of 100\nfreed a buffer of 100\ndone\n",
        "{err}"
    );
    assert_eq!(status, 0, "{err}");
}

const DEVICE_AND_HOST: &str = r#"#include <cstdio>
template <typename T, int N = 4> struct Pair {
    T a, b;
    __host__ __device__ T weighted() const { return a * N + b; }
};
template <class T> class Counter {
    T count;
    T step;
public:
    Counter(T s);
    void tick() { count += step; }
    T get() const;
};
template <class U> Counter<U>::Counter(U s) : count(0), step(s) {}
template <class U> U Counter<U>::get() const { return count; }
typedef Pair<float> Pairf;
__global__ void weigh(const Pairf *p, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = p[i].weighted();
}
int main() {
    Pairf h[3];
    for (int i = 0; i < 3; i++) { h[i].a = i; h[i].b = 0.5f; }
    Pairf *d; float *o;
    cudaMalloc(&d, sizeof(h));
    cudaMallocManaged(&o, 3 * sizeof(float));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    weigh<<<1, 3>>>(d, o, 3);
    cudaDeviceSynchronize();
    Pair<int, 10> q;
    q.a = 2; q.b = 3;
    printf("%.1f %.1f %.1f host %.1f %d\n", o[0], o[1], o[2], h[2].weighted(), q.weighted());
    Counter<double> c(0.5);
    Counter<int> ci(3);
    for (int i = 0; i < 3; i++) { c.tick(); ci.tick(); }
    printf("%.2f %d %d\n", c.get(), ci.get(), (int)sizeof(Pair<double, 2>));
    return 0;
}
"#;

/// A struct template with a default constant argument used through a `typedef` by a kernel and by host code;
/// a class template whose constructor and getter are defined out of the class with another parameter name.
#[test]
fn class_templates_serve_kernels_and_host_code() {
    let (out, err, status) = run("device_and_host", DEVICE_AND_HOST);
    assert_eq!(out, "0.5 4.5 8.5 host 8.5 23\n1.50 9 16\n", "{err}");
    assert_eq!(status, 0, "{err}");
    assert!(err.contains("leak: 24 bytes of device memory from cudaMalloc at line 25"), "{err}");
}

/// Too many template arguments are an error at the use's line.
#[test]
fn a_wrong_argument_count_is_an_error_at_its_line() {
    let (_, err, status) = run(
        "count",
        r#"#include <cstdio>
template <typename T> struct Box { T v; T get() { return v; } };
__global__ void k() {}
int main() {
    Box<int, 2> b;
    return 0;
}
"#,
    );
    assert!(err.contains("`Box` takes 1 template argument, 2 given"), "{err}");
    assert!(err.contains(":5:5"), "{err}");
    assert_eq!(status, 2);
}

/// A class template pointing to its own instance (`Node<T> *next`) and holding another's by value; a template
/// that names ever new instances of itself (`Deep<N + 1>`) stops at a bound, an error at its line.
#[test]
fn instances_inside_instances_are_made_once() {
    let src = r#"#include <cstdio>
__global__ void k() {}
template <class T> struct Link {
    T weight;
};
template <class T> struct Node {
    T value;
    Node<T> *next;
    Link<T> out;
};
int main() {
    Node<int> a, b;
    a.value = 1;
    b.value = 2;
    a.next = &b;
    a.out.weight = 5;
    printf("%d -> %d (%d) %d\n", a.value, a.next->value, a.out.weight, (int)sizeof(Node<double>));
    return 0;
}
"#;
    let (out, err, status) = run("linked", src);
    assert_eq!(out, "1 -> 2 (5) 24\n", "{err}");
    assert_eq!(status, 0, "{err}");
    let deep = "#include <cstdio>\n__global__ void k() {}\ntemplate <int N> struct Deep { Deep<N + 1> *next; };\nint main() { Deep<0> d; return 0; }\n";
    let (_, err, status) = run("deep", deep);
    assert!(err.contains("class template instances nested more than 16 deep"), "{err}");
    assert!(err.contains(":3:32"), "{err}");
    assert_eq!(status, 2, "{err}");
}

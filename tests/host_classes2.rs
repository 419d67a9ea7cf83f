//! Host classes as courses write them (issue 33): overloaded operators (members and free functions),
//! temporaries, destructors run where their object's scope ends, `new`/`delete` of objects, and simple
//! inheritance with virtual functions chosen by the object's dynamic type. Each test asserts the exact stdout
//! of `warpdbg run` (what g++ and nvcc's program prints).

#[path = "common/program.rs"]
mod program_run;
use program_run::{program_file, run};

#[test]
fn a_gpu_timer_class_and_an_raii_buffer_run_their_destructors_at_scope_end() {
    let r = program_file("host_class_timer");
    assert_eq!(
        r.stdout,
        "allocated 256 floats\ntimed 3 launches, elapsed positive: 1\ntimer destroyed after 3 laps\n\
         freed 256 floats\nh[7] = 57.0\nallocated 16 floats\ninner scope holds 16\nfreed 16 floats\ndone\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    // The buffers' destructors freed them: no leak to report.
    assert!(!r.stderr.contains("LEAK"), "{}", r.stderr);
}

#[test]
fn operators_of_host_classes_members_free_functions_and_temporaries() {
    let r = program_file("host_class_matrix");
    assert_eq!(
        r.stdout,
        "q = (5.0, 50.0), -q = (-5.0, -50.0)\n\
         c = 6.0+7.0i, d = 6.5+8.5i, a == a: 1, a == b: 0\n\
         C(1,2) = 6.0, C(3,3) = 12.0, trace = 24.0\n\
         freed a 4x4 matrix\nfreed a 4x4 matrix\nfreed a 4x4 matrix\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn virtual_functions_are_chosen_by_the_objects_class_through_base_pointers() {
    let r = program_file("host_class_shapes");
    assert_eq!(
        r.stdout,
        "shape 1 is a rect of area 6.0\nshape 2 is a square of area 16.0\nshape 3 is a shape of area 3.0\n\
         total area 25.0\n~Rect 2\n~Rect 1\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn destructors_run_in_reverse_order_on_return_and_block_exit_and_delete_runs_one() {
    let src = r#"#include <cstdio>
class Tracer {
    int id;
public:
    Tracer(int i) : id(i) { printf("+%d ", id); }
    ~Tracer() { printf("-%d ", id); }
    int get() const { return id; }
};
__global__ void k(int *p) { *p = 1; }
int pick(int n) {
    Tracer a(10);
    {
        Tracer b(20);
        if (n > 0) return n + b.get();
    }
    Tracer c(30);
    return c.get();
}
int main() {
    int x = pick(1);
    printf("| %d\n", x);
    x = pick(0);
    printf("| %d\n", x);
    Tracer *t = new Tracer(7);
    printf("heap %d ", t->get());
    delete t;
    for (int i = 0; i < 2; i++) {
        Tracer loop(i);
    }
    printf("\n");
    return 0;
}
"#;
    let r = run("tracer.cu", src);
    assert_eq!(
        r.stdout, "+10 +20 -20 -10 | 21\n+10 +20 -20 +30 -30 -10 | 30\n+7 heap 7 -7 +0 -0 +1 -1 \n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("LEAK"), "{}", r.stderr);
}

#[test]
fn the_issues_probes_an_operator_of_a_host_device_struct_and_a_virtual_call() {
    let src = r#"#include <cstdio>
struct Vec3 {
    float x, y, z;
    __host__ __device__ Vec3 operator+(const Vec3 &o) const { Vec3 r; r.x = x + o.x; r.y = y + o.y; r.z = z + o.z; return r; }
};
class Base { public: virtual ~Base() {} virtual int f() { return 1; } };
class Der : public Base { public: int f() override { return 2; } };
__global__ void k(Vec3 *v) { v[0].x = v[1].x + v[2].x; }
int main() {
    Vec3 h[3];
    for (int i = 0; i < 3; i++) { h[i].x = i; h[i].y = 2 * i; h[i].z = 3 * i; }
    Vec3 t = h[1] + h[2];
    Der d;
    Base b0;
    Base *b = &d;
    Base *c = &b0;
    printf("%.0f %.0f %.0f %d %d %d\n", t.x, t.y, t.z, b->f(), c->f(), d.f());
    return 0;
}
"#;
    let r = run("probes.cu", src);
    assert_eq!(r.stdout, "3 6 9 2 1 2\n", "{}", r.stderr);
    assert_eq!(r.status, 0, "{}", r.stderr);
}

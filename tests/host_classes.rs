//! Host classes and the C++ course code writes around CUDA (issue 33): `__managed__` variables, device-side
//! struct methods, inheritance, operators, `operator new` over managed memory, local types, arrays of arrays.
//! Each test asserts the exact stdout of `warpdbg run` (what the same program prints on a GPU).

#[path = "common/program.rs"]
mod program_run;
use program_run::run;

#[test]
fn managed_variables_are_one_value_for_host_and_device() {
    let src = r#"#include <cstdio>
__managed__ int sum;
__managed__ int squares[4] = {9, 9, 9, 9};
__global__ void k(int n) {
    int i = threadIdx.x;
    if (i < n) { atomicAdd(&sum, i); squares[i] = i * i + squares[i] - 9; }
}
void show() { printf("%d: %d %d %d %d\n", sum, squares[0], squares[1], squares[2], squares[3]); }
int main() {
    show();
    sum = 100;
    k<<<1, 32>>>(4);
    cudaDeviceSynchronize();
    show();
    return 0;
}
"#;
    let r = run("managed.cu", src);
    assert_eq!(r.stdout, "0: 9 9 9 9\n106: 0 1 4 9\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
}

#[test]
fn a_struct_with_a_host_constructor_and_device_methods_is_a_lock_in_kernels() {
    // CUDA by Example's `Lock`: its constructor allocates on the host, its destructor frees (run at the end of
    // `main`, each array element's too: nothing leaks), its `__device__` methods spin with atomicCAS.
    let src = r#"#include <cstdio>
struct Lock {
    int *mutex;
    Lock(void) { cudaMalloc((void **)&mutex, sizeof(int)); cudaMemset(mutex, 0, sizeof(int)); }
    ~Lock(void) { cudaFree(mutex); }
    __device__ void lock(void) { while (atomicCAS(mutex, 0, 1) != 0); __threadfence(); }
    __device__ void unlock(void) { __threadfence(); atomicExch(mutex, 0); }
};
__global__ void add(Lock lock, int *total) {
    if (threadIdx.x == 0) { lock.lock(); *total += blockIdx.x + 1; lock.unlock(); }
}
__global__ void add_each(Lock *locks, int *totals) {
    if (threadIdx.x == 0) { int k = blockIdx.x % 2; locks[k].lock(); totals[k] += 1; locks[k].unlock(); }
}
int main() {
    int *d, h[2];
    cudaMalloc((void **)&d, 2 * sizeof(int));
    cudaMemset(d, 0, 2 * sizeof(int));
    Lock lock;
    add<<<8, 32>>>(lock, d);
    cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost);
    printf("total %d\n", h[0]);
    Lock locks[2];
    Lock *d_locks;
    cudaMalloc((void **)&d_locks, 2 * sizeof(Lock));
    cudaMemcpy(d_locks, locks, 2 * sizeof(Lock), cudaMemcpyHostToDevice);
    cudaMemset(d, 0, 2 * sizeof(int));
    add_each<<<7, 64>>>(d_locks, d);
    cudaMemcpy(h, d, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("totals %d %d, distinct mutexes %d\n", h[0], h[1], locks[0].mutex != locks[1].mutex);
    cudaFree(d_locks);
    cudaFree(d);
    return 0;
}
"#;
    let r = run("lock.cu", src);
    assert_eq!(r.stdout, "total 36\ntotals 4 3, distinct mutexes 1\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
    assert!(!r.stderr.contains("LEAK"), "{}", r.stderr);
}

#[test]
fn arrays_of_arrays_and_of_structs_take_nested_or_flat_initialisers() {
    let src = r#"#include <cstdio>
struct P { int x; float y; int v[2]; };
int main() {
    int a[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8}};
    int b[2][3] = {1, 2, 3, 4};
    char names[3][6] = {"ab", "cde"};
    P ps[2] = {{1, 1.5f, {7, 8}}, {2}};
    float m[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}}};
    int s = 0;
    for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) s = s * 2 + a[i][j];
    printf("%d %d %d | %d %d %d %d | %s %s [%s]\n", s, a[2][1], a[2][2], b[0][2], b[1][0], b[1][1], b[1][2],
           names[0], names[1], names[2]);
    printf("%d %.1f %d %d | %d %.1f %d | %.0f %.0f %.0f\n", ps[0].x, ps[0].y, ps[0].v[0], ps[0].v[1], ps[1].x,
           ps[1].y, ps[1].v[1], m[0][1][1], m[1][0][1], m[1][1][0]);
    return 0;
}
"#;
    let r = run("arrays.cu", src);
    assert_eq!(r.stdout, "1004 8 0 | 3 4 0 0 | ab cde []\n1 1.5 7 8 | 2 0.0 0 | 4 6 0\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
}

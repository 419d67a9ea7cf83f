// Every atomic, with results that do not depend on the order threads run in.
// @grid 2
// @block 64
// @arg a int[8] = 0
// @arg m int[2] = 0
// @arg u unsigned int[3] = 0
__global__ void atomics(int *a, int *m, unsigned int *u) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&a[0], 1);
    atomicAdd(&a[1], t);
    atomicSub(&a[2], 2);
    atomicMax(&a[3], (t * 37) % 101);
    atomicMin(&a[4], -((t * 53) % 97));
    int old;
    do {
        old = a[5];
    } while (atomicCAS(&a[5], old, old + 3) != old);
    if (t == 17) atomicExch(&a[6], 1234);
    atomicAdd(&a[7], t % 2 == 0 ? 1 : -1);
    atomicAnd(&u[0], 0xffffffffu ^ (1u << (t % 32)));
    atomicOr(&u[1], 1u << (t % 32));
    atomicXor(&u[2], 1u << (t % 5));
    if (t < 2) m[t] = 0;
}

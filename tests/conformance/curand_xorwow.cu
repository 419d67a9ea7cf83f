// cuRAND's default generator (XORWOW) in every form a course uses: curand_init with a subsequence per thread
// (one of them far out, so the 2^67-step jump is exercised) and an offset, raw words, uniform floats and
// doubles, Box-Muller normals with the cached second value, a log-normal, and a state kept in global memory
// between two uses. Words and uniforms are bit-exact by construction; normals go through the GPU's logf and
// __sincosf, which warpdbg computes correctly rounded (the recording says by how much they differ).
#include <curand_kernel.h>
// @grid 2
// @block 32
// @arg states curandState_t[64]
// @arg words unsigned int[256] = 0
// @arg unif float[128] = 0
// @arg norm float[192] = 0
// @arg dbl double[128] = 0
__global__ void curand_xorwow(curandState *states, unsigned int *words, float *unif, float *norm, double *dbl) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long sub = id == 63 ? 0x123456789ull : (unsigned long long)id;
    curand_init(1234, sub, id % 3, &states[id]);
    curandState s = states[id];
    for (int i = 0; i < 4; i++) {
        words[id * 4 + i] = curand(&s);
    }
    unif[id * 2] = curand_uniform(&s);
    unif[id * 2 + 1] = curand_uniform(&states[id]);
    norm[id * 3] = curand_normal(&s);
    norm[id * 3 + 1] = curand_normal(&s);
    norm[id * 3 + 2] = curand_log_normal(&s, 1.0f, 0.5f);
    dbl[id * 2] = curand_uniform_double(&s);
    dbl[id * 2 + 1] = curand_normal_double(&s);
    states[id] = s;
}

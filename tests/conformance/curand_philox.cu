// cuRAND's Philox4x32-10 generator: curand_init with a subsequence and an offset that starts mid-block, single
// words, curand4 from the middle of a block, uniforms one and four at a time, normals one and four at a time.
// Words and uniforms are bit-exact by construction; normals use the GPU's logf and __sincosf (see
// curand_xorwow.cu).
#include <curand_kernel.h>
// @grid 1
// @block 32
// @arg words unsigned int[256] = 0
// @arg unif float[160] = 0
// @arg norm float[160] = 0
__global__ void curand_philox(unsigned int *words, float *unif, float *norm) {
    int id = threadIdx.x;
    curandStatePhilox4_32_10_t s;
    curand_init(42, id, id % 5, &s);
    for (int i = 0; i < 4; i++) {
        words[id * 8 + i] = curand(&s);
    }
    uint4 w = curand4(&s);
    words[id * 8 + 4] = w.x;
    words[id * 8 + 5] = w.y;
    words[id * 8 + 6] = w.z;
    words[id * 8 + 7] = w.w;
    unif[id * 5] = curand_uniform(&s);
    float4 u = curand_uniform4(&s);
    unif[id * 5 + 1] = u.x;
    unif[id * 5 + 2] = u.y;
    unif[id * 5 + 3] = u.z;
    unif[id * 5 + 4] = u.w;
    norm[id * 5] = curand_normal(&s);
    float4 n = curand_normal4(&s);
    norm[id * 5 + 1] = n.x;
    norm[id * 5 + 2] = n.y;
    norm[id * 5 + 3] = n.z;
    norm[id * 5 + 4] = n.w;
}

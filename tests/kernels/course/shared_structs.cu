// A tile of positions in shared memory as float3, a block's shared parameters as one struct, and a
// per-body accumulator in a __device__ array of float3: the n-body tile of a course's chapter 7.
// @grid 2
// @block 4
// @arg out float[8] = 0
struct Params {
    float soft;
    int tile;
};

__device__ float3 acc[8];

__global__ void tile_step(float *out) {
    __shared__ float3 pos[4];
    __shared__ Params p;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    pos[t] = make_float3(i, 2 * i, 3 * i);
    if (t == 0) {
        p.soft = 0.5f;
        p.tile = blockIdx.x;
    }
    __syncthreads();
    float3 q = pos[(t + 1) % 4];
    acc[i].x = q.x;
    acc[i].y = q.y + p.soft;
    out[i] = q.x + q.y + q.z + p.soft + p.tile + acc[i].y;
}

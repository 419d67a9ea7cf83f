// Per-thread local arrays of structs and vectors: a small particle buffer per thread, copied out whole,
// and an index one past the end on the last thread.
// @block 4
// @arg out float[4] = 0
struct P {
    float x, y;
};

__global__ void particles(float *out) {
    P pts[3];
    float3 v[2];
    int t = threadIdx.x;
    for (int i = 0; i < 3; i++) {
        pts[i].x = t + i;
        pts[i].y = 2 * i;
    }
    v[1] = make_float3(1, 2, 3);
    P q = pts[2];
    out[t] = q.x + q.y + pts[0].x + v[1].z;
    if (t == 3) out[t] = pts[t].x;
}

// A list whose nodes point to nodes of their own type, linked in shared memory and walked by every thread;
// a prototype with unnamed parameters before the definition.
// @grid 1
// @block 4
// @arg out int[4] = 0
struct list_elem {
    int key;
    list_elem *next;
};

__device__ int walk(list_elem *, int);

__global__ void lists(int *out) {
    __shared__ list_elem pool[4];
    int t = threadIdx.x;
    pool[t].key = 10 * (t + 1);
    pool[t].next = t < 3 ? &pool[t + 1] : nullptr;
    __syncthreads();
    out[t] = walk(&pool[t], 0);
}

__device__ int walk(list_elem *e, int sum) {
    while (e != nullptr) {
        sum += e->key;
        e = e->next;
    }
    return sum;
}

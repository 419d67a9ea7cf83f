// Stream callbacks, as the streams chapter of a course uses them: each stream scales its slice of an array,
// copies it back, and a host callback reports the slice once the stream's work before it is done. The stream
// ids live in a variable-length array (a GCC extension nvcc accepts).
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err = (call);                                                \
        if (err != cudaSuccess) {                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
                    cudaGetErrorString(err));                                    \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

struct Slice {
    int stream;
    const float *host;
    int n;
};

__global__ void scale(float *x, int n, float by) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * by + 1.0f;
}

void CUDART_CB report(cudaStream_t stream, cudaError_t status, void *data) {
    Slice *s = (Slice *)data;
    float sum = 0.0f;
    for (int i = 0; i < s->n; i++) sum += s->host[i];
    printf("stream %d done (%s): first %.1f, sum %.1f\n", s->stream, cudaGetErrorString(status), s->host[0],
           sum);
}

void CUDART_CB tick(void *data) {
    int *count = (int *)data;
    *count += 1;
}

int main() {
    const int n_streams = 3, per = 1000, n = n_streams * per;
    float *h, *d;
    CHECK(cudaMallocHost(&h, n * sizeof(float)));
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    for (int i = 0; i < n; i++) h[i] = (float)(i % 10);
    cudaStream_t streams[n_streams];
    int n_ids = n_streams;
    int ids[n_ids];
    Slice slices[n_streams];
    int ticks = 0;
    for (int s = 0; s < n_streams; s++) {
        ids[s] = s;
        CHECK(cudaStreamCreate(&streams[s]));
    }
    for (int s = 0; s < n_streams; s++) {
        int off = ids[s] * per;
        CHECK(cudaMemcpyAsync(d + off, h + off, per * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
        scale<<<(per + 255) / 256, 256, 0, streams[s]>>>(d + off, per, (float)(s + 2));
        CHECK(cudaMemcpyAsync(h + off, d + off, per * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
        slices[s].stream = s;
        slices[s].host = h + off;
        slices[s].n = per;
        CHECK(cudaStreamAddCallback(streams[s], report, &slices[s], 0));
        CHECK(cudaLaunchHostFunc(streams[s], tick, &ticks));
    }
    CHECK(cudaDeviceSynchronize());
    printf("%d host functions ran\n", ticks);
    for (int s = 0; s < n_streams; s++) CHECK(cudaStreamDestroy(streams[s]));
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d));
    return 0;
}

// Stream capture into a CUDA graph: two kernels and a copy captured once, with a second stream forked and
// joined through events, then the instantiated graph launched several times.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err = (call);                                                    \
        if (err != cudaSuccess) {                                                    \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err), __LINE__); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

#define N 4096

__global__ void axpy(float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) y[i] = a * x[i] + y[i];
}

__global__ void shift(float *y, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) y[i] += s;
}

int main()
{
    float *h_x = (float *)malloc(N * sizeof(float));
    float *h_y = (float *)malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) {
        h_x[i] = (float)(i % 7);
        h_y[i] = 1.0f;
    }
    float *d_x, *d_y, *d_copy;
    CHECK(cudaMalloc(&d_x, N * sizeof(float)));
    CHECK(cudaMalloc(&d_y, N * sizeof(float)));
    CHECK(cudaMalloc(&d_copy, N * sizeof(float)));
    CHECK(cudaMemcpy(d_x, h_x, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, h_y, N * sizeof(float), cudaMemcpyHostToDevice));

    cudaStream_t s0, s1;
    CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    cudaEvent_t fork, join;
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

    cudaGraph_t graph;
    cudaGraphExec_t instance;
    CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus status;
    CHECK(cudaStreamIsCapturing(s0, &status));
    printf("capturing: %d\n", (int)status);
    axpy<<<N / 256, 256, 0, s0>>>(2.0f, d_x, d_y);
    CHECK(cudaEventRecord(fork, s0));
    CHECK(cudaStreamWaitEvent(s1, fork, 0));
    shift<<<N / 256, 256, 0, s1>>>(d_y, 0.5f);
    CHECK(cudaEventRecord(join, s1));
    CHECK(cudaStreamWaitEvent(s0, join, 0));
    CHECK(cudaMemcpyAsync(d_copy, d_y, N * sizeof(float), cudaMemcpyDeviceToDevice, s0));
    CHECK(cudaStreamEndCapture(s0, &graph));
    CHECK(cudaStreamIsCapturing(s0, &status));
    printf("capturing after the end: %d\n", (int)status);

    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, NULL, &nodes));
    printf("nodes in the graph: %zu\n", nodes);

    // Nothing ran while capturing.
    CHECK(cudaMemcpy(h_y, d_y, N * sizeof(float), cudaMemcpyDeviceToHost));
    printf("before any launch: y[0] %.1f y[6] %.1f\n", h_y[0], h_y[6]);

    CHECK(cudaGraphInstantiate(&instance, graph, 0));
    for (int k = 1; k <= 3; k++) {
        CHECK(cudaGraphLaunch(instance, s0));
        CHECK(cudaStreamSynchronize(s0));
        CHECK(cudaMemcpy(h_y, d_copy, N * sizeof(float), cudaMemcpyDeviceToHost));
        printf("after launch %d: y[0] %.1f y[6] %.1f y[4095] %.1f\n", k, h_y[0], h_y[6], h_y[N - 1]);
    }

    CHECK(cudaGraphExecDestroy(instance));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s0));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_copy);
    free(h_x);
    free(h_y);
    return 0;
}

// Managed memory attached to streams, as unified-memory exercises do before they let the host and several
// streams work on separate buffers: each stream's buffer is attached to it (the whole allocation, single
// stream), one is attached to the host, then back to every stream (global); the host reads the results after
// synchronising each stream.
#include <stdio.h>
#include <cuda_runtime.h>

#define STREAMS 3
#define N 4096

__global__ void square_plus(float *v, int n, float add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] * v[i] + add;
}

int main(void)
{
    cudaStream_t streams[STREAMS];
    float *bufs[STREAMS];
    for (int s = 0; s < STREAMS; s++) {
        cudaStreamCreate(&streams[s]);
        cudaMallocManaged(&bufs[s], N * sizeof(float));
        cudaError_t e = cudaStreamAttachMemAsync(streams[s], bufs[s]);
        if (e != cudaSuccess) printf("attach %d: %s\n", s, cudaGetErrorString(e));
    }
    for (int s = 0; s < STREAMS; s++) {
        cudaStreamAttachMemAsync(streams[s], bufs[s], 0, cudaMemAttachHost);
        cudaStreamSynchronize(streams[s]);
        for (int i = 0; i < N; i++) bufs[s][i] = (float)(i % 16) * 0.5f + s;
        cudaStreamAttachMemAsync(streams[s], bufs[s], 0, cudaMemAttachSingle);
        square_plus<<<(N + 255) / 256, 256, 0, streams[s]>>>(bufs[s], N, (float)s);
    }
    for (int s = 0; s < STREAMS; s++) {
        cudaStreamSynchronize(streams[s]);
        double sum = 0.0;
        for (int i = 0; i < N; i++) sum += bufs[s][i];
        printf("stream %d: v[0] = %.2f, v[17] = %.2f, sum = %.2f\n", s, bufs[s][0], bufs[s][17], sum);
    }
    cudaStreamAttachMemAsync(streams[0], bufs[0], 0, cudaMemAttachGlobal);
    square_plus<<<1, 32>>>(bufs[0], 32, 1.0f);
    cudaDeviceSynchronize();
    printf("global: v[1] = %.2f, last error: %s\n", bufs[0][1], cudaGetErrorString(cudaGetLastError()));
    for (int s = 0; s < STREAMS; s++) {
        cudaFree(bufs[s]);
        cudaStreamDestroy(streams[s]);
    }
    return 0;
}

// A GpuTimer class wrapping two CUDA events (created in the constructor, destroyed in the destructor), and an
// RAII device buffer whose destructor frees: the course pattern for timing a kernel.
#include <cstdio>
#include <cuda_runtime.h>

class GpuTimer {
private:
    cudaEvent_t start_;
    cudaEvent_t stop_;
    int laps;

public:
    GpuTimer() : laps(0) {
        cudaEventCreate(&start_);
        cudaEventCreate(&stop_);
    }
    ~GpuTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
        printf("timer destroyed after %d laps\n", laps);
    }
    void start() { cudaEventRecord(start_, 0); }
    void stop() {
        cudaEventRecord(stop_, 0);
        laps++;
    }
    float elapsed() {
        float ms = 0;
        cudaEventSynchronize(stop_);
        cudaEventElapsedTime(&ms, start_, stop_);
        return ms;
    }
    int count() const { return laps; }
};

class DeviceBuffer {
    float *data_;
    int n_;

public:
    DeviceBuffer(int n) : n_(n) {
        cudaMalloc(&data_, n * sizeof(float));
        printf("allocated %d floats\n", n_);
    }
    ~DeviceBuffer() {
        cudaFree(data_);
        printf("freed %d floats\n", n_);
    }
    float *get() { return data_; }
    int size() const { return n_; }
};

__global__ void scale(float *x, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * s + i;
}

float run(int n) {
    DeviceBuffer buf(n);
    float h[8];
    for (int i = 0; i < 8; i++) h[i] = 1.0f;
    cudaMemset(buf.get(), 0, n * sizeof(float));
    cudaMemcpy(buf.get(), h, 8 * sizeof(float), cudaMemcpyHostToDevice);
    GpuTimer t;
    for (int rep = 0; rep < 3; rep++) {
        t.start();
        scale<<<(buf.size() + 127) / 128, 128>>>(buf.get(), 2.0f, buf.size());
        t.stop();
    }
    printf("timed %d launches, elapsed positive: %d\n", t.count(), t.elapsed() > 0.0f);
    cudaMemcpy(h, buf.get(), 8 * sizeof(float), cudaMemcpyDeviceToHost);
    return h[7];
}

int main() {
    float last = run(256);
    printf("h[7] = %.1f\n", last);
    {
        DeviceBuffer inner(16);
        printf("inner scope holds %d\n", inner.size());
    }
    printf("done\n");
    return 0;
}

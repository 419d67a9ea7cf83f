// Host threads as course code starts them with <thread>: one std::thread per chunk of the data, each launching
// a kernel on its chunk and copying its partial results back into its own slot; main joins them all and adds
// the slots. A std::mutex with std::lock_guard guards a counter of finished chunks, and a std::atomic<int>
// counts the kernels launched. What main prints does not depend on the order the threads run in.
#include <cstdio>
#include <thread>
#include <mutex>
#include <atomic>
#include <vector>

#define CHUNKS 4
#define CHUNK 1024
#define THREADS 128

__global__ void square_sum(const int *in, int *partial, int n)
{
    __shared__ int cache[THREADS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cache[threadIdx.x] = i < n ? in[i] * in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = cache[0];
}

std::mutex done_lock;
int chunks_done = 0;
std::atomic<int> launches;

void run_chunk(int chunk, const int *data, long long *result)
{
    const int blocks = CHUNK / THREADS;
    int *d_in, *d_partial;
    int partial[blocks];
    cudaMalloc(&d_in, CHUNK * sizeof(int));
    cudaMalloc(&d_partial, blocks * sizeof(int));
    cudaMemcpy(d_in, data + chunk * CHUNK, CHUNK * sizeof(int), cudaMemcpyHostToDevice);
    square_sum<<<blocks, THREADS>>>(d_in, d_partial, CHUNK);
    launches++;
    cudaMemcpy(partial, d_partial, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    long long sum = 0;
    for (int b = 0; b < blocks; b++)
        sum += partial[b];
    result[chunk] = sum;
    cudaFree(d_in);
    cudaFree(d_partial);
    std::lock_guard<std::mutex> guard(done_lock);
    chunks_done++;
}

int main()
{
    int *data = (int *)malloc(CHUNKS * CHUNK * sizeof(int));
    for (int i = 0; i < CHUNKS * CHUNK; i++)
        data[i] = i % 100;
    long long result[CHUNKS];

    std::thread workers[CHUNKS];
    printf("joinable before start: %d\n", (int)workers[0].joinable());
    for (int c = 0; c < CHUNKS - 1; c++)
        workers[c] = std::thread(run_chunk, c, data, result);
    std::thread last(run_chunk, CHUNKS - 1, data, result);
    for (int c = 0; c < CHUNKS - 1; c++)
        workers[c].join();
    last.join();
    long long total = 0;
    for (int c = 0; c < CHUNKS; c++) {
        printf("chunk %d: %lld\n", c, result[c]);
        total += result[c];
    }

    // A lambda per thread, its captures by reference.
    long long doubled[2] = {0, 0};
    std::thread first([&](int k) { doubled[k] = 2 * result[k]; }, 0);
    std::thread second([&](int k) {
        doubled[k] = 2 * result[k];
        launches.fetch_add(1);
    }, 1);
    printf("joinable after start: %d\n", (int)first.joinable());
    first.join();
    second.join();
    printf("joinable after join: %d\n", (int)first.joinable());

    printf("chunks done: %d\n", chunks_done);
    printf("kernels launched: %d\n", launches.load());
    printf("doubled: %lld %lld\n", doubled[0], doubled[1]);
    printf("total: %lld\n", total);
    long long check = 0;
    for (int i = 0; i < CHUNKS * CHUNK; i++)
        check += (long long)data[i] * data[i];
    printf("host check: %lld\n", check);
    free(data);
    return 0;
}

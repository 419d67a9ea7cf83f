// A producer/consumer queue on the host feeding kernel launches: the producer thread fills batches of work
// and pushes their numbers into a ring buffer guarded by a std::mutex, notifying a std::condition_variable;
// the consumer thread waits on it (with a predicate), pops each batch in order and scales it on the GPU.
// The producer is started first and the queue holds every batch, so it never waits for room. Main joins both
// and prints what the consumer computed: the same whatever order the threads run in.
#include <cstdio>
#include <thread>
#include <mutex>
#include <condition_variable>

#define BATCHES 5
#define BATCH 256
#define CAPACITY 8

__global__ void scale(float *x, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * factor + 1.0f;
}

std::mutex queue_lock;
std::condition_variable queue_ready;
int queue[CAPACITY];
int head = 0, count = 0;
bool producing = true;

float batches[BATCHES][BATCH];
float sums[BATCHES];
int order[BATCHES];

void producer()
{
    for (int b = 0; b < BATCHES; b++) {
        for (int i = 0; i < BATCH; i++)
            batches[b][i] = (float)((b + 1) * (i % 8));
        std::lock_guard<std::mutex> guard(queue_lock);
        queue[(head + count) % CAPACITY] = b;
        count++;
        queue_ready.notify_one();
    }
    std::unique_lock<std::mutex> lock(queue_lock);
    producing = false;
    lock.unlock();
    queue_ready.notify_all();
}

void consumer(float factor)
{
    float *d_x;
    cudaMalloc(&d_x, BATCH * sizeof(float));
    int done = 0;
    while (true) {
        std::unique_lock<std::mutex> lock(queue_lock);
        queue_ready.wait(lock, [&] { return count > 0 || !producing; });
        if (count == 0)
            break;
        int b = queue[head];
        head = (head + 1) % CAPACITY;
        count--;
        lock.unlock();
        cudaMemcpy(d_x, batches[b], BATCH * sizeof(float), cudaMemcpyHostToDevice);
        scale<<<(BATCH + 127) / 128, 128>>>(d_x, factor, BATCH);
        cudaMemcpy(batches[b], d_x, BATCH * sizeof(float), cudaMemcpyDeviceToHost);
        float s = 0.0f;
        for (int i = 0; i < BATCH; i++)
            s += batches[b][i];
        sums[b] = s;
        order[done] = b;
        done++;
    }
    cudaFree(d_x);
}

int main()
{
    std::thread produce(producer);
    std::thread consume(consumer, 0.5f);
    produce.join();
    consume.join();
    for (int i = 0; i < BATCHES; i++)
        printf("batch %d (popped %d): sum %.1f\n", i, order[i], sums[i]);
    float total = 0.0f;
    for (int i = 0; i < BATCHES; i++)
        total += sums[i];
    printf("total %.1f, queue left %d\n", total, count);
    return 0;
}

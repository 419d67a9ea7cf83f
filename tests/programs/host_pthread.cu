// Host threads as CUDA by Example's chapter 11 uses them: a `book.h`-style wrapper over pthreads starts one
// host thread per half of the data; each thread sets the device, launches a dot-product kernel on its half
// and leaves its partial sum in its own struct; main joins both and adds the halves. The handles are kept
// in a typedef'd array and waited for together. A mutex guards a counter the threads share.
#include <cstdio>
#include <pthread.h>

typedef pthread_t Thread;
typedef void *(*ThreadRoutine)(void *);

Thread start_thread(ThreadRoutine func, void *data)
{
    pthread_t thread;
    pthread_create(&thread, NULL, func, data);
    return thread;
}

void wait_for_threads(const Thread *threads, int num)
{
    for (int i = 0; i < num; i++)
        pthread_join(threads[i], NULL);
}

#define N 4096
#define THREADS 256

__global__ void dot(const float *a, const float *b, float *partial, int n)
{
    __shared__ float cache[THREADS];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    float temp = 0;
    while (tid < n) {
        temp += a[tid] * b[tid];
        tid += blockDim.x * gridDim.x;
    }
    cache[threadIdx.x] = temp;
    __syncthreads();
    for (int i = blockDim.x / 2; i != 0; i /= 2) {
        if (threadIdx.x < i)
            cache[threadIdx.x] += cache[threadIdx.x + i];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = cache[0];
}

struct Work {
    int device;
    int offset;
    int size;
    float *a;
    float *b;
    float result;
};

pthread_mutex_t lock;
int finished = 0;

void *routine(void *arg)
{
    Work *work = (Work *)arg;
    cudaSetDevice(work->device);
    int blocks = 8;
    float *dev_a, *dev_b, *dev_partial;
    float partial[8];
    cudaMalloc((void **)&dev_a, work->size * sizeof(float));
    cudaMalloc((void **)&dev_b, work->size * sizeof(float));
    cudaMalloc((void **)&dev_partial, blocks * sizeof(float));
    cudaMemcpy(dev_a, work->a + work->offset, work->size * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dev_b, work->b + work->offset, work->size * sizeof(float), cudaMemcpyHostToDevice);
    dot<<<blocks, THREADS>>>(dev_a, dev_b, dev_partial, work->size);
    cudaMemcpy(partial, dev_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    work->result = 0;
    for (int i = 0; i < blocks; i++)
        work->result += partial[i];
    cudaFree(dev_a);
    cudaFree(dev_b);
    cudaFree(dev_partial);
    pthread_mutex_lock(&lock);
    finished++;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main()
{
    float *a = (float *)malloc(N * sizeof(float));
    float *b = (float *)malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) {
        a[i] = (float)(i % 16);
        b[i] = 0.5f * (float)(i % 7);
    }
    pthread_mutex_init(&lock, NULL);
    Work work[2];
    Thread threads[2];
    for (int t = 0; t < 2; t++) {
        work[t].device = 0;
        work[t].offset = t * N / 2;
        work[t].size = N / 2;
        work[t].a = a;
        work[t].b = b;
        threads[t] = start_thread(routine, &work[t]);
    }
    wait_for_threads(threads, 2);
    pthread_mutex_destroy(&lock);
    printf("threads finished: %d\n", finished);
    printf("half sums: %.1f %.1f\n", work[0].result, work[1].result);
    printf("dot product: %.1f\n", work[0].result + work[1].result);
    float check = 0;
    for (int i = 0; i < N; i++)
        check += a[i] * b[i];
    printf("host check: %.1f\n", check);
    free(a);
    free(b);
    return 0;
}

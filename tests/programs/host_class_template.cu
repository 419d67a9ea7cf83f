// Host class templates as courses write them (issue 33): a buffer class template holding host and device
// copies of `n` elements, with members defined in the class and out of it (`template <class T> ...
// Buffer<T>::...`), `operator[]` returning a reference, a destructor freeing both copies, and two instances
// (`Buffer<float>`, `Buffer<int>`) used by host code around kernel launches; a second template with a
// constant parameter (`Stats<T, N>`).
#include <cstdio>

template <typename T> class Buffer {
public:
    T *host;
    T *device;
    int n;

    Buffer(int count) : n(count)
    {
        host = new T[n];
        cudaMalloc(&device, n * sizeof(T));
    }
    ~Buffer()
    {
        delete[] host;
        cudaFree(device);
        printf("freed a buffer of %d\n", n);
    }
    T &operator[](int i) { return host[i]; }
    void toDevice();
    void toHost();
    T sum() const;
};

template <typename T> void Buffer<T>::toDevice()
{
    cudaMemcpy(device, host, n * sizeof(T), cudaMemcpyHostToDevice);
}

template <typename T> void Buffer<T>::toHost()
{
    cudaMemcpy(host, device, n * sizeof(T), cudaMemcpyDeviceToHost);
}

template <class U> U Buffer<U>::sum() const
{
    U total = 0;
    for (int i = 0; i < n; i++) {
        total += host[i];
    }
    return total;
}

template <typename T, int N> struct Stats {
    T values[N];
    int count;
    Stats() : count(0) {}
    void add(T v)
    {
        if (count < N) {
            values[count++] = v;
        }
    }
    T largest()
    {
        T best = values[0];
        for (int i = 1; i < count; i++) {
            if (values[i] > best) best = values[i];
        }
        return best;
    }
};

__global__ void scale(float *x, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

__global__ void square(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * x[i];
}

int main()
{
    const int n = 100;
    {
        Buffer<float> f(n);
        Buffer<int> k(n);
        for (int i = 0; i < n; i++) {
            f[i] = 0.5f * i;
            k[i] = i % 7;
        }
        f.toDevice();
        k.toDevice();
        scale<<<1, 128>>>(f.device, n, 4.0f);
        square<<<1, 128>>>(k.device, n);
        f.toHost();
        k.toHost();
        printf("f[3] = %.1f, k[6] = %d\n", f[3], k[6]);
        printf("sum of f = %.1f, sum of k = %d\n", f.sum(), k.sum());
        Stats<float, 8> s;
        for (int i = 0; i < 10; i++) {
            s.add(f[i * 9]);
        }
        printf("kept %d of 10, largest %.1f, sizeof(Stats<float, 8>) = %d\n", s.count, s.largest(),
               (int)sizeof(Stats<float, 8>));
    }
    printf("done\n");
    return 0;
}

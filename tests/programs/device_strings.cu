// String literals in device code: passed to __device__ functions as const char*, printed with %s,
// walked character by character and compared; and %s of a string copied into device memory.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__device__ int length(const char *s)
{
    int n = 0;
    while (s[n] != '\0')
        n++;
    return n;
}

__device__ bool same(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

__device__ void report(const char *who, int step)
{
    printf("%s: step %d (name has %d letters)\n", who, step, length(who));
}

__global__ void greet(const char *msg, int *vowels)
{
    // (One call for both threads: which side of a divergent branch prints first is the compiler's choice.)
    report(threadIdx.x == 0 ? "Thread A" : "Thread B", threadIdx.x + 1);
    if (threadIdx.x == 0) {
        int v = 0;
        for (const char *p = msg; *p; p++)
            if (*p == 'a' || *p == 'e' || *p == 'i' || *p == 'o' || *p == 'u')
                v++;
        *vowels = v;
        printf("message: [%s] [%12s] [%-6.3s]\n", msg, "right", msg);
        printf("same: %d %d\n", same("abc", "abc"), same("abc", "abd"));
    }
}

int main()
{
    const char text[] = "hello device";
    char *d_text;
    int *d_vowels, vowels = 0;
    cudaMalloc(&d_text, sizeof(text));
    cudaMalloc(&d_vowels, sizeof(int));
    cudaMemcpy(d_text, text, sizeof(text), cudaMemcpyHostToDevice);
    greet<<<1, 2>>>(d_text, d_vowels);
    cudaMemcpy(&vowels, d_vowels, sizeof(int), cudaMemcpyDeviceToHost);
    printf("vowels: %d\n", vowels);
    cudaFree(d_text);
    cudaFree(d_vowels);
    return 0;
}

// A host loop that never ends (the step never moves the counter): warpdbg stops it at its step limit with
// the line, where the real program would hang.
#include <stdio.h>

__global__ void add_one(int *a)
{
    a[threadIdx.x] += 1;
}

int main()
{
    int h[32] = {0};
    int *d;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    add_one<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("h[31] = %d\n", h[31]);
    long sum = 0;
    for (int i = 0; i < 10; i += 0)
        sum += h[i];
    printf("sum = %ld\n", sum);
    cudaFree(d);
    return 0;
}
// finding: the host program ran past the step limit (at line 20)
// status: 4

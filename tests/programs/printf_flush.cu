// Device printf output reaches the screen only when the program synchronises: the first kernel's lines
// appear at cudaDeviceSynchronize, after the host's own line; the last kernel's lines never appear,
// because the program ends without synchronising.
#include <stdio.h>
#include <cuda_runtime.h>

__global__ void hello(int round)
{
    printf("round %d: hello from thread %d\n", round, threadIdx.x);
}

int main(void)
{
    hello<<<1, 2>>>(1);
    printf("host: launched round 1\n");
    cudaDeviceSynchronize();
    printf("host: synchronised\n");
    hello<<<1, 2>>>(2);
    printf("host: done\n");
    return 0;
}

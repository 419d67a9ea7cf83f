// warp_indexing.cu - branching on the warp index instead of the thread index.
// Watch `if (warp % 2 == 0)`: half of the 128 threads take each path, yet no warp diverges, because all
// 32 lanes of a warp share one warp index: warps 0 and 2 run `then`, warps 1 and 3 run `else`, each with
// its full active mask. Branch efficiency is 100%. Compare mathKernel1 in math_kernels.cu (tid % 2), where
// the same 50/50 split diverges in every warp. ITS and pre-Volta behave the same here.
// @kernel kernel_test
// @grid 1
// @block 128
// @arg c float[128] = 0

__global__ void kernel_test(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = threadIdx.x / warpSize;
    float a = 0.0f;
    float b = 0.0f;

    if (warp % 2 == 0)
    {
        a = 100.0f + warp;
    }
    else
    {
        b = 200.0f + warp;
    }

    c[tid] = a + b;
}

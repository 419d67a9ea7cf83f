// math_kernels.cu - Cheng's mathKernel1..4: the same work with different branch granularity.
// mathKernel1 branches on `tid % 2`: even and odd lanes split in every warp (both warps diverge).
// mathKernel2 branches on `(tid / warpSize) % 2`: warp 0 takes `then`, warp 1 `else`, no warp diverges.
// mathKernel3 splits kernel 1's if/else into two ifs on `ipred`: each `if` diverges in every warp.
// mathKernel4 has the book's precedence bug, see its comment. Pick one with --kernel mathKernel2 etc.
// Real nvcc predicates these one-line branches, so Nsight Compute shows 100% branch efficiency for all of
// them; warpdbg runs the source, so it shows the divergence the source asks for (both modes alike).
// @kernel mathKernel1
// @grid 1
// @block 64
// @arg c float[64] = 0

__global__ void mathKernel1(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia = 0.0f;
    float ib = 0.0f;

    if (tid % 2 == 0)
    {
        ia = 100.0f;
    }
    else
    {
        ib = 200.0f;
    }

    c[tid] = ia + ib;
}

__global__ void mathKernel2(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia = 0.0f;
    float ib = 0.0f;

    if ((tid / warpSize) % 2 == 0)
    {
        ia = 100.0f;
    }
    else
    {
        ib = 200.0f;
    }

    c[tid] = ia + ib;
}

__global__ void mathKernel3(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia = 0.0f;
    float ib = 0.0f;

    bool ipred = (tid % 2 == 0);

    if (ipred)
    {
        ia = 100.0f;
    }

    if (!ipred)
    {
        ib = 200.0f;
    }

    c[tid] = ia + ib;
}

__global__ void mathKernel4(float *c)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float ia = 0.0f;
    float ib = 0.0f;

    int itid = tid >> 5;

    // As printed in the book. `==` binds tighter than `&`, so this is itid & (0x01 == 0), i.e. itid & 0,
    // which is always 0: every thread takes `else` and c[] is all 200 (nvcc folds the kernel to a plain
    // store of 200.0f). Intended: ((itid & 0x01) == 0), which behaves like mathKernel2.
    if (itid & 0x01 == 0)
    {
        ia = 100.0f;
    }
    else
    {
        ib = 200.0f;
    }

    c[tid] = ia + ib;
}

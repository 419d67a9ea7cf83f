"""reduceNeighbored in numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1), the peer warpdbg is measured against.

Prints JSON: {"n": .., "seconds": .., "g_odata": [...]}. Inputs come from a file of int32 written by
compare.py (the exact values warpdbg generates), so both compute the same thing.
"""
import json
import os
import sys
import time

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402


@cuda.jit
def reduce_neighbored(g_idata, g_odata, n):
    tid = cuda.threadIdx.x
    idx = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    if idx >= n:
        return
    stride = 1
    while stride < cuda.blockDim.x:
        if (tid % (2 * stride)) == 0:
            g_idata[base + tid] += g_idata[base + tid + stride]
        cuda.syncthreads()
        stride *= 2
    if tid == 0:
        g_odata[cuda.blockIdx.x] = g_idata[base]


def main():
    path, n, block = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    data = np.fromfile(path, dtype=np.int32)
    assert data.size == n
    out = np.zeros(n // block, dtype=np.int32)
    t0 = time.perf_counter()
    reduce_neighbored[n // block, block](data, out, n)
    dt = time.perf_counter() - t0
    print(json.dumps({"n": n, "seconds": dt, "g_odata": out.tolist()}))


if __name__ == "__main__":
    main()

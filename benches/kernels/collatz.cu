// collatz.cu - a divergent loop: each thread counts the Collatz steps of its own start value (i + 1), so the
// trip count differs from lane to lane (from 0 up to a few hundred steps) and the `if (x % 2)` inside the
// loop splits the warp at every step. A benchmark kernel of issue 36 (divergent loop): `benches/kinds.sh`
// runs it at n = 1<<16. pre-Volta: finished lanes wait at the loop's exit until the warp's longest chain
// ends; ITS: the thread groups split and merge at the `if` on their own.
// @kernel collatz
// @arg n = 1 << 12
// @block 128
// @grid (n + 127) / 128
// @arg steps int[n] = 0

__global__ void collatz(int *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long x = i + 1;
        int count = 0;
        while (x != 1) {
            if (x % 2) x = 3 * x + 1;
            else x = x / 2;
            count++;
        }
        steps[i] = count;
    }
}

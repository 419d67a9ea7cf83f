// A spin lock that works on every GPU: the winner does the critical section inside the loop.
// @block 32
// @arg lock int[1] = 0
// @arg counter int[1] = 0
__global__ void safeSpinLock(int *lock, volatile int *counter) {
    bool done = false;
    while (!done) {
        if (atomicCAS(lock, 0, 1) == 0) {
            *counter = *counter + 1;
            __threadfence();
            atomicExch(lock, 0);
            done = true;
        }
    }
}

// spin_lock.cu - the naive spin lock, taken by all 32 threads of one warp.
// Watch `while (atomicCAS(lock, 0, 1) != 0) { }`: one lane wins the CAS and leaves the loop; the other 31
// spin. pre-Volta: the winner waits masked at the loop's reconvergence point while the losers keep
// spinning on the top of the SIMT stack, so it never releases the lock: LIVELOCK (SIMT-induced deadlock).
// ITS (Volta and later, the default): the scheduler also runs the winner's thread group, which does its
// critical section and releases the lock; lanes take it one by one and the kernel completes, counter = 32.
// The critical section is a plain (non-atomic) read-modify-write: only the lock makes it correct.
// @kernel spinLock
// @grid 1
// @block 32
// @arg lock int[1] = 0
// @arg counter int[1] = 0

__global__ void spinLock(int *lock, volatile int *counter)
{
    // acquire: spin until this thread swaps the lock from 0 to 1
    while (atomicCAS(lock, 0, 1) != 0) { }

    // critical section: not atomic, protected by the lock
    *counter = *counter + 1;

    // make the write visible before releasing the lock
    __threadfence();

    // release
    atomicExch(lock, 0);
}

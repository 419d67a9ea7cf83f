// A recursive host function whose base case is never reached (the test is `n == 0` but n only grows). Built
// without optimisation the stack overflows and the program dies with SIGSEGV; nvcc -O2 turns the tail call into
// a loop that runs until the GPU machine's 60 s limit (status 124, recorded). warpdbg reports the runaway
// recursion at its line, as AddressSanitizer's stack-overflow report does, and stays up.
#include <cstdio>

long sum_to(long n)
{
    if (n == 0) {
        return 0;
    }
    return n + sum_to(n + 1);
}

int main()
{
    printf("summing...\n");
    fflush(stdout);
    printf("%ld\n", sum_to(10));
    return 0;
}
// finding: calls `sum_to` recursively too deep
// status: 1

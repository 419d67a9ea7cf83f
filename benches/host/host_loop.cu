// The host-loop benchmark of issue 19 item 3: 1<<24 ints from `rand() & 0xFF`, summed by the book's recursive
// CPU reduction. Plain C, so `gcc -O2 -x c` builds the same file for the side-by-side figure (benches/host_speed.sh).
#include <stdio.h>
#include <stdlib.h>

// The book's recursive CPU reduction: fold the upper half onto the lower half.
int recursiveReduce(int *data, int const size)
{
    if (size == 1) return data[0];
    int const stride = size / 2;
    for (int i = 0; i < stride; i++)
    {
        data[i] += data[i + stride];
    }
    return recursiveReduce(data, stride);
}

int main(int argc, char **argv)
{
    int size = 1 << 24;
    size_t bytes = size * sizeof(int);
    int *h_idata = (int *) malloc(bytes);
    for (int i = 0; i < size; i++)
    {
        h_idata[i] = (int)( rand() & 0xFF );
    }
    int cpu_sum = recursiveReduce(h_idata, size);
    printf("cpu reduce: %d\n", cpu_sum);
    free(h_idata);
    return 0;
}

// The CPU reference check course programs run after a matrix-product kernel: a 512 x 512 int product by the
// triple loop (134 million multiply-adds), then a checksum. Plain C, so `gcc -O2 -x c` builds the same file for
// the side-by-side figure (benches/host_speed.sh).
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 512;
    int *a = (int *) malloc(n * n * sizeof(int));
    int *b = (int *) malloc(n * n * sizeof(int));
    int *c = (int *) malloc(n * n * sizeof(int));
    for (int i = 0; i < n * n; i++)
    {
        a[i] = rand() % 100;
        b[i] = rand() % 100;
    }
    for (int row = 0; row < n; row++)
    {
        for (int col = 0; col < n; col++)
        {
            int tmp = 0;
            for (int k = 0; k < n; k++)
            {
                tmp += a[row * n + k] * b[k * n + col];
            }
            c[row * n + col] = tmp;
        }
    }
    long long check = 0;
    for (int i = 0; i < n * n; i++)
    {
        check += c[i] ^ i;
    }
    printf("checksum %lld\n", check);
    free(a);
    free(b);
    free(c);
    return 0;
}

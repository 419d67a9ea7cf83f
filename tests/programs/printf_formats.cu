// printf as courses use it, on the host (glibc) and in a kernel (CUDA's device printf): flags, widths and
// precisions given as arguments (`%*d`, `%.*f`: the device prints the latter as written), every length
// modifier, `%g`'s style switch, hex floats, padding.
#include <cstdio>
#include <cstddef>

#define FMTS_A(P) \
 P("%d|%5d|%-5d|%05d|%+d|% d|%i\n", 42, 42, 42, 42, 42, 42, -7); \
 P("%u|%x|%X|%#x|%o|%#o|%08x\n", 3000000000u, 255, 255, 255, 8, 8, 48879);
#define FMTS_B(P) \
 P("%f|%.2f|%10.3f|%-10.1f|%+.1f|%e|%.3E\n", 3.14159265, 2.675, -1.5, 0.05, 7.25, 123456.789, 0.000123456); \
 P("%g|%g|%g|%g|%.3g|%#g|%G\n", 100000.0, 1000000.0, 0.0001, 0.00001, 3.14159, 1.0, 1e-10); \
 P("%f|%f|%f|%e|%g\n", 1e20, -0.0, 1.0/3.0, 0.0, 123456789.0); \
 P("%s|%10s|%-10s|%.2s|%c|%%|%5c\n", "abc", "right", "left", "trunc", 'x', 'y'); \
 P("%*d|%-*d|%.*f\n", 6, 12, 6, 12, 3, 2.0/3.0); \
 P("%a|%p\n", 1.0, (void*)nullptr); \
 P("%5.1f%%|%8.3e|%-8.2g|\n", 99.44, 6.02e23, 0.000314); \
 P("%f %f %f %f\n", 0.5, 1.5, 2.5, 1e-7); \
 P("%.0f %.0f %.0f %.1f %.1f\n", 0.5, 1.5, 2.5, 0.25, 0.35); \
 P("%d %d\n", (int)2147483648u, (int)-2147483648LL); \
 P("%10.4lf|%lf\n", 3.14159265358979, 1.0/7.0); 

// `%hd`/`%hhd` print values unrelated to the argument in CUDA's device printf (measured on an H200), so the
// kernel's third line leaves them out.
#define LENGTHS(P) P("%ld|%lld|%lu|%llu|%zu\n", -1234567890123L, -9000000000000LL, 18446744073709551615UL, 12345678901234ULL, (size_t)77);
#define LENGTHS_HOST(P) P("%ld|%lld|%lu|%llu|%zu|%hd|%hhd\n", -1234567890123L, -9000000000000LL, 18446744073709551615UL, 12345678901234ULL, (size_t)77, (short)-3, (char)65);

__global__ void formats() { FMTS_A(printf) LENGTHS(printf) FMTS_B(printf) }

int main() {
    FMTS_A(printf)
    LENGTHS_HOST(printf)
    FMTS_B(printf)
    fflush(stdout);
    formats<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}

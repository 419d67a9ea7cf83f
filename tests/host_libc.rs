//! The rest of the C library a course's host code calls (issue 33): `<cstring>`, `<cctype>`, `<cstdio>`'s
//! character, line and scanning calls with `errno` and `perror`, `<cstdlib>`'s other generators and the sleeps,
//! `getopt`, `bsearch`, `div`/`ldiv`, `atexit`, `__func__`, and `<cmath>`'s functions beyond the common ones
//! (`erf`, `tgamma`, `lgamma`, `lround`, `frexp`, `modf`, `ldexp`, `fma`, ...). Each test runs the real binary on a small program and asserts its exact standard output and
//! status; every expected value is what the same host code printed compiled with g++ 12 on this machine
//! (glibc 2.36; the kernel launch stripped for g++). The whole program is `tests/programs/host_libc.cu`.

#[path = "common/run_source.rs"]
mod run_source;

/// `warpdbg run` on `src` (written to a file of its own): (stdout, stderr, status).
fn run(name: &str, src: &str, args: &[&str]) -> (String, String, i32) {
    run_source::run_source("libc", name, src, args)
}

const CSTRING: &str = r#"#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <cctype>
__global__ void k() {}
int main() {
    char buf[32];
    strncpy(buf, "abc", 6);
    printf("%s %d %d %d\n", buf, buf[3], buf[4], buf[5]);
    strncat(buf, "defgh", 3);
    printf("%s %d\n", buf, (int)strlen(buf));
    const char *s = "a,b;c,,d";
    printf("%d %d %d\n", (int)(strchr(s, ',') - s), (int)(strrchr(s, ',') - s), strchr(s, 'z') == NULL);
    printf("%d %d\n", (int)(strstr(s, "c,,") - s), strstr(s, "zz") == NULL);
    printf("%d %d\n", (int)strspn("  42x", " "), (int)strcspn("hello, world", ",;"));
    char line[] = "  one two,,three  ";
    for (char *t = strtok(line, " ,"); t != NULL; t = strtok(NULL, " ,"))
        printf("[%s]", t);
    printf("\n");
    char *d = strdup("copied");
    d[0] = toupper(d[0]);
    printf("%s\n", d);
    free(d);
    int a[6] = {1, 2, 3, 4, 5, 6};
    memmove(a + 1, a, 4 * sizeof(int));
    for (int i = 0; i < 6; i++) printf("%d ", a[i]);
    printf("\n%s|%s\n", strerror(2), strerror(0));
    int digits = 0, alphas = 0, spaces = 0, punct = 0, upper = 0;
    const char *text = "Hello, World 42!\t";
    for (const char *p = text; *p; p++) {
        if (isdigit(*p)) digits++;
        if (isalpha(*p)) alphas++;
        if (isspace(*p)) spaces++;
        if (ispunct(*p)) punct++;
        if (isupper(*p)) upper++;
    }
    printf("%d %d %d %d %d %d %d\n", digits, alphas, spaces, punct, upper, isalnum('x'), isxdigit('G'));
    printf("%c%c %d %d\n", tolower('Q'), toupper('q'), islower('a'), isprint('\n'));
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
"#;

const STDIO: &str = r#"#include <cstdio>
#include <cstring>
#include <cerrno>
__global__ void k() {}
int main() {
    FILE *f = fopen("missing.txt", "r");
    printf("%d %d\n", f == NULL, errno);
    perror("open missing.txt");
    FILE *out = fopen("data.txt", "w");
    fprintf(out, "3 1.5 word\nline two\nx");
    fputs("yz\n", out);
    fputc('!', out);
    fclose(out);
    FILE *in = fopen("data.txt", "r");
    int n = 0;
    float x = 0;
    char w[16], l[8];
    int got = fscanf(in, "%d %f %s", &n, &x, w);
    printf("%d: %d %g %s\n", got, n, x, w);
    while (fgets(l, sizeof l, in) != NULL) printf("[%s]", l);
    printf("\n%d %d\n", feof(in), fgetc(in));
    rewind(in);
    int c1 = fgetc(in);
    int c2 = getc(in);
    printf("%c%c\n", c1, c2);
    fclose(in);
    int a = 0, b = 0;
    int r1 = sscanf("7,8", "%d,%d", &a, &b);
    int r2 = sscanf("", "%d", &a);
    int r3 = sscanf("9 x", "%d %d", &a, &b);
    printf("%d %d %d %d %d\n", r1, r2, r3, a, b);
    int r4 = fputs("to stdout\n", stdout);
    int r5 = putc('Q', stdout);
    printf(" %d %d\n", r4, r5);
    int rm1 = remove("data.txt");
    int rm2 = remove("data.txt");
    printf("%d %d %d\n", rm1, rm2, errno);
    errno = 0;
    perror("now");
    printf("%s\n", strerror(34));
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
"#;

const STDLIB: &str = r#"#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <sys/time.h>
__global__ void k() {}
int main() {
    unsigned seed = 42;
    int a = rand_r(&seed);
    int b = rand_r(&seed);
    printf("%d %d %u\n", a, b, seed);
    double d0 = drand48();
    long l0 = lrand48();
    printf("%.17g %ld\n", d0, l0);
    srand48(1234);
    double d1 = drand48();
    long l1 = lrand48();
    long m1 = mrand48();
    printf("%.17g %ld %ld\n", d1, l1, m1);
    long r0 = random();
    srandom(7);
    long r1 = random();
    int r2 = rand();
    printf("%ld %ld %d\n", r0, r1, r2);
    struct timeval t0, t1;
    gettimeofday(&t0, NULL);
    sleep(1);
    usleep(250000);
    gettimeofday(&t1, NULL);
    double waited = (t1.tv_sec - t0.tv_sec) + (t1.tv_usec - t0.tv_usec) / 1e6;
    printf("%d\n", waited >= 1.25 && waited < 1.3);
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
"#;

const OPTS: &str = r#"#include <cstdio>
#include <cstdlib>
#include <unistd.h>
__global__ void k() {}
int main(int argc, char **argv) {
    int n = 1, verbose = 0;
    const char *file = "none";
    int c;
    while ((c = getopt(argc, argv, "n:f:v")) != -1) {
        switch (c) {
        case 'n': n = atoi(optarg); break;
        case 'f': file = optarg; break;
        case 'v': verbose++; break;
        default: printf("bad option %c (optopt %c)\n", c, optopt); break;
        }
    }
    printf("n=%d file=%s verbose=%d optind=%d\n", n, file, verbose, optind);
    for (int i = optind; i < argc; i++) printf("rest %s\n", argv[i]);
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
"#;

const CMATH_AND_STDLIB: &str = r#"#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <iostream>
__global__ void k() {}
struct Gen { int next() { printf("in %s\n", __func__); return 1; } };
template <typename T> void fill(T *a) { printf("in %s (%s)\n", __func__, __FUNCTION__); a[0] = 0; }
int byValue(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
void first() { printf("first handler\n"); }
void second() { printf("second handler\n"); exit(3); }
int main(int argc, char **argv) {
    atexit(first);
    atexit(second);
    Gen g;
    g.next();
    int a[5] = {2, 3, 5, 7, 11};
    fill(a + 4);
    int keys[3] = {7, 4, 2};
    for (int i = 0; i < 3; i++) {
        int *p = (int *)bsearch(&keys[i], a, 5, sizeof(int), byValue);
        printf("%d at %ld\n", keys[i], p ? (long)(p - a) : -1L);
    }
    int n = argc + 16;
    div_t d = div(-n, 5);
    ldiv_t q = ldiv((long)n * 1000000007L, 7L);
    printf("%d %d %ld %ld\n", d.quot, d.rem, q.quot, q.rem);
    double h = 0.5 * argc, t = 2.5 * argc;
    printf("%ld %ld %lld %ld\n", lround(-t), lrint(-t), llround(t + 1.0), lrint(t + 1.0));
    printf("%g %g %g\n", nearbyint(t), rint(-t - 1.0), rintf((float)h));
    float fi;
    float ff = modff(-3.75f * argc, &fi);
    double di;
    double df = modf(-3.0 * argc, &di);
    printf("%f %f %f %f %d\n", ff, fi, df, di, (int)std::signbit(df));
    int e;
    double m = frexp(-48.0 * argc, &e);
    printf("%g %d\n", m, e);
    float mf = frexpf(1e-40f * argc, &e);
    printf("%g %d\n", mf, e);
    printf("%g %g %g\n", ldexp(h * 2, -1074), ldexpf(3.f * argc, 200), scalbn(1.5 * argc, 3));
    printf("%g %g %d\n", nan(""), fma(2.0 * argc, 3.0, 1.0), (int)std::isnan(nanf("1")));
    printf("%.17g %.17g %.9g\n", std::erf(h * 2), std::tgamma(h), erff(0.3f * argc));
    printf("%.17g %.17g %.9g %.9g\n", lgamma(-t), acosh(h * 4), atanhf((float)h), fdimf(1.f, 3.f * argc));
    std::cout << std::erfc(h * 4) << " " << std::lgamma(t * 4) << " " << remainder(7.0 * argc, 2.0) << " " << asinh(h) << "\n";
    k<<<1, 1>>>();
    cudaDeviceSynchronize();
    return 0;
}
"#;

#[test]
fn cmath_bsearch_div_atexit_and_func_as_glibc() {
    // Operands come from `argc` so that g++ does not fold the calls at compile time (it folds constant ones
    // correctly rounded, where glibc's `acosh(2.0)` at run time ends in 6). The kernel stays a kernel; the
    // atexit functions run last first, and the second's `exit(3)` sets the status while the first still runs.
    let (out, err, status) = run("cmath", CMATH_AND_STDLIB, &[]);
    assert_eq!(
        out,
        "in next\nin fill (fill)\n7 at -1\n4 at -1\n2 at 0\n-3 -2 2428571445 4\n-3 -2 4 4\n2 -4 0\n-0.750000 -3.000000 -0.000000 -3.000000 1\n-0.75 6\n0.544449 -132\n4.94066e-324 inf 12\nnan 7 1\n0.84270079294971489 1.7724538509055161 0.328626782\n-0.056243716497674068 1.3169578969248166 0.549306154 0\n0.00467773 12.8018 -1 0.481212\nsecond handler\nfirst handler\n",
        "{err}"
    );
    assert_eq!(status, 3);
}

#[test]
fn cstring_and_cctype_calls_give_glibcs_results() {
    let (out, err, status) = run("cstring", CSTRING, &[]);
    assert_eq!(
        out,
        "abc 0 0 0\nabcdef 6\n1 6 1\n4 1\n2 5\n[one][two][three]\nCopied\n1 1 2 3 4 6 \nNo such file or directory|Success\n2 10 3 2 2 8 0\nqQ 512 0\n",
        "{err}"
    );
    assert_eq!(status, 0);
}

#[test]
fn stdio_lines_characters_scans_errno_and_perror_as_glibc() {
    let (out, err, status) = run("stdio", STDIO, &[]);
    assert_eq!(
        out,
        "1 2\n3: 3 1.5 word\n[\n][line tw][o\n][xyz\n][!]\n1 -1\n3 \n2 -1 1 9 8\nto stdout\nQ 1 81\n0 -1 2\nNumerical result out of range\n",
        "{err}"
    );
    assert!(err.starts_with("open missing.txt: No such file or directory\nnow: Success\n"), "{err}");
    assert_eq!(status, 0);
}

#[test]
fn generators_match_glibc_and_sleeps_advance_the_virtual_clock() {
    let (out, err, status) = run("stdlib", STDLIB, &[]);
    assert_eq!(
        out,
        "681191333 928546885 2219150180\n3.907985046680551e-14 2116118\n0.74087692944249639 460710097 1452540047\n1804289383 1045618677 1863967299\n1\n",
        "{err}"
    );
    assert_eq!(status, 0);
}

#[test]
fn getopt_reads_options_as_glibc_does() {
    let (out, err, _) = run("opts", OPTS, &["-n", "5", "-vv", "-fdata.txt", "rest", "more"]);
    assert_eq!(out, "n=5 file=data.txt verbose=2 optind=5\nrest rest\nrest more\n", "{err}");
    let (out, err, _) = run("opts", OPTS, &["-x", "-n"]);
    assert_eq!(out, "bad option ? (optopt x)\nbad option ? (optopt n)\nn=1 file=none verbose=0 optind=3\n", "{err}");
    assert!(err.starts_with("./opts: invalid option -- 'x'\n./opts: option requires an argument -- 'n'\n"), "{err}");
    let (out, err, _) = run("opts", OPTS, &["-v", "--", "-n", "3"]);
    assert_eq!(out, "n=1 file=none verbose=1 optind=3\nrest -n\nrest 3\n", "{err}");
}

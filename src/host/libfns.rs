//! The C library groups' function kinds and state that the expression tree ([`super::tree::Lib`]) and the
//! interpreter hold: kept apart from the modules that resolve and run them (`cstring`, `cstdio`, `cstdlib`,
//! `getopt`, `ctype`), so that the tree and the interpreter do not import those modules back.

/// A `<cstring>` function beyond the ones [`super::calls`] runs itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrFn {
    Strncpy,
    Strncat,
    Strchr,
    Strrchr,
    Strstr,
    /// `strtok(s, delim)`: its position kept between calls, per program.
    Strtok,
    /// A `malloc`'d copy; its last argument names the allocation (as `malloc`'s does).
    Strdup,
    Strspn,
    Strcspn,
    Memmove,
    Strerror,
}

/// `stdin`'s handle: reads from warpdbg's own standard input.
pub const STDIN: u64 = 3;

/// `ENOENT`, "No such file or directory".
pub const ENOENT: i32 = 2;

/// A `<cstdio>` function beyond the ones [`super::calls`] runs itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StdioFn {
    /// `sscanf(s, fmt, ...)`.
    Sscanf,
    /// `fscanf(f, fmt, ...)`.
    Fscanf,
    Fgets,
    Fputs,
    /// `fputc(c, f)` and `putc`.
    Fputc,
    /// `fgetc(f)` and `getc`.
    Fgetc,
    Getchar,
    Perror,
    Remove,
    /// `__errno_location()`: the address of `errno`.
    ErrnoLocation,
}

/// A `<cstdlib>`/`<unistd.h>` function beyond the ones [`super::calls`] runs itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StdlibFn {
    RandR,
    Drand48,
    /// `lrand48`: 31 bits.
    Lrand48,
    /// `mrand48`: 32 bits, signed.
    Mrand48,
    Srand48,
    /// A sleep of the first argument times this many nanoseconds.
    Sleep(u64),
    /// `nanosleep(&req, rem)`.
    Nanosleep,
    /// `atexit(f)`: `f` runs when the program exits.
    Atexit,
}

/// `getopt`, or the address of one of its variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GetoptFn {
    Getopt,
    /// The variable at this offset of the block ([`OPTARG`], ...).
    Var(u8),
}

/// `getopt`'s state between calls.
#[derive(Default)]
pub struct GetoptState {
    /// The variables' block (0: not made yet).
    pub(super) block: u64,
    /// The next option character's address inside a cluster (`-vn`), 0 between arguments.
    pub(super) next: u64,
}

/// A `<cctype>` function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharFn {
    /// A classification: the table bit it tests.
    Is(CharClass),
    ToUpper,
    ToLower,
}

/// glibc's classification bits (`_ISupper`, ... in `<ctype.h>`, little-endian).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CharClass {
    Upper = 256,
    Lower = 512,
    Alpha = 1024,
    Digit = 2048,
    Xdigit = 4096,
    Space = 8192,
    Print = 16384,
    Graph = 32768,
    Blank = 1,
    Cntrl = 2,
    Punct = 4,
    Alnum = 8,
}

/// A `<cmath>` function whose operands or result are not all of one floating-point type (the rest are
/// [`crate::front::tast::MathFn`]s); the scalar is the floating-point type it computes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmathFn {
    /// `fma(x, y, z)`: `x * y + z` rounded once.
    Fma(crate::front::types::Scalar),
    /// `lround`/`llround`: to the nearest integer, halves away from zero, as a `long`.
    Lround,
    /// `lrint`/`llrint`: to the nearest integer in the rounding mode (to nearest, ties to even).
    Lrint,
    /// `signbit(x)`: whether the sign bit is set (of `-0.0` and of a NaN too).
    Signbit,
    /// `ldexp(x, e)`: `x * 2^e`.
    Ldexp(crate::front::types::Scalar),
    /// `frexp(x, &e)`: the fraction in [0.5, 1) and the exponent written to `e`.
    Frexp(crate::front::types::Scalar),
    /// `modf(x, &i)`: the fractional part, and the integral part written to `i`.
    Modf(crate::front::types::Scalar),
    /// `sincos(x, &s, &c)`: the sine written to `s` and the cosine to `c`.
    Sincos(crate::front::types::Scalar),
    /// `nan("")`: a quiet NaN.
    Nan(crate::front::types::Scalar),
}

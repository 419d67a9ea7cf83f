//! The C library pieces whose results a program prints: glibc's `rand`, `printf` formatting, and the number
//! parsing of `atoi`/`strtol`/`strtod`.

use crate::ir::Ty;

/// glibc's `rand()`: the TYPE_3 additive feedback generator (`r[i] = r[i-31] + r[i-3]`, output `r >> 1`),
/// seeded by `srand` (default seed 1) through the Park-Miller LCG, with the first 310 outputs discarded. So
/// `rand() & 0xFF` gives the numbers a Linux machine gives.
#[derive(Clone, Debug)]
pub struct GlibcRand {
    r: [u32; 34],
    i: usize,
}

impl Default for GlibcRand {
    fn default() -> Self {
        GlibcRand::new(1)
    }
}

impl GlibcRand {
    pub fn new(seed: u32) -> Self {
        let mut r = [0u32; 34];
        let seed = if seed == 0 { 1 } else { seed };
        r[0] = seed;
        for i in 1..31 {
            let prev = r[i - 1] as i32 as i64;
            let mut w = (16807 * prev) % 2147483647;
            if w < 0 {
                w += 2147483647;
            }
            r[i] = w as u32;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut g = GlibcRand { r, i: 34 };
        for _ in 0..310 {
            g.step();
        }
        g
    }

    fn step(&mut self) -> u32 {
        let v = self.r[(self.i + 34 - 31) % 34].wrapping_add(self.r[(self.i + 34 - 3) % 34]);
        self.r[self.i % 34] = v;
        self.i = (self.i + 1) % 34 + 34;
        v
    }

    /// The next `rand()`: 0 ..= RAND_MAX (2^31 - 1).
    pub fn rand(&mut self) -> i32 {
        (self.step() >> 1) as i32
    }
}

/// One piece of a format string.
pub enum Piece<'a> {
    Text(&'a str),
    /// A conversion: its text (`%5.2f`) and conversion character.
    Conv(&'a str, char),
}

/// Splits a `printf` format into text and conversions (`%%` is text).
pub fn pieces(fmt: &str) -> Vec<Piece<'_>> {
    let mut out = vec![];
    let bytes = fmt.as_bytes();
    let (mut i, mut text) = (0, 0);
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        if i > text {
            out.push(Piece::Text(&fmt[text..i]));
        }
        let start = i;
        i += 1;
        while i < bytes.len() && b"-+ #0123456789.hlLzjt*".contains(&bytes[i]) {
            i += 1;
        }
        match fmt[i..].chars().next() {
            Some('%') => {
                out.push(Piece::Text("%"));
                i += 1;
            }
            Some(c) => {
                out.push(Piece::Conv(&fmt[start..i], c));
                i += c.len_utf8();
            }
            None => out.push(Piece::Text(&fmt[start..])),
        }
        text = i;
    }
    if text < bytes.len() {
        out.push(Piece::Text(&fmt[text..]));
    }
    out
}

/// Formats one numeric conversion as glibc would.
pub fn number(spec: &str, conv: char, bits: u64, ty: Ty) -> String {
    let mut f = String::with_capacity(spec.len() + 1);
    f.push_str(spec);
    f.push(conv);
    crate::sim::printf::format(&f, &[(bits, ty)])
}

/// `%s` with its width and precision.
pub fn string(spec: &str, s: &[u8]) -> String {
    let text = String::from_utf8_lossy(s);
    let body = &spec[1..];
    let left = body.contains('-');
    let digits: String = body.chars().filter(|c| c.is_ascii_digit() || *c == '.').collect();
    let (w, p) = match digits.split_once('.') {
        Some((w, p)) => (w.parse().unwrap_or(0), Some(p.parse().unwrap_or(0))),
        None => (digits.parse().unwrap_or(0usize), None),
    };
    let t: String = match p {
        Some(p) => text.chars().take(p).collect(),
        None => text.into_owned(),
    };
    let pad = w.saturating_sub(t.chars().count());
    if left { format!("{t}{}", " ".repeat(pad)) } else { format!("{}{t}", " ".repeat(pad)) }
}

/// `strtol`'s reading of `s` in `base` (0: from the prefix, `0x` or `0`): the value, saturated as glibc does
/// to the type's range (signed or not), and how many bytes it used (0 when there is no number).
pub fn strtol(s: &[u8], base: u32, signed: bool) -> (u64, usize) {
    let mut i = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let neg = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let hex_prefix = s.get(i) == Some(&b'0') && matches!(s.get(i + 1), Some(b'x' | b'X'));
    let base = match base {
        0 if hex_prefix => 16,
        0 if s.get(i) == Some(&b'0') => 8,
        0 => 10,
        b => b,
    };
    if base == 16 && hex_prefix && s.get(i + 2).is_some_and(|b| b.is_ascii_hexdigit()) {
        i += 2;
    }
    let start = i;
    let mut n: u128 = 0;
    while let Some(d) = s.get(i).and_then(|&b| (b as char).to_digit(36)).filter(|&d| d < base) {
        n = (n * base as u128 + d as u128).min(u64::MAX as u128 + 1);
        i += 1;
    }
    if i == start {
        return (0, 0);
    }
    let v = if signed {
        let n = n.min(if neg { 1 << 63 } else { i64::MAX as u128 }) as i128;
        (if neg { -n } else { n }) as i64 as u64
    } else {
        let n = n.min(u64::MAX as u128) as u64;
        if neg { n.wrapping_neg() } else { n }
    };
    (v, i)
}

/// `strtod`'s reading of `s`: the value and how many bytes it used (0 when there is no number). Decimal
/// forms with an exponent, `inf`, `infinity` and `nan`.
pub fn strtod(s: &[u8]) -> (f64, usize) {
    let lead = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let t = &s[lead..];
    let i = usize::from(matches!(t.first(), Some(b'-' | b'+')));
    let word = |w: &str| t.len() >= i + w.len() && t[i..i + w.len()].eq_ignore_ascii_case(w.as_bytes());
    for w in ["infinity", "inf", "nan"] {
        if word(w) {
            let v = if w == "nan" { f64::NAN } else { f64::INFINITY };
            return (if t[0] == b'-' { -v } else { v }, lead + i + w.len());
        }
    }
    let digits = |t: &[u8], mut i: usize| {
        while t.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let int_end = digits(t, i);
    let mut end = int_end;
    if t.get(end) == Some(&b'.') {
        end = digits(t, end + 1);
    }
    if end == i || (end == i + 1 && t.get(i) == Some(&b'.')) {
        return (0.0, 0);
    }
    if matches!(t.get(end), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(t.get(end + 1), Some(b'-' | b'+')));
        let exp_end = digits(t, end + 1 + sign);
        if exp_end > end + 1 + sign {
            end = exp_end;
        }
    }
    let text = std::str::from_utf8(&t[..end]).unwrap_or("0");
    (text.parse().unwrap_or(0.0), lead + end)
}

/// The standard input as read so far: its bytes (read once, when a program first asks) and where the next
/// read starts.
#[derive(Default)]
pub struct Input {
    bytes: Option<Vec<u8>>,
    /// Where the next read starts.
    pub(super) pos: usize,
}

impl Input {
    /// All of the input (read now if it was not yet).
    pub(super) fn text(&mut self) -> &[u8] {
        self.bytes.get_or_insert_with(|| {
            let mut b = vec![];
            // A closed or absent standard input (the web page) reads as empty.
            let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut b);
            b
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strtol_reads_as_glibc_does() {
        assert_eq!(strtol(b"  42xyz", 10, true), (42, 4));
        assert_eq!(strtol(b"-17", 10, true), ((-17i64) as u64, 3));
        assert_eq!(strtol(b"0x1F", 0, true), (31, 4));
        assert_eq!(strtol(b"017", 0, true), (15, 3));
        assert_eq!(strtol(b"ff", 16, true), (255, 2));
        assert_eq!(strtol(b"abc", 10, true), (0, 0));
        assert_eq!(strtol(b"99999999999999999999", 10, true), (i64::MAX as u64, 20));
        assert_eq!(strtol(b"-1", 10, false), (u64::MAX, 2));
    }

    #[test]
    fn strtod_reads_as_glibc_does() {
        assert_eq!(strtod(b" 1.5e3s"), (1500.0, 6));
        assert_eq!(strtod(b"-.25"), (-0.25, 4));
        assert_eq!(strtod(b"3."), (3.0, 2));
        assert_eq!(strtod(b"2e"), (2.0, 1));
        assert_eq!(strtod(b"x"), (0.0, 0));
        assert_eq!(strtod(b"-inf").0, f64::NEG_INFINITY);
    }

    #[test]
    fn glibc_rand_default_seed() {
        // The first values of rand() on glibc without srand.
        let mut g = GlibcRand::default();
        let v: Vec<i32> = (0..3).map(|_| g.rand()).collect();
        assert_eq!(v, vec![1804289383, 846930886, 1681692777]);
    }
}

//! The C library pieces whose results a program prints: glibc's `rand` and `printf` formatting.

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
        while i < bytes.len() && b"-+ #0123456789.hlLzjt".contains(&bytes[i]) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glibc_rand_default_seed() {
        // The first values of rand() on glibc without srand.
        let mut g = GlibcRand::default();
        let v: Vec<i32> = (0..3).map(|_| g.rand()).collect();
        assert_eq!(v, vec![1804289383, 846930886, 1681692777]);
    }
}

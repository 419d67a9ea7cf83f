//! `scanf`: formatted reading of the program's standard input, which is warpdbg's own (read whole at the
//! first `scanf`). Conversions as glibc reads them: `%d %i %u %x %o` (with `hh h l ll z j t`), `%f %e %g %a`
//! (`l` for `double`), `%s`, `%c`, `%[`-less scans, `%n`, `%%`, `*` (no assignment) and field widths. At the
//! end of the input before the first conversion it returns `EOF` (-1) and leaves the variables as they were,
//! as on a machine whose standard input is empty (the GPU recordings ran so).

use super::interp::{Interp, Unwind};
use super::libc;
use super::tree::Expr;

/// One value a conversion stores: its bytes (little-endian), in the order of the pointer arguments.
type Stored = Vec<u8>;

/// Reads `input` from `*pos` as `fmt` says: the values to store (one per assigning conversion) and `scanf`'s
/// result.
pub fn scan(fmt: &[u8], input: &[u8], pos: &mut usize) -> (Vec<Stored>, i32) {
    let mut out = vec![];
    let mut converted = 0;
    let mut f = 0;
    let skip_ws = |pos: &mut usize| {
        while input.get(*pos).is_some_and(u8::is_ascii_whitespace) {
            *pos += 1;
        }
    };
    // EOF before any conversion is -1; a matching failure, or EOF later, the count so far.
    let eof = |converted: i32, out: Vec<Stored>| (out, if converted == 0 { -1 } else { converted });
    while f < fmt.len() {
        let c = fmt[f];
        if c.is_ascii_whitespace() {
            skip_ws(pos);
            f += 1;
            continue;
        }
        if c != b'%' || fmt.get(f + 1) == Some(&b'%') {
            if c == b'%' {
                skip_ws(pos);
                f += 1;
            }
            match input.get(*pos) {
                None => return eof(converted, out),
                Some(&b) if b == c => *pos += 1,
                Some(_) => return (out, converted),
            }
            f += 1;
            continue;
        }
        f += 1;
        let suppress = fmt.get(f) == Some(&b'*');
        f += usize::from(suppress);
        let mut width = 0usize;
        while let Some(d) = fmt.get(f).filter(|b| b.is_ascii_digit()) {
            width = width * 10 + (d - b'0') as usize;
            f += 1;
        }
        let mut size = 4;
        let mut longs = 0;
        while let Some(&m) = fmt.get(f).filter(|b| b"hlLqjzt".contains(b)) {
            size = match m {
                b'h' if size == 2 => 1,
                b'h' => 2,
                b'l' => {
                    longs += 1;
                    8
                }
                _ => 8,
            };
            f += 1;
        }
        let Some(&conv) = fmt.get(f) else { break };
        f += 1;
        if conv == b'n' {
            if !suppress {
                out.push((*pos as u64).to_le_bytes()[..size].to_vec());
            }
            continue;
        }
        if conv != b'c' {
            skip_ws(pos);
        }
        if *pos >= input.len() {
            return eof(converted, out);
        }
        let rest = &input[*pos..];
        let field = if width > 0 { &rest[..width.min(rest.len())] } else { rest };
        let (bytes, used): (Stored, usize) = match conv {
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' => {
                let base = match conv {
                    b'd' | b'u' => 10,
                    b'i' => 0,
                    b'o' => 8,
                    _ => 16,
                };
                let (v, used) = libc::strtol(field, base, conv == b'd' || conv == b'i');
                (v.to_le_bytes()[..size].to_vec(), used)
            }
            b'f' | b'e' | b'g' | b'a' | b'E' | b'G' | b'F' | b'A' => {
                let (v, used) = libc::strtod(field);
                let bytes =
                    if longs > 0 || size == 8 { v.to_le_bytes().to_vec() } else { (v as f32).to_le_bytes().to_vec() };
                (bytes, used)
            }
            b's' => {
                let n = field.iter().take_while(|b| !b.is_ascii_whitespace()).count();
                let mut s = field[..n].to_vec();
                s.push(0);
                (s, n)
            }
            b'c' => {
                let n = width.max(1).min(rest.len());
                (rest[..n].to_vec(), n)
            }
            _ => return (out, converted),
        };
        if used == 0 {
            return (out, converted);
        }
        *pos += used;
        if !suppress {
            out.push(bytes);
            converted += 1;
        }
    }
    (out, converted)
}

impl Interp<'_> {
    /// `scanf(fmt, ...)`: the conversions' values stored through the pointer arguments.
    pub(super) fn scanf(&mut self, args: &[Expr], v: &[u64], e: &Expr) -> Result<u64, Unwind> {
        let mut pos = self.stdin.pos;
        let text = self.stdin.text().to_vec();
        let n = self.scan_into(&text, &mut pos, 0, args, v, e)?;
        self.stdin.pos = pos;
        Ok(n)
    }

    /// Scans `input` from `*pos` with the format at argument `fmt_at`, storing each value through the pointer
    /// arguments after it: the `scanf` family's result.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn scan_into(
        &mut self,
        input: &[u8],
        pos: &mut usize,
        fmt_at: usize,
        args: &[Expr],
        v: &[u64],
        e: &Expr,
    ) -> Result<u64, Unwind> {
        let fmt = self.c_str(v[fmt_at], e)?;
        let mut ptrs = vec![];
        for k in fmt_at + 1..args.len() {
            ptrs.push(if k < v.len() { v[k] } else { self.lib_rest[k - v.len()] });
        }
        let (values, n) = scan(&fmt, input, pos);
        if values.len() > ptrs.len() {
            let line = self.line(e.span);
            return Err(Unwind::Error(Box::new(super::HostError::Memory {
                line,
                message: format!(
                    "host code at line {line} calls a scanf with {} pointers for {} conversions",
                    ptrs.len(),
                    values.len()
                ),
            })));
        }
        for (bytes, &at) in values.iter().zip(&ptrs) {
            self.write_bytes(at, Some(bytes), bytes.len() as u64, 0, e.span)?;
        }
        Ok(n as u32 as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::scan;

    fn run(fmt: &str, input: &str) -> (Vec<Vec<u8>>, i32, usize) {
        let mut pos = 0;
        let (v, n) = scan(fmt.as_bytes(), input.as_bytes(), &mut pos);
        (v, n, pos)
    }

    #[test]
    fn scanf_reads_as_glibc_does() {
        let (v, n, pos) = run("%d %lf", " 12\n 2.5 rest");
        assert_eq!((n, pos), (2, 8));
        assert_eq!(v[0], 12i32.to_le_bytes());
        assert_eq!(v[1], 2.5f64.to_le_bytes());
        assert_eq!(run("%lf", "").1, -1);
        assert_eq!(run("%d", "   \n").1, -1);
        let (v, n, pos) = run("%d,%d", "4,x");
        assert_eq!((v.len(), n, pos), (1, 1, 2));
        let (v, n, _) = run("%s %c%f", "word  z3.5");
        assert_eq!((v[0].as_slice(), v[1].as_slice(), n), (&b"word\0"[..], &b"z"[..], 3));
        assert_eq!(v[2], 3.5f32.to_le_bytes());
        let (v, n, _) = run("%*d %2d%d", "7 123");
        assert_eq!((v, n), (vec![12i32.to_le_bytes().to_vec(), 3i32.to_le_bytes().to_vec()], 2));
    }
}

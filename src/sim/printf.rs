//! Device `printf`: C format strings rendered per thread.

use crate::ir::Ty;

/// Formats `fmt` with arguments given as (raw bits, type), as CUDA's printf would print them; `%s` prints
/// `(string)` (no memory to read it from).
pub fn format(fmt: &str, args: &[(u64, Ty)]) -> String {
    format_with(fmt, args, &mut |_| None)
}

/// [`format`], with `%s` reading its NUL-terminated string at an address through `read` (`None`: not
/// readable there, printed as `(string)`); a null pointer prints `(null)`, as CUDA's printf does.
pub fn format_with(fmt: &str, args: &[(u64, Ty)], read: &mut dyn FnMut(u64) -> Option<Vec<u8>>) -> String {
    let mut out = String::new();
    let mut args = args.iter();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = String::from("%");
        // flags, width, precision (`*`: from an argument), length
        while let Some(&n) = chars.peek() {
            if "-+ #0123456789.hlLzjt*".contains(n) {
                spec.push(n);
                chars.next();
            } else {
                break;
            }
        }
        let Some(conv) = chars.next() else {
            out.push_str(&spec);
            break;
        };
        if spec.contains(".*") {
            // CUDA's device printf prints a precision taken from an argument as written (measured on an
            // H200: `%.*f` printed `%.*f`); a width from an argument (`%*d`) it does take.
            out.push_str(&spec);
            out.push(conv);
            continue;
        }
        let spec = resolve_stars(&spec, &mut || args.next().map(|&(bits, _)| bits as u32 as i32));
        if conv == '%' {
            out.push('%');
            continue;
        }
        let Some(&(bits, ty)) = args.next() else {
            out.push_str(&spec);
            out.push(conv);
            continue;
        };
        if conv == 's' {
            let mut text = match bits {
                0 => "(null)".to_string(),
                a => read(a).map_or_else(|| "(string)".into(), |b| String::from_utf8_lossy(&b).into_owned()),
            };
            let s = parse(&spec);
            if let Some(p) = s.precision
                && let Some((i, _)) = text.char_indices().nth(p)
            {
                text.truncate(i);
            }
            out.push_str(&pad(&s, text, false));
            continue;
        }
        out.push_str(&one(&spec, conv, bits, ty));
    }
    out
}

/// A conversion's text with each `*` replaced by the next argument, an `int` (`%*d`, `%.*f`): a negative
/// width left-justifies, a negative precision counts as none, as C says.
pub fn resolve_stars(spec: &str, next: &mut dyn FnMut() -> Option<i32>) -> String {
    if !spec.contains('*') {
        return spec.to_string();
    }
    let mut out = String::with_capacity(spec.len() + 4);
    for c in spec.chars() {
        if c != '*' {
            out.push(c);
            continue;
        }
        let v = next().unwrap_or(0);
        match (out.ends_with('.'), v < 0) {
            (true, true) => {
                out.pop();
            }
            (false, true) => {
                out.insert(1, '-');
                out.push_str(&v.unsigned_abs().to_string());
            }
            _ => out.push_str(&v.to_string()),
        }
    }
    out
}

struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
}

fn parse(spec: &str) -> Spec {
    let mut s = Spec { left: false, plus: false, space: false, alt: false, zero: false, width: 0, precision: None };
    let body = &spec[1..];
    let mut it = body.chars().peekable();
    while let Some(&c) = it.peek() {
        match c {
            '-' => s.left = true,
            '+' => s.plus = true,
            ' ' => s.space = true,
            '#' => s.alt = true,
            '0' => s.zero = true,
            _ => break,
        }
        it.next();
    }
    let rest: String = it.collect();
    let rest = rest.trim_end_matches(|c: char| "hlLzjt".contains(c));
    let (w, p) = match rest.split_once('.') {
        Some((w, p)) => (w, Some(p.parse().unwrap_or(0))),
        None => (rest, None),
    };
    s.width = w.parse().unwrap_or(0);
    s.precision = p;
    s
}

fn as_i64(bits: u64, ty: Ty) -> i64 {
    match ty {
        Ty::I32 | Ty::I8 | Ty::I16 => bits as u32 as i32 as i64,
        Ty::F64 => f64::from_bits(bits) as i64,
        Ty::Ptr | Ty::I64 | Ty::U64 => bits as i64,
        _ => bits as u32 as i64,
    }
}

/// The bits `%d`, `%u` and `%x` print: 64 of them with `l`, `ll`, `z`, `j` or `t` (or a 64-bit argument),
/// 16 or 8 with `h` or `hh`, else 32 (what CUDA's printf reads for each).
fn int_bits(spec: &str, bits: u64, ty: Ty) -> (u64, u32) {
    let width = if spec.contains(['l', 'z', 'j', 't']) || matches!(ty, Ty::I64 | Ty::U64 | Ty::Ptr) {
        64
    } else if spec.contains("hh") {
        8
    } else if spec.contains('h') {
        16
    } else {
        32
    };
    let v = as_i64(bits, ty) as u64;
    (if width == 64 { v } else { v & ((1u64 << width) - 1) }, width)
}

fn as_f64(bits: u64, ty: Ty) -> f64 {
    match ty {
        Ty::F64 => f64::from_bits(bits),
        Ty::F32 => f32::from_bits(bits as u32) as f64,
        _ => as_i64(bits, ty) as f64,
    }
}

fn pad(s: &Spec, body: String, numeric: bool) -> String {
    if body.len() >= s.width {
        return body;
    }
    let fill = s.width - body.len();
    if s.left {
        format!("{body}{}", " ".repeat(fill))
    } else if s.zero && numeric {
        let (sign, digits) = if body.starts_with(['-', '+', ' ']) { body.split_at(1) } else { ("", body.as_str()) };
        format!("{sign}{}{digits}", "0".repeat(fill))
    } else {
        format!("{}{body}", " ".repeat(fill))
    }
}

fn signed(s: &Spec, v: String, negative: bool) -> String {
    if negative {
        v
    } else if s.plus {
        format!("+{v}")
    } else if s.space {
        format!(" {v}")
    } else {
        v
    }
}

fn one(spec: &str, conv: char, bits: u64, ty: Ty) -> String {
    let s = parse(spec);
    match conv {
        'd' | 'i' => {
            let (u, width) = int_bits(spec, bits, ty);
            // Sign-extend from the printed width.
            let v = if width == 64 { u as i64 } else { ((u << (64 - width)) as i64) >> (64 - width) };
            pad(&s, signed(&s, v.to_string(), v < 0), true)
        }
        'u' => pad(&s, int_bits(spec, bits, ty).0.to_string(), true),
        'x' | 'X' | 'o' => {
            let v = int_bits(spec, bits, ty).0;
            let mut body = match conv {
                'x' => format!("{v:x}"),
                'X' => format!("{v:X}"),
                _ => format!("{v:o}"),
            };
            if s.alt && v != 0 {
                body = match conv {
                    'x' => format!("0x{body}"),
                    'X' => format!("0X{body}"),
                    _ => format!("0{body}"),
                };
            }
            pad(&s, body, true)
        }
        'c' => pad(&s, char::from_u32(bits as u32 & 0xff).unwrap_or('?').to_string(), false),
        // A null pointer is `(nil)` on the host (glibc) and in a kernel (CUDA's printf, measured on an H200).
        'p' if bits == 0 => pad(&Spec { precision: None, ..s }, "(nil)".into(), false),
        'p' => pad(&s, format!("{bits:#x}"), false),
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' if !as_f64(bits, ty).is_finite() => {
            // glibc's: `inf`/`nan` (upper case for the upper-case conversions), signed as numbers are (`-nan`
            // when the sign bit is set), padded with spaces even under `0`.
            let v = as_f64(bits, ty);
            let text = if v.is_nan() { "nan" } else { "inf" };
            let text = if conv.is_ascii_uppercase() { text.to_uppercase() } else { text.to_string() };
            let body = if v.is_sign_negative() { format!("-{text}") } else { text };
            pad(&s, signed(&s, body, v.is_sign_negative()), false)
        }
        'f' | 'F' => {
            let v = as_f64(bits, ty);
            let body = format!("{:.*}", s.precision.unwrap_or(6), v);
            pad(&s, signed(&s, body, v.is_sign_negative()), true)
        }
        'e' | 'E' => {
            let v = as_f64(bits, ty);
            let body = c_exp(v, s.precision.unwrap_or(6), conv == 'E');
            pad(&s, signed(&s, body, v.is_sign_negative()), true)
        }
        'g' | 'G' => {
            let v = as_f64(bits, ty);
            let p = s.precision.unwrap_or(6).max(1);
            // C's rule: the exponent X that `%e` with precision P-1 would print (after rounding) picks the
            // style; then trailing zeros go unless `#`.
            let e = c_exp(v, p - 1, false);
            let exp: i32 = e.rsplit_once('e').and_then(|(_, x)| x.parse().ok()).unwrap_or(0);
            let strip = |t: String| {
                if s.alt || !t.contains('.') {
                    return t;
                }
                match t.split_once(['e', 'E']) {
                    Some((m, x)) => {
                        let m = m.trim_end_matches('0').trim_end_matches('.');
                        format!("{m}{}{x}", if conv == 'G' { 'E' } else { 'e' })
                    }
                    None => t.trim_end_matches('0').trim_end_matches('.').to_string(),
                }
            };
            let body = if v.is_finite() && exp >= -4 && exp < p as i32 {
                strip(format!("{:.*}", (p as i32 - 1 - exp).max(0) as usize, v))
            } else {
                strip(c_exp(v, p - 1, conv == 'G'))
            };
            pad(&s, signed(&s, body, v.is_sign_negative()), true)
        }
        'a' | 'A' => {
            let v = as_f64(bits, ty);
            let body = hex_float(v, s.precision, s.alt);
            let body = if conv == 'A' { body.to_uppercase() } else { body };
            pad(&s, signed(&s, body, v.is_sign_negative()), true)
        }
        other => format!("%{other}"),
    }
}

/// C's `%a` as glibc prints a double: `0x1.8p+1`, the mantissa's hex digits without trailing zeros (or
/// rounded to `precision` digits, ties to even), `0x0p+0` for zero, subnormals as `0x0.xxxp-1022`.
fn hex_float(v: f64, precision: Option<usize>, alt: bool) -> String {
    let bits = v.to_bits();
    let sign = if v.is_sign_negative() { "-" } else { "" };
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let mut frac = bits & ((1u64 << 52) - 1);
    let (mut lead, exp) = match (exp_bits, frac) {
        (0, 0) => (0u64, 0),
        (0, _) => (0, -1022),
        _ => (1, exp_bits - 1023),
    };
    let mut digits = 13usize;
    if let Some(p) = precision.filter(|&p| p < 13) {
        let drop = 4 * (13 - p) as u32;
        let kept = frac >> drop;
        let rest = frac & ((1u64 << drop) - 1);
        let half = 1u64 << (drop - 1);
        // Ties to even: the last digit kept, or the leading one when no digit follows the point.
        let odd = if p == 0 { lead & 1 == 1 } else { kept & 1 == 1 };
        let up = rest > half || (rest == half && odd);
        let kept = kept + u64::from(up);
        // Rounding up can carry into the leading digit (`0x1.f8p+0` at one digit: `0x2.0p+0`).
        lead += kept >> (4 * p);
        frac = (kept & ((1u64 << (4 * p)) - 1)) << drop;
        digits = p;
    }
    let mut hex = format!("{frac:013x}");
    hex.truncate(digits);
    if precision.is_none() {
        hex = hex.trim_end_matches('0').to_string();
    } else if let Some(p) = precision.filter(|&p| p > 13) {
        hex.push_str(&"0".repeat(p - 13));
    }
    let point = if hex.is_empty() && !alt { "" } else { "." };
    format!("{sign}0x{lead:x}{point}{hex}p{}{}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// C's `%e`: mantissa, `e`, sign, at least two exponent digits.
fn c_exp(v: f64, precision: usize, upper: bool) -> String {
    let r = format!("{v:.precision$e}");
    let (m, e) = r.split_once('e').unwrap_or((&r, "0"));
    let exp: i32 = e.parse().unwrap_or(0);
    let s = format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    if upper { s.to_uppercase() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infinities_and_nans_print_as_glibc_prints_them() {
        let f = |spec: &str, v: f64| format(spec, &[(v.to_bits(), Ty::F64)]);
        assert_eq!(f("%g", f64::INFINITY), "inf");
        assert_eq!(f("%e", f64::NEG_INFINITY), "-inf");
        assert_eq!(f("%G|%E|%F", f64::INFINITY).split('|').next(), Some("INF"));
        assert_eq!(f("%08.3f|", f64::INFINITY), "     inf|");
        assert_eq!(f("%-6g|", f64::NEG_INFINITY), "-inf  |");
        assert_eq!(f("%+g", f64::INFINITY), "+inf");
        assert_eq!(f("%f", f64::NAN), "nan");
        assert_eq!(f("%f", -f64::NAN), "-nan");
        assert_eq!(f("%G", f64::NAN), "NAN");
    }

    #[test]
    fn star_widths_and_precisions_take_arguments() {
        let i = |v: i32| (v as u32 as u64, Ty::I32);
        let d = |v: f64| (v.to_bits(), Ty::F64);
        assert_eq!(format("%*d|%-*d|", &[i(6), i(12), i(6), i(12)]), "    12|12    |");
        assert_eq!(format("%*d|%-*d|", &[i(-4), i(7), i(3), i(1)]), "7   |1  |");
        // The device's printf prints `.*` as written (the host's resolves it: tests/programs/printf_formats.cu).
        assert_eq!(format("%.*f|", &[i(3), d(0.5)]), "%.*f|");
        assert_eq!(resolve_stars("%.*f", &mut || Some(-1)), "%f");
        assert_eq!(
            resolve_stars("%*.*f", &mut {
                let mut v = vec![-8, 2].into_iter();
                move || v.next()
            }),
            "%-8.2f"
        );
    }

    #[test]
    fn hex_floats_print_as_glibc_prints_them() {
        let d = |v: f64| [(v.to_bits(), Ty::F64)];
        assert_eq!(format("%a", &d(1.0)), "0x1p+0");
        assert_eq!(format("%a", &d(3.0)), "0x1.8p+1");
        assert_eq!(format("%a", &d(-0.1)), "-0x1.999999999999ap-4");
        assert_eq!(format("%a", &d(0.0)), "0x0p+0");
        assert_eq!(format("%A", &d(255.5)), "0X1.FFP+7");
        assert_eq!(format("%.1a", &d(1.96875)), "0x2.0p+0");
        assert_eq!(format("%.2a", &d(1.0)), "0x1.00p+0");
        assert_eq!(format("%a", &d(f64::from_bits(1))), "0x0.0000000000001p-1022");
        assert_eq!(format("%10a|", &d(1.0)), "    0x1p+0|");
        assert_eq!(format("%.1a", &d(1.03125)), "0x1.0p+0");
        assert_eq!(format("%.0a", &d(1.5)), "0x2p+0");
        assert_eq!(format("%#.0a", &d(1.0)), "0x1.p+0");
        assert_eq!(format("%.3a", &d(1.00048828125)), "0x1.002p+0");
    }

    #[test]
    fn common_formats() {
        let i = |v: i32| (v as u32 as u64, Ty::I32);
        let f = |v: f64| (v.to_bits(), Ty::F64);
        assert_eq!(format("tid %d of %d\n", &[i(5), i(32)]), "tid 5 of 32\n");
        assert_eq!(format("%5d|%-4d|%04d", &[i(42), i(-3), i(-7)]), "   42|-3  |-007");
        assert_eq!(format("%.2f %e %g", &[f(1.23456), f(12345.678), f(0.0001)]), "1.23 1.234568e+04 0.0001");
        assert_eq!(
            format("%g %g %g %g %G %#g", &[f(1e7), f(999999.5), f(0.00001234), f(100.0), f(1.5e-10), f(2.0)]),
            "1e+07 1e+06 1.234e-05 100 1.5E-10 2.00000"
        );
        assert_eq!(format("%x %#X %u %%", &[i(255), i(255), i(-1)]), "ff 0XFF 4294967295 %");
        let big = |v: i64| (v as u64, Ty::I64);
        assert_eq!(
            format("%lld %llu %zu %lx %hd", &[big(-5), (u64::MAX, Ty::U64), big(1 << 40), big(-1), i(70000)]),
            "-5 18446744073709551615 1099511627776 ffffffffffffffff 4464"
        );
    }

    #[test]
    fn strings_are_read_from_memory() {
        let mut read = |a: u64| (a == 0x100).then(|| b"Thread 1".to_vec());
        let p = |a: u64| (a, Ty::Ptr);
        let out = format_with("[%s] [%10s] [%-4.3s] [%s] [%s]", &[p(0x100), p(0x100), p(0x100), p(0), p(8)], &mut read);
        assert_eq!(out, "[Thread 1] [  Thread 1] [Thr ] [(null)] [(string)]");
    }
}

//! C++ input streams and string streams: `std::ifstream`, `std::istringstream`, `std::stringstream`,
//! `std::ostringstream` and `std::cin`. Each is a handle of C's files ([`super::files`]); a string stream's
//! file is a buffer of its own, never written to disk, and `std::cin` reads warpdbg's standard input.
//!
//! `f >> a >> b` is resolved into `a = extract(f, a), b = extract(f, b), !f.fail()`, and `std::getline(f, s)`
//! into `s.p = getline(f, s.p), !f.fail()`, so `while (f >> x)` and `while (std::getline(f, line))` test what
//! C++ tests. Extraction follows libstdc++: a read on a stream that is not `good()` only sets `failbit`;
//! `>>` skips whitespace first, and reaching the end sets `eofbit` (with `failbit` when nothing was read);
//! a number that does not parse stores 0 and sets `failbit`; an out-of-range one stores the type's limit.

use super::cuda::names::{is_string, stream_kind};
use super::files::{STREAM_EOF, STREAM_FAIL, StreamView};
use super::interp::{Interp, Unwind};
use super::memory::AllocKind;
use super::methods::expr;
use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// libstdc++'s sentry: false (setting `failbit`) on a stream that is not good; with `skip`, whitespace is
/// skipped and reaching the end sets `eofbit` and `failbit`.
fn sentry(s: &mut StreamView, skip: bool) -> bool {
    if *s.state != 0 {
        *s.state |= STREAM_FAIL;
        return false;
    }
    if skip {
        while *s.get < s.data.len() && is_space(s.data[*s.get]) {
            *s.get += 1;
        }
        if *s.get >= s.data.len() {
            *s.state |= STREAM_EOF | STREAM_FAIL;
            return false;
        }
    }
    true
}

/// The length of the run of ASCII digits at `i`.
fn digits(d: &[u8], i: usize) -> usize {
    d[i.min(d.len())..].iter().take_while(|b| b.is_ascii_digit()).count()
}

/// `f >> x` into a scalar of type `ty` whose old value is `old`: the new value's bits.
fn extract(s: &mut StreamView, ty: Scalar, old: u64) -> u64 {
    if !sentry(s, true) {
        return old;
    }
    let d = s.data;
    let start = *s.get;
    if matches!(ty, Scalar::I8 | Scalar::U8) {
        *s.get += 1;
        return d[start] as u64;
    }
    let mut i = start;
    if matches!(d[i], b'+' | b'-') {
        i += 1;
    }
    let mut n = digits(d, i);
    i += n;
    if ty.is_float() {
        if d.get(i) == Some(&b'.') {
            let m = digits(d, i + 1);
            n += m;
            i += 1 + m;
        }
        if n > 0 && matches!(d.get(i), Some(b'e' | b'E')) {
            let sign = usize::from(matches!(d.get(i + 1), Some(b'+' | b'-')));
            let m = digits(d, i + 1 + sign);
            if m > 0 {
                i += 1 + sign + m;
            }
        }
    }
    *s.get = i;
    if i >= d.len() {
        *s.state |= STREAM_EOF;
    }
    if n == 0 {
        *s.state |= STREAM_FAIL;
        return 0;
    }
    let text = std::str::from_utf8(&d[start..i]).unwrap_or("0");
    if ty.is_float() {
        let (bits, finite) = if ty == Scalar::F32 {
            let x = text.parse::<f32>().unwrap_or(0.0);
            (x.to_bits() as u64, x.is_finite())
        } else {
            let x = text.parse::<f64>().unwrap_or(0.0);
            (x.to_bits(), x.is_finite())
        };
        if !finite {
            *s.state |= STREAM_FAIL;
        }
        return bits;
    }
    integer(s.state, ty, text)
}

/// The integer `text` (a sign and digits) as a `ty`, clamped to its range with `failbit` when it does not
/// fit; a negative value read into an unsigned type wraps, as libstdc++ reads it.
fn integer(state: &mut u8, ty: Scalar, text: &str) -> u64 {
    let negative = text.starts_with('-');
    let magnitude = text.trim_start_matches(['+', '-']).parse::<u128>().unwrap_or(u128::MAX);
    let bits = if ty == Scalar::Bool { 1 } else { ty.size() * 8 };
    let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let value = if ty.is_signed() {
        let (min, max) = (1u128 << (bits - 1), (1u128 << (bits - 1)) - 1);
        let v = match (negative, magnitude) {
            (true, m) if m > min => {
                *state |= STREAM_FAIL;
                -(min as i128)
            }
            (false, m) if m > max => {
                *state |= STREAM_FAIL;
                max as i128
            }
            (true, m) => -(m as i128),
            (false, m) => m as i128,
        };
        v as u64
    } else if magnitude > mask as u128 {
        *state |= STREAM_FAIL;
        mask
    } else if negative {
        (magnitude as u64).wrapping_neg()
    } else {
        magnitude as u64
    };
    value & mask
}

/// `f >> word` into a string: the word's bytes (None: nothing read).
fn word(s: &mut StreamView) -> Option<Vec<u8>> {
    if !sentry(s, true) {
        return None;
    }
    let start = *s.get;
    let n = s.data[start..].iter().take_while(|b| !is_space(**b)).count();
    *s.get += n;
    if *s.get >= s.data.len() {
        *s.state |= STREAM_EOF;
    }
    Some(s.data[start..start + n].to_vec())
}

/// `std::getline(f, s, delim)`: the line's bytes without the delimiter (None: the string stays).
fn line(s: &mut StreamView, delim: u8) -> Option<Vec<u8>> {
    if !sentry(s, false) {
        return None;
    }
    let start = *s.get;
    let rest = &s.data[start..];
    match rest.iter().position(|&b| b == delim) {
        Some(n) => {
            *s.get += n + 1;
            Some(rest[..n].to_vec())
        }
        None => {
            *s.get = s.data.len();
            *s.state |= STREAM_EOF;
            if rest.is_empty() {
                *s.state |= STREAM_FAIL;
            }
            Some(rest.to_vec())
        }
    }
}

impl Interp<'_> {
    /// The stream calls of [`Lib`] on the handle in `v[0]`.
    pub(super) fn istream(&mut self, lib: Lib, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        let line_no = self.line(e.span);
        let fresh = |me: &mut Self, mut s: Vec<u8>| {
            s.push(0);
            let at = me.mem.alloc(s.len() as u64, AllocKind::Literal, "a std::string", line_no);
            if let Ok(b) = me.mem.bytes(at, s.len() as u64) {
                b.copy_from_slice(&s);
            }
            at
        };
        Ok(match lib {
            Lib::Extract(ty) => match self.files.stream(v[0]) {
                Some(mut s) => extract(&mut s, ty, v[1]),
                None => v[1],
            },
            Lib::ExtractWord | Lib::GetLine => {
                let got = self.files.stream(v[0]).and_then(|mut s| match lib {
                    Lib::GetLine => line(&mut s, v[2] as u8),
                    _ => word(&mut s),
                });
                match got {
                    Some(bytes) => fresh(self, bytes),
                    None => v[1],
                }
            }
            Lib::StreamAsk(ask) => {
                let Some(s) = self.files.stream(v[0]) else {
                    // A stream whose file did not open has failed.
                    return Ok(u64::from(ask == StreamAsk::Fail));
                };
                let state = *s.state;
                match ask {
                    StreamAsk::Good => u64::from(state == 0),
                    StreamAsk::Eof => u64::from(state & STREAM_EOF != 0),
                    StreamAsk::Fail => u64::from(state & STREAM_FAIL != 0),
                    StreamAsk::Ok => u64::from(state & STREAM_FAIL == 0),
                    StreamAsk::Clear => {
                        *s.state = 0;
                        0
                    }
                }
            }
            Lib::MemStream => {
                let text = if v[0] == 0 { vec![] } else { self.c_str(v[0], e)? };
                self.files.open_memory(text, v[1] != 0)
            }
            Lib::StreamStr => {
                let bytes = self.files.contents(v[0]);
                fresh(self, bytes)
            }
            Lib::Cin => match self.files.stdin {
                Some(h) => h,
                None => {
                    let pos = self.stdin.pos;
                    let rest = self.stdin.text().get(pos..).unwrap_or_default().to_vec();
                    let h = self.files.open_memory(rest, false);
                    self.files.stdin = Some(h);
                    h
                }
            },
            _ => 0,
        })
    }
}

fn call(f: &str, args: Vec<ast::Expr>, span: Span) -> ast::Expr {
    expr(A::Call(ast::Ident { name: f.into(), span }, args), span)
}

/// `obj.name`.
fn member(obj: &ast::Expr, name: &str) -> ast::Expr {
    expr(A::Member(Box::new(obj.clone()), ast::Ident { name: name.into(), span: obj.span }), obj.span)
}

fn assign(target: ast::Expr, value: ast::Expr, span: Span) -> ast::Expr {
    expr(A::Assign { op: None, target: Box::new(target), value: Box::new(value) }, span)
}

impl Resolver<'_> {
    /// The handle of the input stream `e` names (a stream variable or `std::cin`), or None.
    fn input_handle(&mut self, e: &ast::Expr) -> Option<ast::Expr> {
        let A::Name(n) = &e.kind else { return None };
        if self.lookup(n).is_none() {
            return matches!(n.as_str(), "cin" | "std::cin").then(|| call("__warpdbg_cin", vec![], e.span));
        }
        let v = self.rvalue(e).ok()?;
        stream_kind(&v.ty).map(|_| member(e, "handle"))
    }

    fn is_string_var(&mut self, e: &ast::Expr) -> bool {
        matches!(&e.kind, A::Name(n) if self.lookup(n).is_some()) && self.rvalue(e).is_ok_and(|v| is_string(&v.ty))
    }

    /// `f >> a >> b` on an input stream (None: `>>` is a shift).
    pub(super) fn stream_extract(
        &mut self,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let mut targets = vec![b];
        let mut at = a;
        while let A::Binary { op: BinaryOp::Shr, left: x, right: y } = &at.kind {
            targets.push(y);
            at = x;
        }
        let handle = self.input_handle(at)?;
        targets.reverse();
        let mut out = vec![];
        for t in targets {
            let e = if self.is_string_var(t) {
                let p = member(t, "p");
                assign(p.clone(), call("__warpdbg_word", vec![handle.clone(), p], t.span), t.span)
            } else {
                assign(t.clone(), call("__warpdbg_extract", vec![handle.clone(), t.clone()], t.span), t.span)
            };
            out.push(e);
        }
        out.push(call("__warpdbg_ok", vec![handle], span));
        Some(self.sequence(&out, span))
    }

    /// The resolved expressions of `items` in order, the value the last one's.
    fn sequence(&mut self, items: &[ast::Expr], span: Span) -> Result<Expr, Reported> {
        let mut out: Option<Expr> = None;
        for item in items {
            let v = self.rvalue(item)?;
            out = Some(match out {
                None => v,
                Some(prev) => {
                    let ty = v.ty.clone();
                    Expr::new(ExprKind::Comma(Box::new(prev), Box::new(v)), ty, span)
                }
            });
        }
        out.ok_or(Reported)
    }

    /// A stream as a condition (`if (!infile)`, `while (f)`): `!f.fail()`. None when `e` is no stream.
    pub(super) fn stream_truth(&mut self, e: &ast::Expr) -> Option<Result<Expr, Reported>> {
        let handle = self.input_handle(e)?;
        Some(self.rvalue(&call("__warpdbg_ok", vec![handle], e.span)))
    }

    /// `std::getline(f, s[, delim])` and the calls the rewrites above make (None: another call).
    pub(super) fn istream_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let chars = Type::ptr(Type::Scalar(Scalar::I8), false);
        let handle = Type::ptr(Type::Scalar(Scalar::U8), false);
        let (lib, ty) = match name.name.as_str() {
            "getline" | "std::getline" if !self.fns.contains_key(&name.name) => {
                return self.getline(args, span);
            }
            "__warpdbg_extract" => {
                let old = match self.rvalue(args.get(1)?) {
                    Ok(v) => v,
                    Err(r) => return Some(Err(r)),
                };
                let Some(s) = storage(&old.ty).filter(|_| matches!(old.ty, Type::Scalar(_))) else {
                    return Some(Err(
                        self.unsupported(args[1].span, format_args!("reading a `{}` from a stream yet", old.ty))
                    ));
                };
                (Lib::Extract(s), old.ty)
            }
            "__warpdbg_word" => (Lib::ExtractWord, chars),
            "__warpdbg_getline" => (Lib::GetLine, chars),
            "__warpdbg_ok" => (Lib::StreamAsk(StreamAsk::Ok), Type::BOOL),
            "__warpdbg_good" => (Lib::StreamAsk(StreamAsk::Good), Type::BOOL),
            "__warpdbg_eof" => (Lib::StreamAsk(StreamAsk::Eof), Type::BOOL),
            "__warpdbg_fail" => (Lib::StreamAsk(StreamAsk::Fail), Type::BOOL),
            "__warpdbg_clear" => (Lib::StreamAsk(StreamAsk::Clear), Type::Void),
            "__warpdbg_memstream" => (Lib::MemStream, handle),
            "__warpdbg_str" => (Lib::StreamStr, chars),
            "__warpdbg_cin" => (Lib::Cin, handle),
            _ => return None,
        };
        let mut vals = vec![];
        for a in args {
            match self.rvalue(a) {
                Ok(v) => vals.push(v),
                Err(r) => return Some(Err(r)),
            }
        }
        Some(Ok(Expr::new(ExprKind::Lib(lib, vals), ty, span)))
    }

    fn getline(&mut self, args: &[ast::Expr], span: Span) -> Option<Result<Expr, Reported>> {
        let (f, s, delim) = match args {
            [f, s] => (f, s, expr(A::Char(b'\n' as u32), span)),
            [f, s, d] => (f, s, d.clone()),
            _ => return None,
        };
        let handle = self.input_handle(f)?;
        if !self.is_string_var(s) {
            return Some(
                Err(self.unsupported(s.span, "`std::getline` into anything but a `std::string` variable yet")),
            );
        }
        let p = member(s, "p");
        let read = assign(p.clone(), call("__warpdbg_getline", vec![handle.clone(), p, delim], span), span);
        let ok = call("__warpdbg_ok", vec![handle], span);
        Some(self.sequence(&[read, ok], span))
    }

    /// A string stream's construction: `std::istringstream words(line);` (a C string or a `std::string`), or a
    /// `std::ostringstream`/`std::stringstream` declared plainly: its buffer, as `obj.handle = ...`.
    pub(super) fn string_stream_open(
        &mut self,
        obj: &ast::Expr,
        kind: &str,
        text: Option<&ast::Expr>,
        span: Span,
    ) -> Result<Expr, Reported> {
        let zero = expr(A::Int { value: 0, unsigned: false, long: false, decimal: true }, span);
        let text = match text {
            Some(t) if self.is_string_var(t) => member(t, "p"),
            Some(t) => t.clone(),
            None => zero.clone(),
        };
        let write = expr(
            A::Int { value: u64::from(kind != "istringstream"), unsigned: false, long: false, decimal: true },
            span,
        );
        let open = call("__warpdbg_memstream", vec![text, write], span);
        self.rvalue(&assign(member(obj, "handle"), open, span))
    }

    /// The input side's member functions of a stream (`eof`, `good`, `fail`, `clear`, `str`). None: another.
    pub(super) fn istream_method(
        &mut self,
        obj: &ast::Expr,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let f = match (m.name.as_str(), args) {
            ("eof", []) => "__warpdbg_eof",
            ("good", []) => "__warpdbg_good",
            ("fail", []) => "__warpdbg_fail",
            ("clear", []) => "__warpdbg_clear",
            ("str", []) => "__warpdbg_str",
            _ => return None,
        };
        Some(self.rvalue(&call(f, vec![member(obj, "handle")], span)))
    }
}

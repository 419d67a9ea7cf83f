//! `<cstring>`'s searching, bounded copying and tokenising (`strchr`, `strstr`, `strncpy`, `strtok`, ...),
//! `strdup` (a `malloc`'d copy, leaked and freed as `malloc`'s are) and `strerror` (glibc's texts). Every
//! read and write goes through host memory's checks, so a bad pointer is the usual report.

use super::interp::{Interp, Unwind};
pub use super::libfns::StrFn;
use super::memory::AllocKind;
use super::tree::{Expr, Lib, LibArgs};
use crate::front::types::{Scalar, Type};

/// The signature of a `<cstring>` function: (what, parameters, variadic, result).
pub(super) fn library(name: &str) -> Option<(Lib, Vec<Type>, bool, Type)> {
    let ptr = || Type::ptr(Type::Void, false);
    let chars = || Type::ptr(Type::Scalar(Scalar::I8), false);
    let size = Type::Scalar(Scalar::U64);
    let (f, params, ret) = match name {
        "strncpy" => (StrFn::Strncpy, vec![ptr(), ptr(), size], chars()),
        "strncat" => (StrFn::Strncat, vec![ptr(), ptr(), size], chars()),
        "strchr" => (StrFn::Strchr, vec![ptr(), Type::INT], chars()),
        "strrchr" => (StrFn::Strrchr, vec![ptr(), Type::INT], chars()),
        "strstr" => (StrFn::Strstr, vec![ptr(), ptr()], chars()),
        "strtok" => (StrFn::Strtok, vec![ptr(), ptr()], chars()),
        "strdup" => (StrFn::Strdup, vec![ptr()], chars()),
        "strspn" => (StrFn::Strspn, vec![ptr(), ptr()], size),
        "strcspn" => (StrFn::Strcspn, vec![ptr(), ptr()], size),
        "memmove" => (StrFn::Memmove, vec![ptr(), ptr(), size], ptr()),
        "strerror" => (StrFn::Strerror, vec![Type::INT], chars()),
        _ => return None,
    };
    Some((Lib::Str(f), params, false, ret))
}

/// glibc's `strerror` text for `errno` value `n`.
pub fn strerror_text(n: i32) -> String {
    const TEXTS: [&str; 35] = [
        "Success",
        "Operation not permitted",
        "No such file or directory",
        "No such process",
        "Interrupted system call",
        "Input/output error",
        "No such device or address",
        "Argument list too long",
        "Exec format error",
        "Bad file descriptor",
        "No child processes",
        "Resource temporarily unavailable",
        "Cannot allocate memory",
        "Permission denied",
        "Bad address",
        "Block device required",
        "Device or resource busy",
        "File exists",
        "Invalid cross-device link",
        "No such device",
        "Not a directory",
        "Is a directory",
        "Invalid argument",
        "Too many open files in system",
        "Too many open files",
        "Inappropriate ioctl for device",
        "Text file busy",
        "File too large",
        "No space left on device",
        "Illegal seek",
        "Read-only file system",
        "Too many links",
        "Broken pipe",
        "Numerical argument out of domain",
        "Numerical result out of range",
    ];
    match usize::try_from(n).ok().and_then(|i| TEXTS.get(i)) {
        Some(t) => (*t).to_string(),
        None => format!("Unknown error {n}"),
    }
}

/// The length of `s`'s first run of bytes that are (`inside`) or are not in `set`.
fn span_of(s: &[u8], set: &[u8], inside: bool) -> usize {
    s.iter().take_while(|b| set.contains(b) == inside).count()
}

impl Interp<'_> {
    /// Runs `<cstring>` function `f` on its evaluated arguments.
    pub(super) fn cstring(&mut self, f: StrFn, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        Ok(match f {
            StrFn::Strncpy => {
                // At most n bytes of the source, the rest of the n zeros.
                let n = v[2] as usize;
                let mut s = self.c_str(v[1], e)?;
                s.resize(n, 0);
                self.write_bytes(v[0], Some(&s), n as u64, 0, e.span)?;
                v[0]
            }
            StrFn::Strncat => {
                let at = v[0] + self.c_str(v[0], e)?.len() as u64;
                let mut s = self.c_str(v[1], e)?;
                s.truncate(v[2] as usize);
                s.push(0);
                self.write_bytes(at, Some(&s), s.len() as u64, 0, e.span)?;
                v[0]
            }
            StrFn::Strchr | StrFn::Strrchr => {
                let s = self.c_str(v[0], e)?;
                let c = v[1] as u8;
                // The terminator is part of the string: `strchr(s, 0)` finds it.
                let found = if c == 0 {
                    Some(s.len())
                } else if f == StrFn::Strchr {
                    s.iter().position(|&b| b == c)
                } else {
                    s.iter().rposition(|&b| b == c)
                };
                found.map_or(0, |i| v[0] + i as u64)
            }
            StrFn::Strstr => {
                let (h, n) = (self.c_str(v[0], e)?, self.c_str(v[1], e)?);
                if n.is_empty() {
                    v[0]
                } else {
                    h.windows(n.len()).position(|w| w == n.as_slice()).map_or(0, |i| v[0] + i as u64)
                }
            }
            StrFn::Strspn | StrFn::Strcspn => {
                let (s, set) = (self.c_str(v[0], e)?, self.c_str(v[1], e)?);
                span_of(&s, &set, f == StrFn::Strspn) as u64
            }
            StrFn::Memmove => {
                let src = self.read_bytes(v[1], v[2], e.span)?;
                self.write_bytes(v[0], Some(&src), v[2], 0, e.span)?;
                v[0]
            }
            StrFn::Strdup => {
                let mut s = self.c_str(v[0], e)?;
                s.push(0);
                let line = self.line(e.span);
                let name = self.literal(v[1] as u32);
                let at = self.mem.alloc(s.len() as u64, AllocKind::Heap, &name, line);
                self.write_bytes(at, Some(&s), s.len() as u64, 0, e.span)?;
                at
            }
            StrFn::Strerror => {
                let text = strerror_text(v[0] as u32 as i32);
                self.fresh_text(&text, "strerror's text", e)?
            }
            StrFn::Strtok => self.strtok(v[0], v[1], e)?,
        })
    }

    /// `strtok(s, delim)`: the next token of `s` (or, when `s` is null, of the string the last call left
    /// off in), its end overwritten with a 0; null when none is left.
    fn strtok(&mut self, s: u64, delim: u64, e: &Expr) -> Result<u64, Unwind> {
        let start = if s != 0 { s } else { self.strtok_next };
        if start == 0 {
            return Ok(0);
        }
        let (text, set) = (self.c_str(start, e)?, self.c_str(delim, e)?);
        let skip = span_of(&text, &set, true);
        if skip == text.len() {
            self.strtok_next = 0;
            return Ok(0);
        }
        let len = span_of(&text[skip..], &set, false);
        let token = start + skip as u64;
        let end = token + len as u64;
        if skip + len == text.len() {
            self.strtok_next = 0;
        } else {
            self.write_bytes(end, Some(&[0]), 1, 0, e.span)?;
            self.strtok_next = end + 1;
        }
        Ok(token)
    }

    /// A C string holding `text` in memory the program may read but that no one frees (a library's own).
    pub(super) fn fresh_text(&mut self, text: &str, what: &str, e: &Expr) -> Result<u64, Unwind> {
        let line = self.line(e.span);
        let at = self.mem.alloc(text.len() as u64 + 1, AllocKind::Literal, what, line);
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        match self.mem.bytes(at, bytes.len() as u64) {
            Ok(b) => b.copy_from_slice(&bytes),
            Err(f) => return Err(self.fault(f, at, true, None, e.span)),
        }
        Ok(at)
    }
}

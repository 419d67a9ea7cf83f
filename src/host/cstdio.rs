//! `<cstdio>`'s character and line calls (`fgets`, `fputs`, `fputc`, `fgetc`, `getchar`), `sscanf`/`fscanf`
//! (the conversions of [`super::scanf`] over a string or a file), `perror`, `remove`, and `errno`: glibc's
//! `errno` is `(*__errno_location())` (the preprocessor defines it so), an `int` in host memory that the calls
//! here and `fopen` set as glibc does. `stdin` is handle [`STDIN`]; `stdout` and `stderr` are 1 and 2.

use super::interp::{Interp, Unwind};
pub use super::libfns::{ENOENT, STDIN, StdioFn};
use super::memory::AllocKind;
use super::tree::{Expr, Lib, LibArgs};
use crate::front::types::{Scalar, Type};

/// The signature of a `<cstdio>` function: (what, parameters, variadic, result).
pub(super) fn library(name: &str) -> Option<(Lib, Vec<Type>, bool, Type)> {
    let ptr = || Type::ptr(Type::Void, false);
    let int = Type::INT;
    let (f, params, variadic, ret) = match name {
        "sscanf" => (StdioFn::Sscanf, vec![ptr(), ptr()], true, int),
        "fscanf" => (StdioFn::Fscanf, vec![ptr(), ptr()], true, int),
        "fgets" => (StdioFn::Fgets, vec![ptr(), int.clone(), ptr()], false, Type::ptr(Type::Scalar(Scalar::I8), false)),
        "fputs" => (StdioFn::Fputs, vec![ptr(), ptr()], false, int),
        "fputc" | "putc" => (StdioFn::Fputc, vec![int.clone(), ptr()], false, int),
        "fgetc" | "getc" => (StdioFn::Fgetc, vec![ptr()], false, int),
        "getchar" => (StdioFn::Getchar, vec![], false, int),
        "perror" => (StdioFn::Perror, vec![ptr()], false, Type::Void),
        "remove" => (StdioFn::Remove, vec![ptr()], false, int),
        "__errno_location" => (StdioFn::ErrnoLocation, vec![], false, Type::ptr(Type::INT, false)),
        _ => return None,
    };
    Some((Lib::Stdio(f), params, variadic, ret))
}

impl Interp<'_> {
    /// Runs `<cstdio>` function `f`; `args` and `v` as [`Interp::lib`] has them (the scanf family reads its
    /// pointers past the first [`super::tree::LIB_ARGS`] from `lib_rest`).
    pub(super) fn cstdio(&mut self, f: StdioFn, args: &[Expr], v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        Ok(match f {
            StdioFn::Sscanf => {
                let text = self.c_str(v[0], e)?;
                let mut pos = 0;
                self.scan_into(&text, &mut pos, 1, args, v, e)?
            }
            StdioFn::Fscanf => {
                let (text, mut pos) = match self.input_of(v[0]) {
                    Some((text, pos)) => (text, pos),
                    None => return Ok(u32::MAX as u64),
                };
                let n = self.scan_into(&text, &mut pos, 1, args, v, e)?;
                self.input_moved(v[0], pos, pos >= text.len());
                n
            }
            StdioFn::Fgets => {
                let n = v[1] as u32 as i32;
                let Some((text, pos)) = self.input_of(v[2]) else { return Ok(0) };
                if n <= 0 || pos >= text.len() {
                    self.input_moved(v[2], pos, pos >= text.len());
                    return Ok(0);
                }
                let rest = &text[pos..];
                let mut len = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1);
                len = len.min(n as usize - 1);
                let mut line = rest[..len].to_vec();
                line.push(0);
                self.input_moved(v[2], pos + len, pos + len >= text.len() && !line.ends_with(b"\n\0"));
                self.write_bytes(v[0], Some(&line), line.len() as u64, 0, e.span)?;
                v[0]
            }
            StdioFn::Fgetc | StdioFn::Getchar => {
                let handle = if f == StdioFn::Getchar { STDIN } else { v[0] };
                let Some((text, pos)) = self.input_of(handle) else { return Ok(u32::MAX as u64) };
                match text.get(pos) {
                    Some(&b) => {
                        self.input_moved(handle, pos + 1, false);
                        b as u64
                    }
                    None => {
                        self.input_moved(handle, pos, true);
                        u32::MAX as u64
                    }
                }
            }
            StdioFn::Fputs => {
                let s = self.c_str(v[0], e)?;
                if self.put_bytes(v[1], &s) { 1 } else { u32::MAX as u64 }
            }
            StdioFn::Fputc => {
                let c = v[0] as u8;
                if self.put_bytes(v[1], &[c]) { c as u64 } else { u32::MAX as u64 }
            }
            StdioFn::Perror => {
                let errno = self.errno();
                let text = super::cstring::strerror_text(errno);
                let msg = if v[0] == 0 { vec![] } else { self.c_str(v[0], e)? };
                let line = if msg.is_empty() {
                    format!("{text}\n")
                } else {
                    format!("{}: {text}\n", String::from_utf8_lossy(&msg))
                };
                self.write(true, line.as_bytes());
                0
            }
            StdioFn::Remove => {
                let path = self.c_str(v[0], e)?;
                if self.files.remove(&String::from_utf8_lossy(&path)) {
                    0
                } else {
                    self.set_errno(ENOENT);
                    u32::MAX as u64
                }
            }
            StdioFn::ErrnoLocation => self.errno_at(),
        })
    }

    /// Writes `bytes` to `stdout` (1), `stderr` (2) or an open file: false for anything else.
    fn put_bytes(&mut self, handle: u64, bytes: &[u8]) -> bool {
        match handle {
            1 | 2 => {
                self.write(handle == 2, bytes);
                true
            }
            _ => self.files.write(handle, bytes),
        }
    }

    /// What a read on `handle` sees: its bytes and position (None: neither `stdin` nor an open file).
    fn input_of(&mut self, handle: u64) -> Option<(Vec<u8>, usize)> {
        if handle == STDIN {
            let pos = self.stdin.pos;
            return Some((self.stdin.text().to_vec(), pos));
        }
        let (data, pos, _) = self.files.c_input(handle)?;
        Some((data.to_vec(), *pos))
    }

    /// A read on `handle` left off at `pos`; `at_end`: it met the end (the file's end-of-file flag).
    fn input_moved(&mut self, handle: u64, pos: usize, at_end: bool) {
        if handle == STDIN {
            self.stdin.pos = pos;
        } else if let Some((_, p, eof)) = self.files.c_input(handle) {
            *p = pos;
            *eof |= at_end;
        }
    }

    /// `errno`'s address, made at the first use.
    fn errno_at(&mut self) -> u64 {
        if self.errno_at == 0 {
            self.errno_at = self.mem.alloc(4, AllocKind::Literal, "errno", 0);
        }
        self.errno_at
    }

    /// `errno`'s value.
    fn errno(&mut self) -> i32 {
        let at = self.errno_at();
        self.mem.bytes(at, 4).map_or(0, |b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Sets `errno`, as a failing library call does.
    pub(super) fn set_errno(&mut self, n: i32) {
        let at = self.errno_at();
        if let Ok(b) = self.mem.bytes(at, 4) {
            b.copy_from_slice(&n.to_le_bytes());
        }
    }
}

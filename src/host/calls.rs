//! Library calls at run time: the C library and the C++ streams (formatted by [`super::stream::StreamState`])
//! here, the CUDA runtime in [`super::cuda`].

use super::HostError;
use super::interp::{Interp, Unwind};
use super::libc::{self, Piece};
use super::memory::AllocKind;
use super::tree::*;
use crate::front::types::{Scalar, Type};
use crate::ir::Ty;
use crate::sim::alu;

impl Interp<'_> {
    pub(super) fn lib(&mut self, lib: Lib, args: &[Expr], slots: &mut [u64], e: &Expr) -> Result<u64, Unwind> {
        // Last argument first, as [`Interp::arguments`] (`printf("%d %d", i++, i++)` prints `1 0`); those
        // past the first `LIB_ARGS` (a long `printf`'s) are kept in `lib_rest`.
        let mut rest = Vec::new();
        for a in args.iter().skip(LIB_ARGS).rev() {
            rest.push(self.eval(a, slots)?);
        }
        rest.reverse();
        let mut v: LibArgs = [0; LIB_ARGS];
        for (x, a) in v.iter_mut().zip(args).rev() {
            *x = self.eval(a, slots)?;
        }
        self.lib_rest = rest;
        let line = self.line(e.span);
        Ok(match lib {
            Lib::Printf | Lib::Fprintf => {
                let text = self.printf_text(if lib == Lib::Fprintf { 1 } else { 0 }, args, &v, e)?;
                if lib == Lib::Fprintf && self.files.is_file(v[0]) {
                    self.files.write(v[0], text.as_bytes());
                    return Ok(text.len() as u64);
                }
                let to_err = lib == Lib::Fprintf && v[0] == 2;
                self.write(to_err, text.as_bytes());
                text.len() as u64
            }
            Lib::Scanf => self.scanf(args, &v, e)?,
            Lib::Str(f) => self.cstring(f, &v, e)?,
            Lib::Stdio(f) => self.cstdio(f, args, &v, e)?,
            Lib::Stdlib(f) => self.cstdlib(f, &v, e)?,
            Lib::Cmath(f) => self.cmath(f, &v, e)?,
            Lib::Getopt(f) => self.getopt(f, &v, e)?,
            Lib::Char(f) => super::ctype::run(f, v[0] as u32 as i32) as u32 as u64,
            Lib::Seed(_) | Lib::EngineNext(_) | Lib::DistInit(_) | Lib::Draw(..) => self.random(lib, &v, e)?,
            Lib::Puts => {
                let mut s = self.c_str(v[0], e)?;
                s.push(b'\n');
                self.write(false, &s);
                s.len() as u64
            }
            Lib::Putchar => {
                self.write(false, &[v[0] as u8]);
                v[0] & 0xff
            }
            Lib::Malloc | Lib::Calloc => {
                let (bytes, name) = if lib == Lib::Malloc { (v[0], v[1]) } else { (v[0].saturating_mul(v[1]), v[2]) };
                if !self.mem.fits(bytes) {
                    // `new` (a third argument) throws where malloc returns NULL.
                    if lib == Lib::Malloc && args.len() > 2 {
                        return Err(self.bad_alloc("`new`", bytes, line));
                    }
                    0
                } else {
                    let name = self.literal(name as u32);
                    self.mem.alloc(bytes, AllocKind::Heap, &name, line)
                }
            }
            Lib::Free => {
                self.free(v[0], line)?;
                0
            }
            Lib::Memset => {
                self.write_bytes(v[0], None, v[2], v[1] as u8, e.span)?;
                v[0]
            }
            Lib::Memcpy => {
                let src = self.read_bytes(v[1], v[2], e.span)?;
                self.write_bytes(v[0], Some(&src), v[2], 0, e.span)?;
                v[0]
            }
            Lib::Rand => self.rand.rand() as u32 as u64,
            Lib::Srand => {
                self.rand = libc::GlibcRand::new(v[0] as u32);
                0
            }
            // glibc's atoi and atol are strtol in base 10.
            Lib::Atoi | Lib::Atol => {
                let (n, _) = libc::strtol(&self.c_str(v[0], e)?, 10, true);
                if lib == Lib::Atoi { n as i32 as u32 as u64 } else { n }
            }
            Lib::Strtol(t) => {
                let text = self.c_str(v[0], e)?;
                let (n, used) = libc::strtol(&text, v[2] as u32, t.is_signed());
                self.set_end(v[1], v[0], used, e)?;
                n
            }
            Lib::Strtod(t) => {
                let text = self.c_str(v[0], e)?;
                let (x, used) = libc::strtod(&text);
                if args.len() > 1 {
                    self.set_end(v[1], v[0], used, e)?;
                }
                if t == Scalar::F32 { (x as f32).to_bits() as u64 } else { x.to_bits() }
            }
            Lib::Realloc => self.realloc(v[0], v[1], v[2] as u32, line)?,
            Lib::Memcmp => {
                let (a, b) = (self.read_bytes(v[0], v[2], e.span)?, self.read_bytes(v[1], v[2], e.span)?);
                // glibc returns the difference of the first bytes that differ.
                match a.iter().zip(&b).find(|(x, y)| x != y) {
                    Some((&x, &y)) => (x as i32 - y as i32) as u32 as u64,
                    None => 0,
                }
            }
            Lib::Sprintf | Lib::Snprintf => {
                let first = if lib == Lib::Sprintf { 1 } else { 2 };
                let mut text = self.printf_text(first, args, &v, e)?.into_bytes();
                let len = text.len() as u64;
                // snprintf writes at most n bytes, the terminating NUL among them; it returns the full length.
                if lib == Lib::Snprintf {
                    text.truncate(v[1].saturating_sub(1) as usize);
                    if v[1] == 0 {
                        return Ok(len);
                    }
                }
                text.push(0);
                self.write_bytes(v[0], Some(&text), text.len() as u64, 0, e.span)?;
                len
            }
            Lib::Fflush => 0,
            Lib::Fopen => {
                let (path, mode) = (self.c_str(v[0], e)?, self.c_str(v[1], e)?);
                let handle = self.files.open(&String::from_utf8_lossy(&path), &String::from_utf8_lossy(&mode));
                if handle == 0 {
                    self.set_errno(super::cstdio::ENOENT);
                }
                handle
            }
            Lib::Fclose => self.files.close(v[0]) as u32 as u64,
            Lib::Fread => {
                let Some(bytes) = self.files.read(v[3], v[1].saturating_mul(v[2]).min(1 << 32) as usize) else {
                    return Ok(0);
                };
                self.write_bytes(v[0], Some(&bytes), bytes.len() as u64, 0, e.span)?;
                bytes.len() as u64 / v[1].max(1)
            }
            Lib::Fwrite => {
                let bytes = self.read_bytes(v[0], v[1].saturating_mul(v[2]), e.span)?;
                if self.files.write(v[3], &bytes) {
                    v[2]
                } else if v[3] == 1 || v[3] == 2 {
                    self.write(v[3] == 2, &bytes);
                    v[2]
                } else {
                    0
                }
            }
            Lib::Fseek => self.files.seek(v[0], v[1] as i64, v[2] as u32 as i32 as i64) as u32 as u64,
            Lib::Ftell => self.files.tell(v[0]) as u64,
            Lib::Rewind => {
                self.files.seek(v[0], 0, 0);
                0
            }
            Lib::Feof => self.files.eof(v[0]) as u64,
            Lib::Strcmp | Lib::Strncmp => {
                let (mut a, mut b) = (self.c_str(v[0], e)?, self.c_str(v[1], e)?);
                if lib == Lib::Strncmp {
                    a.truncate(v[2] as usize);
                    b.truncate(v[2] as usize);
                }
                match a.cmp(&b) {
                    std::cmp::Ordering::Less => u32::MAX as u64,
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Greater => 1,
                }
            }
            Lib::Strcpy | Lib::Strcat => {
                let mut s = self.c_str(v[1], e)?;
                s.push(0);
                let at = if lib == Lib::Strcat { v[0] + self.c_str(v[0], e)?.len() as u64 } else { v[0] };
                self.write_bytes(at, Some(&s), s.len() as u64, 0, e.span)?;
                v[0]
            }
            Lib::Strlen => self.c_str(v[0], e)?.len() as u64,
            Lib::StrJoin | Lib::ToString(_) => {
                let mut s = match lib {
                    Lib::ToString(t) => super::string::to_string_text(t, v[0]).into_bytes(),
                    _ => [self.c_str(v[0], e)?, self.c_str(v[1], e)?].concat(),
                };
                s.push(0);
                let at = self.mem.alloc(s.len() as u64, AllocKind::Literal, "a std::string", line);
                if let Ok(b) = self.mem.bytes(at, s.len() as u64) {
                    b.copy_from_slice(&s);
                }
                at
            }
            Lib::Exit => return Err(Unwind::Exit(v[0] as u8)),
            // SIGABRT: a shell reports 128 + 6.
            Lib::Abort => return Err(Unwind::Exit(134)),
            Lib::Assert => {
                if v[0] != 0 {
                    return Ok(0);
                }
                let text = String::from_utf8_lossy(&self.c_str(v[1], e)?).into_owned();
                let func = self.current_function().to_string();
                // glibc's line: the program's name (the file's stem, as `nvcc -o NAME NAME.cu` makes it),
                // the file, the line, the function.
                let file = self.file.name.rsplit('/').next().unwrap_or_default();
                let program = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
                let message = format!("{program}: {file}:{line}: {func}: Assertion `{text}' failed.\n");
                self.write(true, message.as_bytes());
                return Err(Unwind::Exit(134));
            }
            Lib::WaitFor => {
                if v[0] != 0 {
                    return Ok(0);
                }
                let text = String::from_utf8_lossy(&self.c_str(v[1], e)?).into_owned();
                let message = format!("host deadlock at line {line}: {text}");
                return Err(Unwind::Error(Box::new(HostError::Deadlock { line, message })));
            }
            // The environment starts empty (a run must not depend on the machine's); `setenv` adds to it,
            // and nothing else reads it (`CUDA_LAUNCH_BLOCKING` changes nothing: work is synchronous already).
            Lib::Setenv => {
                let (name, value) = (self.c_str(v[0], e)?, self.c_str(v[1], e)?);
                if v[2] != 0 || !self.env.contains_key(&name) {
                    let at = self.mem.alloc(value.len() as u64 + 1, AllocKind::Literal, "environment", line);
                    if let Ok(b) = self.mem.bytes(at, value.len() as u64) {
                        b.copy_from_slice(&value);
                    }
                    self.env.insert(name, at);
                }
                0
            }
            Lib::Getenv => {
                let name = self.c_str(v[0], e)?;
                self.env.get(&name).copied().unwrap_or(0)
            }
            Lib::VecResize(_)
            | Lib::VecReserve(_)
            | Lib::VecPush(_)
            | Lib::VecResizeBytes(_)
            | Lib::VecPushBytes(_) => {
                self.vector_op(lib, &v, e)?;
                0
            }
            Lib::Accumulate(elem, acc) => self.accumulate(elem, acc, &v, e)?,
            Lib::Sort(..)
            | Lib::Extreme(..)
            | Lib::Reverse(_)
            | Lib::Equal(_)
            | Lib::Iota(_)
            | Lib::Count(_)
            | Lib::Find(_) => self.range_algorithm(lib, &v, e)?,
            Lib::Terminate => return Err(self.terminate(&v, e)),
            Lib::Throw => return Err(self.thrown(&v, e)),
            Lib::Stream(to, item) => {
                self.stream(to, item, &v, e)?;
                0
            }
            Lib::Extract(_)
            | Lib::ExtractWord
            | Lib::GetLine
            | Lib::StreamAsk(_)
            | Lib::MemStream
            | Lib::StreamStr
            | Lib::Cin => self.istream(lib, &v, e)?,
            Lib::Math(f) => {
                let s = e.ty.scalar().unwrap_or(Scalar::F64);
                alu::host_math(f, Ty::from(s), v[0], v[1])
            }
            Lib::Cuda(api) => self.runtime(api, &v, e)?,
            Lib::VaArg(s) => self.va_arg(v[0], s, e)?,
            Lib::Vprintf | Lib::Vfprintf => {
                let first = usize::from(lib == Lib::Vfprintf);
                let text = self.va_text(v[first], v[first + 1], e)?;
                if lib == Lib::Vfprintf && self.files.is_file(v[0]) {
                    self.files.write(v[0], text.as_bytes());
                } else {
                    self.write(lib == Lib::Vfprintf && v[0] == 2, text.as_bytes());
                }
                text.len() as u64
            }
            Lib::Vsprintf | Lib::Vsnprintf => {
                let first = if lib == Lib::Vsprintf { 1 } else { 2 };
                let mut text = self.va_text(v[first], v[first + 1], e)?.into_bytes();
                let len = text.len() as u64;
                if lib == Lib::Vsnprintf {
                    if v[1] == 0 {
                        return Ok(len);
                    }
                    text.truncate(v[1].saturating_sub(1) as usize);
                }
                text.push(0);
                self.write_bytes(v[0], Some(&text), text.len() as u64, 0, e.span)?;
                len
            }
        })
    }

    /// The text of string literal `id` (allocation names).
    pub(super) fn literal(&self, id: u32) -> String {
        let s = self.prog.strings.get(id as usize).map_or(&[][..], |s| &s[..s.len().saturating_sub(1)]);
        String::from_utf8_lossy(s).into_owned()
    }

    pub(super) fn write(&mut self, to_err: bool, bytes: &[u8]) {
        let _ = if to_err { self.err.write_all(bytes) } else { self.out.write_all(bytes) };
    }

    pub(super) fn c_str(&mut self, addr: u64, e: &Expr) -> Result<Vec<u8>, Unwind> {
        self.mem.c_string(addr).map_err(|f| self.fault(f, addr, false, None, e.span))
    }

    /// `*end = start + used` for `strtol`/`strtod`, when `end` is not null.
    fn set_end(&mut self, end: u64, start: u64, used: usize, e: &Expr) -> Result<(), Unwind> {
        if end == 0 {
            return Ok(());
        }
        let bits = (start + used as u64).to_le_bytes();
        self.write_bytes(end, Some(&bits), 8, 0, e.span)
    }

    /// `realloc(p, n)`: a new allocation holding the old one's first bytes, the old one freed (the address
    /// always changes, so code that keeps the old pointer is caught using freed memory).
    fn realloc(&mut self, addr: u64, bytes: u64, name: u32, line: u32) -> Result<u64, Unwind> {
        if !self.mem.fits(bytes) {
            return Ok(0);
        }
        let old = match self.mem.at_base(addr) {
            Some(i) if self.mem.allocs[i].kind == AllocKind::Heap && self.mem.allocs[i].freed.is_none() => {
                let a = &self.mem.allocs[i];
                a.data[..a.size.min(bytes) as usize].to_vec()
            }
            _ if addr == 0 => vec![],
            _ => {
                // Freed, or not from malloc: what free would say.
                self.free(addr, line)?;
                vec![]
            }
        };
        let name = self.literal(name);
        let new = self.mem.alloc(bytes, AllocKind::Heap, &name, line);
        let i = self.mem.allocs.len() - 1;
        self.mem.allocs[i].data[..old.len()].copy_from_slice(&old);
        self.free(addr, line)?;
        Ok(new)
    }

    /// `new` (or a `std::vector`, `what`) of more than the host may hold: the uncaught `std::bad_alloc` ends
    /// the program as libstdc++'s `terminate` does (its two lines on stderr, SIGABRT), and warpdbg names the line.
    pub(super) fn bad_alloc(&mut self, what: &str, bytes: u64, line: u32) -> Unwind {
        self.write(
            true,
            b"terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n",
        );
        let message = format!(
            "host code at line {line} asks {what} for {bytes} bytes, more than warpdbg lets host code hold ({} \
             bytes in all, four times --memory-cap): std::bad_alloc, which nothing catches, \
             ends the program",
            self.mem.cap
        );
        let after_launches = self.rt.launches;
        let kind = super::findings::FindingKind::BadAlloc;
        self.rt.findings.push(super::findings::Finding { kind, line, message, after_launches });
        Unwind::Exit(134)
    }

    fn free(&mut self, addr: u64, line: u32) -> Result<(), Unwind> {
        if addr == 0 {
            return Ok(());
        }
        match self.mem.at_base(addr) {
            Some(i) if self.mem.allocs[i].kind == AllocKind::Heap => {
                if let Some(at) = self.mem.allocs[i].freed {
                    let message = format!(
                        "host code at line {line} frees `{}` twice (allocated at line {}, first freed at line {at}): \
                         double free",
                        self.mem.allocs[i].name, self.mem.allocs[i].line
                    );
                    return Err(Unwind::Error(Box::new(HostError::BadFree { line, message })));
                }
                self.mem.release(i, line);
                Ok(())
            }
            _ => {
                let message = match self.dev.owner(addr) {
                    Some(d) => format!(
                        "host code at line {line} calls free on `{}`, device memory from cudaMalloc at line {}: \
                         use cudaFree",
                        d.name, d.line
                    ),
                    None => format!("host code at line {line} frees {addr:#x}, which malloc did not return"),
                };
                Err(Unwind::Error(Box::new(HostError::BadFree { line, message })))
            }
        }
    }

    /// The text a `printf`-family call formats: its format string is argument `first`, the values follow it.
    /// `v` holds the first [`LIB_ARGS`] arguments, evaluated once already (their side effects too).
    fn printf_text(&mut self, first: usize, args: &[Expr], v: &[u64], e: &Expr) -> Result<String, Unwind> {
        let fmt = self.c_str(v[first], e)?;
        let mut rest = vec![];
        for (k, a) in args.iter().enumerate().skip(first + 1) {
            let bits = if k < v.len() { v[k] } else { self.lib_rest[k - v.len()] };
            rest.push((bits, a.ty.clone()));
        }
        self.format(&fmt, &rest, e)
    }

    /// `printf` formatting with arguments of the given types (already promoted).
    fn format(&mut self, fmt: &[u8], args: &[(u64, Type)], e: &Expr) -> Result<String, Unwind> {
        let fmt = String::from_utf8_lossy(fmt).into_owned();
        let mut out = String::new();
        let mut args = args.iter();
        for p in libc::pieces(&fmt) {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Conv(spec, conv) => {
                    let spec = &crate::sim::printf::resolve_stars(spec, &mut || {
                        args.next().map(|(bits, _)| *bits as u32 as i32)
                    });
                    let Some((bits, ty)) = args.next() else {
                        out.push_str(spec);
                        out.push(conv);
                        continue;
                    };
                    if conv == 's' {
                        // glibc prints a null string as `(null)`.
                        let s = if *bits == 0 { b"(null)".to_vec() } else { self.c_str(*bits, e)? };
                        out.push_str(&libc::string(spec, &s));
                    } else {
                        let t = match ty {
                            Type::Scalar(s) => Ty::from(*s),
                            _ => Ty::Ptr,
                        };
                        out.push_str(&libc::number(spec, conv, *bits, t));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Writes one stream item: the call's arguments are the item's value, after the file handle of an
    /// `ofstream`.
    pub(super) fn stream(&mut self, to: StreamTo, item: StreamItem, args: &[u64], e: &Expr) -> Result<(), Unwind> {
        let (handle, bits) = match to {
            StreamTo::File => (args[0], args[1]),
            _ => (0, args[0]),
        };
        let text = if item == StreamItem::Text { self.c_str(bits, e)? } else { vec![] };
        let Some(text) = self.stream_states.entry((to, handle)).or_default().format(item, bits, &text) else {
            return Ok(());
        };
        match to {
            // (A stream that is not open writes nothing, as a failed `ofstream` does.)
            StreamTo::File => {
                if self.files.is_file(handle) {
                    self.files.write(handle, text.as_bytes());
                }
            }
            _ => self.write(to == StreamTo::Err, text.as_bytes()),
        }
        Ok(())
    }
}

//! Variadic host functions (`void log(const char *fmt, ...)` with `<cstdarg>`). A call stores the arguments
//! after the fixed ones, after C's default argument promotions (`float` to `double`, `char` and `short` to
//! `int`), in 8-byte slots of a block in the caller's frame named for the function; the callee gets the
//! block's address as a hidden last parameter, the slot of the parameter named `...`. A `va_list` is a
//! pointer into the block: `va_start` points it at the first slot, `va_arg(ap, T)` reads the slot as `T` and
//! moves on, `va_copy` copies it, `va_end` does nothing; `vprintf`, `vfprintf`, `vsprintf` and `vsnprintf`
//! read one slot per conversion, typed by it. Reading past the last slot is a host error that says how
//! many arguments the call passed.

use super::HostError;
use super::interp::{Interp, Unwind};
use super::libc::{self, Piece};
use super::memory::MemFault;
use super::resolve::{REST, Resolver, Var};
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};
use crate::ir::Ty;

/// The bytes each variadic argument takes in the block.
const SLOT: u64 = 8;
/// The start of a block's allocation name, which messages recognise.
const BLOCK: &str = "the variadic arguments of `";

impl Resolver<'_> {
    /// The arguments a call passes for a variadic function's `...`: stored in a block of the caller's frame
    /// (each promoted as C promotes them), the block's address being the value.
    pub(super) fn variadic_block(&mut self, callee: &str, rest: &[ast::Expr], span: Span) -> Result<Expr, Reported> {
        let block = self.new_slot();
        self.frame.push((block, (SLOT * rest.len() as u64) as u32, format!("{BLOCK}{callee}`")));
        let addr = Expr::new(ExprKind::Slot(block), Type::ptr(Type::Void, false), span);
        let mut value = addr.clone();
        for (i, a) in rest.iter().enumerate().rev() {
            let v = self.rvalue(a)?;
            let v = match v.ty.clone() {
                Type::Scalar(Scalar::F16 | Scalar::F32) => self.convert(v, &Type::Scalar(Scalar::F64))?,
                Type::Scalar(s) => self.convert(v, &Type::Scalar(s.promote()))?,
                Type::Ptr { .. } => v,
                Type::Array(e, _) => Expr { ty: Type::ptr(*e, false), ..v },
                t => return Err(self.error(a.span, format!("a `{t}` cannot be passed to `{callee}`'s `...`"))),
            };
            let s = storage(&v.ty).ok_or(Reported)?;
            let at = super::resolve::ptr_add(addr.clone(), SLOT as i64 * i as i64, &v.ty);
            let store = Expr::new(ExprKind::assign(Place::mem(at, None), s, v), Type::Void, span);
            value = Expr::new(ExprKind::Comma(Box::new(store), Box::new(value)), addr.ty.clone(), span);
        }
        Ok(value)
    }

    /// `va_start`, `va_arg`, `va_end`, `va_copy` and the `v...printf` family; None for any other name.
    pub(super) fn va_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let n = match name.name.as_str() {
            "va_end" => 1,
            "va_start" | "va_copy" | "va_arg" | "vprintf" => 2,
            "vfprintf" | "vsprintf" => 3,
            "vsnprintf" => 4,
            _ => return None,
        };
        if args.len() != n {
            return Some(Err(self.error(span, format!("`{}` takes {n} arguments", name.name))));
        }
        Some(self.va(&name.name, args, span))
    }

    fn va(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Expr, Reported> {
        let list = Type::ptr(Type::Void, false);
        match name {
            "va_start" => {
                let Some(Var::Reg(rest, _)) = self.lookup(REST) else {
                    return Err(self.error(span, "`va_start` in a function without `...`"));
                };
                let place = self.list_place(&args[0])?;
                let _ = self.rvalue(&args[1])?;
                let start = Expr::new(ExprKind::Slot(rest), list.clone(), span);
                Ok(Expr::new(ExprKind::assign(place, Scalar::U64, start), Type::Void, span))
            }
            "va_copy" => {
                let place = self.list_place(&args[0])?;
                let from = self.rvalue(&args[1])?;
                Ok(Expr::new(ExprKind::assign(place, Scalar::U64, from), Type::Void, span))
            }
            "va_end" => {
                let v = self.rvalue(&args[0])?;
                Ok(Expr { ty: Type::Void, ..v })
            }
            "va_arg" => {
                let A::SizeofType(ts) = &args[1].kind else { return Err(self.error(args[1].span, "expected a type")) };
                let ty = self.ty(ts, 0)?;
                let Some(s) = storage(&ty) else {
                    return Err(self.unsupported(args[1].span, format_args!("`va_arg` of a `{ty}` yet")));
                };
                // Promoted types only: what a call stores (`va_arg(ap, float)` is undefined in C).
                if matches!(s, Scalar::F32) || (s.is_integer() && s.promote() != s) {
                    return Err(self.error(
                        args[1].span,
                        format!(
                            "a `{ty}` is promoted when passed to `...`: read it with `va_arg(ap, {})`",
                            promoted(s)
                        ),
                    ));
                }
                // `(tmp = *ap, ap += 8, tmp)`, the read checked against the block's end.
                let place = self.list_place(&args[0])?;
                let ap = self.rvalue(&args[0])?;
                let tmp = self.new_slot();
                let read = Expr::new(ExprKind::Lib(Lib::VaArg(s), vec![ap]), ty.clone(), span);
                let keep = Expr::new(ExprKind::assign(Place::Slot(tmp), Place::REGISTER, read), ty.clone(), span);
                let step = Expr::new(ExprKind::Const(SLOT), Type::Scalar(Scalar::I64), span);
                let next = Expr::new(
                    ExprKind::PtrCompound { elem_size: 1, place: Box::new(place), value: Box::new(step) },
                    list,
                    span,
                );
                let both = Expr::new(ExprKind::Comma(Box::new(keep), Box::new(next)), ty.clone(), span);
                Ok(Expr::new(
                    ExprKind::Comma(Box::new(both), Box::new(Expr::new(ExprKind::Slot(tmp), ty.clone(), span))),
                    ty,
                    span,
                ))
            }
            _ => {
                // vprintf(fmt, ap), vfprintf(f, fmt, ap), vsprintf(buf, fmt, ap), vsnprintf(buf, n, fmt, ap).
                let lib = match name {
                    "vprintf" => Lib::Vprintf,
                    "vfprintf" => Lib::Vfprintf,
                    "vsprintf" => Lib::Vsprintf,
                    _ => Lib::Vsnprintf,
                };
                let mut vals = vec![];
                for (i, a) in args.iter().enumerate() {
                    let v = self.rvalue(a)?;
                    let to = if name == "vsnprintf" && i == 1 { Type::Scalar(Scalar::U64) } else { list.clone() };
                    vals.push(self.convert(v, &to)?);
                }
                Ok(Expr::new(ExprKind::Lib(lib, vals), Type::INT, span))
            }
        }
    }

    /// Where a `va_list` argument is (it must be a variable the call can change).
    fn list_place(&mut self, e: &ast::Expr) -> Result<Place, Reported> {
        let (place, ty) = self.lvalue(e)?;
        if !matches!(&ty, Type::Ptr { elem, .. } if **elem == Type::Void) {
            return Err(self.error(e.span, format!("expected a `va_list`, not `{ty}`")));
        }
        Ok(self.assignable(place, &ty, e.span)?.0)
    }
}

/// The type a narrower one is promoted to when passed to `...`.
fn promoted(s: Scalar) -> &'static str {
    if s == Scalar::F32 { "double" } else { s.promote().name() }
}

impl Interp<'_> {
    /// The argument at `ap`, stored as `s`; reading past the last one the call passed is a host error.
    pub(super) fn va_arg(&mut self, ap: u64, s: Scalar, e: &Expr) -> Result<u64, Unwind> {
        match self.mem.load(ap, s.size()) {
            Ok(v) => Ok(v),
            Err(MemFault::OutOfBounds { alloc, offset }) if self.mem.allocs[alloc].name.starts_with(BLOCK) => {
                let a = &self.mem.allocs[alloc];
                let callee = a.name[BLOCK.len()..].trim_end_matches('`').to_string();
                let passed = a.size / SLOT;
                let line = self.line(e.span);
                let which = offset.max(0) as u64 / SLOT + 1;
                let message = format!(
                    "host code at line {line} reads variadic argument {which} of `{callee}` with va_arg, but the call \
                     passed {passed}"
                );
                Err(Unwind::Error(Box::new(HostError::Memory { line, message })))
            }
            Err(f) => Err(self.fault(f, ap, false, Some("va_list"), e.span)),
        }
    }

    /// The text `vprintf` prints for format `fmt` with the arguments from `ap` on, each read as its conversion
    /// says (`%d` an `int`, `%ld` a `long`, `%f` a `double`, `%s` and `%p` a pointer).
    pub(super) fn va_text(&mut self, fmt: u64, ap: u64, e: &Expr) -> Result<String, Unwind> {
        let text = String::from_utf8_lossy(&self.c_str(fmt, e)?).into_owned();
        let mut out = String::new();
        let mut at = ap;
        for p in libc::pieces(&text) {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Conv(spec, conv) => {
                    let mut stars = vec![];
                    for _ in spec.matches('*') {
                        stars.push(self.va_arg(at, Scalar::I32, e)? as u32 as i32);
                        at += SLOT;
                    }
                    let spec = &crate::sim::printf::resolve_stars(spec, &mut || Some(stars.remove(0)));
                    let s = conversion_type(spec, conv);
                    let bits = self.va_arg(at, s, e)?;
                    at += SLOT;
                    if conv == 's' {
                        let s = if bits == 0 { b"(null)".to_vec() } else { self.c_str(bits, e)? };
                        out.push_str(&libc::string(spec, &s));
                    } else {
                        let t = if conv == 'p' { Ty::Ptr } else { Ty::from(s) };
                        out.push_str(&libc::number(spec, conv, bits, t));
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The promoted type a `printf` conversion reads.
fn conversion_type(spec: &str, conv: char) -> Scalar {
    let wide = spec.contains('l') || spec.contains('z') || spec.contains('j') || spec.contains('t');
    match conv {
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => Scalar::F64,
        's' | 'p' => Scalar::U64,
        'd' | 'i' if wide => Scalar::I64,
        'd' | 'i' | 'c' => Scalar::I32,
        _ if wide => Scalar::U64,
        _ => Scalar::U32,
    }
}

//! `std::cout << ... << std::endl`, `std::cerr` and an `std::ofstream`: the part of `<iostream>`/`<iomanip>`
//! course code uses.
//!
//! A chain `cout << a << b` is resolved into one library call per item ([`StreamItem`]), each formatted as
//! libstdc++ does: integers in decimal, floating-point values like `%g` with the stream's precision (6 unless
//! `std::setprecision` changed it; `std::fixed` and `std::scientific` switch to `%f` and `%e`), `char` as a
//! character, `bool` as 1 or 0, `char *` as text, other pointers in hex; `std::setw(n)` pads the next item
//! only, on the left.

use super::resolve::{Resolver, Var};
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};
use crate::ir::Ty;

/// How a stream formats floating-point values, and the width of its next item.
#[derive(Clone, Copy, Debug)]
pub struct StreamState {
    precision: u32,
    float: char,
    width: u32,
    /// `std::boolalpha`: `bool`s print as `true` and `false`.
    alpha: bool,
}

impl Default for StreamState {
    fn default() -> Self {
        StreamState { precision: 6, float: 'g', width: 0, alpha: false }
    }
}

impl StreamState {
    /// The text `item` writes (its value's `bits`, and a C string's bytes in `text`), or None for a
    /// manipulator, which changes the state instead (`std::setw`, `std::fixed`, ...) or does nothing
    /// (`std::flush`). A width `std::setw` set applies to the one item written after it.
    pub(super) fn format(&mut self, item: StreamItem, bits: u64, text: &[u8]) -> Option<String> {
        let width = if self.width > 0 { self.width.to_string() } else { String::new() };
        let out = match item {
            StreamItem::SetW => {
                self.width = bits.min(1 << 16) as u32;
                return None;
            }
            StreamItem::SetPrecision => {
                self.precision = bits.min(1 << 10) as u32;
                return None;
            }
            StreamItem::Fixed | StreamItem::Scientific | StreamItem::DefaultFloat => {
                self.float = match item {
                    StreamItem::Fixed => 'f',
                    StreamItem::Scientific => 'e',
                    _ => 'g',
                };
                return None;
            }
            StreamItem::BoolAlpha | StreamItem::NoBoolAlpha => {
                self.alpha = item == StreamItem::BoolAlpha;
                return None;
            }
            StreamItem::Bool if self.alpha => {
                super::libc::string(&format!("%{width}"), if bits & 1 != 0 { b"true" } else { b"false" })
            }
            StreamItem::Endl => "\n".to_string(),
            StreamItem::Flush => return None,
            StreamItem::Float => {
                let spec = format!("%{width}.{}", self.precision);
                super::libc::number(&spec, self.float, bits, Ty::F64)
            }
            // An unsigned type prints its value (`4000000000`, not `-294967296`).
            StreamItem::Int(s) => {
                let conv = if s.is_signed() { 'd' } else { 'u' };
                super::libc::number(&format!("%{width}"), conv, bits, Ty::from(s))
            }
            StreamItem::Bool => super::libc::number(&format!("%{width}"), 'd', bits & 1, Ty::I32),
            StreamItem::Char => super::libc::number(&format!("%{width}"), 'c', bits, Ty::I32),
            StreamItem::Pointer => super::libc::number(&format!("%{width}"), 'p', bits, Ty::Ptr),
            StreamItem::Text => super::libc::string(&format!("%{width}"), text),
        };
        self.width = 0;
        Some(out)
    }
}

/// Where an output chain starting at `e` writes: `cout`, `cerr` (or `clog`), or an `ofstream` variable (the
/// expression naming it); None when `e` is not a stream (`a << b` is then a shift).
fn stream_name(r: &Resolver, e: &ast::Expr) -> Option<(StreamTo, Option<ast::Expr>)> {
    match &e.kind {
        A::Name(n) => match r.lookup(n) {
            Some(Var::Mem(_, t) | Var::Global(_, t)) if super::cuda::names::is_ofstream(&t) => {
                Some((StreamTo::File, Some(e.clone())))
            }
            Some(_) => None,
            None => match n.as_str() {
                "cout" => Some((StreamTo::Out, None)),
                "cerr" | "clog" => Some((StreamTo::Err, None)),
                _ => None,
            },
        },
        A::Binary { op: BinaryOp::Shl, left: a, .. } => stream_name(r, a),
        _ => None,
    }
}

impl Resolver<'_> {
    /// `a << b` when `a` is an output chain: the items written, in order, or None when it is a shift.
    pub(super) fn stream_shift(&mut self, a: &ast::Expr, b: &ast::Expr, span: Span) -> Option<Result<Expr, Reported>> {
        let (to, file) = stream_name(self, a)?;
        let handle = match file.map(|f| self.rvalue(&super::fstream::handle(&f))).transpose() {
            Ok(h) => h,
            Err(f) => return Some(Err(f)),
        };
        let mut items = vec![b];
        let mut at = a;
        while let A::Binary { op: BinaryOp::Shl, left: x, right: y } = &at.kind {
            items.push(y);
            at = x;
        }
        items.reverse();
        let mut out: Option<Expr> = None;
        for item in items {
            let call = match self.stream_item(to, handle.as_ref(), item) {
                Ok(c) => c,
                Err(f) => return Some(Err(f)),
            };
            out = Some(match out {
                None => call,
                Some(prev) => Expr::new(ExprKind::Comma(Box::new(prev), Box::new(call)), Type::Void, span),
            });
        }
        out.map(Ok)
    }

    fn stream_item(&mut self, to: StreamTo, handle: Option<&Expr>, e: &ast::Expr) -> Result<Expr, Reported> {
        let span = e.span;
        let call = |item, args: Vec<Expr>| {
            let args = handle.cloned().into_iter().chain(args).collect();
            Expr::new(ExprKind::Lib(Lib::Stream(to, item), args), Type::Void, span)
        };
        let manipulator = match &e.kind {
            A::Name(n) if self.lookup(n).is_none() => match n.as_str() {
                "endl" => Some(StreamItem::Endl),
                "flush" => Some(StreamItem::Flush),
                "fixed" => Some(StreamItem::Fixed),
                "scientific" => Some(StreamItem::Scientific),
                "defaultfloat" => Some(StreamItem::DefaultFloat),
                "boolalpha" => Some(StreamItem::BoolAlpha),
                "noboolalpha" => Some(StreamItem::NoBoolAlpha),
                "left" | "right" | "dec" => {
                    return Err(self.unsupported(span, format_args!("the stream manipulator `{n}` yet")));
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(m) = manipulator {
            return Ok(call(m, vec![]));
        }
        if let A::Call(f, args) = &e.kind
            && matches!(f.name.as_str(), "setw" | "setprecision")
            && args.len() == 1
            && !self.fns.contains_key(&f.name)
        {
            let v = self.rvalue(&args[0])?;
            let v = self.convert(v, &Type::Scalar(Scalar::U64))?;
            let item = if f.name == "setw" { StreamItem::SetW } else { StreamItem::SetPrecision };
            return Ok(call(item, vec![v]));
        }
        let v = self.rvalue(e)?;
        if super::cuda::names::is_string(&v.ty) {
            let member = ast::Ident { name: "p".into(), span };
            let chars = self.rvalue(&ast::Expr { kind: A::Member(Box::new(e.clone()), member), span })?;
            return Ok(call(StreamItem::Text, vec![chars]));
        }
        let item = match &v.ty {
            // A character literal is a `char` in C++ (an `int` in C, as host code otherwise reads it).
            _ if matches!(e.kind, A::Char(_)) => StreamItem::Char,
            Type::Scalar(Scalar::Bool) => StreamItem::Bool,
            Type::Scalar(Scalar::I8 | Scalar::U8) => StreamItem::Char,
            Type::Scalar(s) if s.is_float() => StreamItem::Float,
            Type::Scalar(s) => StreamItem::Int(*s),
            Type::Ptr { elem, .. } if matches!(**elem, Type::Scalar(Scalar::I8 | Scalar::U8)) => StreamItem::Text,
            Type::Ptr { .. } => StreamItem::Pointer,
            t => return Err(self.error(span, format!("a `{t}` cannot be written to a stream"))),
        };
        let v = if item == StreamItem::Float { self.convert(v, &Type::Scalar(Scalar::F64))? } else { v };
        Ok(call(item, vec![v]))
    }
}

//! `std::cout << ... << std::endl`, `std::cerr` and an `std::ofstream`: the part of `<iostream>`/`<iomanip>`
//! course code uses.
//!
//! A chain `cout << a << b` is resolved into one library call per item ([`StreamItem`]), each formatted as
//! libstdc++ does: integers in decimal, floating-point values like `%g` with the stream's precision (6 unless
//! `std::setprecision` changed it; `std::fixed` and `std::scientific` switch to `%f` and `%e`), `char` as a
//! character, `bool` as 1 or 0 (`true`/`false` after `std::boolalpha`), `char *` as text, other pointers in
//! hex; integers in hex or octal after `std::hex`/`std::oct`; `std::setw(n)` pads the next item only, with
//! `std::setfill`'s character, on the left (`std::right`, the default) or the right (`std::left`). Each stream
//! keeps its own state, and `cout.precision(n)`/`.setf(std::ios::fixed)` are read as the manipulators.

use super::resolve::{Resolver, Var};
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};
use crate::ir::Ty;

/// How a stream formats what it writes: each stream (`cout`, `cerr`, each file or string stream) has its
/// own, as each `std::ostream` object does.
#[derive(Clone, Copy, Debug)]
pub struct StreamState {
    precision: u32,
    float: char,
    width: u32,
    /// `std::boolalpha`: `bool`s print as `true` and `false`.
    alpha: bool,
    /// `std::left`: the fill goes after the item (before it otherwise, `std::right`, the default).
    left: bool,
    /// The conversion integers are written with: `d` (or `u`), `x` after `std::hex`, `o` after `std::oct`.
    base: char,
    fill: u8,
}

impl Default for StreamState {
    fn default() -> Self {
        StreamState { precision: 6, float: 'g', width: 0, alpha: false, left: false, base: 'd', fill: b' ' }
    }
}

impl StreamState {
    /// The text `item` writes (its value's `bits`, and a C string's bytes in `text`), or None for a
    /// manipulator, which changes the state instead (`std::setw`, `std::fixed`, ...) or does nothing
    /// (`std::flush`). A width `std::setw` set applies to the one item written after it, padded with the
    /// fill character on the side `std::left`/`std::right` chose.
    pub(super) fn format(&mut self, item: StreamItem, bits: u64, text: &[u8]) -> Option<String> {
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
            StreamItem::Left | StreamItem::Right => {
                self.left = item == StreamItem::Left;
                return None;
            }
            StreamItem::Dec | StreamItem::Hex | StreamItem::Oct => {
                self.base = match item {
                    StreamItem::Hex => 'x',
                    StreamItem::Oct => 'o',
                    _ => 'd',
                };
                return None;
            }
            StreamItem::SetFill => {
                self.fill = bits as u8;
                return None;
            }
            StreamItem::Bool if self.alpha => if bits & 1 != 0 { "true" } else { "false" }.to_string(),
            StreamItem::Endl => return Some("\n".to_string()),
            StreamItem::Flush => return None,
            StreamItem::Float => {
                let spec = format!("%.{}", self.precision);
                super::libc::number(&spec, self.float, bits, Ty::F64)
            }
            // An unsigned type prints its value (`4000000000`, not `-294967296`); `std::hex` and `std::oct`
            // write a signed one's bits, as libstdc++ does.
            StreamItem::Int(s) => {
                let conv = match self.base {
                    'd' if !s.is_signed() => 'u',
                    b => b,
                };
                super::libc::number("%", conv, bits, Ty::from(s))
            }
            StreamItem::Bool => super::libc::number("%", 'd', bits & 1, Ty::I32),
            StreamItem::Char => super::libc::number("%", 'c', bits, Ty::I32),
            StreamItem::Pointer => super::libc::number("%", 'p', bits, Ty::Ptr),
            StreamItem::Text => String::from_utf8_lossy(text).into_owned(),
        };
        let pad = (self.width as usize).saturating_sub(out.chars().count());
        self.width = 0;
        if pad == 0 {
            return Some(out);
        }
        let fill = char::from(self.fill).to_string().repeat(pad);
        Some(if self.left { out + &fill } else { fill + &out })
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

    /// `std::cout.precision(3)`, `.width(8)`, `.fill('0')`, `.setf(std::ios::fixed[, ...])`, `.unsetf(...)`,
    /// `.flush()` on `cout`/`cerr`: each as the manipulator that does the same (`cout << setprecision(3)`).
    /// None: not one of these on those streams.
    pub(super) fn ostream_method(
        &mut self,
        obj: &ast::Expr,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let (_, None) = stream_name(self, obj)? else { return None };
        let flag = |e: &ast::Expr| match &e.kind {
            A::Name(n) => n.rsplit("::").next().map(str::to_string),
            _ => None,
        };
        let name = |n: &str| ast::Expr { kind: A::Name(n.into()), span };
        let item = match (m.name.as_str(), args) {
            ("precision" | "width" | "fill", [v]) => {
                let f = match m.name.as_str() {
                    "precision" => "setprecision",
                    "width" => "setw",
                    _ => "setfill",
                };
                ast::Expr { kind: A::Call(ast::Ident { name: f.into(), span: m.span }, vec![v.clone()]), span }
            }
            ("flush", []) => name("flush"),
            ("setf", [f, ..]) => match flag(f).as_deref() {
                Some(f @ ("fixed" | "scientific" | "left" | "right" | "dec" | "hex" | "oct" | "boolalpha")) => name(f),
                _ => return Some(Err(self.unsupported(args[0].span, "this stream flag yet"))),
            },
            ("unsetf", [f]) => match flag(f).as_deref() {
                Some("fixed" | "scientific" | "floatfield") => name("defaultfloat"),
                Some("boolalpha") => name("noboolalpha"),
                _ => return Some(Err(self.unsupported(args[0].span, "this stream flag yet"))),
            },
            _ => return None,
        };
        let shift = A::Binary { op: BinaryOp::Shl, left: Box::new(obj.clone()), right: Box::new(item) };
        Some(self.rvalue(&ast::Expr { kind: shift, span }))
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
                "left" => Some(StreamItem::Left),
                "right" => Some(StreamItem::Right),
                "dec" => Some(StreamItem::Dec),
                "hex" => Some(StreamItem::Hex),
                "oct" => Some(StreamItem::Oct),
                _ => None,
            },
            _ => None,
        };
        if let Some(m) = manipulator {
            return Ok(call(m, vec![]));
        }
        if let A::Call(f, args) = &e.kind
            && matches!(f.name.as_str(), "setw" | "setprecision" | "setfill")
            && args.len() == 1
            && !self.fns.contains_key(&f.name)
        {
            let v = self.rvalue(&args[0])?;
            let v = self.convert(v, &Type::Scalar(Scalar::U64))?;
            let item = match f.name.as_str() {
                "setw" => StreamItem::SetW,
                "setfill" => StreamItem::SetFill,
                _ => StreamItem::SetPrecision,
            };
            return Ok(call(item, vec![v]));
        }
        let v = self.rvalue(e)?;
        if super::cuda::names::is_string(&v.ty) {
            let chars = if self.is_string_place(e) {
                self.rvalue(&super::string::read_chars(e))?
            } else {
                let member = ast::Ident { name: "p".into(), span };
                self.rvalue(&ast::Expr { kind: A::Member(Box::new(e.clone()), member), span })?
            };
            return Ok(call(StreamItem::Text, vec![chars]));
        }
        let item = match &v.ty {
            // A character literal is a `char` in C++ (an `int` in C, as host code otherwise reads it); a
            // comparison or a logical operation is a `bool` (`true` after `std::boolalpha`).
            _ if matches!(e.kind, A::Char(_)) => StreamItem::Char,
            _ if is_bool_expr(e) => StreamItem::Bool,
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

/// Whether `e` has type `bool` in C++ where host code reads an `int`: a comparison, `&&`, `||`, `!`.
fn is_bool_expr(e: &ast::Expr) -> bool {
    match &e.kind {
        A::Binary { op, .. } => op.is_comparison() || matches!(op, BinaryOp::LogAnd | BinaryOp::LogOr),
        A::Unary(ast::UnaryOp::Not, _) => true,
        _ => false,
    }
}

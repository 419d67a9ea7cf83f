//! `<algorithm>` and `<numeric>` beyond filling (`src/host/vector.rs`): `std::swap` of any two objects of one
//! type, and over a range of numbers (`[first, last)`, pointers or a vector's `begin()`/`end()`): `std::sort`
//! (ascending, or as `std::greater`/`std::less` or a lambda `return a > b;` orders), `std::min_element`,
//! `std::max_element`, `std::equal`, `std::reverse`, `std::iota`, `std::count`, `std::find`.
//!
//! Each range call reads the elements through host memory's checks (a range past an allocation is the
//! interpreter's out-of-bounds report) and computes as libstdc++ does: `min_element` gives the first least
//! element, `max_element` the first greatest, `find` the first equal one or `last`; comparisons are C++'s on
//! the element type (`-0.0 == 0.0`, a NaN equal to nothing).

use super::interp::{Interp, Unwind};
use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A, StmtKind as S};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::tast::{ArithOp, CmpOp};
use crate::front::types::{Scalar, Type};
use crate::ir::Ty;
use crate::sim::alu;

/// Whether `e` is the bare name `name`.
fn is_name(e: &ast::Expr, name: &str) -> bool {
    matches!(&e.kind, A::Name(n) if n == name)
}

impl Resolver<'_> {
    /// `std::swap(a, b)` and the range algorithms above: None when `name` is none of them.
    pub(super) fn std_algorithm(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        Some(match (name, args) {
            ("swap", [a, b]) => self.swap(a, b, span),
            ("sort" | "stable_sort", [first, last])
                if self.rvalue(first).is_ok_and(|f| f.ty.pointee().and_then(super::pair::pair_fields).is_some()) =>
            {
                let sort = if name == "sort" { "sort_pairs" } else { "stable_sort_pairs" };
                let ident = ast::Ident { name: format!("{}{sort}", super::prelude::PRELUDE), span };
                self.call(&ident, args, span)
            }
            ("sort" | "stable_sort", [first, last]) => {
                self.range_call(first, last, None, span, |s| (Lib::Sort(s, Order::Ascending), RangeResult::Nothing))
            }
            ("sort" | "stable_sort", [first, last, cmp]) => match self.order(cmp) {
                Ok(order) => self.range_call(first, last, None, span, |s| (Lib::Sort(s, order), RangeResult::Nothing)),
                Err(r) => Err(r),
            },
            ("min_element" | "max_element", [first, last]) => {
                let max = name == "max_element";
                self.range_call(first, last, None, span, |s| (Lib::Extreme(s, max), RangeResult::Pointer))
            }
            ("reverse", [first, last]) => {
                self.range_call(first, last, None, span, |s| (Lib::Reverse(s), RangeResult::Nothing))
            }
            ("equal", [first, last, other]) => {
                self.range_call(first, last, Some(other), span, |s| (Lib::Equal(s), RangeResult::Bool))
            }
            ("iota", [first, last, value]) => {
                self.range_call(first, last, Some(value), span, |s| (Lib::Iota(s), RangeResult::Nothing))
            }
            ("count", [first, last, value]) => {
                self.range_call(first, last, Some(value), span, |s| (Lib::Count(s), RangeResult::Count))
            }
            ("find", [first, last, value]) => {
                self.range_call(first, last, Some(value), span, |s| (Lib::Find(s), RangeResult::Pointer))
            }
            _ => return None,
        })
    }

    /// A call over `[first, last)` of numbers, with a third argument (`equal`'s second range: a pointer to
    /// the same element type; otherwise a value converted to the element type).
    fn range_call(
        &mut self,
        first: &ast::Expr,
        last: &ast::Expr,
        third: Option<&ast::Expr>,
        span: Span,
        op: impl FnOnce(Scalar) -> (Lib, RangeResult),
    ) -> Result<Expr, Reported> {
        let (first, last) = (self.rvalue(first)?, self.rvalue(last)?);
        let elem = match first.ty.pointee() {
            Some(t) if first.ty == last.ty || last.ty.pointee() == Some(t) => t.clone(),
            _ => return Err(self.error(span, "this algorithm takes two pointers (or iterators) of one type")),
        };
        let Some(s) = elem.scalar() else {
            return Err(self
                .unsupported(span, format_args!("this algorithm over elements of type `{elem}` yet (numbers only)")));
        };
        let (lib, result) = op(s);
        let mut vals = vec![first.clone(), last];
        if let Some(t) = third {
            let v = self.rvalue(t)?;
            let v = if lib == Lib::Equal(s) {
                self.convert(v, &Type::ptr(elem.clone(), true))?
            } else {
                self.convert(v, &elem)?
            };
            vals.push(v);
        }
        let ty = match result {
            RangeResult::Nothing => Type::Void,
            RangeResult::Pointer => first.ty.clone(),
            RangeResult::Bool => Type::BOOL,
            RangeResult::Count => Type::Scalar(Scalar::I64),
        };
        Ok(Expr::new(ExprKind::Lib(lib, vals), ty, span))
    }

    /// The order a `std::sort` comparison gives: `std::greater<T>()`, `std::less<T>()`, or a lambda whose
    /// body is `return a < b;` or `return a > b;` of its two parameters.
    pub(super) fn order(&mut self, cmp: &ast::Expr) -> Result<Order, Reported> {
        if is_name(cmp, "greater<>") || is_name(cmp, "greater_equal<>") {
            return Ok(Order::Descending);
        }
        if is_name(cmp, "less<>") || is_name(cmp, "less_equal<>") {
            return Ok(Order::Ascending);
        }
        if let A::Lambda { params, body, .. } = &cmp.kind
            && let [p, q] = params.as_slice()
            && let [ast::Stmt { kind: S::Return(Some(ret)), .. }] = body.as_slice()
            && let A::Binary { op, left, right } = &ret.kind
        {
            let (a, b) = (&p.name.name, &q.name.name);
            let forward = is_name(left, a) && is_name(right, b);
            let backward = is_name(left, b) && is_name(right, a);
            let less = matches!(op, BinaryOp::Lt | BinaryOp::Le);
            let greater = matches!(op, BinaryOp::Gt | BinaryOp::Ge);
            if (forward && less) || (backward && greater) {
                return Ok(Order::Ascending);
            }
            if (forward && greater) || (backward && less) {
                return Ok(Order::Descending);
            }
        }
        Err(self.unsupported(
            cmp.span,
            "a sort comparison other than `std::greater`, `std::less` or a lambda `return a < b;` yet",
        ))
    }

    /// `std::swap(a, b)` of two objects of one type: numbers and pointers through a register, arrays and
    /// objects (a vector's three pointers, a struct) byte for byte through a temporary in the frame.
    fn swap(&mut self, a: &ast::Expr, b: &ast::Expr, span: Span) -> Result<Expr, Reported> {
        let (pa, ta) = self.lvalue(a)?;
        let (pb, tb) = self.lvalue(b)?;
        if ta != tb {
            return Err(self.error(span, format!("`std::swap` of a `{ta}` and a `{tb}`: they must be of one type")));
        }
        let comma = |x: Expr, y: Expr| {
            let ty = y.ty.clone();
            Expr::new(ExprKind::Comma(Box::new(x), Box::new(y)), ty, span)
        };
        let tmp = self.new_slot();
        if storage(&ta).is_some() {
            let (va, vb) = (self.load(pa.clone(), ta.clone(), span)?, self.load(pb.clone(), ta.clone(), span)?);
            let ((pa, sa), (pb, sb)) = (self.assignable(pa, &ta, span)?, self.assignable(pb, &ta, span)?);
            let keep = Expr::new(ExprKind::assign(Place::Slot(tmp), Place::REGISTER, va), ta.clone(), span);
            let a_gets_b = Expr::new(ExprKind::assign(pa, sa, vb), ta.clone(), span);
            let kept = Expr::new(ExprKind::Slot(tmp), ta.clone(), span);
            let b_gets_a = Expr::new(ExprKind::assign(pb, sb, kept), ta.clone(), span);
            let both = comma(keep, comma(a_gets_b, b_gets_a));
            return Ok(Expr { ty: Type::Void, ..both });
        }
        let (Place::Mem { addr: at_a, .. }, Place::Mem { addr: at_b, .. }) = (pa, pb) else {
            return Err(self.error(span, format!("`std::swap` of a `{ta}` in a register")));
        };
        let size = ta.size().max(1);
        self.frame.push((tmp, size, "std::swap's temporary".into()));
        let u64t = Type::Scalar(Scalar::U64);
        let bytes = Expr::new(ExprKind::Const(size as u64), u64t.clone(), span);
        let copy = |to: Expr, from: Expr| {
            Expr::new(ExprKind::Lib(Lib::Memcpy, vec![to, from, bytes.clone()]), u64t.clone(), span)
        };
        let at_tmp = Expr::new(ExprKind::Slot(tmp), u64t.clone(), span);
        let both = comma(
            copy(at_tmp.clone(), (*at_a).clone()),
            comma(copy((*at_a).clone(), (*at_b).clone()), copy(*at_b, at_tmp)),
        );
        Ok(Expr { ty: Type::Void, ..both })
    }
}

/// What a range call's value is.
#[derive(Clone, Copy)]
enum RangeResult {
    Nothing,
    /// An element's address (`min_element`, `find`), of the range's pointer type.
    Pointer,
    Bool,
    /// A `ptrdiff_t`.
    Count,
}

impl Interp<'_> {
    /// The elements of `[first, last)` (an empty range when `last` is not after `first`).
    fn elements(&mut self, first: u64, last: u64, s: Scalar, e: &Expr) -> Result<Vec<u64>, Unwind> {
        let size = s.size() as u64;
        let n = last.saturating_sub(first) / size;
        (0..n).map(|i| self.load(first + i * size, s, None, e.span)).collect()
    }

    fn set_elements(&mut self, first: u64, xs: &[u64], s: Scalar, e: &Expr) -> Result<(), Unwind> {
        let size = s.size() as u64;
        for (i, x) in xs.iter().enumerate() {
            let bytes = x.to_le_bytes();
            self.write_bytes(first + i as u64 * size, Some(&bytes[..size as usize]), size, 0, e.span)?;
        }
        Ok(())
    }

    /// Runs a range call of [`Resolver::std_algorithm`]: `v` is first, last and the third argument.
    pub(super) fn range_algorithm(&mut self, lib: Lib, v: &[u64], e: &Expr) -> Result<u64, Unwind> {
        let cmp = |op: CmpOp, s: Scalar, a: u64, b: u64| alu::compare(op, Ty::from(s), a, b);
        Ok(match lib {
            Lib::Sort(s, order) => {
                let mut xs = self.elements(v[0], v[1], s, e)?;
                let before = |a: &u64, b: &u64| match order {
                    Order::Ascending => cmp(CmpOp::Lt, s, *a, *b),
                    Order::Descending => cmp(CmpOp::Gt, s, *a, *b),
                };
                // A strict weak order even with NaNs (which compare false both ways: equal to everything).
                xs.sort_by(|a, b| {
                    if before(a, b) {
                        std::cmp::Ordering::Less
                    } else if before(b, a) {
                        std::cmp::Ordering::Greater
                    } else {
                        std::cmp::Ordering::Equal
                    }
                });
                self.set_elements(v[0], &xs, s, e)?;
                0
            }
            Lib::Extreme(s, max) => {
                let xs = self.elements(v[0], v[1], s, e)?;
                let mut best = 0;
                for (i, x) in xs.iter().enumerate().skip(1) {
                    if cmp(if max { CmpOp::Lt } else { CmpOp::Gt }, s, xs[best], *x) {
                        best = i;
                    }
                }
                if xs.is_empty() { v[1] } else { v[0] + best as u64 * s.size() as u64 }
            }
            Lib::Reverse(s) => {
                let mut xs = self.elements(v[0], v[1], s, e)?;
                xs.reverse();
                self.set_elements(v[0], &xs, s, e)?;
                0
            }
            Lib::Equal(s) => {
                let xs = self.elements(v[0], v[1], s, e)?;
                let size = s.size() as u64;
                let mut same = true;
                for (i, x) in xs.iter().enumerate() {
                    let y = self.load(v[2] + i as u64 * size, s, None, e.span)?;
                    if !cmp(CmpOp::Eq, s, *x, y) {
                        same = false;
                        break;
                    }
                }
                same as u64
            }
            Lib::Iota(s) => {
                let n = v[1].saturating_sub(v[0]) / s.size() as u64;
                let (mut x, one) = (v[2], Scalar::I32.convert_bits(s, 1));
                let mut xs = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    xs.push(x);
                    x = alu::host_binary(ArithOp::Add, Ty::from(s), x, one).unwrap_or(x);
                }
                self.set_elements(v[0], &xs, s, e)?;
                0
            }
            Lib::Count(s) => {
                let xs = self.elements(v[0], v[1], s, e)?;
                xs.iter().filter(|x| cmp(CmpOp::Eq, s, **x, v[2])).count() as u64
            }
            Lib::Find(s) => {
                let xs = self.elements(v[0], v[1], s, e)?;
                match xs.iter().position(|x| cmp(CmpOp::Eq, s, *x, v[2])) {
                    Some(i) => v[0] + i as u64 * s.size() as u64,
                    None => v[1],
                }
            }
            _ => 0,
        })
    }
}

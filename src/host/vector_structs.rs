//! `std::vector` of structs in host code (`std::vector<Particle> ps(n);`, `std::vector<float2>`): the same
//! three pointers as a vector of numbers ([`super::vector`]), its elements copied as their bytes, so the
//! element is a struct without constructors or destructors (plain data, what a course's particle or body
//! is). `(n)` and `resize(n)` make zeroed elements (value-initialisation of such a struct), `(n, value)` and
//! `resize(n, value)` copies, `push_back`/`emplace_back` of a value, `front`, `back`, `clear`; `[]`,
//! `size`, `data`, `begin`/`end`, range-for as for numbers; `reserve` changes nothing that host code can
//! see (the storage still grows by doubling as elements come).

use super::cuda::names::is_string;
use super::resolve::{Resolver, ptr_add};
use super::tree::*;
use crate::front::ast;
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};

impl Resolver<'_> {
    /// An element value for a vector of `elem`: the address of a struct of that type.
    fn element_value(&mut self, e: &ast::Expr, elem: &Type) -> Result<Expr, Reported> {
        let v = if is_string(elem) { self.string_value(e, elem)? } else { self.rvalue_as(e, elem)? };
        if v.ty != *elem {
            return Err(self.error(e.span, format!("a `{}` where the vector holds `{elem}`", v.ty)));
        }
        Ok(Expr { ty: Type::ptr(elem.clone(), false), ..v })
    }

    /// A declaration's initialiser of a vector of structs: `(n)`, `(n, value)`, or a `list` of elements
    /// (braces).
    pub(super) fn struct_vector_init(
        &mut self,
        addr: Expr,
        elem: &Type,
        items: &[ast::Expr],
        list: bool,
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Reported> {
        let zero = Expr::new(ExprKind::Const(0), Type::Scalar(Scalar::U64), span);
        // `= {{1, 2}, {3, 4}}`, `{P{1, 2}}`: the elements, pushed in order.
        // `std::vector<std::string> names = {"a", "b"}`: a list unless it starts with a count (`(3, "x")`).
        let counted = items.first().is_some_and(|n| {
            !matches!(n.kind, ast::ExprKind::InitList(_)) && self.rvalue(n).is_ok_and(|v| v.ty.scalar().is_some())
        });
        if list || items.iter().any(|i| matches!(i.kind, ast::ExprKind::InitList(_))) || (is_string(elem) && !counted) {
            for item in items {
                let v = self.element_value(item, elem)?;
                let push = ExprKind::Lib(Lib::VecPushBytes(elem.size()), vec![addr.clone(), v]);
                out.push(Stmt::Expr(Expr::new(push, Type::Void, span)));
            }
            return Ok(());
        }
        let (n, value) = match items {
            [] => return Ok(()),
            [n] => (self.rvalue(n)?, zero),
            [_, _] if vector_elem(elem).is_some() => return Err(self.rows_of_copies(span)),
            [n, v] => (self.rvalue(n)?, self.element_value(v, elem)?),
            _ => return Err(self.unsupported(span, "a std::vector of structs initialised with a list yet")),
        };
        let n = self.convert(n, &Type::Scalar(Scalar::U64))?;
        let resize = ExprKind::Lib(Lib::VecResizeBytes(elem.size()), vec![addr, n, value]);
        out.push(Stmt::Expr(Expr::new(resize, Type::Void, span)));
        Ok(())
    }

    /// `push_back`, `resize`, `front`, ... on a vector of structs (`obj` is its address).
    pub(super) fn struct_vector_method(
        &mut self,
        obj: Expr,
        elem: &Type,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, Reported> {
        let size = elem.size();
        let u64t = Type::Scalar(Scalar::U64);
        let call = |lib, vals| Expr::new(ExprKind::Lib(lib, vals), Type::Void, span);
        let zero = Expr::new(ExprKind::Const(0), u64t.clone(), span);
        // A struct value is its address, typed as the struct (an address computed, not a struct-typed load,
        // which would read the struct at the vector's own fields).
        let element = |at: Expr| Expr { ty: elem.clone(), ..ptr_add(at, 0, elem) };
        Ok(match (m.name.as_str(), args) {
            ("push_back" | "emplace_back", [v]) => {
                let v = self.element_value(v, elem)?;
                call(Lib::VecPushBytes(size), vec![obj, v])
            }
            ("resize", [_, _]) if vector_elem(elem).is_some() => return Err(self.rows_of_copies(m.span)),
            ("resize", [n, rest @ ..]) if rest.len() <= 1 => {
                let n = self.rvalue(n)?;
                let n = self.convert(n, &u64t)?;
                let v = match rest {
                    [v] => self.element_value(v, elem)?,
                    _ => zero,
                };
                call(Lib::VecResizeBytes(size), vec![obj, n, v])
            }
            ("clear", []) => call(Lib::VecResizeBytes(size), vec![obj, zero.clone(), zero]),
            ("reserve", [n]) => {
                let n = self.rvalue(n)?;
                self.convert(n, &u64t)?;
                Expr::new(ExprKind::Const(0), Type::Void, span)
            }
            // On an empty vector these are outside its storage: the host memory check reports the access.
            ("front", []) => element(self.vector_ptr(obj, 0, elem)),
            ("back", []) => {
                let end = self.vector_ptr(obj, 1, elem);
                element(ptr_add(end, -(size as i64), elem))
            }
            _ => {
                return Err(self.unsupported(
                    m.span,
                    format_args!("`std::vector::{}` of structs with these arguments yet", m.name),
                ));
            }
        })
    }
}

impl Resolver<'_> {
    /// `std::vector<std::vector<float>> m(rows, std::vector<float>(cols))`: each row would be a copy of the
    /// one vector, with storage of its own, which a byte copy of the value would share; named, not run wrong.
    fn rows_of_copies(&mut self, span: Span) -> Reported {
        self.unsupported(
            span,
            "a vector of vectors filled with copies of one vector yet (make the rows with `resize(rows)` and then each \
             row's `resize(cols, value)`)",
        )
    }
}

//! `std::array<T, N>` in host code: a struct of one field, `T _M_elems[N]`, as in libstdc++, so that it is
//! `N * sizeof(T)` bytes in place (a local, a member, an element of another array), copies as a struct, and
//! its `data()` goes to `cudaMemcpy` as a C array's address does. `[]`, `size`, `data`, `begin`/`end` (as
//! pointers, so `<algorithm>` takes them), `front`, `back`, `at`, `fill`, `empty`, range-for, and brace
//! initialisers with or without the inner braces (`std::array<int, 3> a = {1, 2, 3};`, `a{{1, 2, 3}}`, `a{}`).
//! The element is any host type: numbers, pointers, structs, vector types, other `std::array`s.

use super::resolve::{Resolver, ptr_add};
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::std_array;
use crate::front::types::{Scalar, Type};

pub use crate::front::std_array::array_of;

impl Resolver<'_> {
    /// `array<T, N>` named in a type: the host type, or None when `name` is not an array's.
    pub(super) fn array_named(&mut self, name: &str, span: Span) -> Result<Option<Type>, Reported> {
        if !name.starts_with("array<") {
            return Ok(None);
        }
        let Some((elem_text, len_text)) = std_array::split_array_name(name) else {
            return Err(self.error(span, "`std::array` takes an element type and a length: `std::array<float, 8>`"));
        };
        let elem = self.type_named(&elem_text, span)?;
        let n = std_array::length_expr(&len_text).and_then(|e| self.const_eval(&e));
        let Some(n) = n.filter(|n| (0..=1 << 28).contains(n)) else {
            return Err(
                self.unsupported(span, format_args!("`std::array` of length `{len_text}` yet (an integer constant)"))
            );
        };
        Ok(Some(std_array::array_type(elem, n as u32)))
    }

    /// A type written as text inside a template's arguments (`int`, `unsigned char`, `float *`, `Particle`,
    /// `float2`, `std::array<int,3>`, `std::string`).
    pub(super) fn type_named(&mut self, text: &str, span: Span) -> Result<Type, Reported> {
        let (base, stars) = std_array::base_and_pointers(text.trim());
        let mut t = match super::vector::scalar_named(base) {
            Some(s) => Type::Scalar(s),
            None if base == "void" => Type::Void,
            None => {
                let ts = ast::TypeSpec {
                    base: ast::BaseType::Int,
                    named: Some(base.to_string()),
                    is_const: false,
                    is_volatile: false,
                    pointers: 0,
                    span,
                    func: None,
                };
                self.ty(&ts, 0)?
            }
        };
        for _ in 0..stars {
            t = Type::ptr(t, false);
        }
        Ok(t)
    }

    /// The address of element `i` of the array at `obj` (an address typed as the array).
    fn array_elem_at(&mut self, obj: Expr, i: Expr, span: Span) -> Result<(Expr, Type), Reported> {
        let (elem, _) = array_of(&obj.ty).ok_or(Reported)?;
        let elem = elem.clone();
        let i = self.index(i)?;
        let start = Expr { ty: Type::ptr(elem.clone(), false), ..obj };
        let size = elem.size() as i64;
        let at = ExprKind::PtrAdd { ptr: Box::new(start), index: Box::new(i), elem_size: size };
        Ok((Expr::new(at, Type::ptr(elem.clone(), false), span), elem))
    }

    /// `a[i]` on a `std::array`: where the element is.
    pub(super) fn array_index(
        &mut self,
        a: Expr,
        i: Expr,
        span: Span,
        what: Option<String>,
    ) -> Result<(Place, Type), Reported> {
        let (at, elem) = self.array_elem_at(a, i, span)?;
        Ok((Place::mem(at, what), elem))
    }

    /// `begin` (0) or `end` (1) of the array at `obj`, as a pointer to its elements.
    pub(super) fn array_ptr(&self, obj: Expr, k: i64) -> Option<Expr> {
        let (elem, n) = array_of(&obj.ty)?;
        let (elem, n) = (elem.clone(), n);
        let start = Expr { ty: Type::ptr(elem.clone(), false), ..obj };
        Some(if k == 0 { start } else { ptr_add(start, (elem.size() * n) as i64, &elem) })
    }

    /// `a.size()`, `a.data()`, `a.fill(x)`, ... on a `std::array` (`obj` is its address, typed as the array).
    pub(super) fn array_method(
        &mut self,
        obj: Expr,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, Reported> {
        let (elem, n) = array_of(&obj.ty).map(|(e, n)| (e.clone(), n)).ok_or(Reported)?;
        let u64t = Type::Scalar(Scalar::U64);
        let load = |at: Expr| -> Result<Expr, Reported> {
            match storage(&elem) {
                Some(s) => {
                    Ok(Expr::new(ExprKind::Load { addr: Box::new(at), storage: s, what: None }, elem.clone(), span))
                }
                // A struct element is its address, as a struct value is in the host tree (computed, so that
                // it is not taken for a struct-typed load).
                None => Ok(Expr { ty: elem.clone(), ..ptr_add(at, 0, &elem) }),
            }
        };
        Ok(match (m.name.as_str(), args) {
            ("size" | "max_size", []) => Expr::new(ExprKind::Const(n as u64), u64t, span),
            ("empty", []) => Expr::new(ExprKind::Const((n == 0) as u64), Type::BOOL, span),
            ("data" | "begin" | "cbegin", []) => self.array_ptr(obj, 0).ok_or(Reported)?,
            ("end" | "cend", []) => self.array_ptr(obj, 1).ok_or(Reported)?,
            ("front", []) => load(self.array_ptr(obj, 0).ok_or(Reported)?)?,
            ("back", []) => {
                let end = self.array_ptr(obj, 1).ok_or(Reported)?;
                load(ptr_add(end, -(elem.size() as i64), &elem))?
            }
            // (`at` past the end reads outside the array: the host memory check reports it.)
            ("at", [i]) => {
                let i = self.rvalue(i)?;
                let (at, _) = self.array_elem_at(obj, i, span)?;
                load(at)?
            }
            ("fill", [v]) => {
                let (first, last) =
                    (self.array_ptr(obj.clone(), 0).ok_or(Reported)?, self.array_ptr(obj, 1).ok_or(Reported)?);
                let Some(s) = storage(&elem) else {
                    return Err(self.unsupported(span, "`std::array::fill` of structs yet"));
                };
                let v = self.rvalue(v)?;
                let v = self.convert(v, &elem)?;
                Expr::new(
                    ExprKind::Generate { first: Box::new(first), last: Box::new(last), storage: s, value: Box::new(v) },
                    Type::Void,
                    span,
                )
            }
            _ => {
                return Err(self.unsupported(m.span, format_args!("`std::array::{}` with these arguments yet", m.name)));
            }
        })
    }

    /// A `std::array`'s brace initialiser (its storage zeroed): the elements, with C++'s brace elision, so
    /// `{1, 2, 3}` and `{{1, 2, 3}}` are the same; any other initialiser copies an array of the same type.
    pub(super) fn array_init(
        &mut self,
        addr: Expr,
        ty: &Type,
        init: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Reported> {
        let (elem, n) = array_of(ty).map(|(e, n)| (e.clone(), n)).ok_or(Reported)?;
        let inner = Type::Array(Box::new(elem.clone()), n);
        let A::InitList(items) = &init.kind else {
            let v = self.rvalue(init)?;
            out.push(Stmt::Expr(self.copy_struct(addr, v, ty, init.span)?));
            return Ok(());
        };
        let addr = Expr { ty: Type::ptr(inner.clone(), false), ..addr };
        match items.as_slice() {
            // `{{1, 2, 3}}`: the inner braces are the field's, unless the element itself takes a list (then
            // `{{1, 2}}` is one element given whole: `std::array<S, 1>`).
            [only @ ast::Expr { kind: A::InitList(_), .. }] if storage(&elem).is_some() || n != 1 => {
                self.init_in_memory(addr, &inner, only, out)
            }
            _ => self.init_in_memory(addr, &inner, init, out),
        }
    }
}

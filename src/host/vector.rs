//! `std::vector` of scalars in host code: what course code does with it (construct with a size and a value,
//! `[]`, `size`, `data`, `push_back`, `reserve`, `resize`, `clear`, `empty`, `begin`/`end` as pointers), plus
//! the `<algorithm>`/`<numeric>` calls it is filled and checked with (`std::generate` with a lambda that
//! returns a value, `std::fill`, `std::fill_n`, `std::accumulate`).
//!
//! A vector is three pointers in host memory, as in libstdc++: its first element, one past its last, one past
//! its storage. Its elements live in one heap block that grows by doubling (a new block, the old one freed),
//! so an index past `size()` but inside the storage reads what is there, as on a real machine, and one past
//! the storage is an out-of-bounds access. The storage of a vector is freed only when the program ends.

use super::interp::{Interp, Unwind};
use super::memory::AllocKind;
use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, ExprKind as A, StmtKind as S};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};

pub use crate::front::std_types::vector_type;

/// How an element is stored: a number as itself, a pointer as 64 bits.
fn elem_storage(elem: &Type) -> Option<Scalar> {
    if elem.is_ptr() { Some(Scalar::U64) } else { elem.scalar() }
}

/// A scalar type written as text (a template argument): C's, and the runtime's handles (64-bit values).
pub(super) fn scalar_named(text: &str) -> Option<Scalar> {
    match text {
        "cudaStream_t" | "cudaEvent_t" => Some(Scalar::U64),
        _ => crate::front::std_array::scalar_named(text),
    }
}

impl Resolver<'_> {
    /// `vector<T>` named in a type: the host type, or None when the text is not a vector of scalars.
    pub(super) fn vector_named(&mut self, name: &str, span: Span) -> Result<Option<Type>, Reported> {
        let Some(inner) = name.strip_prefix("vector<").and_then(|r| r.strip_suffix('>')) else {
            return Ok(None);
        };
        // `vector<Int8 *>`: pointers to numbers are elements too.
        let base = inner.trim().trim_end_matches(['*', ' ']);
        let stars = inner.matches('*').count();
        match scalar_named(base).or((base == "void" && stars > 0).then_some(Scalar::U8)) {
            Some(s) => {
                let mut elem = if base == "void" { Type::Void } else { Type::Scalar(s) };
                for _ in 0..stars {
                    elem = Type::ptr(elem, false);
                }
                Ok(Some(vector_type(name, elem)))
            }
            None => {
                // `std::vector<Particle>`, `std::vector<float2>`: structs copied as their bytes, so only those
                // without constructors or destructors (whose copies would have to run code).
                let elem = self.type_named(&crate::front::std_array::compact(inner), span)?;
                let plain = match &elem {
                    // `std::string` is its one pointer (`host::string`): copied as its bytes too.
                    Type::Struct(d) => {
                        self.method_of(&elem, &d.name).is_none()
                            && !self.fns.contains_key(&format!("{0}::~{0}", d.name))
                    }
                    _ => false,
                };
                if !plain {
                    return Err(self.unsupported(
                        span,
                        format_args!(
                            "`std::vector<{inner}>` yet (vectors of numbers, pointers and structs without \
                             constructors only)"
                        ),
                    ));
                }
                Ok(Some(vector_type(name, elem)))
            }
        }
    }

    /// `std::vector<float>(n, value)`, `std::vector<int>{1, 2}` as a value (the parser's call of `vector<T>`,
    /// a brace list its one argument): a vector in the frame, emptied and then constructed as a declaration's
    /// initialiser constructs one. None when `name` is not a vector type.
    pub(super) fn vector_temporary(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        if !name.name.starts_with("vector<") || self.fns.contains_key(&name.name) {
            return None;
        }
        Some(self.vector_temporary_of(&name.name, args, span))
    }

    fn vector_temporary_of(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Expr, Reported> {
        let ty = self.vector_named(name, span)?.ok_or(Reported)?;
        let slot = self.new_slot();
        self.frame.push((slot, ty.size(), "std::vector temporary".into()));
        let addr = Expr::new(ExprKind::Slot(slot), Type::ptr(ty.clone(), false), span);
        // Emptied each time it is made (a temporary in a loop is made again).
        let mut sets: Vec<Stmt> = (0..3)
            .map(|k| {
                let at = super::resolve::ptr_add(addr.clone(), 8 * k, &Type::Scalar(Scalar::U64));
                let zero = Expr::new(ExprKind::Const(0), Type::Scalar(Scalar::U64), span);
                Stmt::Expr(Expr::new(ExprKind::assign(Place::mem(at, None), Scalar::U64, zero), Type::Void, span))
            })
            .collect();
        let (init, paren) = match args {
            [list @ ast::Expr { kind: A::InitList(_), .. }] => (list.clone(), false),
            _ => (ast::Expr { kind: A::InitList(args.to_vec()), span }, true),
        };
        self.vector_init(addr, &ty, &init, paren, &mut sets)?;
        let object = Expr::new(ExprKind::Slot(slot), ty, span);
        sequence(sets, object).ok_or_else(|| self.unsupported(span, "this `std::vector` temporary yet"))
    }

    /// A vector declaration's initialiser: in parentheses (a constructor's arguments) `(n)`, `(n, value)`,
    /// `(first, last)`; in braces or `= {...}` the elements, as C++'s `std::initializer_list` constructor
    /// takes them (`v{3, 1}` is two elements).
    pub(super) fn vector_init(
        &mut self,
        addr: Expr,
        ty: &Type,
        init: &ast::Expr,
        paren: bool,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Reported> {
        let span = init.span;
        let elem = vector_elem(ty).cloned().ok_or(Reported)?;
        let A::InitList(items) = &init.kind else {
            return self.vector_copy_init(addr, ty, init, out);
        };
        // `std::vector<int> c(b);`, a member's `data_(other)`: a copy of another vector.
        if let [other] = items.as_slice()
            && paren
            && self.probe_type(other).is_ok_and(|t| t == *ty)
        {
            return self.vector_copy_init(addr, ty, other, out);
        }
        let Some(s) = elem_storage(&elem) else {
            return self.struct_vector_init(addr, &elem, items, !paren, span, out);
        };
        if !paren {
            for item in items {
                let v = self.rvalue(item)?;
                let v = self.convert(v, &elem)?;
                out.push(Stmt::Expr(Expr::new(
                    ExprKind::Lib(Lib::VecPush(s), vec![addr.clone(), v]),
                    Type::Void,
                    span,
                )));
            }
            return Ok(());
        }
        let (n, value) = match items.as_slice() {
            [n] => (self.rvalue(n)?, Expr::new(ExprKind::Const(0), elem.clone(), span)),
            [first, last] if matches!(self.rvalue(first)?.ty, Type::Ptr { .. }) => {
                // `std::vector<T> v(p, p + n)`: a copy of the elements in [first, last).
                let (first, last) = (self.rvalue(first)?, self.rvalue(last)?);
                let (first, last) = (
                    self.convert(first, &Type::ptr(elem.clone(), true))?,
                    self.convert(last, &Type::ptr(elem.clone(), true))?,
                );
                let size = elem.size() as i64;
                let n = Expr::new(
                    ExprKind::PtrDiff { left: Box::new(last), right: Box::new(first.clone()), elem_size: size },
                    Type::Scalar(Scalar::U64),
                    span,
                );
                let zero = Expr::new(ExprKind::Const(0), elem.clone(), span);
                let bytes = Expr::new(
                    ExprKind::Arith {
                        op: crate::front::tast::ArithOp::Mul,
                        op_ty: Scalar::U64,
                        left: Box::new(n.clone()),
                        right: Box::new(Expr::new(ExprKind::Const(size as u64), Type::Scalar(Scalar::U64), span)),
                    },
                    Type::Scalar(Scalar::U64),
                    span,
                );
                out.push(Stmt::Expr(Expr::new(
                    ExprKind::Lib(Lib::VecResize(s), vec![addr.clone(), n, zero]),
                    Type::Void,
                    span,
                )));
                let start = self.vector_ptr(addr, 0, &elem);
                out.push(Stmt::Expr(Expr::new(
                    ExprKind::Lib(Lib::Memcpy, vec![start, first, bytes]),
                    Type::Void,
                    span,
                )));
                return Ok(());
            }
            [n, v] => {
                let v = self.rvalue(v)?;
                (self.rvalue(n)?, self.convert(v, &elem)?)
            }
            _ => return Err(self.unsupported(span, "a std::vector initialised with a list of elements yet")),
        };
        let n = self.convert(n, &Type::Scalar(Scalar::U64))?;
        out.push(Stmt::Expr(Expr::new(ExprKind::Lib(Lib::VecResize(s), vec![addr, n, value]), Type::Void, span)));
        Ok(())
    }

    /// `std::vector<T> v = w;` (or `v(w)`): a vector that is a value (a temporary, a function's result) moves
    /// in as its three pointers; a vector object is copied element by element into fresh storage, as C++'s copy
    /// constructor does, the two never sharing elements.
    pub(super) fn vector_copy_init(
        &mut self,
        addr: Expr,
        ty: &Type,
        init: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Reported> {
        let span = init.span;
        if !super::resolve::names_object(init) {
            let v = self.rvalue(init)?;
            if v.ty != *ty {
                return Err(self.error(span, format!("a `{}` cannot initialise a `{ty}`", v.ty)));
            }
            out.push(Stmt::Expr(self.copy_struct(addr, v, ty, span)?));
            return Ok(());
        }
        let end = |m: &str| ast::Expr {
            kind: A::MethodCall {
                object: Box::new(init.clone()),
                method: ast::Ident { name: m.into(), span },
                args: vec![],
            },
            span,
        };
        let range = ast::Expr { kind: A::InitList(vec![end("begin"), end("end")]), span };
        self.vector_init(addr, ty, &range, true, out)
    }

    /// The pointer field `k` (0 start, 1 finish) of the vector at `addr`.
    pub(super) fn vector_ptr(&self, addr: Expr, k: i64, elem: &Type) -> Expr {
        let span = addr.span;
        let at = super::resolve::ptr_add(addr, 8 * k, &Type::ptr(elem.clone(), false));
        Expr::new(
            ExprKind::Load { addr: Box::new(at), storage: Scalar::U64, what: None },
            Type::ptr(elem.clone(), false),
            span,
        )
    }

    /// `v[i]` on a vector: where the element is.
    pub(super) fn vector_index(
        &mut self,
        v: Expr,
        i: Expr,
        span: Span,
        what: Option<String>,
    ) -> Result<(Place, Type), Reported> {
        let elem = vector_elem(&v.ty).cloned().ok_or(Reported)?;
        let start = self.vector_ptr(v, 0, &elem);
        let i = self.index(i)?;
        let size = elem.size() as i64;
        let at = Expr::new(
            ExprKind::PtrAdd { ptr: Box::new(start), index: Box::new(i), elem_size: size },
            Type::ptr(elem.clone(), false),
            span,
        );
        Ok((Place::mem(at, what), elem))
    }

    /// `size`, `data`, `begin`, `end`, `empty` of the vector at `obj`: what any element type has alike.
    fn vector_shape(&mut self, obj: Expr, elem: &Type, m: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let size = elem.size() as i64;
        let u64t = Type::Scalar(Scalar::U64);
        let arity = |n: usize| args.len() == n;
        let elem = elem.clone();
        Some(match m.name.as_str() {
            "size" if arity(0) => {
                let (a, b) = (self.vector_ptr(obj.clone(), 1, &elem), self.vector_ptr(obj, 0, &elem));
                Expr::new(ExprKind::PtrDiff { left: Box::new(a), right: Box::new(b), elem_size: size }, u64t, span)
            }
            "capacity" if arity(0) => {
                let (a, b) = (self.vector_ptr(obj.clone(), 2, &elem), self.vector_ptr(obj, 0, &elem));
                Expr::new(ExprKind::PtrDiff { left: Box::new(a), right: Box::new(b), elem_size: size }, u64t, span)
            }
            // The last element goes (its storage stays); on an empty vector the end moves before the start, as
            // libstdc++'s unchecked `--_M_finish` does, and the next access is out of bounds.
            "pop_back" if arity(0) => {
                let end = self.vector_ptr(obj.clone(), 1, &elem);
                let at = super::resolve::ptr_add(obj, 8, &Type::ptr(elem.clone(), false));
                let value = super::resolve::ptr_add(end, -size, &elem);
                Expr::new(ExprKind::assign(Place::mem(at, None), Scalar::U64, value), Type::Void, span)
            }
            "data" | "begin" if arity(0) => self.vector_ptr(obj, 0, &elem),
            "end" if arity(0) => self.vector_ptr(obj, 1, &elem),
            "empty" if arity(0) => {
                let (a, b) = (self.vector_ptr(obj.clone(), 1, &elem), self.vector_ptr(obj, 0, &elem));
                Expr::new(
                    ExprKind::Cmp {
                        op: crate::front::tast::CmpOp::Eq,
                        op_ty: Scalar::U64,
                        left: Box::new(a),
                        right: Box::new(b),
                    },
                    Type::BOOL,
                    span,
                )
            }
            _ => return None,
        })
    }

    /// `v.size()`, `v.push_back(x)`, ... on a vector (`obj` is its address, typed as the vector).
    pub(super) fn vector_method(
        &mut self,
        obj: Expr,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, Reported> {
        let elem = vector_elem(&obj.ty).cloned().ok_or(Reported)?;
        if let Some(e) = self.vector_shape(obj.clone(), &elem, m, args, span) {
            return Ok(e);
        }
        let Some(s) = elem_storage(&elem) else {
            return self.struct_vector_method(obj, &elem, m, args, span);
        };
        let size = elem.size() as i64;
        let u64t = Type::Scalar(Scalar::U64);
        let arity = |n: usize| args.len() == n;
        let call = |lib, vals| Expr::new(ExprKind::Lib(lib, vals), Type::Void, span);
        Ok(match m.name.as_str() {
            // On an empty vector these read outside its storage: the host memory check reports it.
            "front" if arity(0) => {
                let at = self.vector_ptr(obj, 0, &elem);
                Expr::new(ExprKind::Load { addr: Box::new(at), storage: s, what: None }, elem, span)
            }
            "back" if arity(0) => {
                let end = self.vector_ptr(obj, 1, &elem);
                let at = super::resolve::ptr_add(end, -size, &elem);
                Expr::new(ExprKind::Load { addr: Box::new(at), storage: s, what: None }, elem, span)
            }
            "push_back" | "emplace_back" if arity(1) => {
                let v = self.rvalue(&args[0])?;
                let v = self.convert(v, &elem)?;
                call(Lib::VecPush(s), vec![obj, v])
            }
            "reserve" if arity(1) => {
                let n = self.rvalue(&args[0])?;
                let n = self.convert(n, &u64t)?;
                call(Lib::VecReserve(s), vec![obj, n])
            }
            "resize" if arity(1) || arity(2) => {
                let n = self.rvalue(&args[0])?;
                let n = self.convert(n, &u64t)?;
                let v = match args.get(1) {
                    Some(a) => {
                        let v = self.rvalue(a)?;
                        self.convert(v, &elem)?
                    }
                    None => Expr::new(ExprKind::Const(0), elem.clone(), span),
                };
                call(Lib::VecResize(s), vec![obj, n, v])
            }
            "clear" if arity(0) => {
                let zero = Expr::new(ExprKind::Const(0), u64t, span);
                call(Lib::VecResize(s), vec![obj, zero.clone(), zero])
            }
            _ => {
                return Err(
                    self.unsupported(m.span, format_args!("`std::vector::{}` with these arguments yet", m.name))
                );
            }
        })
    }

    /// `std::begin(v)`, `std::end(v)`, `std::generate`, `std::fill`, `std::fill_n`, `std::accumulate`: None
    /// when `name` is none of them.
    pub(super) fn algorithm(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Result<Expr, Reported>> {
        match (name, args) {
            ("begin" | "end", [v]) => Some(self.rvalue(v).and_then(|v| {
                if let Some(p) = self.array_ptr(v.clone(), if name == "begin" { 0 } else { 1 }) {
                    return Ok(p);
                }
                let elem =
                    vector_elem(&v.ty).cloned().ok_or_else(|| self.error(span, "`begin`/`end` of a non-vector"))?;
                Ok(self.vector_ptr(v, if name == "begin" { 0 } else { 1 }, &elem))
            })),
            ("generate", [first, last, f]) => Some(self.generate(first, last, f, span)),
            ("for_each", [first, last, f]) => Some(self.for_each(first, last, f, span)),
            ("copy", [first, last, to]) => Some(self.copy(first, last, to, span)),
            ("fill", [first, last, v]) => Some((|| {
                let (first, last) = (self.rvalue(first)?, self.rvalue(last)?);
                self.fill(first, last, v, span)
            })()),
            ("fill_n", [first, n, v]) => Some((|| {
                let first = self.rvalue(first)?;
                let n = self.rvalue(n)?;
                let n = self.index(n)?;
                let size = first.ty.pointee().map_or(1, |t| t.size() as i64);
                let ty = first.ty.clone();
                let last = Expr::new(
                    ExprKind::PtrAdd { ptr: Box::new(first.clone()), index: Box::new(n), elem_size: size },
                    ty,
                    span,
                );
                self.fill(first, last, v, span)
            })()),
            ("accumulate", [first, last, init]) => Some((|| {
                let (first, last, init) = (self.rvalue(first)?, self.rvalue(last)?, self.rvalue(init)?);
                let (Some(elem), Some(acc)) = (first.ty.pointee().and_then(|t| t.scalar()), init.ty.scalar()) else {
                    return Err(self.error(span, "`accumulate` needs pointers to numbers and a number"));
                };
                let ty = init.ty.clone();
                Ok(Expr::new(ExprKind::Lib(Lib::Accumulate(elem, acc), vec![first, last, init]), ty, span))
            })()),
            _ => None,
        }
    }

    fn fill(&mut self, first: Expr, last: Expr, v: &ast::Expr, span: Span) -> Result<Expr, Reported> {
        let elem = first.ty.pointee().cloned().ok_or_else(|| self.error(span, "`fill` needs pointers"))?;
        let v = self.rvalue(v)?;
        let v = self.convert(v, &elem)?;
        let s = elem_storage(&elem).ok_or(Reported)?;
        Ok(Expr::new(
            ExprKind::Generate { first: Box::new(first), last: Box::new(last), storage: s, value: Box::new(v) },
            Type::Void,
            span,
        ))
    }

    /// `std::copy(first, last, out)` of elements of one type: a `memcpy`; its value is the end of what it wrote.
    fn copy(&mut self, first: &ast::Expr, last: &ast::Expr, to: &ast::Expr, span: Span) -> Result<Expr, Reported> {
        let (first, last, to) = (self.rvalue(first)?, self.rvalue(last)?, self.rvalue(to)?);
        let elem = match (first.ty.pointee(), to.ty.pointee()) {
            (Some(a), Some(b)) if a.size() == b.size() && (a == b || a.scalar().is_some()) => b.clone(),
            _ => return Err(self.unsupported(span, "`std::copy` between elements of different types yet")),
        };
        let size = elem.size() as i64;
        let u64t = Type::Scalar(Scalar::U64);
        let n = Expr::new(
            ExprKind::PtrDiff { left: Box::new(last), right: Box::new(first.clone()), elem_size: size },
            u64t.clone(),
            span,
        );
        let bytes = Expr::new(
            ExprKind::Arith {
                op: crate::front::tast::ArithOp::Mul,
                op_ty: Scalar::U64,
                left: Box::new(n.clone()),
                right: Box::new(Expr::new(ExprKind::Const(size as u64), u64t, span)),
            },
            Type::Scalar(Scalar::U64),
            span,
        );
        let ty = to.ty.clone();
        let copied = Expr::new(ExprKind::Lib(Lib::Memcpy, vec![to, first, bytes]), ty.clone(), span);
        Ok(Expr::new(ExprKind::PtrAdd { ptr: Box::new(copied), index: Box::new(n), elem_size: size }, ty, span))
    }

    /// `std::for_each(first, last, [&](T &x) { x = value; })`: the value stored in each element, as
    /// `std::generate` does (the body's only statement assigns the parameter).
    fn for_each(&mut self, first: &ast::Expr, last: &ast::Expr, f: &ast::Expr, span: Span) -> Result<Expr, Reported> {
        let value = match &f.kind {
            A::Lambda { params, body, .. } if params.len() == 1 && params[0].reference => match body.as_slice() {
                [ast::Stmt { kind: S::Expr(ast::Expr { kind: A::Assign { op: None, target, value }, .. }), .. }]
                    if matches!(&target.kind, A::Name(n) if *n == params[0].name.name) =>
                {
                    value
                }
                _ => return Err(self.unsupported(f.span, "a `std::for_each` lambda other than `x = value;` yet")),
            },
            _ => return Err(self.unsupported(f.span, "`std::for_each` with a function that is not a lambda yet")),
        };
        let (first, last) = (self.rvalue(first)?, self.rvalue(last)?);
        self.fill(first, last, value, span)
    }

    /// `std::generate(first, last, []() { return value; })`: the lambda's value stored in each element.
    fn generate(&mut self, first: &ast::Expr, last: &ast::Expr, f: &ast::Expr, span: Span) -> Result<Expr, Reported> {
        let value = match &f.kind {
            A::Lambda { params, body, .. } if params.is_empty() => match body.as_slice() {
                [ast::Stmt { kind: S::Return(Some(v)), .. }] => v,
                _ => return Err(self.unsupported(f.span, "a lambda whose body is more than `return value;` yet")),
            },
            _ => return Err(self.unsupported(f.span, "`std::generate` with a function that is not a lambda yet")),
        };
        let (first, last) = (self.rvalue(first)?, self.rvalue(last)?);
        self.fill(first, last, value, span)
    }
}

impl Interp<'_> {
    /// The vector at `at`: its start, finish and end of storage.
    fn vector_at(&mut self, at: u64, e: &Expr) -> Result<[u64; 3], Unwind> {
        let mut p = [0u64; 3];
        for (k, v) in p.iter_mut().enumerate() {
            *v = self.load(at + 8 * k as u64, Scalar::U64, None, e.span)?;
        }
        Ok(p)
    }

    fn set_vector(&mut self, at: u64, p: [u64; 3], e: &Expr) -> Result<(), Unwind> {
        for (k, v) in p.iter().enumerate() {
            self.write_bytes(at + 8 * k as u64, Some(&v.to_le_bytes()), 8, 0, e.span)?;
        }
        Ok(())
    }

    /// Makes the storage of the vector at `at` hold at least `n` elements of `size` bytes.
    fn vector_grow(&mut self, at: u64, n: u64, size: u64, e: &Expr) -> Result<[u64; 3], Unwind> {
        let [start, finish, end] = self.vector_at(at, e)?;
        if n.saturating_mul(size) <= end.wrapping_sub(start) {
            return Ok([start, finish, end]);
        }
        let line = self.line(e.span);
        // libstdc++ refuses more than `max_size()` (PTRDIFF_MAX bytes) with `std::length_error`, and throws
        // `std::bad_alloc` when the allocator has no more.
        let Some(bytes) = n.checked_mul(size).filter(|b| *b <= i64::MAX as u64) else {
            return Err(Unwind::Error(Box::new(super::HostError::Memory {
                line,
                message: format!("host code at line {line} makes a std::vector of {n} elements: more than max_size()"),
            })));
        };
        if !self.mem.fits(bytes) {
            return Err(self.bad_alloc("a std::vector", bytes, line));
        }
        let new = self.mem.alloc(bytes, AllocKind::Heap, "std::vector's storage", line);
        if finish > start {
            let old = self.read_bytes(start, finish - start, e.span)?;
            self.write_bytes(new, Some(&old), old.len() as u64, 0, e.span)?;
        }
        if let Some(i) = self.mem.at_base(start) {
            self.mem.release(i, line);
        }
        let p = [new, new + (finish - start), new + bytes];
        self.set_vector(at, p, e)?;
        Ok(p)
    }

    /// `resize`, `reserve`, `push_back` on the vector at `v[0]`.
    pub(super) fn vector_op(&mut self, lib: Lib, v: &[u64], e: &Expr) -> Result<(), Unwind> {
        let at = v[0];
        match lib {
            Lib::VecResize(s) => self.vector_resize(at, v[1], &v[2].to_le_bytes()[..s.size() as usize], e),
            Lib::VecReserve(s) => self.vector_grow(at, v[1], s.size() as u64, e).map(|_| ()),
            Lib::VecResizeBytes(size) => {
                let elem = self.element_bytes(v[2], size as u64, e)?;
                self.vector_resize(at, v[1], &elem, e)
            }
            Lib::VecPush(s) => self.vector_push(at, &v[1].to_le_bytes()[..s.size() as usize], e),
            // Read first: the element may be one of the vector's own (`v.push_back(v[0])`).
            Lib::VecPushBytes(size) => {
                let elem = self.element_bytes(v[1], size as u64, e)?;
                self.vector_push(at, &elem, e)
            }
            _ => Ok(()),
        }
    }

    /// Makes the vector at `at` hold `n` elements, new ones each a copy of `elem` (its bytes).
    fn vector_resize(&mut self, at: u64, n: u64, elem: &[u8], e: &Expr) -> Result<(), Unwind> {
        let size = elem.len() as u64;
        let [start, finish, end] = self.vector_grow(at, n, size, e)?;
        for i in (finish - start) / size..n {
            self.write_bytes(start + i * size, Some(elem), size, 0, e.span)?;
        }
        self.set_vector(at, [start, start + n * size, end], e)
    }

    /// Appends `elem` (its bytes) to the vector at `at`, doubling its storage when it is full.
    fn vector_push(&mut self, at: u64, elem: &[u8], e: &Expr) -> Result<(), Unwind> {
        let size = elem.len() as u64;
        let [start, finish, end] = self.vector_at(at, e)?;
        let [start, finish, end] = if finish + size > end {
            let n = ((finish - start) / size).max(1) * 2;
            self.vector_grow(at, n, size, e)?
        } else {
            [start, finish, end]
        };
        self.write_bytes(finish, Some(elem), size, 0, e.span)?;
        self.set_vector(at, [start, finish + size, end], e)
    }

    /// The bytes of the struct element at `from` (zeros for 0).
    fn element_bytes(&mut self, from: u64, size: u64, e: &Expr) -> Result<Vec<u8>, Unwind> {
        if from == 0 { Ok(vec![0; size as usize]) } else { self.read_bytes(from, size, e.span) }
    }

    /// `std::accumulate` over `[first, last)` of `elem`, starting from `init` in `acc`.
    pub(super) fn accumulate(&mut self, elem: Scalar, acc: Scalar, v: &[u64], e: &Expr) -> Result<u64, Unwind> {
        let (mut p, last, mut sum) = (v[0], v[1], v[2]);
        while p < last {
            let x = self.load(p, elem, None, e.span)?;
            let x = elem.convert_bits(acc, x);
            sum = crate::sim::alu::host_binary(crate::front::tast::ArithOp::Add, crate::ir::Ty::from(acc), sum, x)
                .unwrap_or(sum);
            p += elem.size() as u64;
        }
        Ok(sum)
    }
}

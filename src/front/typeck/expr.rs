//! Expressions: constants, C's implicit conversions, operators, places.

use super::checker::{BUILTIN_VECTORS, Binding, Checker};
use super::globals::constant_write;
use super::suggest::closest;
use crate::front::ast::{self, BinaryOp, ExprKind as A, UnaryOp};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::source::Span;
use crate::front::tast::*;
use crate::front::types::{Scalar, Type};

impl Checker {
    // ---- constants ----

    /// The value of a constant integer expression, if it is one.
    pub fn const_int(&self, e: &Expr) -> Option<i64> {
        let s = e.ty.scalar().filter(|s| s.is_integer())?;
        let wrap = |v: i64| -> i64 {
            match s {
                Scalar::I32 => v as i32 as i64,
                Scalar::U32 => v as u32 as i64,
                Scalar::I8 => v as i8 as i64,
                Scalar::U8 => v as u8 as i64,
                Scalar::I16 => v as i16 as i64,
                Scalar::U16 => v as u16 as i64,
                Scalar::Bool => (v != 0) as i64,
                _ => v,
            }
        };
        Some(match &e.kind {
            ExprKind::Const(bits) => wrap(*bits as i64),
            ExprKind::Local(l) => self.locals[l.0 as usize].const_value?,
            ExprKind::Convert(inner) => wrap(self.const_int(inner)?),
            ExprKind::Unary(UnOp::Neg, a) => wrap(self.const_int(a)?.wrapping_neg()),
            ExprKind::Unary(UnOp::BitNot, a) => wrap(!self.const_int(a)?),
            ExprKind::Arith { op, left: a, right: b } => {
                let (a, b) = (self.const_int(a)?, self.const_int(b)?);
                wrap(match op {
                    ArithOp::Add => a.wrapping_add(b),
                    ArithOp::Sub => a.wrapping_sub(b),
                    ArithOp::Mul => a.wrapping_mul(b),
                    ArithOp::Div => a.checked_div(b)?,
                    ArithOp::Rem => a.checked_rem(b)?,
                    ArithOp::Shl => a.checked_shl(u32::try_from(b).ok().filter(|&b| b < s.size() * 8)?)?,
                    ArithOp::Shr if s == Scalar::U64 => {
                        ((a as u64) >> u32::try_from(b).ok().filter(|&b| b < 64)?) as i64
                    }
                    ArithOp::Shr => a >> u32::try_from(b).ok().filter(|&b| b < s.size() * 8)?,
                    ArithOp::And => a & b,
                    ArithOp::Or => a | b,
                    ArithOp::Xor => a ^ b,
                })
            }
            _ => return None,
        })
    }

    // ---- conversions ----

    /// Implicit conversion for assignment, initialisation, arguments and return.
    pub(super) fn convert(&mut self, e: Expr, to: &Type, what: &str) -> Expr {
        if e.ty == *to || e.ty.is_error() || to.is_error() {
            return e;
        }
        let span = e.span;
        match (&e.ty, to) {
            (Type::Scalar(_), Type::Scalar(s)) => Self::to_scalar(e, *s),
            (Type::Ptr { elem: a, is_const: ca }, Type::Ptr { elem: b, is_const: cb }) if a == b => {
                if *ca && !cb {
                    self.type_error(span, format!("{what}: cannot drop `const` from `{}` to `{to}`", e.ty))
                } else {
                    Expr::new(e.kind, to.clone(), span)
                }
            }
            (Type::Ptr { .. }, Type::Scalar(Scalar::Bool)) => {
                Expr::new(ExprKind::Convert(Box::new(e)), to.clone(), span)
            }
            (Type::Scalar(s), Type::Ptr { .. }) if s.is_integer() && matches!(e.kind, ExprKind::Const(0)) => {
                Expr::new(ExprKind::Const(0), to.clone(), span)
            }
            _ => {
                let d = Diagnostic::new(
                    ErrorCode::Type,
                    span,
                    format!("mismatched types in {what}: expected `{to}`, found `{}`", e.ty),
                )
                .label(format!("this is a `{}`", e.ty));
                self.err(d);
                Expr::error(span)
            }
        }
    }

    /// Converts to a scalar type; constants are converted now, so the IR carries no conversion of literals.
    pub(super) fn to_scalar(e: Expr, s: Scalar) -> Expr {
        if e.ty == Type::Scalar(s) || e.ty.is_error() {
            return e;
        }
        let span = e.span;
        match (&e.kind, e.ty.scalar()) {
            (ExprKind::Const(bits), Some(from)) => {
                Expr::new(ExprKind::Const(from.convert_bits(s, *bits)), Type::Scalar(s), span)
            }
            _ => Expr::new(ExprKind::Convert(Box::new(e)), Type::Scalar(s), span),
        }
    }

    /// A condition: any scalar or pointer, converted to bool.
    pub(super) fn cond(&mut self, e: &ast::Expr) -> Expr {
        let v = self.expr(e);
        self.truth(v)
    }

    pub(super) fn truth(&mut self, v: Expr) -> Expr {
        match &v.ty {
            Type::Scalar(_) | Type::Ptr { .. } => Self::to_scalar(v, Scalar::Bool),
            Type::Error => v,
            t => {
                let t = t.to_string();
                self.type_error(v.span, format!("expected a condition, found a value of type `{t}`"))
            }
        }
    }

    pub(super) fn arith_operand(&mut self, e: &Expr, op: &str) -> Option<Scalar> {
        match &e.ty {
            Type::Scalar(s) => Some(*s),
            Type::Error => None,
            t => {
                let msg = format!("operator `{op}` cannot be applied to `{t}`");
                self.err(Diagnostic::new(ErrorCode::Type, e.span, msg).label(format!("this is a `{t}`")));
                None
            }
        }
    }

    pub(super) fn int_operand(&mut self, e: &Expr, op: &str) -> Option<Scalar> {
        let s = self.arith_operand(e, op)?;
        if s.is_float() {
            self.err(
                Diagnostic::new(ErrorCode::Type, e.span, format!("operator `{op}` needs integer operands"))
                    .label(format!("this is a `{}`", s.name())),
            );
            return None;
        }
        Some(s)
    }

    // ---- expressions ----

    /// An expression used as a value (arrays decay to pointers).
    pub(super) fn expr(&mut self, e: &ast::Expr) -> Expr {
        let span = e.span;
        // Operators, member functions and struct-making calls of the file's own structs (see `members`).
        match &e.kind {
            A::Binary { .. }
            | A::Index(..)
            | A::Assign { op: Some(_), .. }
            | A::Unary(UnaryOp::Neg | UnaryOp::Plus | UnaryOp::Not | UnaryOp::BitNot, _) => {
                if let Some(v) = self.operator_value(e) {
                    return v;
                }
            }
            A::MethodCall { object: obj, method, args } => {
                if let Some(v) = self.member_call(obj, method, args, span) {
                    return v;
                }
            }
            // `op(a, b)` of a struct variable (a functor, `template <typename Op>`): its `operator()`.
            A::Call(name, args) if matches!(self.lookup(&name.name), Some(Binding::StructLocal(_))) => {
                let object = Box::new(ast::Expr { kind: A::Name(name.name.clone()), span: name.span });
                let method = ast::Ident { name: "operator()".into(), span: name.span };
                let call = ast::Expr { kind: A::MethodCall { object, method, args: args.clone() }, span };
                return self.expr(&call);
            }
            A::Call(name, _) if self.struct_call(&name.name) => {
                if let Some(r) = self.struct_temp(e) {
                    return self.temp_value(r, span);
                }
            }
            _ => {}
        }
        match &e.kind {
            A::Error => Expr::error(span),
            // The parser reads launches only in host code, which device type checking never sees.
            A::Launch { kernel, config, args } => self.child_launch(kernel, config, args, span),
            A::New { .. } | A::Delete(..) => self.type_error(span, "`new`/`delete` in device code"),
            // `n++, m *= -1.f` (a for loop's step): the left side as a statement, then the right side's value.
            A::Comma(a, b) => {
                let first = self.expr(a);
                let value = self.expr(b);
                if first.ty.is_error() || value.ty.is_error() {
                    return Expr::error(span);
                }
                let ty = value.ty.clone();
                let first = Stmt { kind: StmtKind::Expr(first), span: a.span };
                Expr::new(ExprKind::Seq(vec![first], Box::new(value)), ty, span)
            }
            A::Lambda { .. } => {
                self.err(
                    Diagnostic::unsupported(span, "a lambda in device code")
                        .hint("only a cooperative-groups collective's operation may be one: `cg::reduce(t, v, [](int a, int b) { return a + b; })`"),
                );
                Expr::error(span)
            }
            A::Throw(_) => self.type_error(span, "`throw` in device code"),
            A::InitList(_) => self.type_error(span, "a brace initialiser can only initialise a declaration"),
            A::MethodCall { object: obj, method, args } => self.method_call(obj, method, args, span),
            A::SizeofType(ts) => {
                let t = self.resolve_type(ts, 0);
                Expr::new(ExprKind::Const(t.size() as u64), Type::Scalar(Scalar::U64), span)
            }
            A::SizeofExpr(inner) => {
                let v = self.expr(inner);
                Expr::new(ExprKind::Const(v.ty.size() as u64), Type::Scalar(Scalar::U64), span)
            }
            A::Int { value, unsigned, long, decimal } => self.int_literal(*value, *unsigned, *long, *decimal, span),
            A::Float { value, single: true } => {
                Expr::new(ExprKind::Const((*value as f32).to_bits() as u64), Type::FLOAT, span)
            }
            A::Float { value, single: false } => {
                Expr::new(ExprKind::Const(value.to_bits()), Type::Scalar(Scalar::F64), span)
            }
            A::Bool(b) => Expr::new(ExprKind::Const(*b as u64), Type::BOOL, span),
            A::Char(c) => Expr::new(ExprKind::Const((*c as u8) as u64), Type::Scalar(Scalar::I8), span),
            A::Str(text) => self.string_literal(text, span),
            A::Name(n) => self.name(n, span),
            A::Member(obj, field) => self.member(obj, field, span),
            A::Index(..) | A::Unary(UnaryOp::Deref, _) => match self.place(e) {
                Some(Place::Mem(ptr)) => self.deref(*ptr, span),
                Some(Place::Local(_)) | None => Expr::error(span),
            },
            A::Unary(UnaryOp::AddrOf, inner) => match self.place(inner) {
                Some(Place::Mem(ptr)) => *ptr,
                // Scalars whose address is taken live in memory (`addressed`); pointers and struct fields not.
                Some(Place::Local(l)) => {
                    let what = if self.locals[l.0 as usize].ty.is_ptr() {
                        "taking the address of a pointer variable in device code"
                    } else {
                        "taking the address of a struct variable's field in device code"
                    };
                    self.err(
                        Diagnostic::unsupported(span, what)
                            .hint("keep the value in a __shared__ or global array element and pass its address"),
                    );
                    Expr::error(span)
                }
                None => Expr::error(span),
            },
            A::Unary(op, inner) => self.unary(*op, inner, span),
            A::Binary { op, left: a, right: b } => self.binary(*op, a, b, span),
            A::Assign { op, target: lhs, value: rhs } => self.assign(*op, lhs, rhs, span),
            A::IncDec { increment, prefix, operand } => {
                let Some(place) = self.writable_place(operand) else { return Expr::error(span) };
                let ty = self.place_type(&place);
                if !(ty.is_ptr() || ty.scalar().is_some()) {
                    return if ty.is_error() {
                        Expr::error(span)
                    } else {
                        self.type_error(span, format!("cannot increment a `{ty}`"))
                    };
                }
                Expr::new(ExprKind::IncDec { place, increment: *increment, prefix: *prefix }, ty, span)
            }
            A::Ternary { cond: c, then: a, els: b } => {
                let c = self.cond(c);
                let (a, b) = (self.expr(a), self.expr(b));
                let ty = match (&a.ty, &b.ty) {
                    (Type::Error, _) | (_, Type::Error) => return Expr::error(span),
                    (Type::Scalar(x), Type::Scalar(y)) => Type::Scalar(Scalar::common(*x, *y)),
                    (x, y) if x == y => x.clone(),
                    // `c ? p : nullptr`: the null pointer constant takes the pointer's type.
                    (p @ Type::Ptr { .. }, _) if matches!(b.kind, ExprKind::Const(0)) => p.clone(),
                    (_, p @ Type::Ptr { .. }) if matches!(a.kind, ExprKind::Const(0)) => p.clone(),
                    (x, y) => {
                        return self
                            .type_error(span, format!("the two sides of `?:` have different types: `{x}` and `{y}`"));
                    }
                };
                let a = self.convert(a, &ty, "`?:`");
                let b = self.convert(b, &ty, "`?:`");
                Expr::new(ExprKind::Ternary { cond: Box::new(c), then: Box::new(a), els: Box::new(b) }, ty, span)
            }
            A::Cast(spec, inner) => {
                let to = self.resolve_type(spec, 0);
                let v = self.expr(inner);
                self.cast(v, to, span)
            }
            A::Call(name, args) => self.call(name, args, span),
        }
    }

    /// C's type of an integer constant (C11 6.4.4.1): the first of int, unsigned int (hex and octal only),
    /// long, unsigned long (hex, octal, or a decimal too large for long) that holds the value, starting at long
    /// for an `l` suffix and at the unsigned types for a `u` suffix.
    pub(super) fn int_literal(&mut self, value: u64, unsigned: bool, long: bool, decimal: bool, span: Span) -> Expr {
        let fits_i32 = value <= i32::MAX as u64;
        let fits_u32 = value <= u32::MAX as u64;
        let fits_i64 = value <= i64::MAX as u64;
        let s = match (unsigned, long) {
            (false, false) if fits_i32 => Scalar::I32,
            (false, false) if fits_u32 && !decimal => Scalar::U32,
            (true, false) if fits_u32 => Scalar::U32,
            (false, _) if fits_i64 => Scalar::I64,
            _ => Scalar::U64,
        };
        Expr::new(ExprKind::Const(value), Type::Scalar(s), span)
    }

    pub(super) fn name(&mut self, n: &str, span: Span) -> Expr {
        match self.lookup(n) {
            Some(Binding::StructLocal(_)) => self
                .type_error(span, format!("`{n}` is a struct: copy it with `a = {n};`, or use its fields (`{n}.x`)")),
            Some(Binding::Local(l)) => Expr::new(ExprKind::Local(l), self.locals[l.0 as usize].ty.clone(), span),
            Some(Binding::SharedArray(s)) => {
                let Type::Array(elem, _) = self.shared[s.0 as usize].ty.clone() else {
                    unreachable!("shared arrays have array type")
                };
                Expr::new(ExprKind::SharedAddr(s), Type::Ptr { elem, is_const: false }, span)
            }
            Some(Binding::SharedScalar(s)) => {
                let ty = self.shared[s.0 as usize].ty.clone();
                let addr = Expr::new(ExprKind::SharedAddr(s), Type::ptr(ty.clone(), false), span);
                Expr::new(ExprKind::Load(Box::new(addr)), ty, span)
            }
            Some(b @ (Binding::Global(_) | Binding::Constant(_) | Binding::HostVar(_))) => {
                self.global_value(b, n, span)
            }
            None if n == "warpSize" => Expr::new(ExprKind::Const(32), Type::INT, span),
            // `<cmath>`'s special values, as glibc defines them (`NAN` is `__builtin_nanf("")`).
            None if matches!(n, "INFINITY" | "HUGE_VALF") => {
                Expr::new(ExprKind::Const(f32::INFINITY.to_bits() as u64), Type::FLOAT, span)
            }
            None if n == "NAN" => Expr::new(ExprKind::Const(0x7fc0_0000), Type::FLOAT, span),
            None if n == "HUGE_VAL" => {
                Expr::new(ExprKind::Const(f64::INFINITY.to_bits()), Type::Scalar(Scalar::F64), span)
            }
            None if BUILTIN_VECTORS.contains(&n) => {
                let d = Diagnostic::new(ErrorCode::Type, span, format!("`{n}` is a vector (uint3)"))
                    .label("pick a component")
                    .hint(format!("write `{n}.x`, `{n}.y` or `{n}.z`"));
                self.err(d);
                Expr::error(span)
            }
            None if self.unavailable_use(n, &[ast::ItemKind::Variable], span) => Expr::error(span),
            None => {
                let mut d = Diagnostic::new(ErrorCode::Name, span, format!("cannot find `{n}` in this scope"))
                    .label("not declared");
                if let Some(close) = closest(n, &self.visible_names()) {
                    d = d.hint(format!("did you mean `{close}`?"));
                }
                self.err(d);
                Expr::error(span)
            }
        }
    }

    pub(super) fn member(&mut self, obj: &ast::Expr, field: &ast::Ident, span: Span) -> Expr {
        if let Some(e) = self.group_member(obj, field, span) {
            return e;
        }
        if let Some(e) = self.struct_member(obj, field, span) {
            return e;
        }
        let A::Name(name) = &obj.kind else {
            // Already reported where it went wrong.
            if self.expr(obj).ty.is_error() {
                return Expr::error(span);
            }
            return self.type_error(
                span,
                "only structs, vector types and threadIdx, blockIdx, blockDim and gridDim have fields",
            );
        };
        // A variable whose type was already reported (an unavailable or unknown type): nothing more to say.
        if let Some(Binding::Local(l)) = self.lookup(name)
            && self.locals[l.0 as usize].ty.is_error()
        {
            return Expr::error(span);
        }
        let axis = match field.name.as_str() {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => {
                self.err(
                    Diagnostic::new(ErrorCode::Name, field.span, format!("`{name}` has no field `{}`", field.name))
                        .label("expected x, y or z"),
                );
                return Expr::error(span);
            }
        };
        let special = match name.as_str() {
            "threadIdx" => Special::ThreadIdx(axis),
            "blockIdx" => Special::BlockIdx(axis),
            "blockDim" => Special::BlockDim(axis),
            "gridDim" => Special::GridDim(axis),
            _ if self.lookup(name).is_some() => {
                return self.type_error(span, format!("`{name}` has no fields (structs are not supported)"));
            }
            _ => return self.name(name, obj.span),
        };
        Expr::new(ExprKind::Special(special), Type::UINT, span)
    }

    /// Reads through a pointer; a pointer to an array row decays instead of loading.
    pub(super) fn deref(&mut self, ptr: Expr, span: Span) -> Expr {
        match ptr.ty.clone() {
            Type::Ptr { elem, is_const } => match *elem {
                Type::Array(inner, _) => Expr::new(ptr.kind, Type::Ptr { elem: inner, is_const }, span),
                Type::Void => self.type_error(span, "cannot read through a `void *`: cast it to a typed pointer first"),
                Type::Struct(s) => self.type_error(
                    span,
                    format!(
                        "a `{}` is read field by field (`p->x`) or copied into a variable (`{} v = *p;`)",
                        s.name, s.name
                    ),
                ),
                ty => Expr::new(ExprKind::Load(Box::new(ptr)), ty, span),
            },
            _ => Expr::error(span),
        }
    }

    /// The storage an lvalue expression names.
    pub(super) fn place(&mut self, e: &ast::Expr) -> Option<Place> {
        if let A::Member(obj, field) = &e.kind
            && let Some(p) = self.struct_member_place(obj, field, e.span)
        {
            return p;
        }
        match &e.kind {
            A::Name(n) => match self.lookup(n) {
                Some(Binding::Local(l)) => Some(Place::Local(l)),
                Some(Binding::SharedScalar(s)) => {
                    let ty = self.shared[s.0 as usize].ty.clone();
                    Some(Place::Mem(Box::new(Expr::new(ExprKind::SharedAddr(s), Type::ptr(ty, false), e.span))))
                }
                Some(b @ (Binding::Global(_) | Binding::Constant(_) | Binding::HostVar(_))) => {
                    self.global_place(b, n, e.span)
                }
                Some(Binding::StructLocal(_)) => {
                    self.err(
                        Diagnostic::new(ErrorCode::Type, e.span, format!("`{n}` is a struct"))
                            .label("a struct is assigned as a whole statement, `a = b;`, or field by field"),
                    );
                    None
                }
                _ => {
                    let v = self.name(n, e.span);
                    if !v.ty.is_error() {
                        self.err(
                            Diagnostic::new(ErrorCode::Type, e.span, format!("`{n}` is not assignable"))
                                .label("an array name is not a variable"),
                        );
                    }
                    None
                }
            },
            A::Index(base, idx) => {
                let b = self.expr(base);
                let i = self.expr(idx);
                if b.ty.is_error() || i.ty.is_error() {
                    return None;
                }
                // An index into a thread's local array is checked against its length.
                let i = self.checked_local_index(base, b.clone(), i);
                if !b.ty.is_ptr() {
                    let t = b.ty.to_string();
                    self.err(
                        Diagnostic::new(ErrorCode::Type, base.span, format!("cannot index a value of type `{t}`"))
                            .label("not a pointer or array"),
                    );
                    return None;
                }
                let ptr = self.ptr_offset(b, i, false, e.span)?;
                Some(Place::Mem(Box::new(ptr)))
            }
            A::Unary(UnaryOp::Deref, inner) => {
                let p = self.expr(inner);
                match &p.ty {
                    Type::Ptr { .. } => Some(Place::Mem(Box::new(p))),
                    Type::Error => None,
                    t => {
                        let t = t.to_string();
                        self.err(
                            Diagnostic::new(ErrorCode::Type, inner.span, format!("cannot dereference a `{t}`"))
                                .label("not a pointer"),
                        );
                        None
                    }
                }
            }
            _ => {
                let v = self.expr(e);
                if !v.ty.is_error() {
                    self.err(
                        Diagnostic::new(ErrorCode::Type, e.span, "this expression is not assignable")
                            .label("not a variable or memory location"),
                    );
                }
                None
            }
        }
    }

    pub(super) fn place_type(&self, p: &Place) -> Type {
        match p {
            Place::Local(l) => self.locals[l.0 as usize].ty.clone(),
            Place::Mem(ptr) => ptr.ty.pointee().cloned().unwrap_or(Type::Error),
        }
    }

    pub(super) fn writable_place(&mut self, e: &ast::Expr) -> Option<Place> {
        let place = self.place(e)?;
        if let Place::Mem(ptr) = &place
            && let Some(name) = self.constant_target(ptr)
        {
            self.err(constant_write(e.span, &name));
            return None;
        }
        let read_only = match &place {
            Place::Local(l) => {
                self.locals[l.0 as usize].is_const.then(|| format!("`{}` is const", self.locals[l.0 as usize].name))
            }
            Place::Mem(ptr) => match &ptr.ty {
                Type::Ptr { is_const: true, .. } => Some("it points to const data".to_string()),
                Type::Ptr { elem, .. } if matches!(**elem, Type::Array(..)) => {
                    Some("an array cannot be assigned".to_string())
                }
                _ => None,
            },
        };
        if let Some(why) = read_only {
            self.err(Diagnostic::new(ErrorCode::Type, e.span, "cannot assign to this").label(why));
            return None;
        }
        Some(place)
    }

    /// `ptr + index`: checks the index and scales by the element size.
    pub(super) fn ptr_offset(&mut self, ptr: Expr, index: Expr, negate: bool, span: Span) -> Option<Expr> {
        let s = self.int_operand(&index, if negate { "-" } else { "+" })?;
        let index = Self::to_scalar(index, index_scalar(s));
        let elem_size = ptr.ty.pointee().map_or(1, Type::size);
        let ty = ptr.ty.clone();
        Some(Expr::new(ExprKind::PtrOffset { ptr: Box::new(ptr), index: Box::new(index), elem_size, negate }, ty, span))
    }

    pub(super) fn unary(&mut self, op: UnaryOp, inner: &ast::Expr, span: Span) -> Expr {
        let v = self.expr(inner);
        match op {
            UnaryOp::Not => {
                let b = self.truth(v);
                Expr::new(ExprKind::Unary(UnOp::Not, Box::new(b)), Type::BOOL, span)
            }
            UnaryOp::Neg | UnaryOp::Plus => {
                let Some(s) = self.arith_operand(&v, if op == UnaryOp::Neg { "-" } else { "+" }) else {
                    return Expr::error(span);
                };
                let v = Self::to_scalar(v, s.promote());
                if op == UnaryOp::Plus {
                    return v;
                }
                Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(v)), Type::Scalar(s.promote()), span)
            }
            UnaryOp::BitNot => {
                let Some(s) = self.int_operand(&v, "~") else { return Expr::error(span) };
                let v = Self::to_scalar(v, s.promote());
                Expr::new(ExprKind::Unary(UnOp::BitNot, Box::new(v)), Type::Scalar(s.promote()), span)
            }
            UnaryOp::Deref | UnaryOp::AddrOf => unreachable!("handled as places"),
        }
    }

    pub(super) fn binary(&mut self, op: BinaryOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Expr {
        let (a, b) = (self.expr(a), self.expr(b));
        if a.ty.is_error() || b.ty.is_error() {
            return Expr::error(span);
        }
        let sym = op.symbol();
        match op {
            BinaryOp::LogAnd | BinaryOp::LogOr => {
                let (a, b) = (self.truth(a), self.truth(b));
                let kind = if op == BinaryOp::LogAnd {
                    ExprKind::LogicalAnd(Box::new(a), Box::new(b))
                } else {
                    ExprKind::LogicalOr(Box::new(a), Box::new(b))
                };
                Expr::new(kind, Type::BOOL, span)
            }
            BinaryOp::Add | BinaryOp::Sub if a.ty.is_ptr() || b.ty.is_ptr() => self.ptr_arith(op, a, b, span),
            _ if op.is_comparison() => {
                let cmp = CmpOp::from_binary(op).unwrap_or(CmpOp::Ne);
                let (a, b) = match (&a.ty, &b.ty) {
                    (Type::Scalar(x), Type::Scalar(y)) => {
                        let c = Scalar::common(*x, *y);
                        (Self::to_scalar(a, c), Self::to_scalar(b, c))
                    }
                    (Type::Ptr { elem: x, .. }, Type::Ptr { elem: y, .. }) if x == y => (a, b),
                    (Type::Ptr { .. }, Type::Scalar(_)) if matches!(b.kind, ExprKind::Const(0)) => {
                        let t = a.ty.clone();
                        (a, Expr::new(ExprKind::Const(0), t, b.span))
                    }
                    (x, y) => return self.type_error(span, format!("cannot compare `{x}` with `{y}`")),
                };
                Expr::new(ExprKind::Cmp { op: cmp, left: Box::new(a), right: Box::new(b) }, Type::BOOL, span)
            }
            _ => {
                let arith = ArithOp::from_binary(op).unwrap_or(ArithOp::Xor);
                let needs_int = matches!(
                    arith,
                    ArithOp::Rem | ArithOp::Shl | ArithOp::Shr | ArithOp::And | ArithOp::Or | ArithOp::Xor
                );
                let (x, y) = if needs_int {
                    (self.int_operand(&a, sym), self.int_operand(&b, sym))
                } else {
                    (self.arith_operand(&a, sym), self.arith_operand(&b, sym))
                };
                let (Some(x), Some(y)) = (x, y) else { return Expr::error(span) };
                // A shift has the promoted type of its left operand; the count is converted to it for the IR.
                let t = if matches!(arith, ArithOp::Shl | ArithOp::Shr) { x.promote() } else { Scalar::common(x, y) };
                let (a, b) = (Self::to_scalar(a, t), Self::to_scalar(b, t));
                Expr::new(ExprKind::Arith { op: arith, left: Box::new(a), right: Box::new(b) }, Type::Scalar(t), span)
            }
        }
    }

    pub(super) fn ptr_arith(&mut self, op: BinaryOp, a: Expr, b: Expr, span: Span) -> Expr {
        match (a.ty.is_ptr(), b.ty.is_ptr(), op) {
            (true, false, _) => self.ptr_offset(a, b, op == BinaryOp::Sub, span).unwrap_or_else(|| Expr::error(span)),
            (false, true, BinaryOp::Add) => self.ptr_offset(b, a, false, span).unwrap_or_else(|| Expr::error(span)),
            (true, true, BinaryOp::Sub) if a.ty.pointee() == b.ty.pointee() => {
                let elem_size = a.ty.pointee().map_or(1, Type::size);
                Expr::new(ExprKind::PtrDiff { a: Box::new(a), b: Box::new(b), elem_size }, Type::INT, span)
            }
            _ => self.type_error(span, format!("cannot apply `{}` to `{}` and `{}`", op.symbol(), a.ty, b.ty)),
        }
    }

    pub(super) fn assign(&mut self, op: Option<BinaryOp>, lhs: &ast::Expr, rhs: &ast::Expr, span: Span) -> Expr {
        let place = self.writable_place(lhs);
        let value = self.expr(rhs);
        let Some(place) = place else { return Expr::error(span) };
        let ty = self.place_type(&place);
        if ty.is_error() || value.ty.is_error() {
            return Expr::error(span);
        }
        let Some(op) = op else {
            let value = self.convert(value, &ty, "assignment");
            return Expr::new(ExprKind::Assign(place, Box::new(value)), ty, span);
        };
        if ty.is_ptr() && matches!(op, BinaryOp::Add | BinaryOp::Sub) {
            let Some(s) = self.int_operand(&value, op.symbol()) else { return Expr::error(span) };
            let index = Self::to_scalar(value, index_scalar(s));
            let elem_size = ty.pointee().map_or(1, Type::size);
            let kind =
                ExprKind::PtrCompoundAssign { place, index: Box::new(index), elem_size, negate: op == BinaryOp::Sub };
            return Expr::new(kind, ty, span);
        }
        let sym = format!("{}=", op.symbol());
        let arith = ArithOp::from_binary(op).unwrap_or(ArithOp::Xor);
        let needs_int =
            matches!(arith, ArithOp::Rem | ArithOp::Shl | ArithOp::Shr | ArithOp::And | ArithOp::Or | ArithOp::Xor);
        let target = Expr::new(ExprKind::Const(0), ty.clone(), lhs.span);
        let (x, y) = if needs_int {
            (self.int_operand(&target, &sym), self.int_operand(&value, &sym))
        } else {
            (self.arith_operand(&target, &sym), self.arith_operand(&value, &sym))
        };
        let (Some(x), Some(y)) = (x, y) else { return Expr::error(span) };
        let op_ty = if matches!(arith, ArithOp::Shl | ArithOp::Shr) { x.promote() } else { Scalar::common(x, y) };
        let rhs = Self::to_scalar(value, op_ty);
        Expr::new(ExprKind::CompoundAssign { place, op: arith, rhs: Box::new(rhs), op_ty }, ty, span)
    }

    pub(super) fn cast(&mut self, v: Expr, to: Type, span: Span) -> Expr {
        if v.ty.is_error() || to.is_error() {
            return Expr::error(span);
        }
        match (&v.ty, &to) {
            (_, Type::Void) => Expr::new(v.kind, Type::Void, span),
            (Type::Scalar(_), Type::Scalar(_)) => Expr::new(ExprKind::Convert(Box::new(v)), to, span),
            (Type::Ptr { elem: a, .. }, Type::Ptr { elem: b, .. }) if a == b => Expr::new(v.kind, to, span),
            (Type::Ptr { .. }, Type::Scalar(Scalar::Bool)) => Expr::new(ExprKind::Convert(Box::new(v)), to, span),
            // The address is the same; what it points to changes (`(float4 *)p`, `(char *)p`, from `void *`).
            (Type::Ptr { .. }, Type::Ptr { .. }) => Expr::new(v.kind, to, span),
            // `(size_t)p` and back: addresses are 64-bit numbers.
            (Type::Ptr { .. }, Type::Scalar(s)) | (Type::Scalar(s), Type::Ptr { .. }) if s.is_wide_int() => {
                Expr::new(ExprKind::Convert(Box::new(v)), to, span)
            }
            // `(void *)0`, `(int *)offset`: a narrower integer widens first (sign- or zero-extended, as C does).
            (Type::Scalar(s), Type::Ptr { .. }) if s.is_integer() => {
                let wide = Type::Scalar(if s.is_signed() { Scalar::I64 } else { Scalar::U64 });
                let v = Expr::new(ExprKind::Convert(Box::new(v)), wide, span);
                Expr::new(ExprKind::Convert(Box::new(v)), to, span)
            }
            // `(int)p`, `(unsigned)(size_t)p`: the address's low bits.
            (Type::Ptr { .. }, Type::Scalar(s)) if s.is_integer() => {
                let v = Expr::new(ExprKind::Convert(Box::new(v)), Type::Scalar(Scalar::U64), span);
                Expr::new(ExprKind::Convert(Box::new(v)), to, span)
            }
            _ => {
                self.err(
                    Diagnostic::unsupported(span, "casts between pointers and integers")
                        .label(format!("`{}` to `{to}`", v.ty)),
                );
                Expr::error(span)
            }
        }
    }

    /// A string literal outside printf's format: a `const char *` to its characters (and a terminating NUL)
    /// in constant memory, one array per distinct text, as nvcc places literals in read-only global memory:
    /// device functions take it as `const char *`, walk it, compare it, print it with `%s`.
    fn string_literal(&mut self, text: &str, span: Span) -> Expr {
        // The literal's own text (quoted) names it: no identifier can collide with it.
        let name = format!("{text:?}");
        let id = match self.globals.iter().position(|g| g.name == name) {
            Some(i) => GlobalId(i as u32),
            None => {
                let mut init: Vec<crate::front::launch::Value> =
                    text.bytes().map(|b| crate::front::launch::Value::Int(b as i8 as i64)).collect();
                init.push(crate::front::launch::Value::Int(0));
                let ty = Type::Array(Box::new(Type::Scalar(Scalar::I8)), init.len() as u32);
                self.globals.push(GlobalVar {
                    name,
                    ty,
                    elem: Scalar::I8,
                    space: GlobalSpace::Constant,
                    init,
                    span,
                    owner: None,
                });
                GlobalId(self.globals.len() as u32 - 1)
            }
        };
        let mut e = self.global_addr(id, span);
        e.ty = Type::ptr(Type::Scalar(Scalar::I8), true);
        e
    }
}

/// The type a pointer's integer offset is computed in: 32 bits (as `PtrAdd` takes it) unless it is 64 bits wide.
fn index_scalar(s: Scalar) -> Scalar {
    match s.promote() {
        w @ (Scalar::I64 | Scalar::U64) => w,
        Scalar::U32 => Scalar::U32,
        _ => Scalar::I32,
    }
}

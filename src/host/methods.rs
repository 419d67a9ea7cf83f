//! Member functions of a program's host classes (a random-number helper, an accumulator, a timer). The parser
//! gives each as a host function named `Class::name` whose first parameter is `this` (a `Class *`); here a
//! method's body reaches the object's fields by their bare names, `obj.f(a)` and `p->f(a)` call
//! `Class::f(&obj, a)`, `obj(a)` calls `Class::operator()`, and a declaration `Class obj(a, b);` (or `Class
//! obj;`) runs the constructor `Class::Class`.

use super::resolve::{Resolver, Var};
use super::tree::*;
use crate::front::ast::{self, ExprKind as A, UnaryOp};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::Type;

pub(super) fn expr(kind: A, span: Span) -> ast::Expr {
    ast::Expr { kind, span }
}

/// `&e`.
fn addr_of(e: &ast::Expr) -> ast::Expr {
    expr(A::Unary(UnaryOp::AddrOf, Box::new(e.clone())), e.span)
}

impl Resolver<'_> {
    /// Inside a member function: `(*this).n` for a field `n` of the class not hidden by a local.
    pub(super) fn this_field(&self, n: &str, span: Span) -> Option<ast::Expr> {
        let Type::Struct(def) = self.this_class()? else { return None };
        self.class_field(&def, n)?;
        let this = expr(A::Name("this".into()), span);
        let deref = expr(A::Unary(UnaryOp::Deref, Box::new(this)), span);
        let field = expr(A::Member(Box::new(deref), ast::Ident { name: n.into(), span }), span);
        // A lambda's capture by reference holds the variable's address.
        if self.captured_by_ref(&def.name, n) {
            return Some(expr(A::Unary(UnaryOp::Deref, Box::new(field)), span));
        }
        Some(field)
    }

    /// In a member function: the class (what `this` points to).
    fn this_class(&self) -> Option<Type> {
        match self.lookup("this")? {
            Var::Reg(_, t) | Var::Mem(_, t) => t.pointee().cloned(),
            _ => None,
        }
    }

    /// The host function of method `m` of the class of `obj`'s type, if the program has one.
    pub(super) fn method_of(&self, ty: &Type, m: &str) -> Option<String> {
        let Type::Struct(def) = ty else { return None };
        let name = format!("{}::{m}", def.name);
        if self.fns.contains_key(&name) {
            return Some(name);
        }
        // Inherited from the base class (not its constructors or destructor).
        let base = self.base_class(def)?;
        if m == def.name || m.starts_with('~') {
            return None;
        }
        self.method_of(&base, m)
    }

    /// A call of member function `f` on the object `this` points to (left out for a static one).
    pub(super) fn call_member(
        &mut self,
        f: String,
        this: ast::Expr,
        args: &[ast::Expr],
        at: Span,
        span: Span,
    ) -> Result<Expr, Reported> {
        let this = self.with_this.contains(&f).then_some(this);
        let all: Vec<ast::Expr> = this.into_iter().chain(args.iter().cloned()).collect();
        self.call(&ast::Ident { name: f, span: at }, &all, span)
    }

    /// `obj.m(args)` (and `p->m(args)`, which the parser gives as `(*p).m(args)`).
    pub(super) fn method_call(
        &mut self,
        obj: &ast::Expr,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let ty = match self.lvalue(obj) {
            Ok((_, ty)) => ty,
            Err(_) => {
                self.diags.pop();
                return None;
            }
        };
        if let Some(call) = self.virtual_call(obj, &ty, m, args, span) {
            return Some(call);
        }
        let name = self.method_of(&ty, &m.name)?;
        Some(self.call_member(name, addr_of(obj), args, m.span, span))
    }

    /// A call by bare name that is a method: of this class inside a member function (`add(x)`), or an object's
    /// `operator()` (`gen()`).
    pub(super) fn implicit_method_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        if let Some(class) = self.this_class()
            && let Some(f) = self.method_of(&class, &name.name)
        {
            let this = expr(A::Name("this".into()), name.span);
            // `area()` in a base class's method: the override of the object's class.
            let object = expr(A::Unary(UnaryOp::Deref, Box::new(this.clone())), name.span);
            if let Some(call) = self.virtual_call(&object, &class, name, args, span) {
                return Some(call);
            }
            return Some(self.call_member(f, this, args, name.span, span));
        }
        let (Var::Mem(_, ty) | Var::Global(_, ty)) = self.lookup(&name.name)? else { return None };
        let f = self.method_of(&ty, "operator()")?;
        let obj = expr(A::Name(name.name.clone()), name.span);
        Some(self.call_member(f, addr_of(&obj), args, name.span, span))
    }

    /// `Class obj(args);`, `Class obj{args};` or `Class obj;` of a class with a constructor: the call that
    /// constructs it, or None when the class has none (a brace initialiser then sets the fields).
    pub(super) fn construct(
        &mut self,
        name: &ast::Ident,
        ty: &Type,
        init: Option<&ast::Expr>,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<(), Reported>> {
        if let Type::Array(elem, n) = ty
            && init.is_none()
            && let Type::Struct(def) = &**elem
        {
            // `Lock locks[4];`: each element default-constructed, in order.
            let ctor = self.method_of(elem, &def.name)?;
            let obj = expr(A::Name(name.name.clone()), name.span);
            for k in 0..*n {
                let index = expr(A::Int { value: k as u64, unsigned: false, long: false, decimal: true }, name.span);
                let element = expr(A::Index(Box::new(obj.clone()), Box::new(index)), name.span);
                match self.call_member(ctor.clone(), addr_of(&element), &[], name.span, name.span) {
                    Ok(c) => out.push(Stmt::Expr(c)),
                    Err(e) => return Some(Err(e)),
                }
            }
            return Some(Ok(()));
        }
        let Type::Struct(def) = ty else { return None };
        let ctor = self.method_of(ty, &def.name)?;
        // (`Class obj = other;` is a copy, as for a struct.)
        let args = ctor_args(init)?;
        let obj = expr(A::Name(name.name.clone()), name.span);
        let span = init.map_or(name.span, |e| e.span);
        Some(self.call_member(ctor, addr_of(&obj), args, span, span).map(|c| out.push(Stmt::Expr(c))))
    }
}

impl Resolver<'_> {
    /// A constructor's member initialiser (`data(n, 0.0f)`, `name(label)`, `pos(1, 2, 3)`, `x(a)`, `count()`):
    /// the parser's `__warpdbg_member_init(field, args...)` statement. The member is constructed from the
    /// arguments as its type's constructor takes them: a `std::vector`'s `(n)`, `(n, value)`, `(first, last)`,
    /// `(other)`, a `std::string`'s, a class's constructor on the member in place; anything else (a number, a
    /// pointer, a struct without a constructor) from its one argument as `field = a` would, or zero from none.
    /// None when `e` is not one.
    pub(super) fn member_init(&mut self, e: &ast::Expr, out: &mut Vec<Stmt>) -> Option<Result<(), Reported>> {
        let A::Call(f, all) = &e.kind else { return None };
        if f.name != crate::front::parser::MEMBER_INIT {
            return None;
        }
        let (field, args) = all.split_first()?;
        Some(self.member_init_with(field, args, e.span, out))
    }

    fn member_init_with(
        &mut self,
        field: &ast::Expr,
        args: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Reported> {
        let (place, ty) = self.lvalue(field)?;
        let list = expr(A::InitList(args.to_vec()), span);
        if let Place::Mem { addr, .. } = &place {
            let at = Expr { ty: Type::ptr(ty.clone(), false), ..Expr::clone(addr) };
            if vector_elem(&ty).is_some() {
                return self.vector_init(at, &ty, &list, true, out);
            }
            if let Some(r) = self.string_in_memory(at, &ty, &list, out) {
                return r;
            }
            // (`other(o)` of the member's own class is a copy, as for a struct.)
            let copy = matches!(args, [a] if self.probe_type(a).is_ok_and(|t| t == ty));
            if let Type::Struct(def) = &ty
                && !copy
                && let Some(ctor) = self.method_of(&ty, &def.name)
            {
                let call = self.call_member(ctor, addr_of(field), args, span, span)?;
                out.push(Stmt::Expr(call));
                return Ok(());
            }
        }
        let value = match args {
            [a] => a.clone(),
            [] if ty.scalar().is_some() || ty.is_ptr() => {
                expr(A::Int { value: 0, unsigned: false, long: false, decimal: true }, span)
            }
            [] => return Ok(()),
            _ => return Err(self.error(span, format!("`{ty}` takes one initialiser here, not {}", args.len()))),
        };
        let assign = expr(A::Assign { op: None, target: Box::new(field.clone()), value: Box::new(value) }, span);
        out.push(Stmt::Expr(self.rvalue(&assign)?));
        Ok(())
    }
}

/// A declaration's constructor arguments: `Class obj(a, b);` or `{a, b}` gives them, `Class obj;` none; None
/// for `Class obj = other;` (a copy).
pub(super) fn ctor_args(init: Option<&ast::Expr>) -> Option<&[ast::Expr]> {
    match init.map(|e| &e.kind) {
        Some(A::InitList(items)) => Some(items),
        None => Some(&[]),
        Some(_) => None,
    }
}

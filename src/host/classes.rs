//! What C++ classes add to host code beyond their member functions ([`super::methods`]): overloaded
//! operators (`a + b` calls `Vec3::operator+` or a free `operator+`), temporaries (`Complex(1, 2)` as a
//! value), and destructors, run in reverse order of construction where their object's scope ends (a block's
//! end, a `return`).

use super::methods::expr;
use super::resolve::{Resolver, Var};
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::tast::CmpOp;
use crate::front::types::{Scalar, StructDef, Type};

/// A class type the program defines (not `dim3`, a CUDA vector type or a library object).
fn class_of(ty: &Type) -> Option<&str> {
    match ty {
        Type::Struct(def) => Some(def.name.as_str()),
        _ => None,
    }
}

impl Resolver<'_> {
    /// A resolved value under a hidden name, so a call built from the parse tree can name it without
    /// resolving it again: the statement that sets it, and the name. A struct's slot holds its address.
    fn bind(&mut self, v: Expr) -> Result<(Expr, ast::Expr), Reported> {
        let span = v.span;
        let slot = self.new_slot();
        let name = format!("operand#{slot}");
        let (var, ty) = match &v.ty {
            t @ Type::Struct(_) => (Var::Mem(slot, t.clone()), Type::ptr(t.clone(), false)),
            t => (Var::Reg(slot, t.clone()), t.clone()),
        };
        self.scopes.last_mut().ok_or(Reported)?.insert(name.clone(), var);
        let set = Expr::new(ExprKind::assign(Place::Slot(slot), Place::REGISTER, v), ty, span);
        Ok((set, expr(A::Name(name), span)))
    }

    /// `x op y` where an operand is a class: its member `operator op` (on the left operand) or a free
    /// function `operator op`; None when neither operand is a class.
    pub(super) fn overloaded_binary(
        &mut self,
        op: BinaryOp,
        x: Expr,
        y: Expr,
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        class_of(&x.ty).or(class_of(&y.ty))?;
        let symbol = format!("operator{}", op.symbol());
        let member = self.method_of(&x.ty, &symbol);
        if member.is_none() && !self.fns.contains_key(&symbol) {
            return Some(Err(self.error(span, format!("no `{symbol}` for `{}` and `{}`", x.ty, y.ty))));
        }
        Some(self.operator_call(member, &symbol, vec![x, y], span))
    }

    /// `-x` or `!x` (`op` is `-` or `!`) of a class: its member `operator-()` or a free `operator-(x)`.
    pub(super) fn overloaded_unary(&mut self, op: &str, x: Expr, span: Span) -> Option<Result<Expr, Reported>> {
        class_of(&x.ty)?;
        let symbol = format!("operator{op}");
        let member = self.method_of(&x.ty, &symbol);
        let free = self.fns.get(&symbol).is_some_and(|&f| self.sigs[f as usize].1.len() == 1);
        if member.is_none() && !free {
            return Some(Err(self.error(span, format!("no `{symbol}` for `{}`", x.ty))));
        }
        Some(self.operator_call(member, &symbol, vec![x], span))
    }

    /// `a op= b` with `a` a class (its place's address `addr`): its member `operator op=`.
    pub(super) fn overloaded_compound(
        &mut self,
        op: BinaryOp,
        a: Expr,
        b: &ast::Expr,
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        class_of(&a.ty)?;
        let symbol = format!("operator{}=", op.symbol());
        let Some(member) = self.method_of(&a.ty, &symbol) else {
            return Some(Err(self.error(span, format!("no `{symbol}` for `{}`", a.ty))));
        };
        let b = match self.rvalue(b) {
            Ok(b) => b,
            Err(e) => return Some(Err(e)),
        };
        Some(self.operator_call(Some(member), &symbol, vec![a, b], span))
    }

    /// The call of an operator function on resolved operands: `member` on the first one, or the free
    /// function `symbol` on all.
    fn operator_call(
        &mut self,
        member: Option<String>,
        symbol: &str,
        operands: Vec<Expr>,
        span: Span,
    ) -> Result<Expr, Reported> {
        let mut sets = vec![];
        let mut names = vec![];
        for v in operands {
            let (set, name) = self.bind(v)?;
            sets.push(set);
            names.push(name);
        }
        let call = match member {
            Some(f) => {
                let this = expr(A::Unary(ast::UnaryOp::AddrOf, Box::new(names[0].clone())), span);
                self.call_member(f, this, &names[1..], span, span)?
            }
            None => self.call(&ast::Ident { name: symbol.into(), span }, &names, span)?,
        };
        let ty = call.ty.clone();
        Ok(sets
            .into_iter()
            .rev()
            .fold(call, |e, set| Expr::new(ExprKind::Comma(Box::new(set), Box::new(e)), ty.clone(), span)))
    }

    /// `Complex(1, 2)` as a value: a temporary of the caller's frame, constructed; None when `name` is no
    /// class with a constructor.
    pub(super) fn temporary(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let def = self.kernels.structs.get(&name.name)?.clone();
        let ty = Type::Struct(def);
        let ctor = self.method_of(&ty, &name.name)?;
        let slot = self.new_slot();
        self.frame.push((slot, ty.size().max(1), format!("{}(...) temporary", name.name)));
        let hidden = format!("temporary#{slot}");
        self.scopes.last_mut()?.insert(hidden.clone(), Var::Mem(slot, ty.clone()));
        let this = expr(A::Unary(ast::UnaryOp::AddrOf, Box::new(expr(A::Name(hidden), span))), span);
        let call = match self.call_member(ctor, this, args, name.span, span) {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        let object = Expr::new(ExprKind::Slot(slot), ty.clone(), span);
        let call = match set_dynamic_type(Expr { ty: Type::ptr(ty.clone(), false), ..object.clone() }, &ty) {
            Some(tag) => Expr::new(ExprKind::Comma(Box::new(tag), Box::new(call)), Type::Void, span),
            None => call,
        };
        Some(Ok(Expr::new(ExprKind::Comma(Box::new(call), Box::new(object)), ty, span)))
    }

    /// `new Class(args)` (or `new Class`) of a class with a constructor: the memory `alloc` gives, constructed.
    pub(super) fn new_object(&mut self, alloc: Expr, args: &[ast::Expr], span: Span) -> Option<Result<Expr, Reported>> {
        let class = alloc.ty.pointee()?;
        let ctor = self.method_of(class, class_of(class)?)?;
        let ty = alloc.ty.clone();
        let (set, p) = match self.bind(alloc) {
            Ok(b) => b,
            Err(e) => return Some(Err(e)),
        };
        let call = match self.call_member(ctor, p.clone(), args, span, span) {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        let p = match self.rvalue(&p) {
            Ok(p) => p,
            Err(e) => return Some(Err(e)),
        };
        let call = match set_dynamic_type(p.clone(), &p.ty.pointee().cloned().unwrap_or_default()) {
            Some(tag) => Expr::new(ExprKind::Comma(Box::new(tag), Box::new(call)), Type::Void, span),
            None => call,
        };
        let both = Expr::new(ExprKind::Comma(Box::new(set), Box::new(call)), Type::Void, span);
        Some(Ok(Expr::new(ExprKind::Comma(Box::new(both), Box::new(p)), ty, span)))
    }

    /// `delete p` of a pointer to a class with a destructor: the destructors (the class's, then its bases'),
    /// then the memory freed. Through a pointer to a class with virtual functions (`virtual ~Shape()`), the
    /// destructors are those of the object's dynamic class, read from its hidden field.
    pub(super) fn delete_object(&mut self, p: Expr, span: Span) -> Option<Result<Expr, Reported>> {
        let class = p.ty.pointee()?.clone();
        let Type::Struct(def) = &class else { return None };
        let chain = self.dtor_chain(&class);
        let mut derived: Vec<(u64, Vec<String>)> = vec![];
        let vptr = field(def, "vptr#").map(|(off, _)| off);
        if vptr.is_some() {
            let mut classes: Vec<_> =
                self.kernels.structs.values().filter(|d| derives_from(d, &def.name)).cloned().collect();
            classes.sort_by(|a, b| a.name.cmp(&b.name));
            classes.dedup_by(|a, b| a.name == b.name);
            derived = classes.into_iter().map(|d| (tag(&d.name), self.dtor_chain(&Type::Struct(d)))).collect();
            derived.retain(|(_, c)| *c != chain);
        }
        if chain.is_empty() && derived.is_empty() {
            return None;
        }
        Some(self.delete_with(p, &chain, (vptr.unwrap_or(0), &derived), span))
    }

    /// `delete` of the object `p` points to: `chain`, or the chain of its dynamic class among `derived` (with
    /// the offset of the hidden field that tells it), then `free`.
    fn delete_with(
        &mut self,
        p: Expr,
        chain: &[String],
        (vptr, derived): (u32, &[(u64, Vec<String>)]),
        span: Span,
    ) -> Result<Expr, Reported> {
        let (set, name) = self.bind(p)?;
        let mut call = self.destroy_calls(chain, &name, span)?;
        if !derived.is_empty() {
            let addr = self.rvalue(&name)?;
            let at = super::resolve::ptr_add(addr, i64::from(vptr), &Type::Scalar(Scalar::U64));
            let dynamic = Expr::new(
                ExprKind::Load { addr: Box::new(at), storage: Scalar::U64, what: None },
                Type::Scalar(Scalar::U64),
                span,
            );
            for (t, c) in derived {
                let is = type_is(&dynamic, *t, span);
                let then = self.destroy_calls(c, &name, span)?;
                call = Expr::new(
                    ExprKind::Cond { cond: Box::new(is), then: Box::new(then), otherwise: Box::new(call) },
                    Type::Void,
                    span,
                );
            }
        }
        let free = Expr::new(ExprKind::Lib(Lib::Free, vec![self.rvalue(&name)?]), Type::Void, span);
        let both = Expr::new(ExprKind::Comma(Box::new(set), Box::new(call)), Type::Void, span);
        Ok(Expr::new(ExprKind::Comma(Box::new(both), Box::new(free)), Type::Void, span))
    }

    /// The calls of destructors `chain` in order on the object `this` points to (nothing: a void zero).
    fn destroy_calls(&mut self, chain: &[String], this: &ast::Expr, span: Span) -> Result<Expr, Reported> {
        let mut out = Expr::new(ExprKind::Const(0), Type::Void, span);
        for d in chain {
            let call = self.call_member(d.clone(), this.clone(), &[], span, span)?;
            out = Expr::new(ExprKind::Comma(Box::new(out), Box::new(call)), Type::Void, span);
        }
        Ok(out)
    }

    /// The destructors an object of class `ty` runs: its class's, then its base's, up the chain.
    fn dtor_chain(&self, ty: &Type) -> Vec<String> {
        let mut dtors = vec![];
        let mut class = ty.clone();
        while let Some(name) = class_of(&class) {
            let f = format!("{name}::~{name}");
            if self.fns.contains_key(&f) {
                dtors.push(f);
            }
            let Type::Struct(def) = &class else { break };
            let Some(base) = base_of(def) else { break };
            class = base;
        }
        dtors
    }

    /// A local object `name` of type `ty` was declared: its destructor (each element's, for an array of a
    /// class) runs where its scope ends.
    pub(super) fn will_destroy(&mut self, name: &ast::Ident, ty: &Type) -> Result<(), Reported> {
        let (elem, count) = match ty {
            Type::Array(elem, n) => (&**elem, Some(*n)),
            t => (t, None),
        };
        // The class's destructor, then its base's, up the chain.
        let dtors = self.dtor_chain(elem);
        if dtors.is_empty() {
            return Ok(());
        }
        let obj = expr(A::Name(name.name.clone()), name.span);
        let objects: Vec<ast::Expr> = match count {
            None => vec![obj],
            Some(n) => (0..n)
                .map(|k| {
                    let index =
                        expr(A::Int { value: k as u64, unsigned: false, long: false, decimal: true }, name.span);
                    expr(A::Index(Box::new(obj.clone()), Box::new(index)), name.span)
                })
                .collect(),
        };
        let depth = self.scopes.len();
        for o in objects {
            let this = expr(A::Unary(ast::UnaryOp::AddrOf, Box::new(o)), name.span);
            // Pushed base first: the list runs backwards.
            for dtor in dtors.iter().rev() {
                let call = self.call_member(dtor.clone(), this.clone(), &[], name.span, name.span)?;
                self.dtors.push((depth, Stmt::Expr(call)));
            }
        }
        Ok(())
    }

    /// The destructor calls of the objects of the scopes deeper than `depth`, last constructed first;
    /// `keep`: they stay due where those scopes end (a `return` runs them on its path only).
    pub(super) fn destroy_from(&mut self, depth: usize, keep: bool) -> Vec<Stmt> {
        let at = self.dtors.iter().position(|(d, _)| *d > depth).unwrap_or(self.dtors.len());
        let calls: Vec<Stmt> = self.dtors[at..].iter().rev().map(|(_, s)| s.clone()).collect();
        if !keep {
            self.dtors.truncate(at);
        }
        calls
    }

    /// The end of the innermost scope: its objects' destructors, appended to its statements.
    pub(super) fn end_scope(&mut self, out: &mut Vec<Stmt>) {
        let depth = self.scopes.len().saturating_sub(1);
        out.extend(self.destroy_from(depth, false));
    }

    /// A statement that ends the innermost scope (a `for` whose initialiser declared an object), followed by
    /// its objects' destructors.
    pub(super) fn with_scope_end(&mut self, s: Stmt) -> Stmt {
        let mut out = vec![s];
        self.end_scope(&mut out);
        if out.len() == 1 { out.pop().unwrap_or(Stmt::Block(vec![])) } else { Stmt::Block(out) }
    }

    /// `return v;` with objects to destroy on the way out: the value is computed first, then the destructors
    /// run, then the function returns it.
    pub(super) fn return_destroying(&mut self, v: Option<Expr>, span: Span) -> Stmt {
        let dtors = self.destroy_from(0, true);
        if dtors.is_empty() {
            return Stmt::Return(v);
        }
        let mut out = vec![];
        let v = v.map(|v| {
            let slot = self.new_slot();
            let ty = v.ty.clone();
            out.push(Stmt::Expr(Expr::new(ExprKind::assign(Place::Slot(slot), Place::REGISTER, v), ty.clone(), span)));
            Expr::new(ExprKind::Slot(slot), ty, span)
        });
        out.extend(dtors);
        out.push(Stmt::Return(v));
        Stmt::Block(out)
    }
}

/// Field `name` of a class or of its bases: its offset and type.
fn field(def: &StructDef, name: &str) -> Option<(u32, Type)> {
    if let Some(f) = def.field(name) {
        return Some((f.offset, f.ty.clone()));
    }
    let base = def.fields.iter().find(|f| f.name.starts_with("base#"))?;
    let Type::Struct(b) = &base.ty else { return None };
    let (off, ty) = field(b, name)?;
    Some((base.offset + off, ty))
}

/// The base class of a derived one (its hidden first field).
fn base_of(def: &StructDef) -> Option<Type> {
    def.fields.iter().find(|f| f.name.starts_with("base#")).map(|f| f.ty.clone())
}

/// Does class `def` derive from `base` (directly or further up)?
fn derives_from(def: &StructDef, base: &str) -> bool {
    match base_of(def) {
        Some(Type::Struct(b)) => b.name == base || derives_from(&b, base),
        _ => false,
    }
}

/// The number a class's objects keep in their hidden `vptr#` field: FNV-1a of its name (a fixed number per
/// class, whatever the order classes are read in).
fn tag(class: &str) -> u64 {
    class.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// For an object of a class with virtual functions at `addr`: the store of its dynamic type.
fn set_dynamic_type(addr: Expr, ty: &Type) -> Option<Expr> {
    let Type::Struct(def) = ty else { return None };
    let (off, _) = field(def, "vptr#")?;
    let span = addr.span;
    let at = super::resolve::ptr_add(addr, off as i64, &Type::Scalar(Scalar::U64));
    let value = Expr::new(ExprKind::Const(tag(&def.name)), Type::Scalar(Scalar::U64), span);
    Some(Expr::new(ExprKind::assign(Place::mem(at, None), Scalar::U64, value), Type::Scalar(Scalar::U64), span))
}

impl Resolver<'_> {
    /// Field `name` of class `def` or of its bases (a method, so that the resolver's other files name no
    /// path into this one: no import circle).
    pub(super) fn class_field(&self, def: &StructDef, name: &str) -> Option<(u32, Type)> {
        field(def, name)
    }

    /// The base class of `def`, if it has one.
    pub(super) fn base_class(&self, def: &StructDef) -> Option<Type> {
        base_of(def)
    }

    /// For a new object of a class with virtual functions at `addr`: the store of its dynamic class.
    pub(super) fn dynamic_type_store(&self, addr: Expr, ty: &Type) -> Option<Expr> {
        set_dynamic_type(addr, ty)
    }

    /// `obj.m(args)` (`p->m(args)`) of a class with virtual functions where a derived class overrides `m`: the
    /// function of the object's dynamic type, read from its hidden field.
    pub(super) fn virtual_call(
        &mut self,
        obj: &ast::Expr,
        ty: &Type,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let Type::Struct(def) = ty else { return None };
        let (off, _) = field(def, "vptr#")?;
        let fixed = self.method_of(ty, &m.name);
        let mut derived: Vec<_> =
            self.kernels.structs.values().filter(|d| derives_from(d, &def.name)).cloned().collect();
        derived.sort_by(|a, b| a.name.cmp(&b.name));
        derived.dedup_by(|a, b| a.name == b.name);
        let overrides: Vec<(u64, String)> = derived
            .iter()
            .filter_map(|d| {
                let f = self.method_of(&Type::Struct(d.clone()), &m.name)?;
                (Some(&f) != fixed.as_ref()).then(|| (tag(&d.name), f))
            })
            .collect();
        let (last, rest) = match &fixed {
            Some(f) => (f.clone(), &overrides[..]),
            None => {
                let (last, rest) = overrides.split_last()?;
                (last.1.clone(), rest)
            }
        };
        if overrides.is_empty() {
            return None;
        }
        let this = expr(A::Unary(ast::UnaryOp::AddrOf, Box::new(obj.clone())), obj.span);
        let mut call = match self.call_member(last, this.clone(), args, m.span, span) {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        let addr = match self.lvalue(obj) {
            Ok((Place::Mem { addr, .. }, _)) => *addr,
            Ok(_) => return None,
            Err(e) => return Some(Err(e)),
        };
        let at = super::resolve::ptr_add(addr, off as i64, &Type::Scalar(Scalar::U64));
        let dynamic = Expr::new(
            ExprKind::Load { addr: Box::new(at), storage: Scalar::U64, what: None },
            Type::Scalar(Scalar::U64),
            span,
        );
        for (t, f) in rest.iter().rev() {
            let this_call = match self.call_member(f.clone(), this.clone(), args, m.span, span) {
                Ok(c) => c,
                Err(e) => return Some(Err(e)),
            };
            let is = type_is(&dynamic, *t, span);
            let ty = call.ty.clone();
            call = Expr::new(
                ExprKind::Cond { cond: Box::new(is), then: Box::new(this_call), otherwise: Box::new(call) },
                ty,
                span,
            );
        }
        Some(Ok(call))
    }
}

/// `dynamic == tag`: an object's dynamic type tag (loaded as `dynamic`) is class `tag`'s.
fn type_is(dynamic: &Expr, tag: u64, span: Span) -> Expr {
    let k = Expr::new(ExprKind::Const(tag), Type::Scalar(Scalar::U64), span);
    Expr::new(
        ExprKind::Cmp { op: CmpOp::Eq, op_ty: Scalar::U64, left: Box::new(dynamic.clone()), right: Box::new(k) },
        Type::BOOL,
        span,
    )
}

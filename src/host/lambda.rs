//! Host lambdas as C++ compiles them: a lambda expression is an object of a class of its own (`__lambda_N`)
//! whose fields are its captures, and whose `operator()` is a host function taking `this` and the lambda's
//! parameters, with the lambda's body. A copy (`[x]`, `[=]`) is a field of the variable's type, filled when
//! the lambda is evaluated; a reference (`[&x]`, `[&]`) is a field holding the variable's address (the
//! variable then lives in host memory). In the body a captured name reaches its field (through the address
//! for a reference), so an `auto f = [&](int i) { sum += i; };` changes the caller's `sum`, and a copy taken
//! before the caller changes the variable keeps the old value, as in C++.
//!
//! Being an object of a class, a closure is stored (`auto f = ...;`), called (`f(x)`: its `operator()`),
//! copied, and passed to a function template (`template <class F> void run(F f)` is instantiated for the
//! closure's class), `<algorithm>`'s calls among them ([`super::prelude`]). The result type is the one
//! written (`-> float`) or the type of the first `return`'s value.

use std::collections::{HashMap, HashSet};

use super::closure::*;
use super::resolve::{Resolver, Var, ptr_add};
use super::tree::*;
use crate::front::ast::{self, CaptureDefault, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Field, StructDef, Type};

/// The per-function state of the resolver, set aside while a lambda's body is resolved inside its
/// enclosing function.
struct Saved {
    scopes: Vec<HashMap<String, Var>>,
    slots: u32,
    frame: Vec<(Slot, u32, String)>,
    addressed: HashSet<String>,
    ret: Type,
    ret_slot: Option<Slot>,
    ret_ref: bool,
    labels: Vec<String>,
    what_slots: HashSet<Slot>,
    vla_sizes: HashMap<Slot, Slot>,
    dtors: Vec<(usize, Stmt)>,
    class: Option<String>,
    deduce_ret: bool,
    current_fn: String,
}

impl Resolver<'_> {
    /// The type a closure class's name stands for.
    pub(super) fn closure_type(&self, name: &str) -> Option<Type> {
        self.closures.get(name).and_then(|c| c.ty.clone())
    }

    /// Whether field `field` of class `class` is a lambda's capture by reference.
    pub(super) fn captured_by_ref(&self, class: &str, field: &str) -> bool {
        self.closures.get(class).is_some_and(|c| c.by_ref.contains(field))
    }

    /// A lambda expression's value: a new closure object (a temporary of the frame) with its captures stored,
    /// its class and `operator()` made and resolved now (so its result type is known to calls).
    pub(super) fn lambda(&mut self, e: &ast::Expr) -> Result<Expr, Reported> {
        let A::Lambda { params, body, captures, ret } = &e.kind else { return Err(Reported) };
        let span = e.span;
        if let Some(p) = params.iter().find(|p| p.ty.named.as_deref() == Some("auto")) {
            return Err(self.unsupported(p.ty.span, "generic lambdas (`auto` parameters) yet"));
        }
        let key = (self.current_fn.clone(), span);
        let (class, taken) = match self.lambda_classes.get(&key) {
            Some(made) => made.clone(),
            None => {
                let taken = self.captured(params, body, captures, span)?;
                self.lambda_count += 1;
                let class = format!("{CLOSURE}{}", self.lambda_count);
                self.lambda_classes.insert(key, (class.clone(), taken.clone()));
                self.closure_class(&class, &taken, params, body, ret.as_deref(), span)?;
                (class, taken)
            }
        };
        let ty = self.closure_type(&class).ok_or(Reported)?;
        let Type::Struct(def) = &ty else { return Err(Reported) };
        let size = def.size;
        let mut sources = vec![];
        for ((n, by_ref), f) in taken.iter().zip(&def.fields) {
            let (place, ty) = self.lvalue(&ast::Expr { kind: A::Name(n.clone()), span })?;
            sources.push((place, ty, *by_ref, f.offset));
        }
        // The object: a temporary of the frame, its captures stored.
        let slot = self.new_slot();
        self.frame.push((slot, size.max(1), format!("lambda ({class})")));
        let object = Expr::new(ExprKind::Slot(slot), ty.clone(), span);
        let mut value = object.clone();
        for (place, vty, by_ref, offset) in sources.into_iter().rev() {
            let at = ptr_add(object.clone(), offset as i64, &vty);
            let set = if by_ref {
                let Place::Mem { addr, .. } = place else {
                    return Err(self.unsupported(span, "capturing a register local by reference here yet"));
                };
                let to = ptr_add(object.clone(), offset as i64, &Type::ptr(vty.clone(), false));
                Expr::new(ExprKind::assign(Place::mem(to, None), Place::REGISTER, *addr), Type::Void, span)
            } else if let Some(s) = storage(&vty) {
                let v = self.load(place, vty.clone(), span)?;
                Expr::new(ExprKind::assign(Place::mem(at, None), s, v), Type::Void, span)
            } else {
                let Place::Mem { addr, .. } = place else { return Err(Reported) };
                let n =
                    Expr::new(ExprKind::Const(vty.size() as u64), Type::Scalar(crate::front::types::Scalar::U64), span);
                Expr::new(ExprKind::Lib(Lib::Memcpy, vec![at, *addr, n]), Type::Void, span)
            };
            value = Expr::new(ExprKind::Comma(Box::new(set), Box::new(value)), ty.clone(), span);
        }
        Ok(value)
    }

    /// What a lambda captures: the names written out, then (with `[=]` or `[&]`) each other local its body
    /// names, in the order the body first names them; each with whether it is by reference.
    fn captured(
        &mut self,
        params: &[ast::Param],
        body: &[ast::Stmt],
        captures: &ast::Captures,
        span: Span,
    ) -> Result<Vec<(String, bool)>, Reported> {
        for c in &captures.names {
            if c.name.name == "this" {
                return Err(self.unsupported(c.name.span, "capturing `this` in a lambda yet"));
            }
            if !self.capturable(&c.name.name, c.name.span) {
                return Err(self.error(c.name.span, format!("`{}` is not a local variable to capture", c.name.name)));
            }
        }
        let mut taken: Vec<(String, bool)> = captures.names.iter().map(|c| (c.name.name.clone(), c.by_ref)).collect();
        if captures.default != CaptureDefault::None {
            let by_ref = captures.default == CaptureDefault::Ref;
            let mut seen: HashSet<String> = taken.iter().map(|(n, _)| n.clone()).collect();
            for n in free_names(params, body) {
                if !seen.insert(n.clone()) || !self.capturable(&n, span) {
                    continue;
                }
                taken.push((n, by_ref));
            }
        }
        Ok(taken)
    }

    /// Makes closure class `class` (one field per capture, laid out as a struct) and its `operator()`.
    fn closure_class(
        &mut self,
        class: &str,
        taken: &[(String, bool)],
        params: &[ast::Param],
        body: &[ast::Stmt],
        ret: Option<&ast::TypeSpec>,
        span: Span,
    ) -> Result<(), Reported> {
        let mut fields = vec![];
        let (mut size, mut align) = (0u32, 1u32);
        for (n, by_ref) in taken {
            let (_, ty) = self.lvalue(&ast::Expr { kind: A::Name(n.clone()), span })?;
            let ty = if *by_ref { Type::ptr(ty, false) } else { ty };
            let a = ty.align().max(1);
            let offset = size.div_ceil(a) * a;
            size = offset + ty.size();
            align = align.max(a);
            fields.push(Field { name: n.clone(), ty, offset });
        }
        let size = size.div_ceil(align) * align;
        let ty = Type::Struct(std::sync::Arc::new(StructDef { name: class.to_string(), fields, size, align }));
        let by_ref = taken.iter().filter(|(_, r)| *r).map(|(n, _)| n.clone()).collect();
        self.closures.insert(class.to_string(), Closure { ty: Some(ty), by_ref });
        // Instances of templates name the class (`run<__lambda_1>`): the parser reads it as a type.
        let spec = ast::TypeSpec { named: Some(class.to_string()), ..type_spec(span) };
        self.templates.typedefs.insert(class.to_string(), spec.clone());
        self.operator_call_fn(class, spec, params, body, ret, span)
    }

    /// Whether `n` names something a lambda here captures: a local (or a parameter), or a capture of the
    /// lambda whose body this is.
    fn capturable(&self, n: &str, span: Span) -> bool {
        match self.lookup(n) {
            Some(Var::Reg(..) | Var::Mem(..)) => true,
            Some(_) => false,
            None => self.this_field(n, span).is_some() && self.this_is_closure(),
        }
    }

    /// Whether the function being resolved is a lambda's `operator()`.
    fn this_is_closure(&self) -> bool {
        self.class.as_deref().is_some_and(|c| c.starts_with(CLOSURE))
    }

    /// Declares `class::operator()` and resolves it now, inside the enclosing function's resolution (its
    /// state set aside): the result type is the one written or the first `return`'s.
    fn operator_call_fn(
        &mut self,
        class: &str,
        spec: ast::TypeSpec,
        params: &[ast::Param],
        body: &[ast::Stmt],
        ret: Option<&ast::TypeSpec>,
        span: Span,
    ) -> Result<(), Reported> {
        let this = ast::Param {
            ty: ast::TypeSpec { pointers: 1, ..spec },
            name: ast::Ident { name: "this".into(), span },
            reference: false,
            default: None,
        };
        let f = ast::Function {
            kind: ast::FnKind::Device,
            ret: ret.cloned().unwrap_or_else(|| type_spec(span)),
            name: ast::Ident { name: format!("{class}::operator()"), span },
            params: std::iter::once(this).chain(params.iter().cloned()).collect(),
            body: body.to_vec(),
            span,
            body_end: span,
        };
        self.declare(&f);
        let index = self.sigs.len() - 1;
        self.instances.push(f.clone());
        // Constants of the enclosing scopes stay visible (a `const int N = 8;` needs no capture).
        let consts: HashMap<String, Var> = self
            .scopes
            .iter()
            .flat_map(|s| s.iter())
            .filter(|(_, v)| matches!(v, Var::Const(..)))
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect();
        let saved = self.save_function_state();
        self.inherited = consts;
        self.deduce_ret = ret.is_none();
        let resolved = self.function(&f);
        let deduced = std::mem::replace(&mut self.ret, Type::Void);
        self.restore(saved);
        let mut h = resolved?;
        if ret.is_none() {
            h.ret = deduced.clone();
            if let Some(sig) = self.sigs.get_mut(index) {
                sig.0 = deduced;
            }
        }
        self.early.insert(h.name.clone(), h);
        Ok(())
    }

    fn save_function_state(&mut self) -> Saved {
        Saved {
            scopes: std::mem::take(&mut self.scopes),
            slots: self.slots,
            frame: std::mem::take(&mut self.frame),
            addressed: std::mem::take(&mut self.addressed),
            ret: self.ret.clone(),
            ret_slot: self.ret_slot,
            ret_ref: self.ret_ref,
            labels: std::mem::take(&mut self.labels),
            what_slots: std::mem::take(&mut self.what_slots),
            vla_sizes: std::mem::take(&mut self.vla_sizes),
            dtors: std::mem::take(&mut self.dtors),
            class: self.class.take(),
            deduce_ret: self.deduce_ret,
            current_fn: std::mem::take(&mut self.current_fn),
        }
    }

    fn restore(&mut self, s: Saved) {
        self.scopes = s.scopes;
        self.slots = s.slots;
        self.frame = s.frame;
        self.addressed = s.addressed;
        self.ret = s.ret;
        self.ret_slot = s.ret_slot;
        self.ret_ref = s.ret_ref;
        self.labels = s.labels;
        self.what_slots = s.what_slots;
        self.vla_sizes = s.vla_sizes;
        self.dtors = s.dtors;
        self.class = s.class;
        self.deduce_ret = s.deduce_ret;
        self.current_fn = s.current_fn;
    }

    /// The result type a lambda's `return value;` gives when none is written: the value's, an array's
    /// decayed to a pointer. Called for each `return` while [`Resolver::deduce_ret`] is set: the first sets
    /// the type, the rest convert to it.
    pub(super) fn deduce_return(&mut self, v: &Expr, span: Span) -> Result<(), Reported> {
        if !self.deduce_ret {
            return Ok(());
        }
        self.deduce_ret = false;
        self.ret = match &v.ty {
            Type::Array(e, _) => Type::ptr((**e).clone(), false),
            Type::Struct(_) => {
                // (Its conversions then say nothing more.)
                self.ret = Type::Error;
                return Err(self.unsupported(span, "a lambda returning a struct without `-> T` yet"));
            }
            t => t.clone(),
        };
        Ok(())
    }

    /// `f(args)` where `f` is a closure: a local or parameter holding one, or a captured one inside a lambda's
    /// body. None: `f` is none.
    pub(super) fn closure_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let object = match self.lookup(&name.name) {
            Some(Var::Reg(_, t) | Var::Mem(_, t) | Var::Global(_, t)) if is_closure(&t) => {
                ast::Expr { kind: A::Name(name.name.clone()), span: name.span }
            }
            None if self.this_is_closure() => {
                let field = self.this_field(&name.name, name.span)?;
                let before = self.diags.len();
                let ty = self.lvalue(&field).ok().map(|(_, t)| t);
                self.diags.truncate(before);
                if !ty.is_some_and(|t| is_closure(&t)) {
                    return None;
                }
                field
            }
            _ => return None,
        };
        let Type::Struct(def) = self.lvalue(&object).ok()?.1 else { return None };
        let f = format!("{}::operator()", def.name);
        let this = ast::Expr { kind: A::Unary(ast::UnaryOp::AddrOf, Box::new(object)), span: name.span };
        Some(self.call_member(f, this, args, name.span, span))
    }
}

/// `void`, at `span`: the base of the type specs made here.
fn type_spec(span: Span) -> ast::TypeSpec {
    ast::TypeSpec {
        base: ast::BaseType::Void,
        named: None,
        is_const: false,
        is_volatile: false,
        pointers: 0,
        span,
        func: None,
    }
}

//! Member functions, constructors, operators and functions that return a struct.
//!
//! Device functions are inlined at each call, so a member function takes its object as hidden first
//! parameters: when the object is a struct variable, its fields' registers themselves (by reference: the
//! callee's `this.x` *is* the caller's `v.x`); when it is in memory (`p->f()`, `a[i].f()`), its address. Each
//! member function is therefore checked twice, once with `this` in registers and once with `this` a pointer.
//! A function that returns a struct fills a struct variable of its caller, passed the same way (the slot
//! `return` writes), and an operator is a call of the function `operator+` (a member or not) it names.

use std::collections::HashSet;

use super::layout::leaves;
use super::struct_ref::StructRef;
use std::collections::HashMap;

use super::checker::{Binding, Checker, Signature, StructLocal};
use super::ctors::{ctor_prologue, implicit_ctor};
use super::member_table::{MemberMeta, ThisKind};
use super::suggest::closest;
use crate::front::ast::{self, ExprKind as A, FnKind, UnaryOp};
use crate::front::builtin_types::{group_type, vector_type};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::source::Span;
use crate::front::tast::*;
use crate::front::types::Type;

/// A call being put together: statements to run first, the call, and the temporary it fills (a struct result).
pub(super) struct CallOut {
    pub(super) pre: Vec<Stmt>,
    pub(super) call: Expr,
    result: Option<u32>,
}

/// `*this`.
fn this_deref(span: Span) -> ast::Expr {
    let this = ast::Expr { kind: A::Name("this".into()), span };
    ast::Expr { kind: A::Unary(UnaryOp::Deref, Box::new(this)), span }
}

/// Rewrites a member function's body so that bare field names are `this->x` and bare member calls
/// `this->f(...)`, except where a parameter or local of the same name hides them.
struct Rewrite<'a> {
    class: &'a str,
    fields: &'a HashSet<String>,
    /// Member function name -> whether static.
    methods: &'a HashMap<String, bool>,
    scopes: Vec<HashSet<String>>,
}

impl Rewrite<'_> {
    fn hidden(&self, n: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(n))
    }

    fn expr(&mut self, e: &mut ast::Expr) {
        let span = e.span;
        match &mut e.kind {
            A::Name(n) if self.fields.contains(n.as_str()) && !self.hidden(n) => {
                let field = ast::Ident { name: n.clone(), span };
                e.kind = A::Member(Box::new(this_deref(span)), field);
            }
            A::Call(f, args) => {
                for a in args.iter_mut() {
                    self.expr(a);
                }
                if !self.hidden(&f.name)
                    && let Some(&is_static) = self.methods.get(&f.name)
                {
                    if is_static {
                        f.name = format!("{}::{}", self.class, f.name);
                    } else {
                        e.kind = A::MethodCall {
                            object: Box::new(this_deref(span)),
                            method: f.clone(),
                            args: std::mem::take(args),
                        };
                    }
                }
            }
            A::Member(o, _) | A::Unary(_, o) | A::Cast(_, o) | A::SizeofExpr(o) => self.expr(o),
            A::IncDec { operand, .. } => self.expr(operand),
            A::Index(a, b) | A::Binary { left: a, right: b, .. } | A::Assign { target: a, value: b, .. } => {
                self.expr(a);
                self.expr(b);
            }
            A::Ternary { cond: a, then: b, els: c } => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            A::InitList(items) => items.iter_mut().for_each(|i| self.expr(i)),
            A::MethodCall { object: o, args, .. } => {
                self.expr(o);
                args.iter_mut().for_each(|a| self.expr(a));
            }
            _ => {}
        }
    }

    fn scoped(&mut self, s: &mut ast::Stmt) {
        self.scopes.push(HashSet::new());
        self.stmt(s);
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &mut ast::Stmt) {
        match &mut s.kind {
            ast::StmtKind::Decl(d) => {
                for dc in &mut d.declarators {
                    dc.dims.iter_mut().for_each(|x| self.expr(x));
                    if let Some(i) = &mut dc.init {
                        self.expr(i);
                    }
                    self.scopes.last_mut().expect("a scope").insert(dc.name.name.clone());
                }
            }
            ast::StmtKind::Expr(e) | ast::StmtKind::Return(Some(e)) => self.expr(e),
            ast::StmtKind::Block(b) => {
                self.scopes.push(HashSet::new());
                b.iter_mut().for_each(|s| self.stmt(s));
                self.scopes.pop();
            }
            ast::StmtKind::If { cond, then, els } => {
                self.expr(cond);
                self.scoped(then);
                if let Some(e) = els {
                    self.scoped(e);
                }
            }
            ast::StmtKind::While { cond, body }
            | ast::StmtKind::DoWhile { body, cond }
            | ast::StmtKind::Switch { cond, body } => {
                self.expr(cond);
                self.scoped(body);
            }
            ast::StmtKind::Case(e) => self.expr(e),
            ast::StmtKind::Try { body, handlers } => {
                self.scoped(body);
                handlers.iter_mut().for_each(|h| self.scoped(&mut h.body));
            }
            ast::StmtKind::For { init, cond, step, body } => {
                self.scopes.push(HashSet::new());
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                if let Some(s) = step {
                    self.expr(s);
                }
                self.scoped(body);
                self.scopes.pop();
            }
            _ => {}
        }
    }
}

impl Checker {
    /// The file's functions, then friends defined in classes (ordinary functions too), then member functions
    /// (each non-static one twice: object in registers, then in memory); and where the members start.
    pub(super) fn all_functions(&mut self, tu: &ast::TranslationUnit) -> (Vec<ast::Function>, usize) {
        let mut free = tu.functions.clone();
        let mut members: Vec<(ast::Function, MemberMeta)> = vec![];
        for s in &tu.structs {
            let class = s.name.name.clone();
            let fields: HashSet<String> = s.fields.iter().map(|(_, d)| d.name.name.clone()).collect();
            let methods: HashMap<String, bool> = s
                .methods
                .iter()
                .filter(|m| !m.friend && m.ctor.is_none())
                .map(|m| (m.func.name.name.clone(), m.is_static))
                .collect();
            let implicit = implicit_ctor(s, &tu.structs);
            if implicit.is_some() {
                self.members.implicit.insert(class.clone());
            }
            for m in s.methods.iter().chain(&implicit) {
                let key = format!("{class}::{}", m.func.name.name);
                if m.friend && m.device && !m.prototype {
                    free.push(m.func.clone());
                    continue;
                }
                if !m.device || m.prototype {
                    self.members.host.entry(key).or_insert(m.func.span);
                    continue;
                }
                let mut f = m.func.clone();
                if let Some(inits) = &m.ctor {
                    // Member initialisers, default member initialisers and members' constructors run first.
                    let mut first = ctor_prologue(s, inits, &tu.structs, this_deref);
                    first.append(&mut f.body);
                    f.body = first;
                }
                let params: HashSet<String> = f.params.iter().map(|p| p.name.name.clone()).collect();
                let mut rw = Rewrite { class: &class, fields: &fields, methods: &methods, scopes: vec![params] };
                f.body.iter_mut().for_each(|s| rw.stmt(s));
                f.name.name = key;
                let meta = |this| MemberMeta { class: class.clone(), this, is_const: m.is_const, ret_ref: m.ret_ref };
                if m.is_static {
                    members.push((f, meta(ThisKind::Static)));
                } else {
                    members.push((f.clone(), meta(ThisKind::Reg)));
                    if m.ctor.is_none() {
                        members.push((f, meta(ThisKind::Mem)));
                    }
                }
            }
        }
        let first = free.len();
        for (k, (f, meta)) in members.iter().enumerate() {
            let id = FnId((first + k) as u32);
            if meta.this == ThisKind::Mem {
                self.members.mem_of.insert(id.0 - 1, id);
            } else {
                self.members.by_name.entry(f.name.name.clone()).or_default().push(id);
            }
            self.members.meta.insert(id.0, meta.clone());
        }
        free.extend(members.into_iter().map(|(f, _)| f));
        (free, first)
    }

    /// Signatures of the member functions (`all[first..]`).
    pub(super) fn declare_members(&mut self, all: &[ast::Function], first: usize) {
        for (i, f) in all.iter().enumerate().skip(first) {
            let mut ret = self.resolve_type(&f.ret, 0);
            let params: Vec<Type> = f.params.iter().map(|p| self.resolve_type(&p.ty, 0)).collect();
            let meta = self.members.meta.get(&(i as u32)).cloned();
            if let Some(m) = &meta
                && m.ret_ref
                && m.this != ThisKind::Mem
                && ret.as_struct().is_none_or(|s| s.name != m.class)
            {
                self.err(
                    Diagnostic::unsupported(f.ret.span, "member functions that return a reference to a field")
                        .hint("return the value, and assign through a member function that takes it"),
                );
                ret = Type::Error;
            }
            let defaults = f.params.iter().map(|p| p.default.clone()).collect();
            let refs = f.params.iter().map(|p| p.reference && !p.ty.is_const).collect();
            self.sigs.push(Signature { ret, params, defaults, refs, kind: FnKind::Device, span: f.span });
        }
    }

    /// The hidden parameters of function `id`: the slot a returned struct goes to, then `this`.
    pub(super) fn hidden_params(&mut self, id: FnId, span: Span) -> Vec<LocalId> {
        let mut out = vec![];
        self.ret_slot = None;
        self.ret_this = false;
        let meta = self.members.meta.get(&id.0).cloned();
        if meta.as_ref().is_some_and(|m| m.ret_ref) {
            self.ret = Type::Void;
            self.ret_this = true;
        } else if matches!(self.ret, Type::Struct(_)) {
            let ty = std::mem::take(&mut self.ret);
            let ids = self.struct_param(&ast::Ident { name: "return".into(), span }, ty);
            self.ret_slot = Some(self.struct_locals.len() as u32 - 1);
            self.by_ref.extend(&ids);
            out.extend(ids);
        }
        let Some(m) = meta else { return out };
        let Some(def) = self.structs.get(&m.class).cloned() else { return out };
        let this = ast::Ident { name: "this".into(), span };
        match m.this {
            ThisKind::Static => {}
            ThisKind::Reg => {
                let ids = self.struct_param(&this, Type::Struct(def));
                for l in &ids {
                    self.locals[l.0 as usize].is_const = m.is_const;
                }
                self.by_ref.extend(&ids);
                out.extend(ids);
            }
            ThisKind::Mem => out.push(self.declare_local(&this, Type::ptr(Type::Struct(def), m.is_const), false, None)),
        }
        out
    }

    /// `return v;` in a function that returns a struct (fills the caller's slot), or `return *this;` in one
    /// that returns its object by reference.
    pub(super) fn struct_return(&mut self, value: Option<&ast::Expr>, span: Span) -> Vec<Stmt> {
        let ret = Stmt { kind: StmtKind::Return(None), span };
        if self.ret_this {
            return vec![ret];
        }
        let Some(idx) = self.ret_slot else { return vec![ret] };
        let ty = self.struct_locals[idx as usize].ty.clone();
        let Some(v) = value else {
            self.err(Diagnostic::new(
                ErrorCode::Type,
                span,
                format!("this function must return a value of type `{ty}`"),
            ));
            return vec![ret];
        };
        let slot = StructRef::Local { idx, prefix: String::new(), ty, pre: vec![] };
        let mut out = self.assign_ref(slot, v, span);
        out.push(ret);
        vec![Stmt { kind: StmtKind::Block(out), span }]
    }

    /// A struct variable of no name in scope (a call's result), zeroed by the statements returned.
    pub(super) fn temp_struct(&mut self, ty: &Type, name: &str, span: Span) -> (Vec<Stmt>, u32) {
        let mut flat = vec![];
        leaves(ty, "", 0, &mut flat);
        let mut out = vec![];
        let mut leaves_out = vec![];
        for (path, _, lty) in flat {
            let id = self.new_local(&ast::Ident { name: format!("{name}.{path}"), span }, lty.clone());
            out.push(Stmt { kind: StmtKind::Init(id, None), span });
            leaves_out.push((path, id, lty));
        }
        self.struct_locals.push(StructLocal { ty: ty.clone(), leaves: leaves_out });
        (out, self.struct_locals.len() as u32 - 1)
    }

    /// The function among `ids` whose parameters (after the first `skip`) the arguments fit best: the
    /// fewest conversions; a struct only where that struct is expected.
    pub(super) fn best_fit(&mut self, ids: &[FnId], args: &[&ast::Expr], skip: usize) -> Option<FnId> {
        let types: Vec<Type> = args.iter().map(|a| self.probe_type(a)).collect();
        ids.iter()
            .copied()
            .filter_map(|id| {
                let sig = &self.sigs[id.0 as usize];
                let params = sig.params.get(skip..)?;
                let defaults = sig.defaults.get(skip..)?;
                if types.len() > params.len() || defaults.get(types.len()).is_some_and(|d| d.is_none()) {
                    return None;
                }
                let mut cost = 0;
                for (p, t) in params.iter().zip(&types) {
                    match (p, t) {
                        _ if p == t || t.is_error() => {}
                        (Type::Struct(_), _) | (_, Type::Struct(_)) => return None,
                        _ => cost += 1,
                    }
                }
                Some((cost, id))
            })
            .min_by_key(|&(c, _)| c)
            .map(|(_, id)| id)
    }

    /// The type of `e` (a struct's, when it makes one), worked out without keeping anything it declares or
    /// reports.
    pub(super) fn probe_type(&mut self, e: &ast::Expr) -> Type {
        let key = (e as *const ast::Expr as usize, e.span.start, e.span.end);
        if let Some(t) = self.type_cache.get(&key) {
            return t.clone();
        }
        let (d, l, s, c) = (self.diags.len(), self.locals.len(), self.struct_locals.len(), self.calls.len());
        let t = match self.struct_ref(e) {
            Some(r) => r.ty().clone(),
            None => self.expr(e).ty,
        };
        self.diags.truncate(d);
        self.locals.truncate(l);
        self.struct_locals.truncate(s);
        self.calls.truncate(c);
        self.type_cache.insert(key, t.clone());
        t
    }

    /// Could `e` be a struct? Cheap: looks at names and declared types, evaluates nothing.
    fn maybe_struct(&mut self, e: &ast::Expr) -> bool {
        match &e.kind {
            A::Name(n) => matches!(self.lookup(n), Some(Binding::StructLocal(_))),
            A::Member(o, _) => self.maybe_struct(o),
            A::Index(b, _) | A::Unary(UnaryOp::Deref, b) => {
                self.maybe_struct(b) || self.is_struct_pointer(b) || matches!(&b.kind, A::Name(n) if n == "this")
            }
            A::Call(n, _) => self.returns_struct(&n.name),
            A::MethodCall { .. } => true,
            A::Binary { left: a, right: b, .. } | A::Ternary { then: a, els: b, .. } => {
                self.maybe_struct(a) || self.maybe_struct(b)
            }
            A::Unary(_, a) | A::Assign { target: a, .. } => self.maybe_struct(a),
            _ => false,
        }
    }

    /// Whether a call of `name` can make a struct (a constructor, `make_float3`, a function returning one).
    fn returns_struct(&self, name: &str) -> bool {
        let is_struct = |t: &Type| matches!(t, Type::Struct(_));
        self.structs.contains_key(name)
            || Self::fetch_returns_struct(name)
            || vector_type(name).is_some()
            || name.strip_prefix("make_").is_some_and(|t| vector_type(t).is_some())
            || self.fns.get(name).is_some_and(|id| is_struct(&self.sigs[id.0 as usize].ret))
            || self.overloads.get(name).is_some_and(|ids| ids.iter().any(|id| is_struct(&self.sigs[id.0 as usize].ret)))
            || self
                .members
                .by_name
                .get(name)
                .is_some_and(|ids| ids.iter().any(|id| is_struct(&self.sigs[id.0 as usize].ret)))
    }

    /// A struct-valued call or operator, evaluated into a temporary.
    pub(super) fn struct_temp(&mut self, e: &ast::Expr) -> Option<StructRef> {
        let span = e.span;
        let (pre, idx, ty) = match &e.kind {
            A::Call(name, args) => {
                let made = self.structs.get(&name.name).cloned().map(Type::Struct).or_else(|| {
                    let vec = name.name.strip_prefix("make_").unwrap_or(&name.name);
                    vector_type(vec).filter(|_| super::groups::makes_group(&name.name).is_none()).map(Type::Struct)
                });
                if let Some(ty) = made {
                    let (pre, idx) = self.construct(&ty, args, span);
                    (pre, idx, ty)
                } else if Self::fetch_returns_struct(&name.name) {
                    self.texture_temp(&name.name, args, span)?
                } else {
                    if !self.returns_struct(&name.name) {
                        return None;
                    }
                    let id = self.resolve_function(&name.name, args)?;
                    let out = self.emit_call(id, None, args, span)?;
                    self.filled(out)?
                }
            }
            A::MethodCall { object: obj, method, args } => {
                let (id, this) = self.resolve_method(obj, method, args)?;
                if !matches!(self.sigs[id.0 as usize].ret, Type::Struct(_)) {
                    return None;
                }
                let out = self.emit_call(id, this, args, span)?;
                self.filled(out)?
            }
            A::Binary { .. } | A::Unary(..) | A::Index(..) | A::Assign { op: Some(_), .. } => {
                let (id, this, args) = self.operator_target(e)?;
                if !matches!(self.sigs[id.0 as usize].ret, Type::Struct(_)) {
                    return None;
                }
                let out = self.emit_call(id, this, &args, span)?;
                self.filled(out)?
            }
            _ => return None,
        };
        Some(StructRef::Local { idx, prefix: String::new(), ty, pre })
    }

    /// A struct-returning call's statements (the call last) and the temporary it fills.
    fn filled(&mut self, out: CallOut) -> Option<(Vec<Stmt>, u32, Type)> {
        let idx = out.result?;
        let span = out.call.span;
        let mut pre = out.pre;
        pre.push(Stmt { kind: StmtKind::Expr(out.call), span });
        let ty = self.struct_locals[idx as usize].ty.clone();
        Some((pre, idx, ty))
    }

    /// The device function a call by name means (an overload chosen by its arguments, a static member).
    fn resolve_function(&mut self, name: &str, args: &[ast::Expr]) -> Option<FnId> {
        let ids = self
            .overloads
            .get(name)
            .cloned()
            .or_else(|| self.fns.get(name).map(|&id| vec![id]))
            .or_else(|| self.members.by_name.get(name).cloned())?;
        let refs: Vec<&ast::Expr> = args.iter().collect();
        self.best_fit(&ids, &refs, 0).or(ids.first().copied())
    }

    /// `obj.m(args)`: the member function and where its object is; None (and a diagnostic) when there is none.
    fn resolve_method(
        &mut self,
        obj: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
    ) -> Option<(FnId, Option<StructRef>)> {
        let ty = self.probe_type(obj);
        let class = ty.as_struct()?.name.clone();
        let key = format!("{class}::{}", method.name);
        let Some(ids) = self.members.by_name.get(&key).cloned() else {
            if let Some(&at) = self.members.host.get(&key) {
                self.err(
                    Diagnostic::new(ErrorCode::Name, method.span, format!("`{key}` is a host function"))
                        .label("device code cannot call it")
                        .with_secondary(at, "declared without __device__")
                        .hint("mark it `__host__ __device__` to compile it for both"),
                );
            } else {
                let prefix = format!("{class}::");
                let names: Vec<String> =
                    self.members.by_name.keys().filter_map(|k| k.strip_prefix(&prefix)).map(String::from).collect();
                let mut d = Diagnostic::new(
                    ErrorCode::Name,
                    method.span,
                    format!("`{class}` has no member function `{}`", method.name),
                )
                .label("unknown member");
                if let Some(c) = closest(&method.name, &names) {
                    d = d.hint(format!("did you mean `{c}`?"));
                }
                self.err(d);
            }
            return None;
        };
        let refs: Vec<&ast::Expr> = args.iter().collect();
        let id = self.best_fit(&ids, &refs, 0).unwrap_or(ids[0]);
        let is_static = self.members.meta.get(&id.0).is_some_and(|m| m.this == ThisKind::Static);
        let this = if is_static { None } else { Some(self.struct_ref(obj)?) };
        Some((id, this))
    }

    /// The functions `Class::name` names (a static member function called by its class).
    pub(super) fn members_named(&self, name: &str) -> Option<Vec<FnId>> {
        self.members.by_name.get(name).cloned()
    }

    pub(super) fn best_fit_pub(&mut self, ids: &[FnId], args: &[&ast::Expr]) -> Option<FnId> {
        self.best_fit(ids, args, 0)
    }

    /// Whether a call of `name` makes a struct (and so is a temporary, not a value).
    pub(super) fn struct_call(&self, name: &str) -> bool {
        self.returns_struct(name) && super::groups::makes_group(name).is_none()
    }

    /// A temporary struct as a value: its statements, then a `void` of the struct's type (what uses it reads
    /// the fields; anything else reports the type).
    pub(super) fn temp_value(&mut self, r: StructRef, span: Span) -> Expr {
        let ty = r.ty().clone();
        let pre = match r {
            StructRef::Local { pre, .. } => pre,
            StructRef::Mem { .. } => vec![],
        };
        let done = Expr::new(ExprKind::Const(0), Type::Void, span);
        Expr::new(ExprKind::Seq(pre, Box::new(done)), ty, span)
    }

    /// `obj.m(args)` as a value; None when `obj` is no struct with member functions (a cooperative group).
    pub(super) fn member_call(
        &mut self,
        obj: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Expr> {
        let ty = self.probe_type(obj);
        let s = ty.as_struct()?;
        if group_type(&s.name).is_some() {
            return None;
        }
        let Some((id, this)) = self.resolve_method(obj, method, args) else {
            args.iter().for_each(|a| {
                self.expr(a);
            });
            return Some(Expr::error(span));
        };
        let out = self.emit_call(id, this, args, span);
        Some(self.call_value(out, span))
    }

    /// A call as a value: its statements first; a struct result is a `void` value of the struct's type.
    pub(super) fn call_value(&mut self, out: Option<CallOut>, span: Span) -> Expr {
        let Some(out) = out else { return Expr::error(span) };
        match out.result {
            Some(idx) => {
                let ty = self.struct_locals[idx as usize].ty.clone();
                let mut pre = out.pre;
                pre.push(Stmt { kind: StmtKind::Expr(out.call), span });
                Expr::new(ExprKind::Seq(pre, Box::new(Expr::new(ExprKind::Const(0), Type::Void, span))), ty, span)
            }
            None if out.pre.is_empty() => out.call,
            None => {
                let ty = out.call.ty.clone();
                Expr::new(ExprKind::Seq(out.pre, Box::new(out.call)), ty, span)
            }
        }
    }

    /// A call of device function `id` on object `this` (a member function) with `args`: the arguments
    /// checked, defaults filled in, the result slot made.
    pub(super) fn emit_call(
        &mut self,
        id: FnId,
        this: Option<StructRef>,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<CallOut> {
        let sig = self.sigs[id.0 as usize].clone();
        let name = self.fn_name(id);
        let mut id = id;
        let mut pre = vec![];
        let mut out_args = vec![];
        let ret_this = self.members.meta.get(&id.0).is_some_and(|m| m.ret_ref);
        let result = if matches!(sig.ret, Type::Struct(_)) && !ret_this {
            let (init, idx) = self.temp_struct(&sig.ret, &name, span);
            pre.extend(init);
            let leaves = self.struct_locals[idx as usize].leaves.clone();
            out_args.extend(leaves.iter().map(|(_, l, t)| Expr::new(ExprKind::Local(*l), t.clone(), span)));
            Some(idx)
        } else {
            None
        };
        match this {
            Some(StructRef::Local { idx, prefix, pre: p, .. }) => {
                pre.extend(p);
                let leaves = self.struct_locals[idx as usize].leaves.clone();
                out_args.extend(
                    leaves
                        .iter()
                        .filter(|(path, ..)| path.starts_with(&prefix))
                        .map(|(_, l, t)| Expr::new(ExprKind::Local(*l), t.clone(), span)),
                );
            }
            Some(StructRef::Mem { addr, .. }) => {
                id = self.members.mem_of.get(&id.0).copied().unwrap_or(id);
                out_args.push(addr);
            }
            None => {}
        }
        let mut full: Vec<ast::Expr> = args.to_vec();
        while full.len() < sig.params.len() {
            match &sig.defaults[full.len()] {
                Some(d) => full.push(d.clone()),
                None => break,
            }
        }
        if full.len() != sig.params.len() {
            self.err(
                Diagnostic::new(
                    ErrorCode::Type,
                    span,
                    format!("`{name}` takes {} argument(s) but {} were given", sig.params.len(), args.len()),
                )
                .with_secondary(sig.span, "declared here"),
            );
            return None;
        }
        for ((a, t), &by_ref) in full.iter().zip(&sig.params).zip(&sig.refs) {
            if matches!(t, Type::Struct(_)) {
                let values = self.struct_values(a, t)?;
                let (checks, vals): (Vec<_>, Vec<_>) = values.into_iter().partition(|v| v.ty == Type::Void);
                if by_ref && (!checks.is_empty() || vals.iter().any(|v| !matches!(v.kind, ExprKind::Local(_)))) {
                    self.err(
                        Diagnostic::unsupported(a.span, "passing a struct in memory or a temporary by reference")
                            .hint("copy it into a variable, pass that, and copy it back"),
                    );
                    return None;
                }
                pre.extend(checks.into_iter().map(|c| Stmt { kind: StmtKind::Expr(c), span }));
                out_args.extend(vals);
                continue;
            }
            let v = self.expr(a);
            // A reference names a variable or an element in memory of its exact type (no temporary).
            if by_ref && !v.ty.is_error() && (v.ty != *t || !matches!(v.kind, ExprKind::Local(_) | ExprKind::Load(_))) {
                self.err(
                    Diagnostic::new(ErrorCode::Type, a.span, format!("cannot bind a `{t} &` to this value"))
                        .label(format!("not a variable of type `{t}`")),
                );
                return None;
            }
            out_args.push(self.convert(v, t, "argument"));
        }
        if !self.calls.contains(&id) {
            self.calls.push(id);
        }
        let ty = if result.is_some() || ret_this { Type::Void } else { sig.ret.clone() };
        Some(CallOut { pre, call: Expr::new(ExprKind::Call(id, out_args), ty, span), result })
    }

    /// The name a function is called by (`Vec3::dot`, `length`).
    fn fn_name(&self, id: FnId) -> String {
        self.fns
            .iter()
            .chain(self.members.by_name.iter().flat_map(|(k, v)| v.iter().map(move |i| (k, i))))
            .find(|(_, v)| **v == id)
            .map(|(k, _)| k.clone())
            .or_else(|| self.overloads.iter().find(|(_, v)| v.contains(&id)).map(|(k, _)| k.clone()))
            .unwrap_or_else(|| "function".into())
    }

    /// The function an operator on a struct calls: `a + b` is `a.operator+(b)` or `operator+(a, b)`, whichever
    /// fits best. None when no operand is a struct.
    fn operator_target(&mut self, e: &ast::Expr) -> Option<(FnId, Option<StructRef>, Vec<ast::Expr>)> {
        let (symbol, operands): (String, Vec<&ast::Expr>) = match &e.kind {
            A::Binary { op, left: a, right: b } => (op.symbol().into(), vec![a, b]),
            A::Assign { op: Some(op), target: a, value: b } => (format!("{}=", op.symbol()), vec![a, b]),
            A::Index(a, i) => ("[]".into(), vec![a, i]),
            A::Unary(op, a) => {
                let s = match op {
                    UnaryOp::Neg => "-",
                    UnaryOp::Plus => "+",
                    UnaryOp::Not => "!",
                    UnaryOp::BitNot => "~",
                    UnaryOp::Deref | UnaryOp::AddrOf => return None,
                };
                (s.into(), vec![a])
            }
            _ => return None,
        };
        // `p[i]` of a pointer to structs is no operator.
        let first_struct = match &e.kind {
            A::Index(a, _) => self.maybe_struct(a),
            _ => operands.iter().any(|o| self.maybe_struct(o)),
        };
        if !first_struct {
            return None;
        }
        let types: Vec<Type> = operands.iter().map(|o| self.probe_type(o)).collect();
        let is_index = matches!(e.kind, A::Index(..));
        if !types.iter().any(|t| matches!(t, Type::Struct(_))) || (is_index && types[0].as_struct().is_none()) {
            return None;
        }
        let fname = format!("operator{symbol}");
        let mut best: Option<(usize, FnId, bool)> = None;
        if let Type::Struct(s) = &types[0]
            && let Some(ids) = self.members.by_name.get(&format!("{}::{fname}", s.name)).cloned()
        {
            for id in ids {
                if let Some(c) = self.fit_cost(id, &types[1..]) {
                    best = best.filter(|b| b.0 <= c).or(Some((c, id, true)));
                }
            }
        }
        let free = self.overloads.get(&fname).cloned().or_else(|| self.fns.get(&fname).map(|&id| vec![id]));
        for id in free.unwrap_or_default() {
            if let Some(c) = self.fit_cost(id, &types) {
                best = best.filter(|b| b.0 <= c).or(Some((c, id, false)));
            }
        }
        let Some((_, id, member)) = best else {
            let names: Vec<String> = types.iter().map(|t| format!("`{t}`")).collect();
            self.err(Diagnostic::new(ErrorCode::Type, e.span, format!("no `{fname}` takes {}", names.join(" and "))));
            return None;
        };
        if member {
            let this = self.struct_ref(operands[0])?;
            Some((id, Some(this), operands[1..].iter().map(|o| (*o).clone()).collect()))
        } else {
            Some((id, None, operands.iter().map(|o| (*o).clone()).collect()))
        }
    }

    fn fit_cost(&self, id: FnId, types: &[Type]) -> Option<usize> {
        let params = &self.sigs[id.0 as usize].params;
        if params.len() != types.len() {
            return None;
        }
        let mut cost = 0;
        for (p, t) in params.iter().zip(types) {
            match (p, t) {
                _ if p == t || t.is_error() => {}
                (Type::Struct(_), _) | (_, Type::Struct(_)) => return None,
                _ => cost += 1,
            }
        }
        Some(cost)
    }

    /// An operator on a struct as a value; None when no operand is a struct.
    pub(super) fn operator_value(&mut self, e: &ast::Expr) -> Option<Expr> {
        let span = e.span;
        let before = self.diags.len();
        let Some((id, this, args)) = self.operator_target(e) else {
            return (self.diags.len() > before).then(|| Expr::error(span));
        };
        let out = self.emit_call(id, this, &args, span);
        Some(self.call_value(out, span))
    }
}

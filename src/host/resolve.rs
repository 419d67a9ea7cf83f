//! Host functions (parse tree) -> [`HostProgram`]: names become slots, types are checked, conversions made
//! explicit. This file holds the resolver, types and names; conditions, conversions and lvalues are in
//! [`super::values`], statements in [`super::stmt`],
//! declarations in [`super::decl`], operators in [`super::expr`], calls in [`super::libcalls`], file-scope
//! variables in [`super::globals`], member functions in [`super::methods`].

use std::collections::{HashMap, HashSet};

use super::addressed::Refs;
use super::tree::*;
use crate::front::ast::{self, BinaryOp, ExprKind as A, StmtKind as S, TypeSpec, UnaryOp};
use crate::front::diagnostic::{Diagnostic, ErrorCode, Reported};
use crate::front::source::Span;
use crate::front::tast;
use crate::front::template::Templates;
use crate::front::types::{Scalar, Type};

/// The name a variadic function's hidden parameter has: the parser names `...` so, and the callee finds its
/// block of arguments there ([`super::varargs`]).
pub(super) const REST: &str = "...";

/// Whether a function's parameters end with `...`.
fn is_variadic(f: &ast::Function) -> bool {
    f.params.last().is_some_and(|p| p.name.name == REST)
}

/// What a name stands for in host code.
#[derive(Clone, Debug)]
pub(super) enum Var {
    /// A register local.
    Reg(Slot, Type),
    /// A local in host memory: the slot holds its address.
    Mem(Slot, Type),
    /// A constant (a `const` file-scope variable, a `const` local with a constant initialiser).
    Const(u64, Type),
    /// A file-scope variable: in host memory, its address in the program's table of globals.
    Global(u32, Type),
}

/// Why the host side did not resolve: its diagnostics, or the kernel template instances its launches
/// deduced that the device side must compile first (then the diagnostics are only about those).
#[derive(Debug)]
pub enum ResolveError {
    Diagnostics(Vec<Diagnostic>),
    NeedsKernels(Vec<tast::TemplateRequest>),
}

impl std::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResolveError::Diagnostics(d) => {
                let messages: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
                write!(f, "the host code does not resolve: {}", messages.join("; "))
            }
            ResolveError::NeedsKernels(r) => {
                let names: Vec<String> = r.iter().map(|(instance, ..)| format!("`{instance}`")).collect();
                write!(f, "the device side must first compile the kernel instances {}", names.join(", "))
            }
        }
    }
}

impl std::error::Error for ResolveError {}

/// Resolves the host functions `defs`; `kernels` is the type-checked device side (launch targets);
/// `templates` the file's templates and its text, for the instances of host function templates its calls
/// deduce.
pub fn resolve(
    defs: &[ast::Function],
    globals: &[ast::GlobalDecl],
    kernels: &tast::Program,
    templates: (&Templates, &str),
) -> Result<HostProgram, ResolveError> {
    let mut r = Resolver {
        kernels,
        templates: templates.0.clone(),
        text: templates.1.to_string(),
        instances: vec![],
        kernel_requests: vec![],
        fns: HashMap::new(),
        sigs: vec![],
        consts: HashMap::new(),
        globals: HashMap::new(),
        global_decls: vec![],
        managed: vec![],
        strings: vec![],
        diags: vec![],
        scopes: vec![],
        slots: 0,
        frame: vec![],
        addressed: HashSet::new(),
        refs: HashMap::new(),
        defaults: HashMap::new(),
        ret: Type::Void,
        ret_slot: None,
        labels: vec![],
        what_slots: Default::default(),
        with_this: HashSet::new(),
        vla_sizes: HashMap::new(),
        variadic: HashSet::new(),
        dtors: vec![],
        ref_returns: HashSet::new(),
        class: None,
        ret_ref: false,
        overloads: HashMap::new(),
        closures: HashMap::new(),
        lambda_count: 0,
        early: HashMap::new(),
        inherited: HashMap::new(),
        deduce_ret: false,
        lambda_classes: HashMap::new(),
        current_fn: String::new(),
    };
    // `<algorithm>`'s calls that take a function object ([`super::prelude`]).
    r.templates.defs.extend(super::prelude::templates());
    // Overloads by parameter types: renamed apart, a call picks one.
    let renamed = r.overloads_renamed(defs);
    let (defs, overloads) = match &renamed {
        Some((d, o)) => (&d[..], o.clone()),
        None => (defs, HashMap::new()),
    };
    r.constants(globals);
    for f in defs {
        r.declare(f);
    }
    r.declare_overloads(overloads);
    // A host function template's reference parameters make the locals passed there live in memory, as a
    // function's do.
    for (name, def) in &templates.0.defs {
        if !def.is_kernel {
            r.refs.entry(name.clone()).or_insert_with(|| def.reference_params());
        }
    }
    r.globals(globals);
    let mut functions = vec![];
    // Host template instances the bodies ask for are declared as they are met and resolved after the
    // functions written out (their numbers follow those).
    let mut next_instance = 0;
    for f in defs {
        functions.push(r.function_or_stub(f));
    }
    while let Some(f) = r.instances.get(next_instance).cloned() {
        next_instance += 1;
        // A lambda's `operator()` was resolved where the lambda is (its result type was needed there).
        match r.early.remove(&f.name.name) {
            Some(h) => functions.push(h),
            None => functions.push(r.function_or_stub(&f)),
        }
    }
    if !r.kernel_requests.is_empty() {
        return Err(ResolveError::NeedsKernels(r.kernel_requests));
    }
    let Some(&main) = r.fns.get("main") else {
        let d = Diagnostic::new(ErrorCode::Name, Span::default(), "the program has no `main`");
        return Err(ResolveError::Diagnostics(vec![d]));
    };
    if !r.diags.is_empty() {
        return Err(ResolveError::Diagnostics(r.diags));
    }
    let kernels = kernels.functions.iter().map(|f| f.name.clone()).collect();
    Ok(HostProgram { functions, main, strings: r.strings, globals: r.globals.len() as u32, kernels })
}

pub(super) struct Resolver<'a> {
    pub(super) kernels: &'a tast::Program,
    /// The file's templates and text (host function templates are instantiated from their calls).
    pub(super) templates: Templates,
    pub(super) text: String,
    /// Host template instances declared so far, resolved after the functions written out.
    pub(super) instances: Vec<ast::Function>,
    /// Kernel template instances launches deduced that the device side has not compiled.
    pub(super) kernel_requests: Vec<tast::TemplateRequest>,
    pub(super) fns: HashMap<String, u32>,
    pub(super) sigs: Vec<(Type, Vec<Type>)>,
    pub(super) consts: HashMap<String, (u64, Type)>,
    /// File-scope variables: index in the table of globals, and type.
    pub(super) globals: HashMap<String, (u32, Type)>,
    /// Their declarations, run at the start of `main`.
    pub(super) global_decls: Vec<ast::Decl>,
    /// `__managed__` variables: (index in the table of globals, index in the program's globals).
    pub(super) managed: Vec<(u32, u32)>,
    pub(super) strings: Vec<Vec<u8>>,
    pub(super) diags: Vec<Diagnostic>,
    pub(super) scopes: Vec<HashMap<String, Var>>,
    pub(super) slots: u32,
    pub(super) frame: Vec<(Slot, u32, String)>,
    pub(super) addressed: HashSet<String>,
    /// Reference parameters of the host functions, by name.
    pub(super) refs: Refs,
    /// Each host function's default arguments, by parameter.
    pub(super) defaults: HashMap<String, Vec<Option<ast::Expr>>>,
    pub(super) ret: Type,
    /// Member functions that take `this` (static ones do not).
    pub(super) with_this: HashSet<String>,
    /// The labels of the function's body, in order (`goto` targets).
    pub(super) labels: Vec<String>,
    /// The slots of caught standard exceptions' variables: each holds the exception's `what()` text.
    pub(super) what_slots: std::collections::HashSet<Slot>,
    /// In a function returning a struct: the hidden parameter with the address the caller's copy goes to.
    pub(super) ret_slot: Option<Slot>,
    /// Variable-length arrays: the slot of each one's address, and the slot of its size in bytes.
    pub(super) vla_sizes: HashMap<Slot, Slot>,
    /// The functions whose parameters end with `...` ([`super::varargs`]).
    pub(super) variadic: HashSet<String>,
    /// The destructor calls due where a scope ends, with the depth of the scope (see `classes.rs`).
    pub(super) dtors: Vec<(usize, Stmt)>,
    /// The functions returning a reference (`float &at(int i)`): they return an address ([`super::refs`]).
    pub(super) ref_returns: HashSet<String>,
    /// Whether the function being resolved returns a reference.
    pub(super) ret_ref: bool,
    /// The class whose member function is being resolved (`Gen` in `Gen::next`): its static data members
    /// (`Gen::count`) are named by their bare names there.
    pub(super) class: Option<String>,
    /// Each name defined more than once, with its definitions' names ([`super::overload`]).
    pub(super) overloads: HashMap<String, Vec<String>>,
    /// Lambdas' closure classes, by name ([`super::lambda`]).
    pub(super) closures: HashMap<String, super::closure::Closure>,
    /// How many lambdas have been met: the next closure class's number.
    pub(super) lambda_count: u32,
    /// Lambdas' `operator()`s, resolved where the lambda is, by name: placed among the instances in order.
    pub(super) early: HashMap<String, Function>,
    /// Names the next function resolved starts with in scope (an enclosing function's constants, for a
    /// lambda's body).
    pub(super) inherited: HashMap<String, Var>,
    /// Whether the function being resolved takes its result type from its first `return` (a lambda without
    /// `-> T`).
    pub(super) deduce_ret: bool,
    /// Each lambda expression's closure class and captures, by the function it is in and its place: resolving
    /// it again (a template's deduction resolves its arguments first) gives the same class.
    pub(super) lambda_classes: HashMap<super::closure::Site, (String, super::closure::Taken)>,
    /// The name of the function being resolved.
    pub(super) current_fn: String,
}

impl Resolver<'_> {
    /// Makes function `f` known to calls: the next function number, its signature, reference parameters
    /// and default arguments.
    pub(super) fn declare(&mut self, f: &ast::Function) {
        let i = self.sigs.len() as u32;
        let mut ret = self.ty(&f.ret, 0).unwrap_or(Type::Error);
        let params = f
            .params
            .iter()
            .map(|p| if p.name.name == REST { Type::ptr(Type::Void, false) } else { self.param_type(p) })
            .collect();
        if f.kind == ast::FnKind::HostRef {
            ret = Type::ptr(ret, false);
            self.ref_returns.insert(f.name.name.clone());
        }
        if is_variadic(f) {
            self.variadic.insert(f.name.name.clone());
        }
        self.fns.entry(f.name.name.clone()).or_insert(i);
        self.refs.entry(f.name.name.clone()).or_insert_with(|| f.params.iter().map(|p| p.reference).collect());
        // Default arguments may be on the prototype only (`bool abort = true` in gpuErrchk's helper).
        if f.params.iter().any(|p| p.default.is_some()) {
            self.defaults.insert(f.name.name.clone(), f.params.iter().map(|p| p.default.clone()).collect());
        }
        self.sigs.push((ret, params));
        if f.name.name.contains("::") && f.params.first().is_some_and(|p| p.name.name == "this") {
            self.with_this.insert(f.name.name.clone());
        }
    }

    /// The resolved function, or an empty one when it has errors (reported in `diags`).
    fn function_or_stub(&mut self, f: &ast::Function) -> Function {
        match self.function(f) {
            Ok(h) => h,
            Err(Reported) => Function {
                name: f.name.name.clone(),
                params: vec![],
                slots: 0,
                frame: vec![],
                body: vec![],
                ret: Type::Void,
                span: f.span,
            },
        }
    }

    pub(super) fn error(&mut self, span: Span, msg: impl Into<String>) -> Reported {
        self.diags.push(Diagnostic::new(ErrorCode::Type, span, msg));
        Reported
    }

    pub(super) fn unsupported(&mut self, span: Span, what: impl std::fmt::Display) -> Reported {
        self.diags.push(Diagnostic::unsupported(span, what).label("in host code"));
        Reported
    }

    /// A call of host function `name`, declared at `decl` and defined nowhere: the linker's "undefined
    /// reference", the program's own mistake (not a gap of warpdbg's).
    pub(super) fn undefined(&mut self, name: &ast::Ident, decl: Span) -> Reported {
        let n = &name.name;
        self.diags.push(
            Diagnostic::new(
                ErrorCode::Name,
                name.span,
                format!("`{n}` is declared but defined nowhere in the program"),
            )
            .label("called here")
            .with_secondary(decl, "declared here, without a body")
            .hint(format!(
                "nvcc would stop at link time (\"undefined reference to `{n}`\"): define it, or build with the \
                     source file that does"
            )),
        );
        Reported
    }

    /// The type a written type names, with `extra` more pointer levels.
    pub(super) fn ty(&mut self, ts: &TypeSpec, extra: u8) -> Result<Type, Reported> {
        let base = if let Some(f) = &ts.func {
            // A function (pointed to): `void (*kernel)(float *, int)`.
            let ret = self.ty(&f.ret, 0)?;
            let params = f.params.iter().map(|p| self.ty(p, 0)).collect::<Result<Vec<_>, Reported>>()?;
            Type::Func(std::sync::Arc::new((ret, params)))
        } else if let Some(name) = &ts.named {
            match name.as_str() {
                "dim3" => Type::Struct(crate::front::builtin_types::vector_type("dim3").ok_or(Reported)?),
                "string" | "std::string" => Type::Struct(super::cuda::names::string_type()),
                n if n.starts_with("vector<") => self.vector_named(n, ts.span)?.ok_or(Reported)?,
                n if n.starts_with("array<") => self.array_named(n, ts.span)?.ok_or(Reported)?,
                n if n.starts_with("pair<") => self.pair_named(n, ts.span)?.ok_or(Reported)?,
                n if self.random_named(n).is_some() => self.random_named(n).ok_or(Reported)?,
                n if let Some(t) = self.closure_type(n) => t,
                n if self.kernels.structs.contains_key(n) => {
                    Type::Struct(self.kernels.structs.get(n).cloned().ok_or(Reported)?)
                }
                n => match super::cuda::names::named_type(n) {
                    Some(t) => t,
                    // CUDA's vector types (`float4`) and cuRAND's device states, laid out as on the device:
                    // host code allocates and copies them (`cudaMalloc(&s, n * sizeof(curandState))`).
                    None => match crate::front::builtin_types::vector_type(n)
                        .or_else(|| crate::front::builtin_types::curand_state_type(n))
                    {
                        Some(def) => Type::Struct(def),
                        None => return Err(self.unsupported(ts.span, format_args!("the type `{n}` in host code yet"))),
                    },
                },
            }
        } else {
            Type::from_base(ts.base)
        };
        let mut t = base;
        for _ in 0..ts.pointers as u32 + extra as u32 {
            t = Type::ptr(t, false);
        }
        Ok(t)
    }

    fn param_type(&mut self, p: &ast::Param) -> Type {
        self.ty(&p.ty, 0).unwrap_or(Type::Error)
    }

    /// The value of an integer constant expression, if it is one.
    pub(super) fn const_eval(&self, e: &ast::Expr) -> Option<i64> {
        match &e.kind {
            A::Int { value, .. } => Some(*value as i64),
            A::Char(c) => Some(*c as i64),
            A::Name(n) => match self.lookup(n) {
                Some(Var::Const(bits, Type::Scalar(s))) if s.is_integer() => Some(s.int_value(bits)),
                // The runtime's enumerators (`case cudaSharedMemBankSizeFourByte:`).
                None => match super::cuda::names::known_constant(n) {
                    Some((bits, Type::Scalar(s))) if s.is_integer() => Some(s.int_value(bits)),
                    _ => None,
                },
                _ => None,
            },
            A::Unary(UnaryOp::Neg, x) => self.const_eval(x).map(i64::wrapping_neg),
            A::Unary(UnaryOp::Plus, x) => self.const_eval(x),
            A::Cast(_, x) => self.const_eval(x),
            A::SizeofType(_) => None,
            A::Binary { op, left: a, right: b } => {
                let (a, b) = (self.const_eval(a)?, self.const_eval(b)?);
                Some(match op {
                    BinaryOp::Add => a.wrapping_add(b),
                    BinaryOp::Sub => a.wrapping_sub(b),
                    BinaryOp::Mul => a.wrapping_mul(b),
                    BinaryOp::Div => a.checked_div(b)?,
                    BinaryOp::Rem => a.checked_rem(b)?,
                    BinaryOp::Shl => a.wrapping_shl(b as u32),
                    BinaryOp::Shr => a.wrapping_shr(b as u32),
                    BinaryOp::BitAnd => a & b,
                    BinaryOp::BitOr => a | b,
                    BinaryOp::BitXor => a ^ b,
                    _ => return None,
                })
            }
            _ => None,
        }
    }

    pub(super) fn lookup(&self, name: &str) -> Option<Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned()).or_else(|| {
            // A static data member of the class, by its bare name (before a file-scope variable's).
            if let Some(class) = &self.class {
                let member = format!("{class}::{name}");
                if let Some((i, ty)) = self.globals.get(&member) {
                    return Some(Var::Global(*i, ty.clone()));
                }
                if let Some((bits, ty)) = self.consts.get(&member) {
                    return Some(Var::Const(*bits, ty.clone()));
                }
            }
            if let Some((i, ty)) = self.globals.get(name) {
                return Some(Var::Global(*i, ty.clone()));
            }
            let (bits, ty) = self.consts.get(name)?;
            Some(Var::Const(*bits, ty.clone()))
        })
    }

    /// The variables in scope here, innermost declaration of each name, in declaration order.
    pub(super) fn visible(&self) -> Vec<ScopeVar> {
        let mut seen = HashSet::new();
        let mut out = vec![];
        for scope in self.scopes.iter().rev() {
            for (name, var) in scope {
                let (slot, ty, in_memory, constant) = match var {
                    Var::Reg(s, t) => (*s, t.clone(), false, None),
                    Var::Mem(s, t) => (*s, t.clone(), true, None),
                    Var::Const(bits, t) => (0, t.clone(), false, Some(*bits)),
                    Var::Global(..) => continue,
                };
                if seen.insert(name.clone()) {
                    out.push(ScopeVar { name: name.clone(), slot, ty, in_memory, constant });
                }
            }
        }
        // Slots follow declarations; constants have none (slot 0) and are ordered by name, so the order does
        // not depend on the hash map's.
        out.sort_by(|a, b| a.slot.cmp(&b.slot).then_with(|| a.name.cmp(&b.name)));
        out
    }

    pub(super) fn function(&mut self, f: &ast::Function) -> Result<Function, Reported> {
        self.scopes = vec![std::mem::take(&mut self.inherited)];
        self.slots = 0;
        self.frame.clear();
        self.dtors.clear();
        self.addressed.clear();
        self.current_fn = f.name.name.clone();
        self.labels =
            f.body.iter().filter_map(|s| if let S::Label(l) = &s.kind { Some(l.name.clone()) } else { None }).collect();
        // A local passed to a lambda's reference parameter (`auto inc = [](int &v) { v++; }; inc(n);`) lives in
        // memory too.
        let declared = super::closure::lambda_refs(&f.body);
        let refs = if declared.is_empty() {
            std::borrow::Cow::Borrowed(&self.refs)
        } else {
            let mut r = self.refs.clone();
            r.extend(declared);
            std::borrow::Cow::Owned(r)
        };
        f.body.iter().for_each(|s| super::addressed::addressed_in_stmt(s, &mut self.addressed, &refs));
        let index = self.fns.get(&f.name.name).copied().unwrap_or(0) as usize;
        let (ret, types) = self.sigs.get(index).cloned().unwrap_or_default();
        self.ret = ret.clone();
        self.ret_ref = f.kind == ast::FnKind::HostRef;
        self.class = f.name.name.rsplit_once("::").map(|(class, _)| class.to_string());
        let mut params = vec![];
        let mut copies = vec![];
        for (p, ty) in f.params.iter().zip(types) {
            let slot = self.new_slot();
            params.push((slot, ty.clone()));
            if p.reference {
                // The caller passes the address of its object; the name stands for that object.
                self.scopes[0].insert(p.name.name.clone(), Var::Mem(slot, ty));
                continue;
            }
            if let Type::Struct(_) = ty {
                // A struct passed by value: the caller passes its address; the callee works on its own copy.
                let own = self.new_slot();
                self.frame.push((own, ty.size().max(1), p.name.name.clone()));
                let (to, from) = (
                    Expr::new(ExprKind::Slot(own), ty.clone(), p.name.span),
                    Expr::new(ExprKind::Slot(slot), ty.clone(), p.name.span),
                );
                copies.push(Stmt::Expr(self.copy_struct(to, from, &ty, p.name.span)?));
                self.scopes[0].insert(p.name.name.clone(), Var::Mem(own, ty));
                continue;
            }
            if self.addressed.contains(&p.name.name) {
                // A parameter whose address is taken (`&n`, a lambda's `[&]`): a copy in host memory.
                let own = self.new_slot();
                self.frame.push((own, ty.size().max(1), p.name.name.clone()));
                let s = storage(&ty).ok_or(Reported)?;
                let at = Expr::new(ExprKind::Slot(own), Type::ptr(ty.clone(), false), p.name.span);
                let v = Expr::new(ExprKind::Slot(slot), ty.clone(), p.name.span);
                copies.push(Stmt::Expr(Expr::new(
                    ExprKind::assign(Place::mem(at, Some(p.name.name.clone())), s, v),
                    ty.clone(),
                    p.name.span,
                )));
                self.scopes[0].insert(p.name.name.clone(), Var::Mem(own, ty));
                continue;
            }
            self.scopes[0].insert(p.name.name.clone(), Var::Reg(slot, ty));
        }
        // A struct is returned through storage the caller provides (its address a last, hidden argument): the
        // callee's own locals are gone once it returns.
        self.ret_slot = None;
        if let Type::Struct(_) = ret {
            let slot = self.new_slot();
            params.push((slot, Type::ptr(ret.clone(), false)));
            self.ret_slot = Some(slot);
        }
        let mut body = copies;
        if f.name.name == "main" {
            self.global_prologue(&mut body);
        }
        body.extend(self.stmts(&f.body)?);
        body.extend(self.destroy_from(0, false));
        Ok(Function {
            name: f.name.name.clone(),
            params,
            slots: self.slots,
            frame: std::mem::take(&mut self.frame),
            body,
            ret,
            span: f.span,
        })
    }

    /// A scope in which file-scope variables are declared to learn their types (all in memory).
    pub(super) fn begin_scope_for_globals(&mut self, d: &ast::Decl) {
        self.scopes.push(HashMap::new());
        for dc in &d.declarators {
            self.addressed.insert(dc.name.name.clone());
        }
    }

    pub(super) fn end_scope_for_globals(&mut self) -> HashMap<String, Var> {
        self.scopes.pop().unwrap_or_default()
    }

    /// Makes the local `name` live in host memory (a file-scope variable declared in `main`).
    pub(super) fn force_in_memory(&mut self, name: &str) {
        self.addressed.insert(name.to_string());
    }

    pub(super) fn new_slot(&mut self) -> Slot {
        self.slots += 1;
        self.slots - 1
    }

    /// `*to = from` for a struct: its bytes copied.
    pub(super) fn copy_struct(&mut self, to: Expr, from: Expr, ty: &Type, span: Span) -> Result<Expr, Reported> {
        if from.ty != *ty {
            return Err(self.error(span, format!("cannot convert `{}` to `{ty}`", from.ty)));
        }
        let n = Expr::new(ExprKind::Const(ty.size() as u64), Type::Scalar(Scalar::U64), span);
        Ok(Expr::new(ExprKind::Lib(Lib::Memcpy, vec![to, from, n]), Type::Void, span))
    }
}

/// `p + off` bytes, typed as a pointer to `to`.
pub(super) fn ptr_add(p: Expr, off: i64, to: &Type) -> Expr {
    let span = p.span;
    let k = Expr::new(ExprKind::Const(off as u64), Type::Scalar(Scalar::I64), span);
    Expr::new(
        ExprKind::PtrAdd { ptr: Box::new(p), index: Box::new(k), elem_size: 1 },
        Type::ptr(to.clone(), false),
        span,
    )
}
/// Whether `e` is written as an object (`s`, `names[i]`, `run.label`, `*p`) rather than as a value some
/// operation makes (a call, a sum): copying from it copies, where a made value can move.
pub(super) fn names_object(e: &ast::Expr) -> bool {
    matches!(e.kind, A::Name(_) | A::Index(..) | A::Member(..) | A::Unary(UnaryOp::Deref, _))
}

/// The variable an expression names, through casts and `&` (`(void **)&d_a` is `d_a`).
pub(super) fn name_of(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        A::Name(n) => Some(n.clone()),
        A::Cast(_, x) | A::Unary(UnaryOp::AddrOf, x) => name_of(x),
        // `cudaMalloc(&d_x.r, n)`: the field of a struct of device pointers.
        A::Member(x, field) => Some(format!("{}.{}", name_of(x)?, field.name)),
        _ => None,
    }
}

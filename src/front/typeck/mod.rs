//! Name resolution and type checking: [`ast`] -> [`tast`], with C's promotions and conversions made explicit.

mod builtins;
mod deduce;
mod globals;
mod groups;
mod structs;

pub use structs::vector_type;

use std::collections::HashMap;

use super::ast::{self, BaseType, BinaryOp, ExprKind as A, FnKind, UnaryOp};
use super::diagnostic::{Diagnostic, ErrorCode};
use super::source::Span;
use super::tast::*;
use super::types::{Scalar, Type};
use crate::launch::Mode;

/// Checks a whole translation unit. Functions with errors are still returned (with `Type::Error` inside),
/// so callers must look at the diagnostics first.
///
/// `mode` is the execution model the code is compiled for: the warp functions of CUDA 8 and earlier exist
/// only for pre-Volta GPUs.
pub fn check(
    tu: &ast::TranslationUnit,
    mode: Mode,
    templates: &HashMap<String, super::template::TemplateDef>,
) -> (Program, Vec<Diagnostic>) {
    let mut ck =
        Checker { mode, templates: templates.clone(), host_functions: tu.host_functions.clone(), ..Checker::default() };
    ck.declare_structs(tu);
    ck.declare_globals(tu);
    ck.declare_functions(tu);
    let mut program = Program::default();
    for (i, f) in tu.functions.iter().enumerate() {
        let func = ck.function(f, FnId(i as u32));
        program.functions.push(func);
    }
    ck.check_recursion(&program);
    program.legacy_warp = ck.legacy_warp.take();
    program.globals = std::mem::take(&mut ck.globals);
    program.template_requests = std::mem::take(&mut ck.template_requests);
    let mut defs: Vec<_> = templates.values().collect();
    defs.sort_by_key(|d| d.span.start);
    program.templates = defs.iter().map(|d| (d.name.clone(), d.header(), d.is_kernel)).collect();
    (program, ck.diags)
}

#[derive(Clone)]
struct Signature {
    ret: Type,
    params: Vec<Type>,
    /// Default arguments, by parameter.
    defaults: Vec<Option<ast::Expr>>,
    kind: FnKind,
    span: Span,
}

#[derive(Clone, Copy)]
enum Binding {
    Local(LocalId),
    SharedArray(SharedId),
    SharedScalar(SharedId),
    /// A `__shared__`, `__constant__` or `__device__` variable of the file (or an `extern __shared__` array).
    Global(GlobalId),
    /// A file-scope `const` number: the value, by index into `Checker::constants`.
    Constant(u32),
    /// A file-scope variable of the host, declared here.
    HostVar(Span),
    /// A struct variable (by index into `Checker::struct_locals`).
    StructLocal(u32),
}

#[derive(Default)]
struct Checker {
    mode: Mode,
    /// The first pre-CUDA-9 warp function used (see [`Program::legacy_warp`]).
    legacy_warp: Option<String>,
    /// The ITS lesson about legacy warp functions was given (once per file).
    legacy_taught: bool,
    /// File-scope variables (and `extern __shared__` arrays of functions), by [`GlobalId`].
    globals: Vec<GlobalVar>,
    /// File-scope names, looked up after every function scope.
    global_scope: HashMap<String, Binding>,
    /// The typed values of file-scope constants.
    constants: Vec<Expr>,
    /// The file's function templates, for calls that deduce their arguments.
    templates: HashMap<String, super::template::TemplateDef>,
    /// Instances a call needs that are not parsed yet (see [`Program::template_requests`]).
    template_requests: Vec<TemplateRequest>,
    /// Host functions of the file (skipped by the parser).
    host_functions: Vec<ast::Ident>,
    /// The file's structs by name.
    structs: HashMap<String, std::sync::Arc<super::types::StructDef>>,
    /// The function being checked.
    current_fn: Option<FnId>,
    /// The current function's struct variables.
    struct_locals: Vec<structs::StructLocal>,
    fns: HashMap<String, FnId>,
    sigs: Vec<Signature>,
    diags: Vec<Diagnostic>,
    // Per-function state.
    locals: Vec<Local>,
    shared: Vec<SharedArray>,
    scopes: Vec<HashMap<String, Binding>>,
    loops: u32,
    ret: Type,
    calls: Vec<FnId>,
}

const BUILTIN_VECTORS: [&str; 4] = ["threadIdx", "blockIdx", "blockDim", "gridDim"];

impl Checker {
    fn err(&mut self, d: Diagnostic) {
        if self.diags.len() < 50 {
            self.diags.push(d);
        }
    }

    fn type_error(&mut self, span: Span, msg: impl Into<String>) -> Expr {
        self.err(Diagnostic::new(ErrorCode::Type, span, msg));
        Expr::error(span)
    }

    // ---- declarations ----

    fn declare_functions(&mut self, tu: &ast::TranslationUnit) {
        for (i, f) in tu.functions.iter().enumerate() {
            let ret = self.resolve_type(&f.ret, 0);
            let params = f.params.iter().map(|p| self.resolve_type(&p.ty, 0)).collect();
            if let Some(&prev) = self.fns.get(&f.name.name) {
                let prev_span = self.sigs[prev.0 as usize].span;
                self.err(
                    Diagnostic::new(ErrorCode::Name, f.name.span, format!("`{}` is defined twice", f.name.name))
                        .label("second definition")
                        .with_secondary(prev_span, "first defined here")
                        .hint("overloaded functions are not supported: give each a different name"),
                );
            } else {
                self.fns.insert(f.name.name.clone(), FnId(i as u32));
            }
            let ret = if matches!(ret, Type::Struct(_)) {
                self.err(
                    Diagnostic::unsupported(f.ret.span, "functions that return a struct")
                        .hint("pass a pointer to the result, or return its fields one by one"),
                );
                Type::Error
            } else {
                ret
            };
            if f.kind == FnKind::Global && ret != Type::Void {
                self.err(
                    Diagnostic::new(ErrorCode::Type, f.ret.span, "a __global__ function must return void")
                        .label("here"),
                );
            }
            let defaults = f.params.iter().map(|p| p.default.clone()).collect();
            self.sigs.push(Signature { ret, params, defaults, kind: f.kind, span: f.span });
        }
    }

    fn resolve_type(&mut self, spec: &ast::TypeSpec, extra_pointers: u8) -> Type {
        let base = match spec.base {
            _ if spec.named.is_some() => {
                let name = spec.named.clone().unwrap_or_default();
                self.struct_type(&name, spec.span)
            }
            BaseType::Void => Type::Void,
            BaseType::Bool => Type::BOOL,
            BaseType::Char | BaseType::SChar => Type::Scalar(Scalar::I8),
            BaseType::UChar => Type::Scalar(Scalar::U8),
            BaseType::Short => Type::Scalar(Scalar::I16),
            BaseType::UShort => Type::Scalar(Scalar::U16),
            BaseType::Int => Type::INT,
            BaseType::UInt => Type::UINT,
            BaseType::Long => Type::Scalar(Scalar::I64),
            BaseType::ULong => Type::Scalar(Scalar::U64),
            BaseType::Float => Type::FLOAT,
            BaseType::Double => Type::Scalar(Scalar::F64),
        };
        let levels = spec.pointers.saturating_add(extra_pointers);
        if levels == 0 {
            return base;
        }
        let mut ty = Type::ptr(base, spec.is_const);
        for _ in 1..levels {
            ty = Type::ptr(ty, false);
        }
        ty
    }

    fn function(&mut self, f: &ast::Function, id: FnId) -> Function {
        self.current_fn = Some(id);
        self.locals.clear();
        self.struct_locals.clear();
        self.shared.clear();
        self.scopes = vec![HashMap::new()];
        self.loops = 0;
        self.calls.clear();
        self.ret = self.sigs[id.0 as usize].ret.clone();
        let mut params = vec![];
        for (p, ty) in f.params.iter().zip(self.sigs[id.0 as usize].params.clone()) {
            self.check_reference_param(p, &ty);
            if ty == Type::Void {
                self.err(Diagnostic::new(ErrorCode::Type, p.ty.span, "a parameter cannot have type void"));
            }
            if matches!(ty, Type::Struct(_)) {
                // A struct by value: one parameter per field, as a struct variable.
                params.extend(self.struct_param(&p.name, ty));
                continue;
            }
            let is_const = p.ty.is_const && p.ty.pointers == 0;
            params.push(self.declare_local(&p.name, ty, is_const, None));
        }
        let body = self.block(&f.body);
        Function {
            name: f.name.name.clone(),
            kind: f.kind,
            ret: self.ret.clone(),
            params,
            locals: std::mem::take(&mut self.locals),
            shared: std::mem::take(&mut self.shared),
            body,
            span: f.span,
            body_end: f.body_end,
            calls: std::mem::take(&mut self.calls),
        }
    }

    /// A local with no name in scope (a struct variable's field).
    fn new_local(&mut self, name: &ast::Ident, ty: Type) -> LocalId {
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(Local { name: name.name.clone(), ty, span: name.span, is_const: false, const_value: None });
        id
    }

    fn declare_local(&mut self, name: &ast::Ident, ty: Type, is_const: bool, const_value: Option<i64>) -> LocalId {
        self.check_redeclared(name);
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(Local { name: name.name.clone(), ty, span: name.span, is_const, const_value });
        self.bind(name, Binding::Local(id));
        id
    }

    fn check_redeclared(&mut self, name: &ast::Ident) {
        let scope = self.scopes.last().expect("a scope is always open");
        if let Some(b) = scope.get(&name.name) {
            let prev = match *b {
                Binding::Local(l) => self.locals[l.0 as usize].span,
                Binding::SharedArray(s) | Binding::SharedScalar(s) => self.shared[s.0 as usize].span,
                Binding::Global(g) => self.globals[g.0 as usize].span,
                Binding::Constant(c) => self.constants[c as usize].span,
                Binding::HostVar(span) => span,
                Binding::StructLocal(i) => {
                    let first = self.struct_locals[i as usize].leaves.first().map(|l| l.1);
                    first.map_or(name.span, |l| self.locals[l.0 as usize].span)
                }
            };
            self.err(
                Diagnostic::new(
                    ErrorCode::Name,
                    name.span,
                    format!("`{}` is declared twice in the same scope", name.name),
                )
                .label("redeclared here")
                .with_secondary(prev, "first declared here"),
            );
        }
        if BUILTIN_VECTORS.contains(&name.name.as_str()) || name.name == "warpSize" {
            self.err(Diagnostic::new(
                ErrorCode::Name,
                name.span,
                format!("`{}` is a CUDA built-in and cannot be redeclared", name.name),
            ));
        }
    }

    fn bind(&mut self, name: &ast::Ident, b: Binding) {
        self.scopes.last_mut().expect("a scope is always open").insert(name.name.clone(), b);
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied()).or_else(|| self.global_scope.get(name).copied())
    }

    /// Names visible here, for "did you mean" hints.
    fn visible_names(&self) -> Vec<String> {
        let mut v: Vec<String> =
            self.scopes.iter().chain(std::iter::once(&self.global_scope)).flat_map(|s| s.keys().cloned()).collect();
        v.extend(BUILTIN_VECTORS.iter().map(|s| s.to_string()));
        v.push("warpSize".into());
        v
    }

    // ---- statements ----

    fn block(&mut self, stmts: &[ast::Stmt]) -> Vec<Stmt> {
        self.scopes.push(HashMap::new());
        let out = stmts.iter().flat_map(|s| self.stmt(s)).collect();
        self.scopes.pop();
        out
    }

    /// One parsed statement; a declaration of several names becomes several statements.
    fn stmt(&mut self, s: &ast::Stmt) -> Vec<Stmt> {
        let span = s.span;
        let one = |kind| vec![Stmt { kind, span }];
        match &s.kind {
            ast::StmtKind::Decl(d) => self.decl(d),
            ast::StmtKind::Expr(ast::Expr { kind: A::Assign(None, lhs, rhs), span: aspan }) => {
                match self.struct_assign(lhs, rhs, *aspan) {
                    Some(stmts) => one(StmtKind::Block(stmts)),
                    None => one(StmtKind::Expr(
                        self.expr(&ast::Expr { kind: A::Assign(None, lhs.clone(), rhs.clone()), span: *aspan }),
                    )),
                }
            }
            ast::StmtKind::Expr(e) => one(StmtKind::Expr(self.expr(e))),
            ast::StmtKind::Block(b) => one(StmtKind::Block(self.block(b))),
            ast::StmtKind::If { cond, then, els } => {
                let cond = self.cond(cond);
                let then = Box::new(self.scoped_stmt(then));
                let els = els.as_ref().map(|e| Box::new(self.scoped_stmt(e)));
                one(StmtKind::If { cond, then, els })
            }
            ast::StmtKind::While { cond, body } => {
                let cond = self.cond(cond);
                let body = Box::new(self.loop_body(body));
                one(StmtKind::While { cond, body })
            }
            ast::StmtKind::DoWhile { body, cond } => {
                let body = Box::new(self.loop_body(body));
                let cond = self.cond(cond);
                one(StmtKind::DoWhile { body, cond })
            }
            ast::StmtKind::For { init, cond, step, body } => {
                self.scopes.push(HashMap::new());
                let init = init.as_ref().map(|i| self.stmt(i)).unwrap_or_default();
                let cond = cond.as_ref().map(|c| self.cond(c));
                let step = step.as_ref().map(|e| self.expr(e));
                let body = Box::new(self.loop_body(body));
                self.scopes.pop();
                one(StmtKind::For { init, cond, step, body })
            }
            ast::StmtKind::Break | ast::StmtKind::Continue => {
                let is_break = matches!(s.kind, ast::StmtKind::Break);
                if self.loops == 0 {
                    let what = if is_break { "break" } else { "continue" };
                    self.err(
                        Diagnostic::new(ErrorCode::Syntax, span, format!("`{what}` outside of a loop"))
                            .label("not in a loop"),
                    );
                }
                one(if is_break { StmtKind::Break } else { StmtKind::Continue })
            }
            ast::StmtKind::Return(value) => {
                let value = match (value, self.ret.clone()) {
                    (None, Type::Void) => None,
                    (None, ty) => {
                        self.err(Diagnostic::new(
                            ErrorCode::Type,
                            span,
                            format!("this function must return a value of type `{ty}`"),
                        ));
                        None
                    }
                    (Some(v), Type::Void) => {
                        let e = self.expr(v);
                        if !e.ty.is_error() {
                            self.err(
                                Diagnostic::new(ErrorCode::Type, v.span, "a void function cannot return a value")
                                    .label(format!("this is a `{}`", e.ty)),
                            );
                        }
                        None
                    }
                    (Some(v), ty) => {
                        let e = self.expr(v);
                        Some(self.convert(e, &ty, "return value"))
                    }
                };
                one(StmtKind::Return(value))
            }
            ast::StmtKind::Empty => vec![],
        }
    }

    fn scoped_stmt(&mut self, s: &ast::Stmt) -> Stmt {
        self.scopes.push(HashMap::new());
        let mut v = self.stmt(s);
        self.scopes.pop();
        if v.len() == 1 { v.pop().expect("one statement") } else { Stmt { kind: StmtKind::Block(v), span: s.span } }
    }

    fn loop_body(&mut self, s: &ast::Stmt) -> Stmt {
        self.loops += 1;
        let b = self.scoped_stmt(s);
        self.loops -= 1;
        b
    }

    fn decl(&mut self, d: &ast::Decl) -> Vec<Stmt> {
        let mut out = vec![];
        for dc in &d.declarators {
            let ty = if d.ty.named.as_deref() == Some("auto") {
                self.auto_type(dc.init.as_ref(), dc.name.span)
            } else {
                self.resolve_type(&d.ty, dc.pointers)
            };
            // A declaration that is rejected still declares its name (with the error type), so that its uses
            // are not reported as undeclared on top.
            if ty == Type::Void {
                self.err(Diagnostic::new(ErrorCode::Type, dc.name.span, "a variable cannot have type void"));
                self.declare_local(&dc.name, Type::Error, false, None);
                continue;
            }
            if d.shared && d.is_extern {
                self.local_extern_shared(d, dc, &ty);
                continue;
            }
            if matches!(ty, Type::Struct(_)) && !d.shared {
                let stmts = self.struct_local(d, dc, ty);
                out.extend(stmts);
                continue;
            }
            if d.shared {
                if !self.shared_decl(d, dc, ty) {
                    self.declare_local(&dc.name, Type::Error, false, None);
                }
                continue;
            }
            if !dc.dims.is_empty() {
                let stmts = self.local_array(d, dc, &ty);
                out.extend(stmts);
                continue;
            }
            let init = dc.init.as_ref().map(|e| {
                let v = self.expr(e);
                self.convert(v, &ty, "initialiser")
            });
            let is_const = d.ty.is_const && d.ty.pointers + dc.pointers == 0;
            if is_const && init.is_none() {
                self.err(Diagnostic::new(
                    ErrorCode::Type,
                    dc.name.span,
                    format!("const variable `{}` needs an initialiser", dc.name.name),
                ));
            }
            let const_value = if is_const { init.as_ref().and_then(|e| self.const_int(e)) } else { None };
            let id = self.declare_local(&dc.name, ty, is_const, const_value);
            out.push(Stmt { kind: StmtKind::Init(id, init), span: d.span });
        }
        out
    }

    /// Declares a `__shared__` variable; false (with a diagnostic) when it cannot be.
    fn shared_decl(&mut self, d: &ast::Decl, dc: &ast::Declarator, ty: Type) -> bool {
        if let Some(init) = &dc.init {
            self.err(
                Diagnostic::new(ErrorCode::Type, init.span, "a __shared__ variable cannot have an initialiser")
                    .hint("assign it in the kernel body, e.g. `if (threadIdx.x == 0) s = 0; __syncthreads();`"),
            );
        }
        let Some(elem) = ty.scalar() else {
            self.err(Diagnostic::unsupported(d.ty.span, "__shared__ pointers"));
            return false;
        };
        let mut full = ty.clone();
        for dim in dc.dims.iter().rev() {
            let e = self.expr(dim);
            match self.const_int(&e) {
                Some(n) if n > 0 && n <= (48 * 1024) => full = Type::Array(Box::new(full), n as u32),
                Some(_) => {
                    self.err(Diagnostic::new(
                        ErrorCode::Type,
                        dim.span,
                        "a __shared__ array needs a size between 1 and 49152",
                    ));
                    return false;
                }
                None if !e.ty.is_error() => {
                    self.err(
                        Diagnostic::new(ErrorCode::Type, dim.span, "a __shared__ array size must be a constant")
                            .label("not known before the launch")
                            .hint("write a number or a `const int` initialised with one"),
                    );
                    return false;
                }
                None => return false,
            }
        }
        if full.size() > 48 * 1024 {
            self.err(Diagnostic::new(
                ErrorCode::Type,
                dc.name.span,
                format!("__shared__ array of {} bytes exceeds the 48 KiB static limit", full.size()),
            ));
            return false;
        }
        self.check_redeclared(&dc.name);
        let id = SharedId(self.shared.len() as u32);
        let binding = if dc.dims.is_empty() { Binding::SharedScalar(id) } else { Binding::SharedArray(id) };
        self.shared.push(SharedArray { name: dc.name.name.clone(), ty: full, elem, span: dc.name.span });
        self.bind(&dc.name, binding);
        true
    }

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
            ExprKind::Arith(op, a, b) => {
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
    fn convert(&mut self, e: Expr, to: &Type, what: &str) -> Expr {
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
    fn to_scalar(e: Expr, s: Scalar) -> Expr {
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
    fn cond(&mut self, e: &ast::Expr) -> Expr {
        let v = self.expr(e);
        self.truth(v)
    }

    fn truth(&mut self, v: Expr) -> Expr {
        match &v.ty {
            Type::Scalar(_) | Type::Ptr { .. } => Self::to_scalar(v, Scalar::Bool),
            Type::Error => v,
            t => {
                let t = t.to_string();
                self.type_error(v.span, format!("expected a condition, found a value of type `{t}`"))
            }
        }
    }

    fn arith_operand(&mut self, e: &Expr, op: &str) -> Option<Scalar> {
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

    fn int_operand(&mut self, e: &Expr, op: &str) -> Option<Scalar> {
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
    fn expr(&mut self, e: &ast::Expr) -> Expr {
        let span = e.span;
        match &e.kind {
            A::Error => Expr::error(span),
            A::InitList(_) => self.type_error(span, "a brace initialiser can only initialise a declaration"),
            A::MethodCall(obj, method, args) => self.method_call(obj, method, args, span),
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
            A::Str(_) => self.type_error(span, "a string literal can only be the format of printf"),
            A::Name(n) => self.name(n, span),
            A::Member(obj, field) => self.member(obj, field, span),
            A::Index(..) | A::Unary(UnaryOp::Deref, _) => match self.place(e) {
                Some(Place::Mem(ptr)) => self.deref(*ptr, span),
                Some(Place::Local(_)) | None => Expr::error(span),
            },
            A::Unary(UnaryOp::AddrOf, inner) => match self.place(inner) {
                Some(Place::Mem(ptr)) => *ptr,
                Some(Place::Local(_)) => {
                    self.err(
                        Diagnostic::unsupported(span, "taking the address of a local variable")
                            .hint("local variables live in registers; use a __shared__ or global array element"),
                    );
                    Expr::error(span)
                }
                None => Expr::error(span),
            },
            A::Unary(op, inner) => self.unary(*op, inner, span),
            A::Binary(op, a, b) => self.binary(*op, a, b, span),
            A::Assign(op, lhs, rhs) => self.assign(*op, lhs, rhs, span),
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
            A::Ternary(c, a, b) => {
                let c = self.cond(c);
                let (a, b) = (self.expr(a), self.expr(b));
                let ty = match (&a.ty, &b.ty) {
                    (Type::Error, _) | (_, Type::Error) => return Expr::error(span),
                    (Type::Scalar(x), Type::Scalar(y)) => Type::Scalar(Scalar::common(*x, *y)),
                    (x, y) if x == y => x.clone(),
                    (x, y) => {
                        return self
                            .type_error(span, format!("the two sides of `?:` have different types: `{x}` and `{y}`"));
                    }
                };
                let a = self.convert(a, &ty, "`?:`");
                let b = self.convert(b, &ty, "`?:`");
                Expr::new(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)), ty, span)
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
    fn int_literal(&mut self, value: u64, unsigned: bool, long: bool, decimal: bool, span: Span) -> Expr {
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

    fn name(&mut self, n: &str, span: Span) -> Expr {
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
            None if BUILTIN_VECTORS.contains(&n) => {
                let d = Diagnostic::new(ErrorCode::Type, span, format!("`{n}` is a vector (uint3)"))
                    .label("pick a component")
                    .hint(format!("write `{n}.x`, `{n}.y` or `{n}.z`"));
                self.err(d);
                Expr::error(span)
            }
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

    fn member(&mut self, obj: &ast::Expr, field: &ast::Ident, span: Span) -> Expr {
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
    fn deref(&mut self, ptr: Expr, span: Span) -> Expr {
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
    fn place(&mut self, e: &ast::Expr) -> Option<Place> {
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

    fn place_type(&self, p: &Place) -> Type {
        match p {
            Place::Local(l) => self.locals[l.0 as usize].ty.clone(),
            Place::Mem(ptr) => ptr.ty.pointee().cloned().unwrap_or(Type::Error),
        }
    }

    fn writable_place(&mut self, e: &ast::Expr) -> Option<Place> {
        let place = self.place(e)?;
        if let Place::Mem(ptr) = &place
            && let Some(name) = self.constant_target(ptr)
        {
            self.err(globals::constant_write(e.span, &name));
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
    fn ptr_offset(&mut self, ptr: Expr, index: Expr, negate: bool, span: Span) -> Option<Expr> {
        let s = self.int_operand(&index, if negate { "-" } else { "+" })?;
        let index = Self::to_scalar(index, index_scalar(s));
        let elem_size = ptr.ty.pointee().map_or(1, Type::size);
        let ty = ptr.ty.clone();
        Some(Expr::new(ExprKind::PtrOffset { ptr: Box::new(ptr), index: Box::new(index), elem_size, negate }, ty, span))
    }

    fn unary(&mut self, op: UnaryOp, inner: &ast::Expr, span: Span) -> Expr {
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

    fn binary(&mut self, op: BinaryOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Expr {
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
                let cmp = match op {
                    BinaryOp::Lt => CmpOp::Lt,
                    BinaryOp::Gt => CmpOp::Gt,
                    BinaryOp::Le => CmpOp::Le,
                    BinaryOp::Ge => CmpOp::Ge,
                    BinaryOp::Eq => CmpOp::Eq,
                    _ => CmpOp::Ne,
                };
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
                Expr::new(ExprKind::Cmp(cmp, Box::new(a), Box::new(b)), Type::BOOL, span)
            }
            _ => {
                let arith = match op {
                    BinaryOp::Add => ArithOp::Add,
                    BinaryOp::Sub => ArithOp::Sub,
                    BinaryOp::Mul => ArithOp::Mul,
                    BinaryOp::Div => ArithOp::Div,
                    BinaryOp::Rem => ArithOp::Rem,
                    BinaryOp::Shl => ArithOp::Shl,
                    BinaryOp::Shr => ArithOp::Shr,
                    BinaryOp::BitAnd => ArithOp::And,
                    BinaryOp::BitOr => ArithOp::Or,
                    _ => ArithOp::Xor,
                };
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
                Expr::new(ExprKind::Arith(arith, Box::new(a), Box::new(b)), Type::Scalar(t), span)
            }
        }
    }

    fn ptr_arith(&mut self, op: BinaryOp, a: Expr, b: Expr, span: Span) -> Expr {
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

    fn assign(&mut self, op: Option<BinaryOp>, lhs: &ast::Expr, rhs: &ast::Expr, span: Span) -> Expr {
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
        let arith = match op {
            BinaryOp::Add => ArithOp::Add,
            BinaryOp::Sub => ArithOp::Sub,
            BinaryOp::Mul => ArithOp::Mul,
            BinaryOp::Div => ArithOp::Div,
            BinaryOp::Rem => ArithOp::Rem,
            BinaryOp::Shl => ArithOp::Shl,
            BinaryOp::Shr => ArithOp::Shr,
            BinaryOp::BitAnd => ArithOp::And,
            BinaryOp::BitOr => ArithOp::Or,
            _ => ArithOp::Xor,
        };
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

    fn cast(&mut self, v: Expr, to: Type, span: Span) -> Expr {
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
            _ => {
                self.err(
                    Diagnostic::unsupported(span, "casts between pointers and integers")
                        .label(format!("`{}` to `{to}`", v.ty)),
                );
                Expr::error(span)
            }
        }
    }

    // ---- calls ----

    fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        if name.name == "printf" {
            return self.printf(args, span);
        }
        if name.name == "sync"
            && let Some(e) = self.group_sync_call(args, span)
        {
            return e;
        }
        if groups::makes_group(&name.name).is_some() {
            return self.type_error(
                span,
                format!("`{}` makes a group: give it a name, `auto g = {}(...);`", name.name, name.name),
            );
        }
        if let Some(intr) = intrinsic(&name.name) {
            return self.intrinsic(intr, &name.name, args, span);
        }
        if let Some(e) = self.builtin_call(name, args, span) {
            return e;
        }
        if !self.fns.contains_key(&name.name) && self.templates.contains_key(&name.name) {
            return self.template_call(name, args, span);
        }
        if let Some(&id) = self.fns.get(&name.name) {
            let sig = self.sigs[id.0 as usize].clone();
            if sig.kind == FnKind::Global {
                self.err(
                    Diagnostic::unsupported(span, "launching a kernel from a kernel (dynamic parallelism)")
                        .with_secondary(sig.span, "kernel declared here"),
                );
                return Expr::error(span);
            }
            // Arguments left out take their defaults.
            let mut full: Vec<ast::Expr> = args.to_vec();
            while full.len() < sig.params.len() {
                match &sig.defaults[full.len()] {
                    Some(d) => full.push(d.clone()),
                    None => break,
                }
            }
            let args = &full[..];
            if args.len() != sig.params.len() {
                self.err(
                    Diagnostic::new(
                        ErrorCode::Type,
                        span,
                        format!("`{}` takes {} argument(s) but {} were given", name.name, sig.params.len(), args.len()),
                    )
                    .with_secondary(sig.span, "declared here"),
                );
                return Expr::error(span);
            }
            let mut checked = vec![];
            for (a, t) in args.iter().zip(&sig.params) {
                if matches!(t, Type::Struct(_)) {
                    // A struct by value passes its fields.
                    match self.struct_args(a, t) {
                        Some(fields) => checked.extend(fields),
                        None => return Expr::error(span),
                    }
                    continue;
                }
                let v = self.expr(a);
                checked.push(self.convert(v, t, "argument"));
            }
            let args = checked;
            if !self.calls.contains(&id) {
                self.calls.push(id);
            }
            return Expr::new(ExprKind::Call(id, args), sig.ret, span);
        }
        for a in args {
            self.expr(a);
        }
        if self.unsupported_group_call(name) {
        } else if let Some(why) = unsupported_function(&name.name) {
            self.err(Diagnostic::unsupported(name.span, format!("`{}` ({why})", name.name)));
        } else if let Some(host) = self.host_functions.iter().find(|h| h.name == name.name) {
            self.err(
                Diagnostic::new(ErrorCode::Name, name.span, format!("`{}` is a host function", name.name))
                    .label("device code cannot call it")
                    .with_secondary(host.span, "declared without __device__")
                    .hint("mark it `__host__ __device__` to compile it for both"),
            );
        } else {
            let mut known: Vec<String> = self.fns.keys().cloned().collect();
            known.extend(INTRINSIC_NAMES.iter().chain(builtins::BUILTIN_NAMES).map(|s| s.to_string()));
            let mut d = Diagnostic::new(ErrorCode::Name, name.span, format!("cannot find function `{}`", name.name))
                .label("not declared");
            if let Some(c) = closest(&name.name, &known) {
                d = d.hint(format!("did you mean `{c}`?"));
            }
            self.err(d);
        }
        Expr::error(span)
    }

    fn printf(&mut self, args: &[ast::Expr], span: Span) -> Expr {
        let Some(A::Str(fmt)) = args.first().map(|a| &a.kind) else {
            return self.type_error(span, "printf needs a string literal as its first argument");
        };
        let (fmt, rest) = splice_string_args(fmt, &args[1..]);
        let mut out = vec![];
        for a in rest {
            let v = self.expr(a);
            // The default argument promotions of a variadic call.
            let v = match v.ty.scalar() {
                Some(Scalar::F32) => Self::to_scalar(v, Scalar::F64),
                Some(s) if s.is_integer() => Self::to_scalar(v, s.promote()),
                _ => v,
            };
            out.push(v);
        }
        Expr::new(ExprKind::Printf(fmt, out), Type::INT, span)
    }

    fn expect_args(
        &mut self,
        name: &str,
        args: &[ast::Expr],
        range: std::ops::RangeInclusive<usize>,
        span: Span,
    ) -> bool {
        if range.contains(&args.len()) {
            return true;
        }
        let want = if range.start() == range.end() {
            range.start().to_string()
        } else {
            format!("{} to {}", range.start(), range.end())
        };
        self.err(Diagnostic::new(
            ErrorCode::Type,
            span,
            format!("`{name}` takes {want} argument(s) but {} were given", args.len()),
        ));
        false
    }

    fn intrinsic(&mut self, intr: Intrinsic, name: &str, args: &[ast::Expr], span: Span) -> Expr {
        let uint = |c: &mut Self, a: &ast::Expr| {
            let v = c.expr(a);
            c.convert(v, &Type::UINT, "argument")
        };
        let int = |c: &mut Self, a: &ast::Expr| {
            let v = c.expr(a);
            c.convert(v, &Type::INT, "argument")
        };
        let full_mask = |span| Expr::new(ExprKind::Const(0xffff_ffff), Type::UINT, span);
        let (ty, args) = match intr {
            Intrinsic::SyncThreads | Intrinsic::ThreadFence | Intrinsic::ActiveMask => {
                if !self.expect_args(name, args, 0..=0, span) {
                    return Expr::error(span);
                }
                (if intr == Intrinsic::ActiveMask { Type::UINT } else { Type::Void }, vec![])
            }
            Intrinsic::SyncWarp => {
                if !self.expect_args(name, args, 0..=1, span) {
                    return Expr::error(span);
                }
                let mask = args.first().map_or_else(|| full_mask(span), |a| uint(self, a));
                (Type::Void, vec![mask])
            }
            Intrinsic::Atomic(op) => {
                let n = if op == AtomicOp::Cas { 3 } else { 2 };
                if !self.expect_args(name, args, n..=n, span) {
                    return Expr::error(span);
                }
                let ptr = self.expr(&args[0]);
                let elem = match &ptr.ty {
                    Type::Ptr { elem, is_const: false } => elem.scalar(),
                    Type::Error => return Expr::error(span),
                    _ => None,
                };
                // The overloads CUDA 12 declares (sm_60 and later).
                let allowed: &[Scalar] = match op {
                    AtomicOp::Add => &[Scalar::I32, Scalar::U32, Scalar::U64, Scalar::F32, Scalar::F64],
                    AtomicOp::Exch => &[Scalar::I32, Scalar::U32, Scalar::U64, Scalar::F32],
                    AtomicOp::Cas => &[Scalar::I32, Scalar::U32, Scalar::U64, Scalar::U16],
                    AtomicOp::Min | AtomicOp::Max => &[Scalar::I32, Scalar::U32, Scalar::U64, Scalar::I64],
                    AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => &[Scalar::I32, Scalar::U32, Scalar::U64],
                    AtomicOp::Sub => &[Scalar::I32, Scalar::U32],
                    AtomicOp::Inc | AtomicOp::Dec => &[Scalar::U32],
                };
                let Some(elem) = elem.filter(|e| allowed.contains(e)) else {
                    let names: Vec<_> = allowed.iter().map(|s| format!("{} *", s.name())).collect();
                    return self.type_error(
                        args[0].span,
                        format!("`{name}` needs an address of type {}, found `{}`", names.join(" or "), ptr.ty),
                    );
                };
                let mut out = vec![ptr];
                for a in &args[1..] {
                    let v = self.expr(a);
                    out.push(self.convert(v, &Type::Scalar(elem), "argument"));
                }
                (Type::Scalar(elem), out)
            }
            Intrinsic::Shfl(_) => {
                if !self.expect_args(name, args, 3..=4, span) {
                    return Expr::error(span);
                }
                let mask = uint(self, &args[0]);
                let v = self.expr(&args[1]);
                let Some(s) = self.arith_operand(&v, name) else { return Expr::error(span) };
                let s = s.promote();
                let v = Self::to_scalar(v, s);
                let lane = int(self, &args[2]);
                let width =
                    args.get(3).map_or_else(|| Expr::new(ExprKind::Const(32), Type::INT, span), |a| int(self, a));
                (Type::Scalar(s), vec![mask, v, lane, width])
            }
            Intrinsic::Vote(kind) => {
                if !self.expect_args(name, args, 2..=2, span) {
                    return Expr::error(span);
                }
                let mask = uint(self, &args[0]);
                let p = self.cond(&args[1]);
                (if kind == VoteKind::Ballot { Type::UINT } else { Type::INT }, vec![mask, p])
            }
            Intrinsic::Math(f) => return self.math(f, name, args, span),
            // Made by the struct copies, never by name.
            Intrinsic::CheckAlign { .. } | Intrinsic::CheckIndex { .. } => return Expr::error(span),
        };
        Expr::new(ExprKind::Intrinsic(intr, args), ty, span)
    }

    fn math(&mut self, f: MathFn, name: &str, args: &[ast::Expr], span: Span) -> Expr {
        let n = f.arity();
        if !self.expect_args(name, args, n..=n, span) {
            return Expr::error(span);
        }
        let vals: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
        let mut kinds = vec![];
        for v in &vals {
            match self.arith_operand(v, name) {
                Some(s) => kinds.push(s),
                None => return Expr::error(span),
            }
        }
        let common = kinds.iter().copied().reduce(Scalar::common).unwrap_or(Scalar::I32);
        // `...f` and `__...` names compute in float; min/max/abs follow their operands; the rest in the
        // operand's float type, double for integers (C++ overload resolution).
        let ty = if name.ends_with('f') || name.starts_with("__") {
            Scalar::F32
        } else if matches!(f, MathFn::Min | MathFn::Max | MathFn::Abs) || common == Scalar::F32 {
            common
        } else {
            Scalar::F64
        };
        let args = vals.into_iter().map(|v| Self::to_scalar(v, ty)).collect();
        Expr::new(ExprKind::Intrinsic(Intrinsic::Math(f), args), Type::Scalar(ty), span)
    }

    // ---- whole-program checks ----

    fn check_recursion(&mut self, p: &Program) {
        // Depth-first search for a cycle in the call graph; device calls are inlined, so cycles cannot be.
        fn visit(p: &Program, f: FnId, stack: &mut Vec<FnId>, done: &mut Vec<bool>) -> Option<Vec<FnId>> {
            if let Some(pos) = stack.iter().position(|&g| g == f) {
                return Some(stack[pos..].to_vec());
            }
            if done[f.0 as usize] {
                return None;
            }
            stack.push(f);
            for &g in &p.function(f).calls {
                if let Some(c) = visit(p, g, stack, done) {
                    return Some(c);
                }
            }
            stack.pop();
            done[f.0 as usize] = true;
            None
        }
        let mut done = vec![false; p.functions.len()];
        for i in 0..p.functions.len() {
            if let Some(cycle) = visit(p, FnId(i as u32), &mut vec![], &mut done) {
                let names: Vec<_> = cycle.iter().map(|f| p.function(*f).name.as_str()).collect();
                let f = p.function(cycle[0]);
                self.err(
                    Diagnostic::unsupported(f.span, "recursive device functions")
                        .label(format!("cycle: {} -> {}", names.join(" -> "), names[0]))
                        .hint("write the recursion as a loop"),
                );
                return;
            }
        }
    }
}

const INTRINSIC_NAMES: [&str; 57] = [
    "__syncthreads",
    "__syncwarp",
    "__threadfence",
    "__threadfence_block",
    "__threadfence_system",
    "atomicAdd",
    "atomicSub",
    "atomicExch",
    "atomicCAS",
    "atomicMin",
    "atomicMax",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__any_sync",
    "__all_sync",
    "__activemask",
    "min",
    "max",
    "abs",
    "fminf",
    "fmaxf",
    "fabsf",
    "fabs",
    "sqrtf",
    "sqrt",
    "rsqrtf",
    "floorf",
    "floor",
    "ceilf",
    "ceil",
    "truncf",
    "roundf",
    "expf",
    "exp2f",
    "logf",
    "log2f",
    "sinf",
    "cosf",
    "tanf",
    "powf",
    "fmodf",
    "__fdividef",
    "fmaf",
    "fma",
    "__fmaf_rn",
    "__fmul_rn",
    "__fadd_rn",
    "__fsub_rn",
    "__expf",
    "__logf",
    "__sinf",
];

fn intrinsic(name: &str) -> Option<Intrinsic> {
    use Intrinsic as I;
    use MathFn as M;
    Some(match name {
        "__syncthreads" => I::SyncThreads,
        "__syncwarp" => I::SyncWarp,
        "__threadfence" | "__threadfence_block" | "__threadfence_system" => I::ThreadFence,
        "atomicAdd" => I::Atomic(AtomicOp::Add),
        "atomicSub" => I::Atomic(AtomicOp::Sub),
        "atomicExch" => I::Atomic(AtomicOp::Exch),
        "atomicCAS" => I::Atomic(AtomicOp::Cas),
        "atomicMin" => I::Atomic(AtomicOp::Min),
        "atomicMax" => I::Atomic(AtomicOp::Max),
        "atomicAnd" => I::Atomic(AtomicOp::And),
        "atomicOr" => I::Atomic(AtomicOp::Or),
        "atomicXor" => I::Atomic(AtomicOp::Xor),
        "atomicInc" => I::Atomic(AtomicOp::Inc),
        "atomicDec" => I::Atomic(AtomicOp::Dec),
        "__shfl_sync" => I::Shfl(ShflKind::Idx),
        "__shfl_up_sync" => I::Shfl(ShflKind::Up),
        "__shfl_down_sync" => I::Shfl(ShflKind::Down),
        "__shfl_xor_sync" => I::Shfl(ShflKind::Xor),
        "__ballot_sync" => I::Vote(VoteKind::Ballot),
        "__any_sync" => I::Vote(VoteKind::Any),
        "__all_sync" => I::Vote(VoteKind::All),
        "__activemask" => I::ActiveMask,
        "min" | "fminf" | "fmin" => I::Math(M::Min),
        "max" | "fmaxf" | "fmax" => I::Math(M::Max),
        "abs" | "fabsf" | "fabs" => I::Math(M::Abs),
        "sqrtf" | "sqrt" => I::Math(M::Sqrt),
        "rsqrtf" => I::Math(M::Rsqrt),
        "floorf" | "floor" => I::Math(M::Floor),
        "ceilf" | "ceil" => I::Math(M::Ceil),
        "truncf" | "trunc" => I::Math(M::Trunc),
        "roundf" | "round" => I::Math(M::Round),
        "expf" | "exp" | "__expf" => I::Math(M::Exp),
        "exp2f" | "exp2" => I::Math(M::Exp2),
        "logf" | "log" | "__logf" => I::Math(M::Log),
        "log2f" | "log2" => I::Math(M::Log2),
        "sinf" | "sin" | "__sinf" => I::Math(M::Sin),
        "cosf" | "cos" | "__cosf" => I::Math(M::Cos),
        "tanf" | "tan" => I::Math(M::Tan),
        "powf" | "pow" | "__powf" => I::Math(M::Pow),
        "fmodf" | "fmod" => I::Math(M::Fmod),
        "__fdividef" => I::Math(M::Div),
        "fmaf" | "fma" | "__fmaf_rn" => I::Math(M::Fma),
        "__fmul_rn" => I::Math(M::MulRn),
        "__fadd_rn" => I::Math(M::AddRn),
        "__fsub_rn" => I::Math(M::SubRn),
        _ => return None,
    })
}

fn unsupported_function(name: &str) -> Option<&'static str> {
    Some(match name {
        "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" => "barrier reductions",
        "atomicAdd_block" | "atomicAdd_system" => "this atomic variant",
        "__stcg" | "__stcs" | "__stwt" => "cache-hinted stores; use a plain store",
        "malloc" | "free" | "memcpy" | "memset" | "cudaMalloc" | "cudaMemcpy" => {
            "memory management inside kernels or host API"
        }
        "__match_any_sync" | "__match_all_sync" | "__reduce_add_sync" => "this warp intrinsic",
        "tex1D" | "tex2D" | "tex1Dfetch" | "surf2Dread" => "textures and surfaces",
        "clock" | "clock64" => "clock(): warpdbg's time is its step count, shown in the header",
        "assert" => "device-side assert",
        _ => return None,
    })
}

/// The visible name closest to a misspelt one (edit distance at most 2).
fn closest(name: &str, candidates: &[String]) -> Option<String> {
    /// Edits from `a` to `b`, an adjacent transposition (`tdi` for `tid`) counting as one, like the typo it is
    /// (optimal string alignment distance).
    fn dist(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, x) in d[0].iter_mut().enumerate() {
            *x = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let subst = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]) as usize;
                d[i][j] = subst.min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }
    // The distance takes time (and memory) in the product of the lengths: past typo-sized names, no hint.
    if name.len() > 64 {
        return None;
    }
    let limit = if name.len() <= 3 { 1 } else { 2 };
    candidates
        .iter()
        .filter(|c| c.as_str() != name && c.len().abs_diff(name.len()) <= limit)
        .map(|c| (dist(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, (*c).clone()))
        .map(|(_, c)| c.clone())
}

/// Writes string-literal arguments of `%s` (`__FILE__`, a macro's `#x`) into the format itself: device code
/// has no strings to pass, but a literal's text is known now. Returns the format and the other arguments.
fn splice_string_args<'a>(fmt: &str, args: &'a [ast::Expr]) -> (String, Vec<&'a ast::Expr>) {
    let mut out = String::with_capacity(fmt.len());
    let mut rest = vec![];
    let mut args = args.iter();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push_str("%%");
            continue;
        }
        let mut spec = String::from('%');
        while let Some(&n) = chars.peek() {
            spec.push(n);
            chars.next();
            if n.is_ascii_alphabetic() && !matches!(n, 'l' | 'h' | 'z' | 'j' | 't' | 'L') {
                break;
            }
        }
        let stars = spec.matches('*').count();
        for _ in 0..stars {
            rest.extend(args.next());
        }
        match args.next() {
            Some(ast::Expr { kind: A::Str(s), .. }) if spec.ends_with('s') && stars == 0 => {
                out.push_str(&s.replace('%', "%%"));
            }
            Some(a) => {
                out.push_str(&spec);
                rest.push(a);
            }
            None => out.push_str(&spec),
        }
    }
    rest.extend(args);
    (out, rest)
}

/// The type a pointer's integer offset is computed in: 32 bits (as `PtrAdd` takes it) unless it is 64 bits wide.
fn index_scalar(s: Scalar) -> Scalar {
    match s.promote() {
        w @ (Scalar::I64 | Scalar::U64) => w,
        Scalar::U32 => Scalar::U32,
        _ => Scalar::I32,
    }
}

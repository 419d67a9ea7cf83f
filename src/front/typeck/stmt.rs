//! Statements and local declarations.

use std::collections::HashMap;

use super::checker::{Binding, Checker};
use super::layout::memory_elem;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::source::Span;
use crate::front::tast::*;
use crate::front::types::Type;

impl Checker {
    // ---- statements ----

    pub(super) fn block(&mut self, stmts: &[ast::Stmt]) -> Vec<Stmt> {
        self.scopes.push(HashMap::new());
        let out = stmts.iter().flat_map(|s| self.stmt(s)).collect();
        self.scopes.pop();
        out
    }

    /// One parsed statement; a declaration of several names becomes several statements.
    pub(super) fn stmt(&mut self, s: &ast::Stmt) -> Vec<Stmt> {
        let span = s.span;
        self.type_cache.clear();
        let one = |kind| vec![Stmt { kind, span }];
        match &s.kind {
            ast::StmtKind::Decl(d) => self.decl(d),
            ast::StmtKind::Expr(ast::Expr { kind: A::Assign { op: None, target: lhs, value: rhs }, span: aspan }) => {
                match self.struct_assign(lhs, rhs, *aspan) {
                    Some(stmts) => one(StmtKind::Block(stmts)),
                    None => one(StmtKind::Expr(self.expr(&ast::Expr {
                        kind: A::Assign { op: None, target: lhs.clone(), value: rhs.clone() },
                        span: *aspan,
                    }))),
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
                if self.loops == 0 && !(is_break && self.switches > 0) {
                    let what = if is_break { "break" } else { "continue" };
                    self.err(
                        Diagnostic::new(ErrorCode::Syntax, span, format!("`{what}` outside of a loop"))
                            .label("not in a loop"),
                    );
                }
                one(if is_break { StmtKind::Break } else { StmtKind::Continue })
            }
            ast::StmtKind::Return(value) if self.ret_slot.is_some() || self.ret_this => {
                self.struct_return(value.as_ref(), span)
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
                        // Deducing an `auto` return type: the first return's value gives it.
                        if let Some(slot @ None) = &mut self.auto_ret {
                            *slot = Some(e.ty.clone());
                        }
                        Some(self.convert(e, &ty, "return value"))
                    }
                };
                one(StmtKind::Return(value))
            }
            ast::StmtKind::Empty => vec![],
            ast::StmtKind::Switch { cond, body } => self.switch(cond, body, span),
            ast::StmtKind::Case(_) | ast::StmtKind::Default => {
                self.err(
                    Diagnostic::new(ErrorCode::Syntax, span, "a `case` or `default` label outside of a `switch`")
                        .label("not directly in a switch's braces"),
                );
                vec![]
            }
            // The parser reads these only in host code.
            ast::StmtKind::Goto(_) | ast::StmtKind::Label(_) => {
                self.err(
                    Diagnostic::unsupported(span, "`goto` in device code").hint("write it with if/else or a loop"),
                );
                vec![]
            }
            ast::StmtKind::Try { .. } => {
                // CUDA device code has no exceptions either.
                self.err(Diagnostic::unsupported(span, "`try` in device code"));
                vec![]
            }
            ast::StmtKind::ForRange { .. } => {
                self.err(
                    Diagnostic::unsupported(span, "range-based `for` in device code")
                        .hint("write it with an index: for (int i = 0; i < n; i++)"),
                );
                vec![]
            }
        }
    }

    pub(super) fn scoped_stmt(&mut self, s: &ast::Stmt) -> Stmt {
        self.scopes.push(HashMap::new());
        let mut v = self.stmt(s);
        self.scopes.pop();
        if v.len() == 1 { v.pop().expect("one statement") } else { Stmt { kind: StmtKind::Block(v), span: s.span } }
    }

    /// `switch (cond) { case 1: ...; default: ... }`: labels directly in the braces (not in nested blocks).
    fn switch(&mut self, cond: &ast::Expr, body: &ast::Stmt, span: Span) -> Vec<Stmt> {
        let cond = self.expr(cond);
        let ty = match cond.ty.scalar() {
            Some(s) if s.is_integer() => Type::Scalar(s.promote()),
            _ if cond.ty.is_error() => Type::Error,
            _ => {
                return vec![Stmt {
                    kind: StmtKind::Expr(
                        self.type_error(cond.span, format!("a `switch` needs an integer, not `{}`", cond.ty)),
                    ),
                    span,
                }];
            }
        };
        let cond = self.convert(cond, &ty, "the switch value");
        let items = match &body.kind {
            ast::StmtKind::Block(items) => items.as_slice(),
            _ => std::slice::from_ref(body),
        };
        self.scopes.push(HashMap::new());
        self.switches += 1;
        let (mut labels, mut out) = (vec![], vec![]);
        for item in items {
            match &item.kind {
                ast::StmtKind::Case(v) => {
                    let e = self.expr(v);
                    let e = self.convert(e, &ty, "a case value");
                    // The constant's bits as the IR holds them (`const_bits`: zero-extended from its width).
                    match self.const_int(&e).zip(self.const_bits(&e)) {
                        Some((k, bits)) if labels.iter().any(|&(l, _)| l == Some(bits)) => {
                            self.err(Diagnostic::new(ErrorCode::Type, item.span, format!("duplicate `case {k}`")))
                        }
                        Some((_, bits)) => labels.push((Some(bits), out.len())),
                        None if e.ty.is_error() => {}
                        None => self.err(
                            Diagnostic::new(ErrorCode::Type, v.span, "a `case` value must be a constant")
                                .label("not known at compile time"),
                        ),
                    }
                }
                ast::StmtKind::Default if labels.iter().any(|(l, _)| l.is_none()) => {
                    self.err(Diagnostic::new(ErrorCode::Syntax, item.span, "a second `default` in one `switch`"))
                }
                ast::StmtKind::Default => labels.push((None, out.len())),
                _ => out.extend(self.stmt(item)),
            }
        }
        self.switches -= 1;
        self.scopes.pop();
        vec![Stmt { kind: StmtKind::Switch { cond, labels, body: out }, span }]
    }

    pub(super) fn loop_body(&mut self, s: &ast::Stmt) -> Stmt {
        self.loops += 1;
        let b = self.scoped_stmt(s);
        self.loops -= 1;
        b
    }

    pub(super) fn decl(&mut self, d: &ast::Decl) -> Vec<Stmt> {
        let mut out = vec![];
        for dc in &d.declarators {
            // `const float &w = weights[k];` reads as a copy (what it names does not change while it lives,
            // in the code courses write); `float &r = a[i];` would store through it, not built yet.
            if dc.reference && !d.ty.is_const {
                self.err(
                    Diagnostic::unsupported(dc.name.span, "a non-const reference variable in device code")
                        .hint("use a pointer: `float *r = &a[i]; *r += x;`"),
                );
                self.declare_local(&dc.name, Type::Error, false, None);
                continue;
            }
            let ty = if d.ty.named.as_deref() == Some("auto") {
                self.auto_type(dc.init.as_ref(), dc.name.span)
            } else {
                self.resolve_type(&d.ty, dc.pointers)
            };
            // A declaration that is rejected still declares its name (with the error type), so that its uses
            // are not reported as undeclared on top.
            // A host function pointer's type (its "function pointers" error is recorded): its initialiser (a
            // device function's name) is not an expression device code has.
            if d.ty.func.is_some() {
                self.declare_local(&dc.name, Type::Error, false, None);
                continue;
            }
            if ty == Type::Void {
                self.err(Diagnostic::new(ErrorCode::Type, dc.name.span, "a variable cannot have type void"));
                self.declare_local(&dc.name, Type::Error, false, None);
                continue;
            }
            if d.shared && d.is_extern {
                self.local_extern_shared(d, dc, &ty);
                continue;
            }
            if matches!(ty, Type::Struct(_)) && !d.shared && !self.lives_in_memory(&dc.name, &ty) {
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
            // `int dx[] = {-1, 1, 0, 0};`, `char s[] = "abc";`: the initialiser gives the outermost size.
            let sized;
            let dc = match dc.open_len() {
                Some(n) => {
                    sized = open_sized(dc, n);
                    &sized
                }
                None => dc,
            };
            // `int lo; minmax(a, &lo);`: a variable whose address is taken is in memory, not a register.
            if matches!(ty, Type::Struct(_)) && dc.dims.is_empty() && self.lives_in_memory(&dc.name, &ty) {
                out.extend(self.addressed_struct(d.span, dc, &ty));
                continue;
            }
            if !dc.dims.is_empty() || self.lives_in_memory(&dc.name, &ty) {
                let stmts = self.local_array(d.span, dc, &ty);
                out.extend(stmts);
                continue;
            }
            let init = dc.init.as_ref().map(|e| {
                // `int n(4);`, `float x{1.5f};`: one value in parentheses or braces.
                let e = match &e.kind {
                    A::InitList(items) if items.len() == 1 => &items[0],
                    _ => e,
                };
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
    pub(super) fn shared_decl(&mut self, d: &ast::Decl, dc: &ast::Declarator, ty: Type) -> bool {
        if let Some(init) = &dc.init {
            self.err(
                Diagnostic::new(ErrorCode::Type, init.span, "a __shared__ variable cannot have an initialiser")
                    .hint("assign it in the kernel body, e.g. `if (threadIdx.x == 0) s = 0; __syncthreads();`"),
            );
        }
        let Some(elem) = memory_elem(&ty) else {
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
}

/// Declarator `dc` (`a[]` with an initialiser) with its outermost size written out as `n`.
fn open_sized(dc: &ast::Declarator, n: usize) -> ast::Declarator {
    let size =
        ast::Expr { kind: A::Int { value: n as u64, unsigned: false, long: false, decimal: true }, span: dc.name.span };
    ast::Declarator {
        dims: std::iter::once(size).chain(dc.dims.iter().cloned()).collect(),
        open_size: false,
        ..dc.clone()
    }
}

//! Functions: their signatures (declared before any body is checked, so calls may come first), their types
//! as written, and their bodies.

use std::collections::HashMap;

use super::addressed;
use super::checker::{Checker, Signature};
use crate::front::ast::{self, FnKind};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::tast::*;
use crate::front::types::Type;

impl Checker {
    pub(super) fn declare_functions(&mut self, functions: &[ast::Function]) {
        for (i, f) in functions.iter().enumerate() {
            let before = self.diags.len();
            self.declare_function(f, i);
            self.defer(FnId(i as u32), before);
        }
    }

    pub(super) fn declare_function(&mut self, f: &ast::Function, i: usize) {
        {
            // `auto`: deduced from the body once every signature is known.
            let auto = f.ret.named.as_deref() == Some("auto") && f.ret.pointers == 0;
            let ret = if auto { Type::Void } else { self.resolve_type(&f.ret, 0) };
            let params: Vec<Type> = f.params.iter().map(|p| self.resolve_type(&p.ty, 0)).collect();
            let same_params = |c: &Checker, id: FnId| c.sigs[id.0 as usize].params == params;
            // Overloads (`gpdf(float)` and `gpdf(double)`; kernels too, as CUDA by Example's `float_to_color` for
            // `unsigned char *` and `uchar4 *` pixels) are told apart by their parameter types at each call.
            let is_overload = self.fns.get(&f.name.name).is_some_and(|&prev| {
                !same_params(self, prev)
                    && self.overloads.get(&f.name.name).is_none_or(|ids| ids.iter().all(|&o| !same_params(self, o)))
                    && self.sigs[prev.0 as usize].kind == f.kind
            });
            if is_overload {
                let first = self.fns[&f.name.name];
                let ids = self.overloads.entry(f.name.name.clone()).or_insert_with(|| vec![first]);
                ids.push(FnId(i as u32));
            } else if let Some(&prev) = self.fns.get(&f.name.name) {
                let prev_span = self.sigs[prev.0 as usize].span;
                self.err(
                    Diagnostic::new(ErrorCode::Name, f.name.span, format!("`{}` is defined twice", f.name.name))
                        .label("second definition")
                        .with_secondary(prev_span, "first defined here")
                        .hint("two functions of one name need different parameter types"),
                );
            } else {
                self.fns.insert(f.name.name.clone(), FnId(i as u32));
            }
            if f.kind == FnKind::Global && ret != Type::Void {
                self.err(
                    Diagnostic::new(ErrorCode::Type, f.ret.span, "a __global__ function must return void")
                        .label("here"),
                );
            }
            let defaults = f.params.iter().map(|p| p.default.clone()).collect();
            let refs = f.params.iter().map(|p| p.reference && !p.ty.is_const).collect();
            self.sigs.push(Signature { ret, params, defaults, refs, kind: f.kind, span: f.span });
        }
    }

    pub(super) fn resolve_type(&mut self, spec: &ast::TypeSpec, extra_pointers: u8) -> Type {
        if spec.func.is_some() {
            // A typedef'd host function pointer (`kernel_t`) named in device code.
            self.err(
                Diagnostic::unsupported(spec.span, "function pointers")
                    .hint("call the function by its name, choosing with `if` or `switch`"),
            );
            return Type::Error;
        }
        let base = match spec.base {
            _ if spec.named.is_some() => {
                let name = spec.named.clone().unwrap_or_default();
                self.struct_type(&name, spec.span)
            }
            base => Type::from_base(base),
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

    pub(super) fn function(&mut self, f: &ast::Function, id: FnId) -> Function {
        self.current_fn = Some(id);
        self.locals.clear();
        self.struct_locals.clear();
        self.shared.clear();
        self.scopes = vec![HashMap::new()];
        self.loops = 0;
        self.switches = 0;
        self.calls.clear();
        self.by_ref.clear();
        self.type_cache.clear();
        self.reported_unavailable.clear();
        self.ret = self.sigs[id.0 as usize].ret.clone();
        self.addressed = addressed::addressed_names(&f.body);
        let mut prologue = vec![];
        // The slot a returned struct goes to, and `this`: hidden first parameters.
        let mut params = self.hidden_params(id, f.span);
        for (p, ty) in f.params.iter().zip(self.sigs[id.0 as usize].params.clone()) {
            self.check_reference_param(p, &ty);
            if ty == Type::Void {
                self.err(Diagnostic::new(ErrorCode::Type, p.ty.span, "a parameter cannot have type void"));
            }
            if matches!(ty, Type::Struct(_)) {
                // A struct by value: one parameter per field, as a struct variable; by (non-const) reference,
                // the caller's own fields.
                let ids = self.struct_param(&p.name, ty);
                if p.reference && !p.ty.is_const {
                    self.by_ref.extend(&ids);
                }
                params.extend(ids);
                continue;
            }
            let is_const = p.ty.is_const && p.ty.pointers == 0;
            let id = self.declare_local(&p.name, ty.clone(), is_const, None);
            if self.lives_in_memory(&p.name, &ty) {
                prologue.extend(self.addressed_param(&p.name, &ty, id));
            }
            // `double &z`: the caller's variable (or array element) itself; `const double &x` is a copy.
            if p.reference && !p.ty.is_const {
                self.by_ref.push(id);
            }
            params.push(id);
        }
        let mut body = self.block(&f.body);
        if !prologue.is_empty() {
            prologue.append(&mut body);
            body = prologue;
        }
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
            by_ref: std::mem::take(&mut self.by_ref),
        }
    }

    /// `auto f(...) { return x; }`: the return type is the first returned value's, found by checking the body
    /// once beforehand (its diagnostics come again when it is checked for real). No value returned: void.
    pub(super) fn deduce_auto_returns(&mut self, functions: &[ast::Function]) {
        for (i, f) in functions.iter().enumerate() {
            if f.ret.named.as_deref() != Some("auto") || f.ret.pointers > 0 {
                continue;
            }
            let (diags, globals, requests) = (self.diags.len(), self.globals.len(), self.template_requests.len());
            self.auto_ret = Some(None);
            self.sigs[i].ret = Type::Error;
            let _ = self.function(f, FnId(i as u32));
            let ty = self.auto_ret.take().flatten();
            self.diags.truncate(diags);
            self.globals.truncate(globals);
            self.template_requests.truncate(requests);
            self.sigs[i].ret = match ty {
                Some(t) if !matches!(t, Type::Struct(_)) => t,
                _ => Type::Void,
            };
        }
    }
}

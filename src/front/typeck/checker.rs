//! The type checker's state ([`Checker`]) and what every part of it uses: errors, scopes and locals.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::member_table::Members;
use crate::front::ast::{self, FnKind};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::launch::Mode;
use crate::front::source::Span;
use crate::front::tast::*;
use crate::front::template::TemplateDef;
use crate::front::types::{StructDef, Type};

#[derive(Clone)]
/// A function's signature, as calls check their arguments against it.
pub(super) struct Signature {
    pub(super) ret: Type,
    pub(super) params: Vec<Type>,
    /// Default arguments, by parameter.
    pub(super) defaults: Vec<Option<ast::Expr>>,
    /// Non-const reference parameters (`Vec3 &v`): the caller's variable itself.
    pub(super) refs: Vec<bool>,
    pub(super) kind: FnKind,
    pub(super) span: Span,
}

#[derive(Clone, Copy)]
/// What a name in scope stands for.
pub(super) enum Binding {
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

/// A struct variable: its type and one local per scalar field (path `a.b` -> local).
#[derive(Clone, Debug)]
pub(super) struct StructLocal {
    pub ty: Type,
    pub leaves: Vec<(String, LocalId, Type)>,
}

#[derive(Default)]
/// The type checker's state: the file's declarations, and the function being checked. Its methods are
/// spread over this module's siblings, one concern each.
pub(super) struct Checker {
    pub(super) mode: Mode,
    /// The first pre-CUDA-9 warp function used (see [`Program::legacy_warp`]).
    pub(super) legacy_warp: Option<String>,
    /// The ITS lesson about legacy warp functions was given (once per file).
    pub(super) legacy_taught: bool,
    /// File-scope variables (and `extern __shared__` arrays of functions), by [`GlobalId`].
    pub(super) globals: Vec<GlobalVar>,
    /// File-scope names, looked up after every function scope.
    pub(super) global_scope: HashMap<String, Binding>,
    /// The typed values of file-scope constants.
    pub(super) constants: Vec<Expr>,
    /// The file's function templates, for calls that deduce their arguments.
    pub(super) templates: HashMap<String, TemplateDef>,
    /// Instances a call needs that are not parsed yet (see [`Program::template_requests`]).
    pub(super) template_requests: Vec<TemplateRequest>,
    /// Device functions of one name with different parameter types, all of them (the first is in `fns`).
    pub(super) overloads: HashMap<String, Vec<FnId>>,
    /// Host functions of the file (skipped by the parser).
    pub(super) host_functions: Vec<ast::Ident>,
    /// The file's structs by name.
    pub(super) structs: HashMap<String, Arc<StructDef>>,
    /// The function being checked.
    pub(super) current_fn: Option<FnId>,
    /// The current function's struct variables.
    pub(super) struct_locals: Vec<StructLocal>,
    pub(super) fns: HashMap<String, FnId>,
    pub(super) sigs: Vec<Signature>,
    pub(super) diags: Vec<Diagnostic>,
    // Per-function state.
    pub(super) locals: Vec<Local>,
    pub(super) shared: Vec<SharedArray>,
    pub(super) scopes: Vec<HashMap<String, Binding>>,
    pub(super) loops: u32,
    /// `switch` statements the current statement is in (`break` leaves the innermost).
    pub(super) switches: u32,
    pub(super) ret: Type,
    pub(super) calls: Vec<FnId>,
    /// Member functions and what they are members of (see `members`).
    pub(super) members: Members,
    /// The current function's parameters passed by reference.
    pub(super) by_ref: Vec<LocalId>,
    /// Names whose address the current function takes: its scalar and struct variables of these names live
    /// in per-thread memory (see `addressed`).
    pub(super) addressed: HashSet<String>,
    /// The struct variable a struct-returning function's `return` fills (by struct-local index).
    pub(super) ret_slot: Option<u32>,
    /// The current function returns `*this` by reference: `return *this;` returns nothing more.
    pub(super) ret_this: bool,
    /// Types of expressions already worked out for operator lookup, in the current statement.
    pub(super) type_cache: HashMap<(usize, u32, u32), Type>,
    /// Items the parser set aside (see [`ast::Unavailable`]).
    pub(super) unavailable: Vec<ast::Unavailable>,
    pub(super) enumerators: Vec<(String, i64)>,
    /// Unsupported constructs by the function they are in (see [`Program::deferred`]).
    pub(super) deferred: Vec<(FnId, Diagnostic)>,
    /// Unavailable items already reported in the current function (each once).
    pub(super) reported_unavailable: Vec<String>,
    /// While deducing an `auto` return type: the first returned value's type, once seen.
    pub(super) auto_ret: Option<Option<Type>>,
}

/// CUDA's built-in index vectors.
pub(super) const BUILTIN_VECTORS: [&str; 4] = ["threadIdx", "blockIdx", "blockDim", "gridDim"];

impl Checker {
    pub(super) fn err(&mut self, d: Diagnostic) {
        if self.diags.len() < 50 {
            self.diags.push(d);
        }
    }

    /// Moves the unsupported constructs reported since diagnostic `before` out of the errors, as function
    /// `id`'s: they are errors only if the launched kernel reaches `id` (see [`Program::deferred`]).
    pub(super) fn defer(&mut self, id: FnId, before: usize) {
        let mut i = before.min(self.diags.len());
        while i < self.diags.len() {
            if self.diags[i].code == ErrorCode::Unsupported {
                let d = self.diags.remove(i);
                self.deferred.push((id, d));
            } else {
                i += 1;
            }
        }
    }

    /// Reached code uses `name`, an item the parser set aside as one of `kinds`: reports the item's own
    /// diagnostic (once per function), pointing at the use too. False if `name` is no such item.
    pub(super) fn unavailable_use(&mut self, name: &str, kinds: &[ast::ItemKind], span: Span) -> bool {
        let Some(u) = self.unavailable.iter().find(|u| u.name == name && kinds.contains(&u.kind)) else {
            return false;
        };
        let d = u.diag.clone().with_secondary(span, format!("`{name}` is used here"));
        if !self.reported_unavailable.iter().any(|n| n == name) {
            self.reported_unavailable.push(name.to_string());
            self.err(d);
        }
        true
    }

    pub(super) fn type_error(&mut self, span: Span, msg: impl Into<String>) -> Expr {
        self.err(Diagnostic::new(ErrorCode::Type, span, msg));
        Expr::error(span)
    }

    /// A local with no name in scope (a struct variable's field).
    pub(super) fn new_local(&mut self, name: &ast::Ident, ty: Type) -> LocalId {
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(Local { name: name.name.clone(), ty, span: name.span, is_const: false, const_value: None });
        id
    }

    pub(super) fn declare_local(
        &mut self,
        name: &ast::Ident,
        ty: Type,
        is_const: bool,
        const_value: Option<i64>,
    ) -> LocalId {
        self.check_redeclared(name);
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(Local { name: name.name.clone(), ty, span: name.span, is_const, const_value });
        self.bind(name, Binding::Local(id));
        id
    }

    pub(super) fn check_redeclared(&mut self, name: &ast::Ident) {
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
        // (`warpSize` is an ordinary variable of CUDA's headers: `const int warpSize = 32;` shadows it.)
        if BUILTIN_VECTORS.contains(&name.name.as_str()) {
            self.err(Diagnostic::new(
                ErrorCode::Name,
                name.span,
                format!("`{}` is a CUDA built-in and cannot be redeclared", name.name),
            ));
        }
    }

    pub(super) fn bind(&mut self, name: &ast::Ident, b: Binding) {
        self.scopes.last_mut().expect("a scope is always open").insert(name.name.clone(), b);
    }

    pub(super) fn lookup(&self, name: &str) -> Option<Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied()).or_else(|| self.global_scope.get(name).copied())
    }

    /// Names visible here, for "did you mean" hints.
    pub(super) fn visible_names(&self) -> Vec<String> {
        let mut v: Vec<String> =
            self.scopes.iter().chain(std::iter::once(&self.global_scope)).flat_map(|s| s.keys().cloned()).collect();
        v.extend(BUILTIN_VECTORS.iter().map(|s| s.to_string()));
        v.push("warpSize".into());
        v
    }
}

//! Name resolution and type checking: [`ast`] -> [`tast`], with C's promotions and conversions made explicit.

mod builtins;
mod call;
mod curand;
mod deduce;
mod desugar;
mod expr;
mod globals;
mod group_ops;
mod groups;
mod launch;
mod members;
mod stmt;
mod struct_ref;
mod structs;

pub use structs::leaves as struct_leaves;

use std::collections::HashMap;

use super::ast::{self, BaseType, BinaryOp, ExprKind as A, FnKind, UnaryOp};
use super::diagnostic::{Diagnostic, ErrorCode};
use super::source::Span;
use super::tast::*;
use super::types::{Scalar, Type};
use crate::front::launch::Mode;

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
    let mut ck = Checker {
        mode,
        templates: templates.clone(),
        host_functions: tu.host_functions.clone(),
        unavailable: tu.unavailable.clone(),
        ..Checker::default()
    };
    ck.declare_structs(tu);
    ck.declare_globals(tu);
    // The file's functions, friends defined in classes, then member functions (see `members`).
    let (all, first_member) = ck.all_functions(tu);
    ck.declare_functions(&all[..first_member]);
    ck.declare_members(&all, first_member);
    ck.deduce_auto_returns(&all[..first_member]);
    let mut program = Program::default();
    for (i, f) in all.iter().enumerate() {
        let before = ck.diags.len();
        let func = ck.function(f, FnId(i as u32));
        if ck.members.is_memory_variant(FnId(i as u32)) {
            // The same body again, with `this` in memory: its mistakes were reported for the first.
            ck.diags.truncate(before);
        }
        ck.defer(FnId(i as u32), before);
        program.functions.push(func);
    }
    ck.check_recursion(&program);
    program.unavailable = std::mem::take(&mut ck.unavailable);
    program.deferred = std::mem::take(&mut ck.deferred);
    program.legacy_warp = ck.legacy_warp.take();
    program.globals = std::mem::take(&mut ck.globals);
    program.template_requests = std::mem::take(&mut ck.template_requests);
    program.structs = std::mem::take(&mut ck.structs);
    program.enumerators = std::mem::take(&mut ck.enumerators);
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
    /// Non-const reference parameters (`Vec3 &v`): the caller's variable itself.
    refs: Vec<bool>,
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
    /// Device functions of one name with different parameter types, all of them (the first is in `fns`).
    overloads: HashMap<String, Vec<FnId>>,
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
    /// `switch` statements the current statement is in (`break` leaves the innermost).
    switches: u32,
    ret: Type,
    calls: Vec<FnId>,
    /// Member functions and what they are members of (see `members`).
    members: members::Members,
    /// The current function's parameters passed by reference.
    by_ref: Vec<LocalId>,
    /// The struct variable a struct-returning function's `return` fills (by struct-local index).
    ret_slot: Option<u32>,
    /// The current function returns `*this` by reference: `return *this;` returns nothing more.
    ret_this: bool,
    /// Types of expressions already worked out for operator lookup, in the current statement.
    type_cache: HashMap<(usize, u32, u32), Type>,
    /// Items the parser set aside (see [`ast::Unavailable`]).
    unavailable: Vec<ast::Unavailable>,
    enumerators: Vec<(String, i64)>,
    /// Unsupported constructs by the function they are in (see [`Program::deferred`]).
    deferred: Vec<(FnId, Diagnostic)>,
    /// Unavailable items already reported in the current function (each once).
    reported_unavailable: Vec<String>,
    /// While deducing an `auto` return type: the first returned value's type, once seen.
    auto_ret: Option<Option<Type>>,
}

const BUILTIN_VECTORS: [&str; 4] = ["threadIdx", "blockIdx", "blockDim", "gridDim"];

impl Checker {
    fn err(&mut self, d: Diagnostic) {
        if self.diags.len() < 50 {
            self.diags.push(d);
        }
    }

    /// Moves the unsupported constructs reported since diagnostic `before` out of the errors, as function
    /// `id`'s: they are errors only if the launched kernel reaches `id` (see [`Program::deferred`]).
    fn defer(&mut self, id: FnId, before: usize) {
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

    /// `auto f(...) { return x; }`: the return type is the first returned value's, found by checking the body
    /// once beforehand (its diagnostics come again when it is checked for real). No value returned: void.
    fn deduce_auto_returns(&mut self, functions: &[ast::Function]) {
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

    /// Reached code uses `name`, an item the parser set aside as one of `kinds`: reports the item's own
    /// diagnostic (once per function), pointing at the use too. False if `name` is no such item.
    fn unavailable_use(&mut self, name: &str, kinds: &[ast::ItemKind], span: Span) -> bool {
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

    fn type_error(&mut self, span: Span, msg: impl Into<String>) -> Expr {
        self.err(Diagnostic::new(ErrorCode::Type, span, msg));
        Expr::error(span)
    }

    // ---- declarations ----

    fn declare_functions(&mut self, functions: &[ast::Function]) {
        for (i, f) in functions.iter().enumerate() {
            let before = self.diags.len();
            self.declare_function(f, i);
            self.defer(FnId(i as u32), before);
        }
    }

    fn declare_function(&mut self, f: &ast::Function, i: usize) {
        {
            // `auto`: deduced from the body once every signature is known.
            let auto = f.ret.named.as_deref() == Some("auto") && f.ret.pointers == 0;
            let ret = if auto { Type::Void } else { self.resolve_type(&f.ret, 0) };
            let params: Vec<Type> = f.params.iter().map(|p| self.resolve_type(&p.ty, 0)).collect();
            let same_params = |c: &Checker, id: FnId| c.sigs[id.0 as usize].params == params;
            // Overloads (`gpdf(float)` and `gpdf(double)`) are told apart by their parameter types at each call.
            let is_overload = self.fns.get(&f.name.name).is_some_and(|&prev| {
                !same_params(self, prev)
                    && self.overloads.get(&f.name.name).is_none_or(|ids| ids.iter().all(|&o| !same_params(self, o)))
                    && self.sigs[prev.0 as usize].kind == FnKind::Device
                    && f.kind == FnKind::Device
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

    fn resolve_type(&mut self, spec: &ast::TypeSpec, extra_pointers: u8) -> Type {
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

    fn function(&mut self, f: &ast::Function, id: FnId) -> Function {
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
            by_ref: std::mem::take(&mut self.by_ref),
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
}

const INTRINSIC_NAMES: [&str; 62] = [
    "__syncthreads",
    "__syncthreads_count",
    "__syncthreads_and",
    "__syncthreads_or",
    "clock",
    "clock64",
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
        "__syncthreads_count" => I::SyncThreadsReduce(BarrierReduce::Count),
        "__syncthreads_and" => I::SyncThreadsReduce(BarrierReduce::And),
        "__syncthreads_or" => I::SyncThreadsReduce(BarrierReduce::Or),
        "clock" => I::Clock { wide: false },
        "clock64" => I::Clock { wide: true },
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
        "__fsqrt_rn" | "__dsqrt_rn" => I::Math(M::Sqrt),
        "__fdiv_rn" | "__ddiv_rn" => I::Math(M::Div),
        "__dadd_rn" => I::Math(M::AddRn),
        "__dmul_rn" => I::Math(M::MulRn),
        "__dsub_rn" => I::Math(M::SubRn),
        _ => return None,
    })
}

fn unsupported_function(name: &str) -> Option<&'static str> {
    Some(match name {
        "atomicAdd_block" | "atomicAdd_system" => "this atomic variant",
        "__stcg" | "__stcs" | "__stwt" => "cache-hinted stores; use a plain store",
        "malloc" | "free" | "memcpy" | "memset" | "cudaMalloc" | "cudaMemcpy" => {
            "memory management inside kernels or host API"
        }
        "__match_any_sync" | "__match_all_sync" | "__reduce_add_sync" => "this warp intrinsic",
        "tex1D" | "tex2D" | "tex1Dfetch" | "surf2Dread" => "textures and surfaces",
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

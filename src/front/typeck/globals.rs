//! File-scope variables: `__constant__` and `__device__` variables (global memory, initialised from their
//! initialisers), `__shared__` and `extern __shared__` arrays (per block; the extern ones are the launch's
//! dynamic shared memory), `const`/`constexpr` numbers (compile-time constants), and host variables, which
//! device code may not use.

use super::super::ast::{self, VarSpace};
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::{Scalar, Type};
use super::checker::{Binding, Checker};
use super::layout::memory_elem;
use crate::front::launch::Value;

/// The largest array a file-scope variable may be (elements times size), so a typo cannot exhaust memory.
const MAX_GLOBAL_BYTES: u32 = 64 << 20;

impl Checker {
    /// Declares every file-scope variable, before any function is checked.
    pub(super) fn declare_globals(&mut self, tu: &ast::TranslationUnit) {
        for g in &tu.globals {
            for dc in &g.decl.declarators {
                self.global(g.space, &g.decl, dc);
            }
        }
    }

    fn global(&mut self, space: VarSpace, d: &ast::Decl, dc: &ast::Declarator) {
        // A host function pointer (`void (*handler)(int)`), or a host variable that cannot be a constant (of any
        // type, the runtime's handles too: `cudaEvent_t start, stop;`): an error only where device code uses it.
        if space == VarSpace::Plain && (d.ty.func.is_some() || !d.ty.is_const) {
            self.global_scope.insert(dc.name.name.clone(), Binding::HostVar(dc.name.span));
            return;
        }
        let ty = self.resolve_type(&d.ty, dc.pointers);
        if ty.is_error() {
            return;
        }
        if space == VarSpace::Plain {
            let constant = d.ty.is_const && dc.dims.is_empty() && !dc.open_size && ty.scalar().is_some();
            match (&dc.init, constant) {
                (Some(init), true) => {
                    // Checked quietly: an initialiser device code cannot evaluate (`imin(32, n)`, a host call)
                    // makes a host variable C++ initialises when the program starts, as nvcc's does.
                    let errors = self.diags.len();
                    let v = self.expr(init);
                    let v = self.convert(v, &ty, "initialiser");
                    if v.ty.is_error() || self.const_bits(&v).is_none() {
                        self.diags.truncate(errors);
                        self.global_scope.insert(dc.name.name.clone(), Binding::HostVar(dc.name.span));
                        return;
                    }
                    let id = self.constants.len() as u32;
                    self.constants.push(v);
                    self.global_scope.insert(dc.name.name.clone(), Binding::Constant(id));
                }
                // A host variable: fine in a file, an error only where device code uses it.
                _ => {
                    self.global_scope.insert(dc.name.name.clone(), Binding::HostVar(dc.name.span));
                }
            }
            return;
        }
        // A struct (or array of them) without an initialiser is its fields' memory, shown as its scalars.
        let struct_elem = || dc.init.is_none().then(|| memory_elem(array_element(&ty))).flatten();
        let Some(elem) = element_scalar(&ty).or_else(struct_elem) else {
            // Set aside like the parser's items: an error only where reached code uses it.
            let what = if matches!(array_element(&ty), Type::Ptr { .. }) {
                "file-scope pointer variables"
            } else {
                "file-scope variables of struct type"
            };
            let diag = Diagnostic::unsupported(d.ty.span, what);
            self.unavailable.push(ast::Unavailable { name: dc.name.name.clone(), kind: ast::ItemKind::Variable, diag });
            return;
        };
        let extern_shared = space == VarSpace::Shared && d.is_extern;
        let Some(full) = self.global_type(&ty, dc, extern_shared) else { return };
        let mut init = vec![];
        if let Some(e) = &dc.init {
            if space == VarSpace::Shared {
                self.err(
                    Diagnostic::new(ErrorCode::Type, e.span, "a __shared__ variable cannot have an initialiser")
                        .hint("assign it in the kernel body, e.g. `if (threadIdx.x == 0) s = 0; __syncthreads();`"),
                );
                return;
            }
            init = self.init_values(e, elem);
        }
        if let (Type::Array(..), Some(e)) = (&full, &dc.init)
            && full.size() > 0
            && init.len() as u64 > (full.size() / elem.size()) as u64
        {
            self.err(Diagnostic::new(ErrorCode::Type, e.span, format!("too many initialisers for `{}`", dc.name.name)));
            return;
        }
        let full = match full {
            // `__constant__ float k[] = {1, 2, 3};`: the initialiser gives the length.
            Type::Array(e, 0) if !extern_shared => Type::Array(e, init.len().max(1) as u32),
            t => t,
        };
        if full.size() > MAX_GLOBAL_BYTES {
            self.err(Diagnostic::unsupported(
                dc.name.span,
                format!("file-scope arrays larger than {MAX_GLOBAL_BYTES} bytes"),
            ));
            return;
        }
        let space = match space {
            VarSpace::Shared => GlobalSpace::Shared { dynamic: extern_shared },
            VarSpace::Constant => GlobalSpace::Constant,
            _ => GlobalSpace::Device,
        };
        let id = GlobalId(self.globals.len() as u32);
        self.globals.push(GlobalVar {
            name: dc.name.name.clone(),
            ty: full,
            elem,
            space,
            init,
            span: dc.name.span,
            owner: None,
        });
        self.global_scope.insert(dc.name.name.clone(), Binding::Global(id));
    }

    /// The array type of a declarator's dimensions around `ty` (a dynamic array has length 0).
    fn global_type(&mut self, ty: &Type, dc: &ast::Declarator, open_allowed: bool) -> Option<Type> {
        let mut full = ty.clone();
        for dim in dc.dims.iter().rev() {
            let e = self.expr(dim);
            match self.const_int(&e) {
                Some(n) if n > 0 && n <= u32::MAX as i64 => full = Type::Array(Box::new(full), n as u32),
                _ if e.ty.is_error() => return None,
                _ => {
                    self.err(
                        Diagnostic::new(ErrorCode::Type, dim.span, "an array size must be a positive constant")
                            .label("not a constant known before the launch"),
                    );
                    return None;
                }
            }
        }
        if dc.open_size {
            if !open_allowed && dc.init.is_none() {
                self.err(
                    Diagnostic::new(ErrorCode::Type, dc.name.span, format!("`{}` needs a size", dc.name.name))
                        .hint("only `extern __shared__` arrays take their size from the launch"),
                );
                return None;
            }
            full = Type::Array(Box::new(full), 0);
        }
        Some(full)
    }

    /// An initialiser's scalar values, flattened (`{{1, 2}, {3, 4}}` is 1, 2, 3, 4).
    fn init_values(&mut self, e: &ast::Expr, elem: Scalar) -> Vec<Value> {
        let mut exprs = vec![];
        self.flatten_exprs(e, elem, &mut exprs);
        let mut out = vec![];
        for v in exprs {
            match self.const_bits(&v) {
                Some(bits) if elem.is_float() => {
                    let x = f64::from_bits(elem.convert_bits(Scalar::F64, bits));
                    out.push(Value::Float(x));
                }
                Some(bits) => out.push(Value::Int(elem.int_value(bits))),
                None if v.ty.is_error() => {}
                None => self.err(
                    Diagnostic::new(
                        ErrorCode::Type,
                        v.span,
                        "an initialiser of a file-scope variable must be constant",
                    )
                    .label("not known at compile time"),
                ),
            }
        }
        out
    }

    /// The raw bits of a constant expression of scalar type (literals, conversions, arithmetic on them).
    pub(super) fn const_bits(&self, e: &Expr) -> Option<u64> {
        let s = e.ty.scalar()?;
        if s.is_integer() {
            return self.const_int(e).map(|v| Scalar::I64.convert_bits(s, v as u64));
        }
        let float = |bits: u64| f64::from_bits(s.convert_bits(Scalar::F64, bits));
        let back = |x: f64| Scalar::F64.convert_bits(s, x.to_bits());
        Some(match &e.kind {
            ExprKind::Const(bits) => *bits,
            ExprKind::Convert(inner) => inner.ty.scalar()?.convert_bits(s, self.const_bits(inner)?),
            ExprKind::Unary(UnOp::Neg, a) => back(-float(self.const_bits(a)?)),
            ExprKind::Arith { op, left: a, right: b } => {
                let (x, y) = (float(self.const_bits(a)?), float(self.const_bits(b)?));
                back(match op {
                    ArithOp::Add => x + y,
                    ArithOp::Sub => x - y,
                    ArithOp::Mul => x * y,
                    ArithOp::Div => x / y,
                    _ => return None,
                })
            }
            _ => return None,
        })
    }

    /// `extern __shared__ T s[];` inside a function: the launch's dynamic shared memory, like one declared
    /// at file scope but visible only in this block.
    pub(super) fn local_extern_shared(&mut self, d: &ast::Decl, dc: &ast::Declarator, ty: &Type) {
        let Some(elem) = memory_elem(ty) else {
            self.err(Diagnostic::unsupported(d.ty.span, "__shared__ pointers"));
            return;
        };
        let Some(full) = self.global_type(ty, dc, true) else { return };
        let id = GlobalId(self.globals.len() as u32);
        let space = GlobalSpace::Shared { dynamic: dc.open_size };
        self.globals.push(GlobalVar {
            name: dc.name.name.clone(),
            ty: full,
            elem,
            space,
            init: vec![],
            span: dc.name.span,
            owner: None,
        });
        self.check_redeclared(&dc.name);
        self.bind(&dc.name, Binding::Global(id));
    }

    /// `float r[8];` in a function: a local array, one copy per thread, initialised where declared.
    pub(super) fn local_array(&mut self, span: Span, dc: &ast::Declarator, ty: &Type) -> Vec<Stmt> {
        let is_struct = matches!(array_element(ty), Type::Struct(_));
        let elem = element_scalar(ty).or_else(|| is_struct.then(|| memory_elem(array_element(ty))).flatten());
        let Some(elem) = elem.filter(|_| !(is_struct && dc.init.is_some())) else {
            let what = if is_struct { "initialisers of local arrays of structs" } else { "local arrays of pointers" };
            self.err(
                Diagnostic::unsupported(dc.name.span, what)
                    .hint(format!("assign the elements in the kernel body (`{}[0] = ...;`)", dc.name.name)),
            );
            self.declare_local(&dc.name, Type::Error, false, None);
            return vec![];
        };
        let Some(full) = self.global_type(ty, dc, false) else {
            self.declare_local(&dc.name, Type::Error, false, None);
            return vec![];
        };
        let full = match full {
            Type::Array(e, 0) => {
                let n = dc.init.as_ref().map_or(1, |i| match &i.kind {
                    ast::ExprKind::InitList(items) => items.len().max(1),
                    _ => 1,
                });
                Type::Array(e, n as u32)
            }
            t => t,
        };
        if full.size() > 64 * 1024 {
            self.err(Diagnostic::unsupported(dc.name.span, "local arrays larger than 64 KiB per thread"));
            return vec![];
        }
        let id = GlobalId(self.globals.len() as u32);
        self.globals.push(GlobalVar {
            name: dc.name.name.clone(),
            ty: full.clone(),
            elem,
            space: GlobalSpace::Local,
            init: vec![],
            span: dc.name.span,
            owner: self.current_fn,
        });
        self.check_redeclared(&dc.name);
        self.bind(&dc.name, Binding::Global(id));
        // `= {1, 2}`: stores where the declaration is, the rest zero (C's rule).
        let Some(init) = &dc.init else { return vec![] };
        // The values are evaluated where the declaration is, so they may be any expressions (`{a, b * 2}`).
        let mut values = vec![];
        self.flatten_exprs(init, elem, &mut values);
        let len = full.size() / elem.size();
        if values.len() as u32 > len {
            self.err(Diagnostic::new(
                ErrorCode::Type,
                init.span,
                format!("too many initialisers for `{}`", dc.name.name),
            ));
            return vec![];
        }
        let base = self.global_addr(id, dc.name.span);
        let base = Expr::new(base.kind, Type::ptr(Type::Scalar(elem), false), dc.name.span);
        let mut values = values.into_iter();
        (0..len)
            .map(|k| {
                let value = values.next().unwrap_or_else(|| Expr::new(ExprKind::Const(0), Type::Scalar(elem), span));
                let idx = Expr::new(ExprKind::Const(k as u64), Type::INT, span);
                let at = Expr::new(
                    ExprKind::PtrOffset {
                        ptr: Box::new(base.clone()),
                        index: Box::new(idx),
                        elem_size: elem.size(),
                        negate: false,
                    },
                    base.ty.clone(),
                    span,
                );
                let assign =
                    Expr::new(ExprKind::Assign(Place::Mem(Box::new(at)), Box::new(value)), Type::Scalar(elem), span);
                Stmt { kind: StmtKind::Expr(assign), span }
            })
            .collect()
    }

    /// An array's initialiser, flattened into values of its element type (`{{1, x}, {3, 4}}` is four).
    fn flatten_exprs(&mut self, e: &ast::Expr, elem: Scalar, out: &mut Vec<Expr>) {
        if let ast::ExprKind::InitList(items) = &e.kind {
            for item in items {
                self.flatten_exprs(item, elem, out);
            }
            return;
        }
        let v = self.expr(e);
        out.push(self.convert(v, &Type::Scalar(elem), "initialiser"));
    }

    /// `r[i]` where `r` is a local array: `i` checked against `r`'s first dimension.
    pub(super) fn checked_local_index(&mut self, base: &ast::Expr, b: Expr, i: Expr) -> Expr {
        let ast::ExprKind::Name(n) = &base.kind else { return i };
        let Some(Binding::Global(g)) = self.lookup(n) else { return i };
        if self.globals[g.0 as usize].space != GlobalSpace::Local {
            return i;
        }
        let ty = i.ty.clone();
        let span = i.span;
        Expr::new(ExprKind::Intrinsic(Intrinsic::CheckIndex { global: g.0 }, vec![i, b]), ty, span)
    }

    /// The address of a file-scope variable, typed as a pointer to it (or, for an array, to its first element).
    pub(super) fn global_addr(&self, id: GlobalId, span: Span) -> Expr {
        let g = &self.globals[id.0 as usize];
        // C++ gives `__constant__ int k[4]` the type `int[4]`: it decays to `int *` (passing it to an `int *`
        // parameter compiles); a write that names it is still diagnosed (`constant_target`).
        let is_const = false;
        let pointee = match &g.ty {
            Type::Array(e, _) => (**e).clone(),
            t => t.clone(),
        };
        Expr::new(ExprKind::GlobalAddr(id), Type::Ptr { elem: Box::new(pointee), is_const }, span)
    }

    /// A use of a file-scope variable's name as a value.
    pub(super) fn global_value(&mut self, b: Binding, n: &str, span: Span) -> Expr {
        match b {
            Binding::Global(id) => {
                let addr = self.global_addr(id, span);
                if matches!(self.globals[id.0 as usize].ty, Type::Array(..)) {
                    addr
                } else {
                    let ty = self.globals[id.0 as usize].ty.clone();
                    Expr::new(ExprKind::Load(Box::new(addr)), ty, span)
                }
            }
            Binding::Constant(i) => {
                let mut e = self.constants[i as usize].clone();
                e.span = span;
                e
            }
            Binding::HostVar(decl) => {
                self.err(
                    Diagnostic::new(ErrorCode::Type, span, format!("`{n}` is a host variable"))
                        .label("device code cannot use it")
                        .with_secondary(decl, "declared here without __device__ or __constant__")
                        .hint("declare it `__device__` (global memory) or `__constant__`, or pass it as an argument"),
                );
                Expr::error(span)
            }
            _ => Expr::error(span),
        }
    }

    /// The storage a file-scope scalar variable's name denotes (for assignments).
    pub(super) fn global_place(&mut self, b: Binding, n: &str, span: Span) -> Option<Place> {
        match b {
            Binding::Global(id) if !matches!(self.globals[id.0 as usize].ty, Type::Array(..)) => {
                Some(Place::Mem(Box::new(self.global_addr(id, span))))
            }
            _ => {
                let v = self.global_value(b, n, span);
                if !v.ty.is_error() {
                    self.err(
                        Diagnostic::new(ErrorCode::Type, span, format!("`{n}` is not assignable"))
                            .label("an array name or a constant is not a variable"),
                    );
                }
                None
            }
        }
    }

    /// Why a place in `__constant__` memory cannot be written, if it is one.
    pub(super) fn constant_target(&self, ptr: &Expr) -> Option<String> {
        let mut e = ptr;
        loop {
            match &e.kind {
                ExprKind::GlobalAddr(id) => {
                    let g = &self.globals[id.0 as usize];
                    return (g.space == GlobalSpace::Constant).then(|| g.name.clone());
                }
                ExprKind::PtrOffset { ptr, .. } => e = ptr,
                _ => return None,
            }
        }
    }
}

/// The element at the bottom of a (possibly array) type.
fn array_element(t: &Type) -> &Type {
    match t {
        Type::Array(e, _) => array_element(e),
        t => t,
    }
}

/// The scalar at the bottom of a (possibly array) type.
fn element_scalar(t: &Type) -> Option<Scalar> {
    match t {
        Type::Scalar(s) => Some(*s),
        Type::Array(e, _) => element_scalar(e),
        _ => None,
    }
}

/// The constant-memory write diagnostic.
pub(super) fn constant_write(span: Span, name: &str) -> Diagnostic {
    Diagnostic::new(ErrorCode::Type, span, format!("cannot write to `{name}`: it is __constant__ memory"))
        .label("kernels can only read constant memory")
        .hint("set it from the host with cudaMemcpyToSymbol, or give it an initialiser where it is declared")
}

//! Structs and CUDA's vector types (`float4`, `int2`, `dim3`, ...).
//!
//! In memory a struct has nvcc's layout and its fields are loads and stores at offsets (`p[i].x`, `p->y`).
//! A struct *variable* lives in registers, one local per field (`tmp.x`, `tmp.y`), so the debugger shows
//! each field; copying a struct copies field by field, and a vector type copied to or from memory first
//! checks the whole vector's alignment, as the GPU's 64- and 128-bit accesses require.

use crate::front::std_array;
use std::sync::Arc;

use super::super::ast::{self, ExprKind as A};
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::types::{StructDef, Type};
use super::checker::{BUILTIN_VECTORS, StructLocal};
use super::checker::{Binding, Checker};
use super::globals::constant_write;
use super::layout::{LeafPlaces, field_addr, leaves};
use super::struct_ref::StructRef;
use crate::front::builtin_types::{is_curand_state, vector_type};

/// Whether `ty` is CUDA's `dim3` (whose constructor fills missing dimensions with 1).
fn is_dim3(ty: &Type) -> bool {
    matches!(ty, Type::Struct(s) if s.name == "dim3")
}

impl Checker {
    /// Lays out the file's structs, in order (a struct may use those before it).
    pub(super) fn declare_structs(&mut self, tu: &ast::TranslationUnit) {
        for s in &tu.structs {
            let mut fields = vec![];
            // The struct's own name, for pointer fields (`list_elem *next`).
            if !s.name.name.is_empty() {
                let own = Arc::new(StructDef::incomplete(s.name.name.clone()));
                self.structs.entry(s.name.name.clone()).or_insert(own);
            }
            for (ts, dc) in &s.fields {
                let mut ty = match ts.named.as_deref() {
                    // A host class's runtime handle (`cudaEvent_t start_;`): 8 bytes, as the host keeps it.
                    Some("cudaEvent_t" | "cudaStream_t") => (0..dc.pointers)
                        .fold(Type::Scalar(crate::front::types::Scalar::U64), |t, _| Type::ptr(t, false)),
                    // A whole program's function-pointer field (`void (*kernel)(float *, int);`), which the host
                    // calls through; device code calling through it gets the "function pointers" error.
                    _ if let Some(f) = &ts.func => {
                        let ret = self.resolve_type(&f.ret, 0);
                        let params = f.params.iter().map(|p| self.resolve_type(p, 0)).collect();
                        let func = Type::Func(Arc::new((ret, params)));
                        (0..ts.pointers.saturating_add(dc.pointers)).fold(func, |t, _| Type::ptr(t, false))
                    }
                    _ => self.resolve_type(ts, dc.pointers),
                };
                if matches!(&ty, Type::Struct(d) if d.is_incomplete()) {
                    self.err(
                        Diagnostic::new(
                            ErrorCode::Type,
                            dc.name.span,
                            format!("field `{}` has incomplete type `{ty}`", dc.name.name),
                        )
                        .hint("a struct cannot contain itself; a pointer to it (`*`) can be a field"),
                    );
                    ty = Type::Error;
                }
                for dim in dc.dims.iter().rev() {
                    let e = self.expr(dim);
                    match self.const_int(&e) {
                        Some(n) if n > 0 && n < (1 << 24) => ty = Type::Array(Box::new(ty), n as u32),
                        _ => {
                            self.err(Diagnostic::new(
                                ErrorCode::Type,
                                dim.span,
                                "a field's array size must be a positive constant",
                            ));
                            ty = Type::Error;
                        }
                    }
                }
                fields.push((dc.name.name.clone(), ty));
            }
            let align = s.align.as_ref().and_then(|a| {
                let e = self.expr(a);
                self.const_int(&e)
            });
            let def = StructDef::new(s.name.name.clone(), fields, align.unwrap_or(1).clamp(1, 256) as u32);
            self.structs.insert(s.name.name.clone(), Arc::new(def));
        }
        for e in &tu.enums {
            let mut next = 0i64;
            for (name, value) in &e.values {
                if let Some(v) = value {
                    let x = self.expr(v);
                    match self.const_int(&x) {
                        Some(n) => next = n,
                        None => self.err(Diagnostic::new(
                            ErrorCode::Type,
                            v.span,
                            "an enumerator's value must be a constant",
                        )),
                    }
                }
                let id = self.constants.len() as u32;
                self.constants.push(Expr::new(ExprKind::Const(next as i32 as u32 as u64), Type::INT, name.span));
                self.enumerators.push((name.name.clone(), next));
                self.global_scope.insert(name.name.clone(), Binding::Constant(id));
                next += 1;
            }
        }
    }

    /// The struct type a written type names (a user's struct or a vector type).
    pub(super) fn struct_type(&mut self, name: &str, span: Span) -> Type {
        if let Some(s) = self.structs.get(name) {
            return Type::Struct(s.clone());
        }
        if let Some(s) = vector_type(name).or_else(|| crate::front::runtime_structs::device_by_name(name)) {
            return Type::Struct(s);
        }
        // `std::array<float, 3> mean;` as a field of a struct host code uses.
        if let Some((elem, len)) = std_array::split_array_name(name) {
            let (base, stars) = std_array::base_and_pointers(&elem);
            let mut elem = match std_array::scalar_named(base) {
                Some(s) => Type::Scalar(s),
                None => self.struct_type(base, span),
            };
            for _ in 0..stars {
                elem = Type::ptr(elem, false);
            }
            let n = std_array::length_expr(&len).and_then(|e| {
                let e = self.expr(&e);
                self.const_int(&e)
            });
            return match n.filter(|n| (0..=1 << 28).contains(n)) {
                Some(n) if elem != Type::Error => std_array::array_type(elem, n as u32),
                Some(_) => Type::Error,
                None => {
                    self.err(Diagnostic::new(
                        ErrorCode::Type,
                        span,
                        format!("`std::array`'s length `{len}` must be an integer constant"),
                    ));
                    Type::Error
                }
            };
        }
        // `std::vector<float> data;`, `std::string name;` as fields of a class host code uses.
        if let Some(t) = crate::front::std_types::field_type(name, &mut |n| self.struct_type(n, span)) {
            return t;
        }
        // `cudaDeviceProp prop;` as a field of a class host code uses.
        if let Some(s) = crate::front::runtime_structs::by_name(name) {
            return Type::Struct(s);
        }
        if !self.unavailable_use(name, &[ast::ItemKind::Type], span) {
            self.err(Diagnostic::new(ErrorCode::Name, span, format!("cannot find type `{name}`")));
        }
        Type::Error
    }

    /// Declares struct variable `dc` (one local per field) and initialises it.
    pub(super) fn struct_local(&mut self, d: &ast::Decl, dc: &ast::Declarator, ty: Type) -> Vec<Stmt> {
        // `Vec3 pts[4];`: per-thread memory like `float r[8]`, its elements reached through their address.
        if !dc.dims.is_empty() {
            let mut out = self.local_array(d.span, dc, &ty);
            // Each element default-constructed (one dimension: `Vec3 pts[4];`).
            if let (None, [_], Some(s)) = (&dc.init, dc.dims.as_slice(), ty.as_struct())
                && self.has_default_ctor(&ty)
                && let Some(Binding::Global(id)) = self.lookup(&dc.name.name)
                && let Type::Array(_, n) = self.globals[id.0 as usize].ty
            {
                let class = s.name.clone();
                out.extend(self.construct_elements(&dc.name, &class, n, dc.name.span));
            }
            return out;
        }
        let mut flat = vec![];
        leaves(&ty, "", 0, &mut flat);
        if flat.iter().any(|(p, ..)| p.contains('[')) && !is_curand_state(&ty) {
            self.err(Diagnostic::unsupported(dc.name.span, "per-thread local arrays of structs or vectors"));
            self.declare_local(&dc.name, Type::Error, false, None);
            return vec![];
        }
        // `Vec3 v;` runs the default constructor, when the class has one.
        let default_ctor = ast::Expr { kind: A::InitList(vec![]), span: dc.name.span };
        let init = dc.init.as_ref().or((self.has_default_ctor(&ty) || is_dim3(&ty)).then_some(&default_ctor));
        let values = match init {
            Some(init) => match self.struct_values(init, &ty) {
                Some(v) => Some(v),
                None => return vec![],
            },
            None => None,
        };
        let mut out = vec![];
        // A copy from memory checks a vector's alignment first.
        let values = values.map(|v| {
            let (checks, vals): (Vec<_>, Vec<_>) = v.into_iter().partition(|e| e.ty == Type::Void);
            out.extend(checks.into_iter().map(|c| Stmt { kind: StmtKind::Expr(c), span: d.span }));
            vals
        });
        let mut leaves_out = vec![];
        for (i, (path, _, lty)) in flat.iter().enumerate() {
            let ident = ast::Ident { name: format!("{}.{path}", dc.name.name), span: dc.name.span };
            let id = self.new_local(&ident, lty.clone());
            leaves_out.push((path.clone(), id, lty.clone()));
            let init = values.as_ref().map(|v| v[i].clone());
            out.push(Stmt { kind: StmtKind::Init(id, init), span: d.span });
        }
        self.check_redeclared(&dc.name);
        let idx = self.struct_locals.len() as u32;
        self.struct_locals.push(StructLocal { ty, leaves: leaves_out });
        self.bind(&dc.name, Binding::StructLocal(idx));
        out
    }

    /// A struct parameter: a struct variable whose fields are the function's parameters, in order.
    pub(super) fn struct_param(&mut self, name: &ast::Ident, ty: Type) -> Vec<LocalId> {
        let mut flat = vec![];
        leaves(&ty, "", 0, &mut flat);
        let mut leaves_out = vec![];
        for (path, _, lty) in &flat {
            let ident = ast::Ident { name: format!("{}.{path}", name.name), span: name.span };
            leaves_out.push((path.clone(), self.new_local(&ident, lty.clone()), lty.clone()));
        }
        let ids = leaves_out.iter().map(|l| l.1).collect();
        let idx = self.struct_locals.len() as u32;
        self.struct_locals.push(StructLocal { ty, leaves: leaves_out });
        self.bind(name, Binding::StructLocal(idx));
        ids
    }

    /// The scalar values, in field order, of a struct-typed initialiser or right-hand side of type `ty`; the
    /// `void` expressions first are checks and calls to run before the values are read.
    pub(super) fn struct_values(&mut self, e: &ast::Expr, ty: &Type) -> Option<Vec<Expr>> {
        if let Some(v) = self.group_struct_values(e, ty) {
            return v;
        }
        let mut flat = vec![];
        leaves(ty, "", 0, &mut flat);
        match &e.kind {
            // `Vec3 v = {1, 2, 3};`, `Vec3 v(1, 2, 3);` of a class with constructors: one of them.
            A::InitList(items) if self.has_ctors(ty) && !self.aggregate_list(ty, items) => {
                let (pre, idx) = self.construct(ty, items, e.span);
                let r = StructRef::Local { idx, prefix: String::new(), ty: ty.clone(), pre };
                let mut out = vec![];
                self.ref_values(r, &flat, e.span, &mut out);
                Some(out)
            }
            A::InitList(items) => {
                let mut scalars = vec![];
                flatten_list(items, &mut scalars);
                if scalars.len() > flat.len() {
                    self.err(Diagnostic::new(ErrorCode::Type, e.span, format!("too many values for `{ty}`")));
                    return None;
                }
                let mut out = vec![];
                // `dim3 b(64)` is (64, 1, 1): dim3's constructor defaults its arguments to 1.
                let missing = if is_dim3(ty) { 1 } else { 0 };
                for (i, (_, _, lty)) in flat.iter().enumerate() {
                    out.push(match scalars.get(i) {
                        Some(x) => {
                            let v = self.expr(x);
                            self.convert(v, lty, "initialiser")
                        }
                        None => Expr::new(ExprKind::Const(missing), lty.clone(), e.span),
                    });
                }
                Some(out)
            }
            // `dim3 t = threadIdx;`: the built-in index vectors as values.
            A::Name(n) if BUILTIN_VECTORS.contains(&n.as_str()) && flat.len() == 3 => {
                let which = |a: u8| match n.as_str() {
                    "threadIdx" => Special::ThreadIdx(a),
                    "blockIdx" => Special::BlockIdx(a),
                    "blockDim" => Special::BlockDim(a),
                    _ => Special::GridDim(a),
                };
                let mut out = vec![];
                for (a, (_, _, lty)) in flat.iter().enumerate() {
                    let v = Expr::new(ExprKind::Special(which(a as u8)), Type::UINT, e.span);
                    out.push(self.convert(v, lty, "initialiser"));
                }
                Some(out)
            }
            A::Call(name, _) if super::curand::returns_struct(&name.name) => self.curand_struct_values(e, ty),
            A::Call(name, args) if name.name.starts_with("make_") && vector_type(&name.name[5..]).is_some() => {
                let want = vector_type(&name.name[5..]).map(Type::Struct)?;
                if &want != ty {
                    self.err(Diagnostic::new(
                        ErrorCode::Type,
                        e.span,
                        format!("`{}` makes a `{want}`, not a `{ty}`", name.name),
                    ));
                    return None;
                }
                if args.len() != flat.len() {
                    self.err(Diagnostic::new(
                        ErrorCode::Type,
                        e.span,
                        format!("`{}` takes {} arguments but {} were given", name.name, flat.len(), args.len()),
                    ));
                    return None;
                }
                let mut out = vec![];
                for (a, (_, _, lty)) in args.iter().zip(&flat) {
                    let v = self.expr(a);
                    out.push(self.convert(v, lty, "argument"));
                }
                Some(out)
            }
            // `Complex z = 2.0f;`: a converting constructor.
            _ if self.has_ctors(ty) && !self.probe_type(e).is_error() && self.probe_type(e).as_struct().is_none() => {
                let (pre, idx) = self.construct(ty, std::slice::from_ref(e), e.span);
                let r = StructRef::Local { idx, prefix: String::new(), ty: ty.clone(), pre };
                let mut out = vec![];
                self.ref_values(r, &flat, e.span, &mut out);
                Some(out)
            }
            _ => {
                let Some(r) = self.struct_ref(e) else {
                    // Not a struct: say what it is.
                    let v = self.expr(e);
                    if !v.ty.is_error() {
                        self.err(Diagnostic::new(
                            ErrorCode::Type,
                            e.span,
                            format!("mismatched types: expected `{ty}`, found `{}`", v.ty),
                        ));
                    }
                    return None;
                };
                let rty = r.ty().clone();
                let mut out = vec![];
                self.ref_values(r, &flat, e.span, &mut out);
                // `dim3 d = threadIdx;`, `uint3 u = d;`: dim3 converts to and from uint3 (one layout).
                let vec3 = |t: &Type| matches!(t, Type::Struct(s) if s.name == "dim3" || s.name == "uint3");
                if &rty != ty && !(vec3(&rty) && vec3(ty)) {
                    self.err(Diagnostic::new(ErrorCode::Type, e.span, format!("cannot assign a `{rty}` to a `{ty}`")));
                    return None;
                }
                Some(out)
            }
        }
    }

    /// The values of the fields `r` names (`flat`: its type's leaves), after the checks and calls to run first.
    fn ref_values(&mut self, r: StructRef, flat: &[(String, u32, Type)], span: Span, out: &mut Vec<Expr>) {
        match r {
            StructRef::Local { idx, prefix, pre, .. } => {
                if !pre.is_empty() {
                    let done = Expr::new(ExprKind::Const(0), Type::Void, span);
                    out.push(Expr::new(ExprKind::Seq(pre, Box::new(done)), Type::Void, span));
                }
                let sl = self.struct_locals[idx as usize].clone();
                out.extend(
                    sl.leaves
                        .iter()
                        .filter(|(p, ..)| p.starts_with(&prefix))
                        .map(|(_, id, t)| Expr::new(ExprKind::Local(*id), t.clone(), span)),
                );
            }
            StructRef::Mem { addr, ty } => {
                let check = self.align_check(&addr, &ty, false, span);
                let whole = check.is_some().then(|| ty.size()).filter(|_| is_whole_vector(&ty));
                out.extend(check);
                for (_, off, lty) in flat {
                    let field = vector_part(field_addr(&addr, *off, lty, span), *off, whole);
                    out.push(Expr::new(ExprKind::Load(Box::new(field)), lty.clone(), span));
                }
            }
        }
    }

    /// The scalar fields of the struct `e` denotes, for a library call that updates it in place (`curand(&s)`):
    /// its type, statements that compute its address once (when in memory), each field's place in layout order.
    /// None if `e` is not a struct.
    pub(super) fn struct_leaf_places(&mut self, e: &ast::Expr, span: Span) -> Option<LeafPlaces> {
        Some(match self.struct_ref(e)? {
            StructRef::Local { idx, prefix, ty, pre } => {
                let places = self.struct_locals[idx as usize]
                    .leaves
                    .iter()
                    .filter(|(p, ..)| p.starts_with(&prefix))
                    .map(|(_, id, t)| (Place::Local(*id), t.clone()))
                    .collect();
                (ty, pre, places)
            }
            StructRef::Mem { addr, ty } => self.struct_leaves_at(addr, ty, span),
        })
    }

    /// The scalar fields of the struct of type `ty` at `addr` (evaluated once, into a local).
    pub(super) fn struct_leaves_at(&mut self, addr: Expr, ty: Type, span: Span) -> LeafPlaces {
        let pty = addr.ty.clone();
        let id = self.new_local(&ast::Ident { name: format!("&{ty}"), span }, pty.clone());
        let base = Expr::new(ExprKind::Local(id), pty, span);
        let mut flat = vec![];
        leaves(&ty, "", 0, &mut flat);
        let places = flat
            .iter()
            .map(|(_, off, t)| (Place::Mem(Box::new(field_addr(&base, *off, t, span))), t.clone()))
            .collect();
        (ty, vec![Stmt { kind: StmtKind::Init(id, Some(addr)), span }], places)
    }

    /// `CheckAlign` before a vector type's access, when the vector is wider than its elements.
    fn align_check(&self, addr: &Expr, ty: &Type, write: bool, span: Span) -> Option<Expr> {
        let s = ty.as_struct()?;
        let elem = s.fields.first().map_or(1, |f| f.ty.size());
        (s.align > elem).then(|| {
            let intr = Intrinsic::CheckAlign { align: s.align, bytes: s.size, write };
            Expr::new(ExprKind::Intrinsic(intr, vec![addr.clone()]), Type::Void, span)
        })
    }

    /// The type of a struct variable named by `e`, if `e` is one.
    pub(super) fn struct_local_type(&self, e: &ast::Expr) -> Option<Type> {
        let A::Name(n) = &e.kind else { return None };
        match self.lookup(n)? {
            Binding::StructLocal(idx) => Some(self.struct_locals[idx as usize].ty.clone()),
            _ => None,
        }
    }

    /// `a = b` where `a` is a struct: field-by-field assignments. None if `lhs` is not a struct.
    pub(super) fn struct_assign(&mut self, lhs: &ast::Expr, rhs: &ast::Expr, span: Span) -> Option<Vec<Stmt>> {
        let r = self.struct_ref(lhs)?;
        Some(self.assign_ref(r, rhs, span))
    }

    /// Stores struct value `rhs` into the fields `r` names.
    pub(super) fn assign_ref(&mut self, r: StructRef, rhs: &ast::Expr, span: Span) -> Vec<Stmt> {
        let ty = r.ty().clone();
        let Some(values) = self.struct_values(rhs, &ty) else { return vec![] };
        let mut out = vec![];
        let expr_stmt = |e: Expr| Stmt { kind: StmtKind::Expr(e), span };
        match r {
            StructRef::Local { idx, prefix, pre, .. } => {
                out.extend(pre);
                let targets: Vec<_> = self.struct_locals[idx as usize]
                    .leaves
                    .iter()
                    .filter(|(p, ..)| p.starts_with(&prefix))
                    .cloned()
                    .collect();
                // Loads first (a check, then the values), then the stores: `a = a` style overlaps stay right.
                let (checks, vals): (Vec<_>, Vec<_>) = values.into_iter().partition(|v| v.ty == Type::Void);
                out.extend(checks.into_iter().map(expr_stmt));
                for ((_, id, t), v) in targets.iter().zip(vals) {
                    out.push(expr_stmt(Expr::new(ExprKind::Assign(Place::Local(*id), Box::new(v)), t.clone(), span)));
                }
            }
            StructRef::Mem { addr, ty } => {
                if let Some(name) = self.constant_target(&addr) {
                    self.err(constant_write(span, &name));
                    return vec![];
                }
                let mut flat = vec![];
                leaves(&ty, "", 0, &mut flat);
                let (checks, vals): (Vec<_>, Vec<_>) = values.into_iter().partition(|v| v.ty == Type::Void);
                out.extend(checks.into_iter().map(expr_stmt));
                let check = self.align_check(&addr, &ty, true, span);
                let whole = check.is_some().then(|| ty.size()).filter(|_| is_whole_vector(&ty));
                out.extend(check.map(expr_stmt));
                for ((_, off, t), v) in flat.iter().zip(vals) {
                    let place = Place::Mem(Box::new(vector_part(field_addr(&addr, *off, t, span), *off, whole)));
                    out.push(expr_stmt(Expr::new(ExprKind::Assign(place, Box::new(v)), t.clone(), span)));
                }
            }
        }
        out
    }
}

/// Whether `ty` is a built-in vector type the GPU loads and stores in one access (`float2`, `int4`,
/// `double2`, `char4`, ...: two or four fields, aligned as its size, at most 16 bytes). A cuRAND state or a
/// 32-byte `double4` takes several accesses.
fn is_whole_vector(ty: &Type) -> bool {
    let Some(s) = ty.as_struct() else { return false };
    s.align == ty.size()
        && ty.size() <= 16
        && vector_type(&s.name).is_some_and(|v| v.fields.len() == s.fields.len())
        && !is_curand_state(ty)
}

/// Field address `field` (at `off`) of a vector type's whole access of `whole` bytes, marked as its part (the
/// GPU makes one 64- or 128-bit access of it); as it is for any other struct (`whole`: None).
fn vector_part(field: Expr, off: u32, whole: Option<u32>) -> Expr {
    let Some(bytes) = whole else { return field };
    let (ty, span) = (field.ty.clone(), field.span);
    Expr::new(ExprKind::Intrinsic(Intrinsic::VectorPart { bytes, first: off == 0 }, vec![field]), ty, span)
}

fn flatten_list<'a>(items: &'a [ast::Expr], out: &mut Vec<&'a ast::Expr>) {
    for i in items {
        match &i.kind {
            A::InitList(inner) => flatten_list(inner, out),
            _ => out.push(i),
        }
    }
}

//! Host declarations: a local in a register or in host memory (arrays, structs, what has its address taken),
//! its initialiser (brace lists, strings, vectors, `dim3`, a constructor), and the name an allocation takes.

use super::resolve::{Resolver, Var, ptr_add};
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::tast::ArithOp;
use crate::front::types::{Scalar, Type};

impl Resolver<'_> {
    /// `T name[n]` with `n` known only when it runs: the name is a pointer to storage the declaration makes
    /// (`Stmt::Vla`), which `name[i]` and passing `name` use as they use an array.
    fn vla(&mut self, dc: &ast::Declarator, dim: &ast::Expr, elem: Type, out: &mut Vec<Stmt>) -> Result<(), Reported> {
        let u64t = Type::Scalar(Scalar::U64);
        let n = self.rvalue(dim)?;
        let n = self.convert(n, &u64t)?;
        let span = n.span;
        let elem_size = Expr::new(ExprKind::Const(elem.size().max(1) as u64), u64t.clone(), span);
        let bytes = Expr::new(
            ExprKind::Arith { op: ArithOp::Mul, op_ty: Scalar::U64, left: Box::new(n), right: Box::new(elem_size) },
            u64t.clone(),
            span,
        );
        // Its size in bytes is kept for `sizeof`.
        let (slot, size) = (self.new_slot(), self.new_slot());
        out.push(Stmt::Expr(Expr::new(
            ExprKind::assign(Place::Slot(size), Place::REGISTER, bytes),
            u64t.clone(),
            span,
        )));
        let name = dc.name.name.clone();
        out.push(Stmt::Vla { slot, bytes: Expr::new(ExprKind::Slot(size), u64t, span), name: name.clone() });
        self.vla_sizes.insert(slot, size);
        self.scopes.last_mut().ok_or(Reported)?.insert(name, Var::Reg(slot, Type::ptr(elem, false)));
        Ok(())
    }

    pub(super) fn decl(&mut self, d: &ast::Decl, out: &mut Vec<Stmt>) -> Result<(), Reported> {
        use crate::front::parser::bindings::{BY_COPY, BY_REFERENCE};
        if matches!(d.ty.named.as_deref(), Some(BY_COPY | BY_REFERENCE)) {
            return self.bind_fields(d, out);
        }
        'declarator: for dc in &d.declarators {
            if dc.reference {
                self.local_reference(d, dc, out)?;
                continue;
            }
            // `auto t0 = std::chrono::steady_clock::now();`, `auto n = v.size();`: the initialiser, built once
            // for its type, and then converted and stored below.
            let mut built = None;
            let mut ty = match &dc.init {
                Some(init) if d.ty.named.as_deref() == Some("auto") && dc.dims.is_empty() && !dc.open_size => {
                    let v = self.rvalue(init)?;
                    let t = (0..dc.pointers).fold(v.ty.clone(), |t, _| Type::ptr(t, false));
                    built = Some(v);
                    t
                }
                _ => self.ty(&d.ty, dc.pointers)?,
            };
            for (i, dim) in dc.dims.iter().enumerate().rev() {
                let Some(n) = self.const_eval(dim).filter(|n| (0..=1 << 28).contains(n)) else {
                    if i == 0 && dc.init.is_none() {
                        self.vla(dc, dim, ty, out)?;
                        continue 'declarator;
                    }
                    return Err(self.unsupported(
                        dim.span,
                        "host arrays whose inner sizes are not constants, or initialised ones (use malloc)",
                    ));
                };
                ty = Type::Array(Box::new(ty), n as u32);
            }
            if dc.open_size {
                // `int codes[] = {1, 2, 3}`, `char s[] = "abc"`: the initialiser gives the size.
                let Some(n) = dc.open_len() else {
                    return Err(self.error(dc.name.span, format!("`{}` needs a size", dc.name.name)));
                };
                ty = Type::Array(Box::new(ty), n as u32);
            }
            // `int n(5);`, `int n{5};`, `std::atomic<int> hits{};`: a scalar's (or pointer's) one initialiser.
            let single;
            let dc = match dc.init.as_ref().map(|e| &e.kind) {
                Some(A::InitList(items)) if items.len() <= 1 && (ty.scalar().is_some() || ty.pointee().is_some()) => {
                    let zero = A::Int { value: 0, unsigned: false, long: false, decimal: true };
                    let value = items.first().cloned().unwrap_or(ast::Expr { kind: zero, span: dc.name.span });
                    single = ast::Declarator { init: Some(value), ..dc.clone() };
                    &single
                }
                _ => dc,
            };
            let name = dc.name.name.clone();
            let span = dc.name.span;
            let in_memory = matches!(ty, Type::Array(..) | Type::Struct(_)) || self.addressed.contains(&name);
            if !in_memory {
                // A `const` scalar with a constant initialiser can size arrays.
                if d.ty.is_const
                    && let (Some(init), Some(s)) = (&dc.init, storage(&ty))
                    && let Some(v) = self.const_eval(init)
                {
                    let bits = Scalar::I64.convert_bits(s, v as u64);
                    self.scopes.last_mut().ok_or(Reported)?.insert(name, Var::Const(bits, ty));
                    continue;
                }
                let slot = self.new_slot();
                let init = match &dc.init {
                    Some(e) => {
                        let mut v = self.built_or_rvalue(&mut built, e)?;
                        self.name_allocation(&mut v, &name);
                        self.convert(v, &ty)?
                    }
                    None => Expr::new(ExprKind::Const(0), ty.clone(), span),
                };
                out.push(Stmt::Expr(Expr::new(
                    ExprKind::assign(Place::Slot(slot), Place::REGISTER, init),
                    ty.clone(),
                    span,
                )));
                self.scopes.last_mut().ok_or(Reported)?.insert(name, Var::Reg(slot, ty));
                continue;
            }
            let slot = self.new_slot();
            self.frame.push((slot, ty.size().max(1), name.clone()));
            self.scopes.last_mut().ok_or(Reported)?.insert(name.clone(), Var::Mem(slot, ty.clone()));
            out.push(Stmt::Zero(slot, ty.size()));
            self.will_destroy(&dc.name, &ty)?;
            if let Some(tag) = self.dynamic_type_store(addr_expr(slot, &ty, span), &ty) {
                out.push(Stmt::Expr(tag));
            }
            let addr = Expr::new(ExprKind::Slot(slot), Type::ptr(ty.clone(), false), span);
            if let Some(r) = self.string_construct(&dc.name, &ty, dc.init.as_ref(), out) {
                r?;
                continue;
            }
            if let Some(r) = self.ofstream_construct(&dc.name, &ty, dc.init.as_ref(), out) {
                r?;
                continue;
            }
            if let Some(r) = self.thread_construct(&dc.name, &ty, dc.init.as_ref(), out) {
                r?;
                continue;
            }
            if let Some(r) = self.random_construct(&dc.name, &ty, dc.init.as_ref(), out) {
                r?;
                continue;
            }
            if let Some(r) = self.construct(&dc.name, &ty, dc.init.as_ref(), out) {
                r?;
                continue;
            }
            let Some(init) = &dc.init else {
                // `dim3 d;` is (1, 1, 1): its constructor's defaults.
                if matches!(&ty, Type::Struct(d) if d.name == "dim3") {
                    out.push(Stmt::Expr(Expr::new(ExprKind::InitDim3(Box::new(addr), vec![]), Type::Void, span)));
                }
                continue;
            };
            if vector_elem(&ty).is_some() {
                self.vector_init(addr, &ty, init, dc.paren_init, out)?;
                continue;
            }
            if super::array::array_of(&ty).is_some() {
                self.array_init(addr, &ty, init, out)?;
                continue;
            }
            match (&ty, &init.kind) {
                (Type::Struct(def), A::InitList(_)) if def.name != "dim3" => {
                    self.init_in_memory(addr, &ty, init, out)?
                }
                (Type::Struct(def), _) if def.name != "dim3" => {
                    let v = match built.take() {
                        Some(v) => v,
                        None => self.rvalue_as(init, &ty)?,
                    };
                    out.push(Stmt::Expr(self.copy_struct(addr, v, &ty, span)?));
                }
                (Type::Struct(_), A::InitList(items)) => {
                    let parts = items.iter().map(|i| self.rvalue(i).and_then(|v| self.convert(v, &Type::UINT)));
                    let parts = parts.collect::<Result<Vec<_>, Reported>>()?;
                    if parts.len() > 3 {
                        return Err(self.error(init.span, "a dim3 has three parts"));
                    }
                    out.push(Stmt::Expr(Expr::new(ExprKind::InitDim3(Box::new(addr), parts), Type::Void, span)));
                }
                (Type::Struct(_), _) => {
                    let v = self.rvalue(init)?;
                    let parts = match v.ty {
                        Type::Struct(_) => (0..3)
                            .map(|k| {
                                let at = ptr_add(v.clone(), 4 * k, &Type::UINT);
                                Expr::new(
                                    ExprKind::Load { addr: Box::new(at), storage: Scalar::U32, what: None },
                                    Type::UINT,
                                    span,
                                )
                            })
                            .collect(),
                        _ => vec![self.convert(v, &Type::UINT)?],
                    };
                    out.push(Stmt::Expr(Expr::new(ExprKind::InitDim3(Box::new(addr), parts), Type::Void, span)));
                }
                (Type::Array(..), A::InitList(_) | A::Str(_)) => self.init_in_memory(addr, &ty, init, out)?,
                (_, _) if storage(&ty).is_some() => {
                    let v = self.built_or_rvalue(&mut built, init)?;
                    let v = self.convert(v, &ty)?;
                    let s = storage(&ty).ok_or(Reported)?;
                    let set = ExprKind::assign(Place::mem(addr, Some(name)), s, v);
                    out.push(Stmt::Expr(Expr::new(set, ty.clone(), span)));
                }
                _ => return Err(self.unsupported(init.span, "this initialiser in host code yet")),
            }
        }
        Ok(())
    }

    /// The initialiser `auto` already built, else `e` built now.
    fn built_or_rvalue(&mut self, built: &mut Option<Expr>, e: &ast::Expr) -> Result<Expr, Reported> {
        match built.take() {
            Some(v) => Ok(v),
            None => self.rvalue(e),
        }
    }

    /// `p = (int *)malloc(n)`, `p = new float[n]`: the allocation takes the name of the pointer it is stored
    /// in, for messages (`h_data`).
    pub(super) fn name_allocation(&mut self, v: &mut Expr, name: &str) {
        match &mut v.kind {
            ExprKind::Lib(lib @ (Lib::Malloc | Lib::Calloc), args) => {
                // The name follows the sizes (`new` adds a marker after it).
                let at = if *lib == Lib::Malloc { 1 } else { 2 };
                if let Some(Expr { kind: ExprKind::Const(id), .. }) = args.get_mut(at) {
                    let old = self.strings.get(*id as usize).map(|s| s.as_slice());
                    if old.is_some_and(|s| s == b"allocation\0" || s.starts_with(b"new ")) {
                        *id = self.string(name) as u64;
                    }
                }
            }
            ExprKind::Convert { value: inner, .. } => self.name_allocation(inner, name),
            _ => {}
        }
    }

    /// Stores initialiser `init` into the `ty` at `addr`, whose storage was zeroed: a scalar, a struct's fields
    /// from a brace list, an array from a brace list (nested ones for arrays of arrays and of structs,
    /// `int a[3][3] = {{1, 2, 3}, {4, 5, 6}, ...}`, or a flat one filling the scalars in order, as C's brace
    /// elision does), a `char` array from a string.
    pub(super) fn init_in_memory(
        &mut self,
        addr: Expr,
        ty: &Type,
        init: &ast::Expr,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Reported> {
        let span = init.span;
        if super::array::array_of(ty).is_some() {
            return self.array_init(addr, ty, init, out);
        }
        if let Some(r) = self.string_in_memory(addr.clone(), ty, init, out) {
            return r;
        }
        match (ty, &init.kind) {
            (Type::Struct(def), A::InitList(items)) if def.name != "dim3" => {
                let def = def.clone();
                if items.len() > def.fields.len() {
                    return Err(self.error(init.span, format!("`{}` has {} fields", def.name, def.fields.len())));
                }
                for (f, item) in def.fields.iter().zip(items) {
                    self.init_in_memory(ptr_add(addr.clone(), f.offset as i64, &f.ty), &f.ty, item, out)?;
                }
            }
            (Type::Array(elem, n), A::InitList(items)) => {
                let nested = items.iter().any(|i| matches!(i.kind, A::InitList(_) | A::Str(_)));
                let leaf = leaf_scalar(elem);
                if !nested && storage(elem).is_none() && leaf.is_some() {
                    // `int a[2][2] = {1, 2, 3, 4}`: the scalars in order.
                    let (leaf_ty, size) = leaf.ok_or(Reported)?;
                    if items.len() as u64 > (ty.size() / size.max(1)) as u64 {
                        return Err(self.error(span, "too many initialisers for the array"));
                    }
                    for (k, item) in items.iter().enumerate() {
                        let at = ptr_add(addr.clone(), (k as u32 * size) as i64, &leaf_ty);
                        self.init_in_memory(at, &leaf_ty, item, out)?;
                    }
                    return Ok(());
                }
                if items.len() > *n as usize {
                    return Err(self.error(span, format!("too many initialisers for an array of {n}")));
                }
                for (k, item) in items.iter().enumerate() {
                    let at = ptr_add(addr.clone(), (k as u32 * elem.size()) as i64, elem);
                    self.init_in_memory(at, elem, item, out)?;
                }
                // The strings the list leaves out are empty ones, not null pointers.
                if super::cuda::names::is_string(elem) {
                    for k in items.len() as u32..*n {
                        let at = ptr_add(addr.clone(), (k * elem.size()) as i64, elem);
                        self.init_in_memory(at, elem, &ast::Expr { kind: A::InitList(vec![]), span }, out)?;
                    }
                }
            }
            (Type::Array(elem, n), A::Str(text)) if storage(elem).is_some_and(|s| s.size() == 1) => {
                // `char s[16] = "abc"`: the bytes, then zeros (the array was zeroed).
                let bytes = text.as_bytes();
                if bytes.len() > *n as usize {
                    return Err(
                        self.error(span, format!("the string has {} characters; the array holds {n}", bytes.len()))
                    );
                }
                let s = storage(elem).ok_or(Reported)?;
                for (k, b) in bytes.iter().enumerate() {
                    let at = ptr_add(addr.clone(), k as i64, elem);
                    let v = Expr::new(ExprKind::Const(*b as u64), (**elem).clone(), span);
                    out.push(Stmt::Expr(Expr::new(
                        ExprKind::assign(Place::mem(at, None), s, v),
                        (**elem).clone(),
                        span,
                    )));
                }
            }
            (Type::Struct(def), _) if def.name != "dim3" => {
                let v = self.rvalue(init)?;
                out.push(Stmt::Expr(self.copy_struct(addr, v, ty, span)?));
            }
            _ => {
                let Some(s) = storage(ty) else {
                    return Err(self.unsupported(span, "this initialiser in host code yet"));
                };
                let v = self.rvalue(init)?;
                let v = self.convert(v, ty)?;
                out.push(Stmt::Expr(Expr::new(ExprKind::assign(Place::mem(addr, None), s, v), ty.clone(), span)));
            }
        }
        Ok(())
    }
}

/// The scalar type at the bottom of an array of arrays, and its size.
fn leaf_scalar(ty: &Type) -> Option<(Type, u32)> {
    match ty {
        Type::Array(e, _) => leaf_scalar(e),
        t => storage(t).map(|s| (t.clone(), s.size())),
    }
}

/// The address of the memory local in `slot`.
fn addr_expr(slot: Slot, ty: &Type, span: crate::front::source::Span) -> Expr {
    Expr::new(ExprKind::Slot(slot), Type::ptr(ty.clone(), false), span)
}

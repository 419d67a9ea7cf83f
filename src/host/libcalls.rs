//! Calls in host code: the program's own functions, the C library, the CUDA runtime, and kernel launches.

use super::resolve::{Resolver, name_of};
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::tast::MathFn;
use crate::front::types::{Scalar, Type};

/// A library function: what it is, its fixed parameters (None: variadic after them) and result.
fn library(name: &str) -> Option<(Lib, Vec<Type>, bool, Type)> {
    let ptr = || Type::ptr(Type::Void, false);
    let (int, size, f64t, f32t) = (Type::INT, Type::Scalar(Scalar::U64), Type::Scalar(Scalar::F64), Type::FLOAT);
    let long = Type::Scalar(Scalar::I64);
    let math1 = |f: MathFn, t: &Type| Some((Lib::Math(f), vec![t.clone()], false, t.clone()));
    match name {
        "printf" => Some((Lib::Printf, vec![ptr()], true, int)),
        "fprintf" => Some((Lib::Fprintf, vec![ptr(), ptr()], true, int)),
        "scanf" => Some((Lib::Scanf, vec![ptr()], true, int)),
        "puts" => Some((Lib::Puts, vec![ptr()], false, int)),
        "putchar" => Some((Lib::Putchar, vec![int.clone()], false, int)),
        "malloc" => Some((Lib::Malloc, vec![size], false, ptr())),
        "calloc" => Some((Lib::Calloc, vec![size.clone(), size.clone()], false, ptr())),
        "realloc" => Some((Lib::Realloc, vec![ptr(), size.clone()], false, ptr())),
        "memcmp" => Some((Lib::Memcmp, vec![ptr(), ptr(), size.clone()], false, int.clone())),
        "sprintf" => Some((Lib::Sprintf, vec![ptr(), ptr()], true, int.clone())),
        "snprintf" => Some((Lib::Snprintf, vec![ptr(), size.clone(), ptr()], true, int.clone())),
        "atof" => Some((Lib::Strtod(Scalar::F64), vec![ptr()], false, f64t.clone())),
        "strtod" => Some((Lib::Strtod(Scalar::F64), vec![ptr(), ptr()], false, f64t.clone())),
        "strtof" => Some((Lib::Strtod(Scalar::F32), vec![ptr(), ptr()], false, f32t.clone())),
        "strtol" | "strtoll" => Some((Lib::Strtol(Scalar::I64), vec![ptr(), ptr(), int.clone()], false, long.clone())),
        "strtoul" | "strtoull" => {
            Some((Lib::Strtol(Scalar::U64), vec![ptr(), ptr(), int.clone()], false, Type::Scalar(Scalar::U64)))
        }
        "free" => Some((Lib::Free, vec![ptr()], false, Type::Void)),
        "memset" => Some((Lib::Memset, vec![ptr(), int.clone(), size.clone()], false, ptr())),
        "memcpy" => Some((Lib::Memcpy, vec![ptr(), ptr(), size.clone()], false, ptr())),
        "rand" => Some((Lib::Rand, vec![], false, int)),
        "srand" => Some((Lib::Srand, vec![Type::UINT], false, Type::Void)),
        "strcmp" => Some((Lib::Strcmp, vec![ptr(), ptr()], false, int.clone())),
        "strncmp" => Some((Lib::Strncmp, vec![ptr(), ptr(), size.clone()], false, int.clone())),
        "strcpy" => Some((Lib::Strcpy, vec![ptr(), ptr()], false, ptr())),
        "strcat" => Some((Lib::Strcat, vec![ptr(), ptr()], false, ptr())),
        "strlen" => Some((Lib::Strlen, vec![ptr()], false, size.clone())),
        // `std::string`'s fresh characters (`src/host/string.rs`).
        "__warpdbg_strjoin" => {
            Some((Lib::StrJoin, vec![ptr(), ptr()], false, Type::ptr(Type::Scalar(Scalar::I8), false)))
        }
        "atoi" => Some((Lib::Atoi, vec![ptr()], false, int)),
        "atol" | "atoll" => Some((Lib::Atol, vec![ptr()], false, long.clone())),
        // Output reaches the terminal in program order already: flushing changes nothing.
        "fflush" => Some((Lib::Fflush, vec![ptr()], false, int.clone())),
        "fopen" => Some((Lib::Fopen, vec![ptr(), ptr()], false, ptr())),
        "fclose" => Some((Lib::Fclose, vec![ptr()], false, int.clone())),
        "fread" => Some((Lib::Fread, vec![ptr(), size.clone(), size.clone(), ptr()], false, size.clone())),
        "fwrite" => Some((Lib::Fwrite, vec![ptr(), size.clone(), size.clone(), ptr()], false, size.clone())),
        "fseek" => Some((Lib::Fseek, vec![ptr(), long.clone(), int.clone()], false, int.clone())),
        "ftell" => Some((Lib::Ftell, vec![ptr()], false, long.clone())),
        "rewind" => Some((Lib::Rewind, vec![ptr()], false, Type::Void)),
        "feof" => Some((Lib::Feof, vec![ptr()], false, int.clone())),
        "exit" => Some((Lib::Exit, vec![int.clone()], false, Type::Void)),
        "abort" => Some((Lib::Abort, vec![], false, Type::Void)),
        // The parser appends the condition's text.
        "assert" => Some((Lib::Assert, vec![int.clone(), ptr()], false, Type::Void)),
        // `cv.wait(lock, pred)` (`src/host/threads.rs` writes the call; no program can name it).
        "wait for@" => Some((Lib::WaitFor, vec![int.clone(), ptr()], false, Type::Void)),
        // The environment: `setenv("CUDA_LAUNCH_BLOCKING", "1", 1)` changes nothing here (work is already
        // synchronous), and no variable is set.
        "setenv" => Some((Lib::Setenv, vec![ptr(), ptr(), int.clone()], false, int.clone())),
        "getenv" => Some((Lib::Getenv, vec![ptr()], false, ptr())),
        "abs" => math1(MathFn::Abs, &int),
        "labs" | "llabs" => math1(MathFn::Abs, &long),
        _ => super::cstring::library(name)
            .or_else(|| super::ctype::library(name))
            .or_else(|| super::cstdio::library(name))
            .or_else(|| super::cstdlib::library(name))
            .or_else(|| super::getopt::library(name))
            .or_else(|| super::cmath::library(name)),
    }
}

impl Resolver<'_> {
    /// A `<cmath>` function: its operands converted to the type C++'s overloads choose (`sqrt(float)` computes
    /// in float), the one rule device code follows too (`front::cmath`).
    fn cmath_call(&mut self, f: MathFn, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Result<Expr, Reported> {
        let n = f.arity();
        if args.len() != n {
            return Err(
                self.error(span, format!("`{}` takes {n} argument{}", name.name, if n == 1 { "" } else { "s" }))
            );
        }
        let mut vals = vec![];
        for a in args {
            let v = self.rvalue(a)?;
            match v.ty.scalar() {
                Some(_) => vals.push(v),
                None => return Err(self.error(a.span, format!("a `{}` cannot be passed to `{}`", v.ty, name.name))),
            }
        }
        let common = vals.iter().filter_map(|v| v.ty.scalar()).reduce(Scalar::common).unwrap_or(Scalar::I32);
        let ty = Type::Scalar(crate::front::cmath::result_type(&name.name, f, common));
        let vals = vals.into_iter().map(|v| self.convert(v, &ty)).collect::<Result<Vec<_>, _>>()?;
        Ok(Expr::new(ExprKind::Lib(Lib::Math(f), vals), ty, span))
    }
}

/// `isnan(x)`, `isinf(x)`, `isfinite(x)` (C's macros, `std::` functions) for a `float` or a `double`, as the
/// comparisons they are: `x != x`, `x == inf || x == -inf`, `x - x == 0` (`x` evaluated twice, as glibc's
/// macros may).
fn float_class_test(name: &str, x: &ast::Expr, span: Span) -> Option<ast::Expr> {
    use ast::{BinaryOp as B, ExprKind as K};
    let bin = |op, a: ast::Expr, b: ast::Expr| ast::Expr {
        kind: K::Binary { op, left: Box::new(a), right: Box::new(b) },
        span,
    };
    let inf = |negative: bool| ast::Expr {
        kind: K::Float { value: if negative { f64::NEG_INFINITY } else { f64::INFINITY }, single: false },
        span,
    };
    Some(match name {
        "isnan" => bin(B::Ne, x.clone(), x.clone()),
        "isinf" => bin(B::LogOr, bin(B::Eq, x.clone(), inf(false)), bin(B::Eq, x.clone(), inf(true))),
        "isfinite" => {
            let zero = ast::Expr { kind: K::Float { value: 0.0, single: false }, span };
            bin(B::Eq, bin(B::Sub, x.clone(), x.clone()), zero)
        }
        _ => return None,
    })
}

impl Resolver<'_> {
    pub(super) fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Result<Expr, Reported> {
        // A variable holding a function pointer hides a function of the same name, as in C.
        if let Some(call) = self.call_through(name, args, span) {
            return call;
        }
        if let Some(call) = self.closure_call(name, args, span) {
            return call;
        }
        if let Some(t) = self.vector_temporary(name, args, span) {
            return t;
        }
        if let Some(call) = self.string_call(name, args, span) {
            return call;
        }
        if let Some(call) = self.istream_call(name, args, span) {
            return call;
        }
        if let Some(call) = self.random_call(name, args, span) {
            return call;
        }
        if let Some(call) = self.va_call(name, args, span) {
            return call;
        }
        if let Some(call) = self.host_callback(name, args, span) {
            return call;
        }
        if !self.fns.contains_key(&name.name)
            && let [x] = args
            && let Some(test) = float_class_test(&name.name, x, span)
        {
            return self.rvalue(&test);
        }
        if let Some(call) = self.min_max(name, args, span) {
            return call;
        }
        if !self.fns.contains_key(&name.name)
            && let Some(instance) = self.host_template_instance(name, args)
        {
            let ident = ast::Ident { name: instance?, span: name.span };
            return self.call(&ident, args, span);
        }
        if let Some(pick) = self.pick_overload(name, args, span) {
            let ident = ast::Ident { name: pick?, span: name.span };
            return self.call(&ident, args, span);
        }
        if let Some(&f) = self.fns.get(&name.name) {
            let (ret, mut params) = self.sigs[f as usize].clone();
            // A variadic function: the arguments after its fixed parameters go in a block of their own.
            let mut rest = None;
            if self.variadic.contains(&name.name) {
                params.pop();
                if args.len() < params.len() {
                    let n = params.len();
                    return Err(self.error(
                        span,
                        format!("`{}` takes at least {n} argument{}", name.name, if n == 1 { "" } else { "s" }),
                    ));
                }
                rest = Some(self.variadic_block(&name.name, &args[params.len()..], span)?);
            }
            let args = if rest.is_some() { &args[..params.len()] } else { args };
            // Left-out trailing arguments take their defaults.
            let filled: Vec<ast::Expr>;
            let args = match self.defaults.get(&name.name) {
                Some(d) if args.len() < params.len() && d[args.len()..].iter().all(Option::is_some) => {
                    filled = args.iter().cloned().chain(d[args.len()..].iter().flatten().cloned()).collect();
                    &filled[..]
                }
                _ => args,
            };
            if params.len() != args.len() {
                let n = params.len();
                return Err(
                    self.error(span, format!("`{}` takes {n} argument{}", name.name, if n == 1 { "" } else { "s" }))
                );
            }
            let refs = self.refs.get(&name.name).cloned().unwrap_or_default();
            let mut vals = vec![];
            for (k, (a, p)) in args.iter().zip(&params).enumerate() {
                if refs.get(k).copied().unwrap_or(false) {
                    // A reference parameter: the argument's address.
                    // `f({1, 2})` to a `const P &`: a temporary's address.
                    if matches!(a.kind, A::InitList(_)) {
                        let v = self.rvalue_as(a, p)?;
                        vals.push(Expr { ty: Type::ptr(p.clone(), false), ..v });
                        continue;
                    }
                    // `label("naive")` to a `const std::string &`: a temporary string made from the text.
                    if super::cuda::names::is_string(p) && !self.is_string_place(a) {
                        let v = self.string_value(a, p)?;
                        vals.push(Expr { ty: Type::ptr(p.clone(), false), ..v });
                        continue;
                    }
                    match self.lvalue(a)? {
                        (Place::Mem { addr, .. }, t) if t == *p || p.is_error() => vals.push(*addr),
                        (Place::Mem { .. }, t) => {
                            return Err(self.error(a.span, format!("a `{t}` cannot bind to a `{p} &`")));
                        }
                        (Place::Slot(_), _) => {
                            return Err(
                                self.unsupported(a.span, "passing this to a reference parameter in host code yet")
                            );
                        }
                    }
                    continue;
                }
                let v = self.rvalue_as(a, p)?;
                vals.push(self.convert(v, p)?);
            }
            vals.extend(rest);
            if let Type::Struct(_) = ret {
                // Where the callee copies the struct it returns: storage in the caller's frame.
                let tmp = self.new_slot();
                self.frame.push((tmp, ret.size().max(1), format!("{}() result", name.name)));
                vals.push(Expr::new(ExprKind::Slot(tmp), Type::ptr(ret.clone(), false), span));
            }
            let call = Expr::new(ExprKind::Call(f, vals), ret, span);
            if self.ref_returns.contains(&name.name) {
                return self.referenced(call, span);
            }
            return Ok(call);
        }
        if let Some(r) = self.function_algorithm(name, args, span) {
            return r;
        }
        if let Some(r) = self.algorithm(&name.name, args, span) {
            return r;
        }
        if name.name == "dim3" {
            return self.dim3_value(args, span);
        }
        // `cudaStream_t()`: a value-initialised handle is zero.
        if args.is_empty()
            && let Some(t @ Type::Scalar(_)) = super::cuda::names::named_type(&name.name)
        {
            return Ok(Expr::new(ExprKind::Const(0), t, span));
        }
        if let Some(def) = name.name.strip_prefix("make_").and_then(crate::front::builtin_types::vector_type)
            && !self.fns.contains_key(&name.name)
        {
            return self.make_struct(&name.name, def, args, span);
        }
        // (Before a method of the same name: `Complex(a, b)` inside `Complex`'s own methods is a new object.)
        if let Some(value) = self.temporary(name, args, span) {
            return value;
        }
        if let Some(value) = self.aggregate_value(name, args, span) {
            return value;
        }
        if let Some(value) = self.make_pair(name, args, span) {
            return value;
        }
        if let Some(call) = self.implicit_method_call(name, args, span) {
            return call;
        }
        if self.kernels.find(&name.name).is_some() {
            return Err(self
                .unsupported(name.span, "calling a kernel or device function from host code")
                .with_hint(self, "launch a kernel with `name<<<grid, block>>>(args)`"));
        }
        if let Some(call) = self.std_algorithm(&name.name, args, span) {
            return call;
        }
        if let Some(call) = self.launch_api_call(name, args, span) {
            return call;
        }
        if let Some(call) = self.runtime_call(name, args, span) {
            return call;
        }
        if let Some(call) = self.pthread_call(name, args, span) {
            return call;
        }
        if let Some(call) = self.thread_call(name, args, span) {
            return call;
        }
        if let Some(f) = crate::front::cmath::function(&name.name) {
            return self.cmath_call(f, name, args, span);
        }
        // `cudaEvent_t()`, `time_t(0)`: a functional cast to a handle or scalar type of the libraries.
        if let Some(t @ Type::Scalar(_)) = super::cuda::names::named_type(&name.name)
            && args.len() <= 1
        {
            let v = match args.first() {
                Some(a) => self.rvalue(a)?,
                None => Expr::new(ExprKind::Const(0), t.clone(), span),
            };
            return self.convert(v, &t);
        }
        let Some((lib, params, variadic, ret)) = library(&name.name) else {
            if let Some(fail) = self.set_aside(&name.name, "calls") {
                return Err(fail);
            }
            if matches!(
                name.name.as_str(),
                "cudaBindTexture" | "cudaBindTexture2D" | "cudaBindTextureToArray" | "cudaUnbindTexture"
            ) {
                return Err(self.unsupported(
                    name.span,
                    format_args!(
                        "`{}`: texture references were removed in CUDA 12; use texture objects \
                         (`cudaCreateTextureObject`)",
                        name.name
                    ),
                ));
            }
            if let Some(decl) = self.kernels.host_declared.iter().find(|d| d.name == name.name) {
                return Err(self.undefined(name, decl.span));
            }
            return Err(self.unsupported(name.span, format_args!("the host function `{}` yet", name.name)));
        };
        if args.len() < params.len() || (!variadic && args.len() > params.len()) {
            return Err(self.error(span, format!("`{}` takes {} arguments", name.name, params.len())));
        }
        let mut vals = vec![];
        for (i, a) in args.iter().enumerate() {
            let v = self.rvalue(a)?;
            let v = match params.get(i) {
                Some(p) => self.convert(v, p)?,
                // Default argument promotions.
                None => match v.ty.clone() {
                    Type::Scalar(Scalar::F16 | Scalar::F32) => self.convert(v, &Type::Scalar(Scalar::F64))?,
                    Type::Scalar(s) => self.convert(v, &Type::Scalar(s.promote()))?,
                    Type::Ptr { .. } => v,
                    t => return Err(self.error(a.span, format!("a `{t}` cannot be passed to `{}`", name.name))),
                },
            };
            vals.push(v);
        }
        if let Lib::Math(_) = lib
            && let Some(t) = params.first()
        {
            return Ok(Expr::new(ExprKind::Lib(lib, vals), t.clone(), span));
        }
        if matches!(lib, Lib::Malloc | Lib::Calloc | Lib::Realloc | Lib::Str(super::cstring::StrFn::Strdup)) {
            // The allocation's name, for messages (`h_a`).
            let what = args.first().and_then(name_of).unwrap_or_else(|| "allocation".into());
            let id = self.string(&what);
            vals.push(Expr::new(ExprKind::Const(id as u64), Type::INT, span));
        }
        Ok(Expr::new(ExprKind::Lib(lib, vals), ret, span))
    }

    pub(super) fn launch(
        &mut self,
        k: &ast::Ident,
        config: &[ast::Expr],
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, Reported> {
        let Some(id) = self.kernels.find(&k.name) else {
            if let Some(launch) = self.launch_through(k, config, args, span) {
                return launch;
            }
            if let Some(instance) = self.kernel_template_instance(k, args) {
                let ident = ast::Ident { name: instance?, span: k.span };
                return self.launch(&ident, config, args, span);
            }
            if let Some(fail) = self.set_aside(&k.name, "launches") {
                return Err(fail);
            }
            return Err(self.error(k.span, format!("`{}` is not a kernel of this file", k.name)));
        };
        // A struct without fields (a functor, `AddOp()`) passes nothing: the kernel has no parameter for it.
        let kept: Vec<ast::Expr> = args.iter().filter(|a| !self.fieldless_struct(a)).cloned().collect();
        let args = &kept[..];
        let f = self.kernels.function(id);
        if f.kind != ast::FnKind::Global {
            return Err(self.error(k.span, format!("`{}` is not a `__global__` function", k.name)));
        }
        if !(2..=4).contains(&config.len()) {
            return Err(self.error(span, "a launch takes `<<<grid, block[, shared bytes[, stream]]>>>`"));
        }
        // The parameters as written: a struct passed by value is its fields' locals (`data.r`, `data.g`), which
        // share the name before the first dot.
        let mut groups: Vec<(Option<&str>, Vec<usize>)> = vec![];
        for (i, p) in f.params.iter().enumerate() {
            let head = f.locals[p.0 as usize].name.split_once('.').map(|(h, _)| h);
            match groups.last_mut() {
                Some((Some(h), members)) if head == Some(*h) => members.push(i),
                _ => groups.push((head, vec![i])),
            }
        }
        if groups.len() != args.len() {
            let n = groups.len();
            return Err(self.error(span, format!("`{}` takes {n} argument{}", k.name, if n == 1 { "" } else { "s" })));
        }
        let mut vals = vec![];
        let mut names = vec![];
        // Overloaded kernels (a course header's `float_to_color` for two pixel types) are launched by name, so
        // only the first definition can run: a launch whose pointers fit another is refused, not misrun.
        let overloaded = self.kernels.functions.iter().filter(|g| g.name == k.name).count() > 1;
        for (a, (head, members)) in args.iter().zip(&groups) {
            let local = |i: usize| &f.locals[f.params[i].0 as usize];
            let v = self.rvalue(a)?;
            if head.is_none() {
                let p = &local(members[0]).ty;
                if overloaded
                    && let (Some(want), Some(got)) = (p.pointee(), v.ty.pointee())
                    && want != got
                {
                    return Err(self.unsupported(
                        a.span,
                        format_args!("launching an overload of `{}` other than its first definition yet", k.name),
                    ));
                }
                let Some(s) = storage(p) else {
                    return Err(self.unsupported(a.span, "passing this type to a kernel from host code yet"));
                };
                vals.push((self.convert(v, p)?, s));
                names.push((local(members[0]).name.clone(), name_of(a)));
                continue;
            }
            // A struct by value: each field, read from the host's copy, is one of the kernel's parameters.
            let mut fields = vec![];
            crate::front::typeck::struct_leaves(&v.ty, "", 0, &mut fields);
            if !matches!(v.ty, Type::Struct(_)) || fields.len() != members.len() {
                let want = head.unwrap_or_default();
                return Err(self.error(a.span, format!("`{want}` is a struct: pass a struct of the kernel's type")));
            }
            for ((path, offset, fty), &i) in fields.iter().zip(members) {
                let (p, s) = (&local(i).ty, storage(fty).ok_or(Reported)?);
                let at = super::resolve::ptr_add(v.clone(), *offset as i64, fty);
                let field =
                    Expr::new(ExprKind::Load { addr: Box::new(at), storage: s, what: None }, fty.clone(), a.span);
                let ps = storage(p).ok_or(Reported)?;
                vals.push((self.convert(field, p)?, ps));
                names.push((local(i).name.clone(), name_of(a).map(|n| format!("{n}.{path}"))));
            }
        }
        let l = self.launch_expr(&k.name, config, vals, names, false)?;
        Ok(Expr::new(ExprKind::Launch(Box::new(l)), Type::Void, span))
    }

    /// The launch of kernel `kernel` with `config` (`grid, block[, shared[, stream]]`) and its resolved
    /// arguments; `cooperative`: made by `cudaLaunchCooperativeKernel`.
    pub(super) fn launch_expr(
        &mut self,
        kernel: &str,
        config: &[ast::Expr],
        args: Vec<(Expr, Scalar)>,
        params: Vec<(String, Option<String>)>,
        cooperative: bool,
    ) -> Result<LaunchExpr, Reported> {
        let grid = self.dim3(&config[0])?;
        let block = self.dim3(&config[1])?;
        // The shared bytes and the stream: optional, each a 64-bit value.
        let mut optional_u64 = |e: Option<&ast::Expr>| -> Result<Option<Expr>, Reported> {
            match e {
                Some(e) => {
                    let v = self.rvalue(e)?;
                    Ok(Some(self.convert(v, &Type::Scalar(Scalar::U64))?))
                }
                None => Ok(None),
            }
        };
        let shared = optional_u64(config.get(2))?;
        let stream = optional_u64(config.get(3))?;
        let scope = self.visible();
        Ok(LaunchExpr { kernel: kernel.to_string(), grid, block, shared, stream, params, args, scope, cooperative })
    }

    fn dim3(&mut self, e: &ast::Expr) -> Result<Dim3Src, Reported> {
        if let A::Call(n, parts) = &e.kind
            && n.name == "dim3"
        {
            let mut out = vec![];
            for p in parts.iter().take(3) {
                let v = self.rvalue(p)?;
                out.push(self.convert(v, &Type::UINT)?);
            }
            return Ok(Dim3Src::Parts(out));
        }
        let v = self.rvalue(e)?;
        match &v.ty {
            Type::Struct(_) => Ok(Dim3Src::Mem(v)),
            // `ceil(n / 256.0)`: C++ converts a floating value to dim3's unsigned int.
            Type::Scalar(_) => Ok(Dim3Src::Int(self.convert(v, &Type::UINT)?)),
            t => Err(self.error(e.span, format!("a launch dimension must be an integer or a dim3, not `{t}`"))),
        }
    }
}

impl Resolver<'_> {
    /// A function or kernel of the file the front end set aside for a construct warpdbg does not read
    /// (dynamic parallelism, a variadic parameter, ...): that construct, where it is, is the error of the host
    /// code that `verb`s it.
    fn set_aside(&mut self, name: &str, verb: &str) -> Option<Reported> {
        let u = self.kernels.unavailable.iter().find(|u| u.name == name)?;
        self.diags.push(u.diag.clone().label(format!("in `{name}`, which host code {verb}")));
        Some(Reported)
    }

    /// `dim3(x[, y[, z]])` as a value: a temporary in the caller's frame, its parts set (missing ones 1).
    fn dim3_value(&mut self, args: &[ast::Expr], span: Span) -> Result<Expr, Reported> {
        if args.len() > 3 {
            return Err(self.error(span, "a dim3 has three parts"));
        }
        let parts = args.iter().map(|a| self.rvalue(a).and_then(|v| self.convert(v, &Type::UINT)));
        let parts = parts.collect::<Result<Vec<_>, Reported>>()?;
        let ty = Type::Struct(crate::front::builtin_types::vector_type("dim3").ok_or(Reported)?);
        let tmp = self.new_slot();
        self.frame.push((tmp, ty.size(), "dim3() value".into()));
        let addr = Expr::new(ExprKind::Slot(tmp), Type::ptr(ty.clone(), false), span);
        let init = Expr::new(ExprKind::InitDim3(Box::new(addr.clone()), parts), Type::Void, span);
        // A struct's value is its address.
        Ok(Expr::new(ExprKind::Comma(Box::new(init), Box::new(Expr { ty: ty.clone(), ..addr })), ty, span))
    }
}

impl Resolver<'_> {
    /// `make_float4(x, y, z, w)` and the other `make_` functions of CUDA's vector types (and the runtime's
    /// `make_cudaExtent(w, h, d)`, `make_cudaPitchedPtr(...)`): a temporary in the caller's frame with each
    /// field set in order (converted to the field's type), as `vector_functions.h` builds it.
    pub(in crate::host) fn make_struct(
        &mut self,
        name: &str,
        def: std::sync::Arc<crate::front::types::StructDef>,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, Reported> {
        if args.len() != def.fields.len() {
            return Err(self.error(span, format!("`{name}` takes {} arguments", def.fields.len())));
        }
        let ty = Type::Struct(def.clone());
        let tmp = self.new_slot();
        self.frame.push((tmp, ty.size(), format!("{name}() value")));
        let addr = Expr::new(ExprKind::Slot(tmp), Type::ptr(ty.clone(), false), span);
        // A struct's value is its address, after the stores.
        let mut value = Expr { ty: ty.clone(), ..addr.clone() };
        for (f, a) in def.fields.iter().zip(args).rev() {
            let v = self.rvalue(a)?;
            let v = self.convert(v, &f.ty)?;
            let s = storage(&f.ty).ok_or(Reported)?;
            let at = super::resolve::ptr_add(addr.clone(), f.offset as i64, &f.ty);
            let store = Expr::new(ExprKind::assign(Place::mem(at, None), s, v), Type::Void, span);
            value = Expr::new(ExprKind::Comma(Box::new(store), Box::new(value)), ty.clone(), span);
        }
        Ok(value)
    }
}

impl Reported {
    /// Adds a hint to the diagnostic just recorded.
    fn with_hint(self, r: &mut Resolver<'_>, hint: &str) -> Self {
        if let Some(d) = r.diags.pop() {
            r.diags.push(d.hint(hint));
        }
        self
    }
}

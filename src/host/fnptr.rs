//! Function pointers in host code. A function's value is an address in a text segment of its own (host
//! function `f` at [`HOST_FN_BASE`]` + 16 f`, kernel `k` at [`KERNEL_BASE`]` + 16 k`, far from host and
//! device memory, so reading one as data is an access to no allocation). A call through a pointer
//! (`p(args)`, `(*p)(args)`) converts its arguments to the pointer's parameter types and runs the function
//! the pointer holds, once it has checked that it holds one of that type; a launch through a pointer
//! (`kernel<<<grid, block>>>(...)`) runs the kernel it holds, resolved as a direct launch of each kernel of
//! the pointer's type, so its checks and launch records are a direct launch's.

use std::sync::Arc;

use super::HostError;
use super::interp::{Interp, Unwind};
use super::resolve::{Resolver, Var};
use super::tree::*;
use crate::front::ast;
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::Type;

/// Where host function 0's address is (as a non-PIE binary's text starts).
pub const HOST_FN_BASE: u64 = 0x40_1000;
/// Where kernel 0's address is (its host-side stub, in a real binary).
pub const KERNEL_BASE: u64 = 0x60_0000;
/// The distance between two functions' addresses.
const FN_STRIDE: u64 = 16;

/// Kernel `k`'s address.
pub(super) fn kernel_address(k: u32) -> u64 {
    KERNEL_BASE + FN_STRIDE * k as u64
}

/// What a function address stands for.
enum Target {
    Host(u32),
    Kernel(u32),
    None,
}

fn target(addr: u64, host_fns: usize, kernels: usize) -> Target {
    let at = |base: u64, n: usize| {
        let off = addr.checked_sub(base)?;
        (off % FN_STRIDE == 0 && off / FN_STRIDE < n as u64).then_some((off / FN_STRIDE) as u32)
    };
    match (at(HOST_FN_BASE, host_fns), at(KERNEL_BASE, kernels)) {
        (Some(f), _) => Target::Host(f),
        (_, Some(k)) => Target::Kernel(k),
        _ => Target::None,
    }
}

/// The function type a value of type `ty` points to, when it is a function pointer.
pub(super) fn pointee_fn_type(ty: &Type) -> Option<FnType> {
    match ty.pointee() {
        Some(Type::Func(sig)) => Some(sig.clone()),
        _ => None,
    }
}

/// Whether an argument of type `a` reaches a parameter of type `b` with the same bits (pointers all alike).
fn same_abi(a: &Type, b: &Type) -> bool {
    match (storage(a), storage(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

impl Resolver<'_> {
    /// The value of a function's name (`copyRow`, `&copyRow`): its address, typed as a pointer to it. None when
    /// `name` is no function of the file.
    pub(super) fn function_value(&mut self, name: &str, span: Span) -> Option<Result<Expr, Reported>> {
        if let Some(&f) = self.fns.get(name) {
            if self.refs.get(name).is_some_and(|r| r.iter().any(|&x| x)) {
                return Some(Err(self.unsupported(span, "a pointer to a function with reference parameters yet")));
            }
            let (ret, params) = self.sigs[f as usize].clone();
            let ty = Type::ptr(Type::Func(Arc::new((ret, params))), false);
            return Some(Ok(Expr::new(ExprKind::Const(HOST_FN_BASE + FN_STRIDE * f as u64), ty, span)));
        }
        let id = self.kernels.find(name)?;
        let f = self.kernels.function(id);
        if f.kind != ast::FnKind::Global {
            return None;
        }
        let params = f.params.iter().map(|p| f.locals[p.0 as usize].ty.clone()).collect();
        let ty = Type::ptr(Type::Func(Arc::new((Type::Void, params))), false);
        Some(Ok(Expr::new(ExprKind::Const(KERNEL_BASE + FN_STRIDE * id.0 as u64), ty, span)))
    }

    /// `p(args)` where `p` is a variable holding a function pointer; None when `name` is not one.
    pub(super) fn call_through(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let ty = match self.lookup(&name.name)? {
            Var::Reg(_, t) | Var::Mem(_, t) | Var::Global(_, t) => t,
            Var::Const(..) => return None,
        };
        let sig = pointee_fn_type(&ty)?;
        Some(self.call_through_sig(name, sig, args, span))
    }

    fn call_through_sig(
        &mut self,
        name: &ast::Ident,
        sig: FnType,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, Reported> {
        let (ret, params) = (&sig.0, &sig.1);
        if let Type::Struct(_) = ret {
            return Err(self.unsupported(span, "calling a function that returns a struct through a pointer yet"));
        }
        if args.len() != params.len() {
            let n = params.len();
            return Err(
                self.error(span, format!("`{}` takes {n} argument{}", name.name, if n == 1 { "" } else { "s" }))
            );
        }
        let target = self.rvalue(&ast::Expr { kind: ast::ExprKind::Name(name.name.clone()), span: name.span })?;
        let mut vals = vec![];
        for (a, p) in args.iter().zip(params) {
            let v = self.rvalue(a)?;
            vals.push(self.convert(v, p)?);
        }
        let call = IndirectCall { target, args: vals, sig: sig.clone(), what: name.name.clone() };
        Ok(Expr::new(ExprKind::CallPtr(Box::new(call)), ret.clone(), span))
    }

    /// `kernel<<<grid, block>>>(args)` where `kernel` is a variable holding a pointer to a kernel: a direct
    /// launch of each kernel of the pointer's type, the one it holds chosen when it runs. None when `k` is
    /// not such a variable.
    pub(super) fn launch_through(
        &mut self,
        k: &ast::Ident,
        config: &[ast::Expr],
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let ty = match self.lookup(&k.name)? {
            Var::Reg(_, t) | Var::Mem(_, t) | Var::Global(_, t) => t,
            Var::Const(..) => return None,
        };
        let sig = pointee_fn_type(&ty)?;
        Some(self.launch_through_sig(k, &sig, config, args, span))
    }

    fn launch_through_sig(
        &mut self,
        k: &ast::Ident,
        sig: &FnType,
        config: &[ast::Expr],
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, Reported> {
        let kernels: Vec<(u32, String)> = (0..self.kernels.functions.len() as u32)
            .filter_map(|i| {
                let f = &self.kernels.functions[i as usize];
                let params: Vec<&Type> = f.params.iter().map(|p| &f.locals[p.0 as usize].ty).collect();
                let fits = f.kind == ast::FnKind::Global
                    && params.len() == sig.1.len()
                    && params.iter().zip(&sig.1).all(|(a, b)| same_abi(a, b));
                fits.then(|| (i, f.name.clone()))
            })
            .collect();
        if kernels.is_empty() {
            let ty = Type::ptr(Type::Func(sig.clone()), false);
            return Err(
                self.error(k.span, format!("`{}` is a `{ty}`, and no kernel of this file has that type", k.name))
            );
        }
        let ptr = self.rvalue(&ast::Expr { kind: ast::ExprKind::Name(k.name.clone()), span: k.span })?;
        let mut launches = vec![];
        for (id, name) in kernels {
            let direct = ast::Ident { name, span: k.span };
            let Expr { kind: ExprKind::Launch(l), .. } = self.launch(&direct, config, args, span)? else {
                return Err(self.error(span, "this launch cannot be made through a pointer"));
            };
            launches.push((kernel_address(id), *l));
        }
        let l = IndirectLaunch { ptr, launches, what: k.name.clone() };
        Ok(Expr::new(ExprKind::LaunchPtr(Box::new(l)), Type::Void, span))
    }

    /// `&f` where `f` names a function rather than an object.
    pub(super) fn address_of_function(&mut self, x: &ast::Expr) -> Option<Result<Expr, Reported>> {
        match &x.kind {
            ast::ExprKind::Name(n) if self.lookup(n).is_none() => self.function_value(n, x.span),
            _ => None,
        }
    }
}

impl Interp<'_> {
    /// Runs the host function an [`IndirectCall`]'s pointer holds.
    pub(super) fn call_ptr(&mut self, c: &IndirectCall, slots: &mut [u64], span: Span) -> Result<u64, Unwind> {
        let addr = self.eval(&c.target, slots)?;
        let vals = self.arguments(&c.args, slots)?;
        let line = self.line(span);
        let what = &c.what;
        let bad = |message: String| Err(Unwind::Error(Box::new(HostError::BadCall { line, message })));
        match target(addr, self.prog.functions.len(), self.prog.kernels.len()) {
            Target::Host(f) => {
                let func = &self.prog.functions[f as usize];
                let params: Vec<&Type> = func.params.iter().map(|(_, t)| t).collect();
                let fits = same_abi(&func.ret, &c.sig.0)
                    && params.len() == c.sig.1.len()
                    && params.iter().zip(&c.sig.1).all(|(a, b)| same_abi(a, b));
                if !fits {
                    let ptr = Type::ptr(Type::Func(c.sig.clone()), false);
                    let params: Vec<String> = params.iter().map(|t| t.to_string()).collect();
                    return bad(format!(
                        "host code at line {line} calls `{}` through `{what}`, a `{ptr}`, but `{}` is `{} ({})`",
                        func.name,
                        func.name,
                        func.ret,
                        params.join(", ")
                    ));
                }
                self.tick(span)?;
                self.call(f, vals, span)
            }
            Target::Kernel(k) => bad(format!(
                "host code at line {line} calls `{what}`, which points to the kernel `{}`: launch it with \
                 `{what}<<<grid, block>>>(...)`",
                self.prog.kernels[k as usize]
            )),
            Target::None if addr == 0 => {
                bad(format!("host code at line {line} calls `{what}`, a null function pointer"))
            }
            Target::None => {
                bad(format!("host code at line {line} calls `{what}`, which holds {addr:#x}, not a function's address"))
            }
        }
    }

    /// Runs the host function at `addr` with no arguments (an `atexit` function, whose type the call that
    /// registered it checked).
    pub(super) fn call_at(&mut self, addr: u64, span: Span) -> Result<u64, Unwind> {
        match target(addr, self.prog.functions.len(), self.prog.kernels.len()) {
            Target::Host(f) => self.call(f, vec![], span),
            _ => {
                let line = self.line(span);
                let message = format!("the program's exit calls {addr:#x}, which `atexit` was given: not a function");
                Err(Unwind::Error(Box::new(HostError::BadCall { line, message })))
            }
        }
    }

    /// Runs the launch of the kernel an [`IndirectLaunch`]'s pointer holds.
    pub(super) fn launch_ptr(&mut self, l: &IndirectLaunch, slots: &mut [u64], span: Span) -> Result<(), Unwind> {
        let addr = self.eval(&l.ptr, slots)?;
        if let Some((_, direct)) = l.launches.iter().find(|(a, _)| *a == addr) {
            return self.launch(direct, slots, span);
        }
        let line = self.line(span);
        let what = &l.what;
        let message = match target(addr, self.prog.functions.len(), self.prog.kernels.len()) {
            Target::Host(f) => format!(
                "host code at line {line} launches `{what}`, which points to the host function `{}`, not a kernel",
                self.prog.functions[f as usize].name
            ),
            Target::Kernel(k) => format!(
                "host code at line {line} launches `{what}`, which points to the kernel `{}` of another type",
                self.prog.kernels[k as usize]
            ),
            Target::None if addr == 0 => format!("host code at line {line} launches `{what}`, a null function pointer"),
            Target::None => {
                format!("host code at line {line} launches `{what}`, which holds {addr:#x}, not a kernel's address")
            }
        };
        Err(Unwind::Error(Box::new(HostError::BadCall { line, message })))
    }
}

//! A runtime call resolved: its arguments checked against the function's signature ([`super::names`]), the
//! defaults of those left out filled in, a `__device__` variable or a kernel read as a name where the runtime
//! takes a symbol, and what an allocation is called and points to noted for messages and reports.

use super::names::{First, RuntimeSig, runtime_sig};
use crate::front::ast::{self, ExprKind as A, UnaryOp};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};
use crate::host::resolve::{Resolver, Var, name_of};
use crate::host::tree::{Api, Expr, ExprKind, Lib, storage};

/// Whether a call of `api` passes two notes after its arguments: the allocation's name and element type.
pub(super) fn names_allocation(api: Api) -> bool {
    matches!(
        api,
        Api::Malloc
            | Api::MallocAsync
            | Api::MallocManaged
            | Api::MallocHost
            | Api::Malloc3D
            | Api::MallocPitch
            | Api::MallocArray
    )
}

impl Resolver<'_> {
    /// A call of the runtime, or None when `name` is not one of its functions.
    pub(in crate::host) fn runtime_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        if let Some(def) = super::structs::made_by(&name.name) {
            return Some(self.make_struct(&name.name, def, args, span));
        }
        let sig = runtime_sig(&name.name)?;
        Some(self.runtime_args(&name.name, sig, args, span))
    }

    pub(super) fn runtime_args(
        &mut self,
        name: &str,
        sig: RuntimeSig,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, Reported> {
        let n = sig.params.len();
        if args.len() > n || args.len() + sig.defaults.len() < n {
            return Err(self.error(span, format!("`{name}` takes {n} arguments")));
        }
        let mut vals = vec![];
        for (i, p) in sig.params.iter().enumerate() {
            let v = match args.get(i) {
                Some(a) if i == 0 && sig.first == First::Symbol => self.symbol(a)?,
                Some(a) if i == 1 && sig.api == Api::MemcpyFromSymbol => self.symbol(a)?,
                Some(a) if i == 1 && sig.api == Api::GetSymbolAddress => self.symbol(a)?,
                Some(a) if i == 0 && sig.first == First::Kernel => {
                    if name_of(a).is_none_or(|k| self.kernels.find(&k).is_none()) {
                        return Err(self.error(a.span, format!("`{name}` takes a kernel")));
                    }
                    Expr::new(ExprKind::Const(0), p.clone(), a.span)
                }
                Some(a) if sig.first == First::KernelAt(i) => {
                    let Some(k) = name_of(a).filter(|k| self.kernels.find(k).is_some()) else {
                        return Err(self.error(a.span, format!("`{name}` takes a kernel of this file")));
                    };
                    let id = self.string(&k);
                    Expr::new(ExprKind::Const(id as u64), p.clone(), a.span)
                }
                Some(a) if sig.loose => self.rvalue(a)?,
                Some(a) => {
                    let v = self.rvalue(a)?;
                    self.convert(v, p)?
                }
                None => {
                    let d = sig.defaults[sig.defaults.len() - (n - i)];
                    Expr::new(ExprKind::Const(d), p.clone(), span)
                }
            };
            vals.push(v);
        }
        if names_allocation(sig.api) {
            // The allocation's name (`d_a`) and the element type it points to, for messages and reports.
            let what = args.first().and_then(name_of).unwrap_or_else(|| "allocation".into());
            let id = self.string(&what);
            vals.push(Expr::new(ExprKind::Const(id as u64), Type::INT, span));
            let elem = args.first().and_then(|a| self.pointee_scalar(a)).unwrap_or(Scalar::U8);
            vals.push(Expr::new(ExprKind::Const(super::scalar_index(elem)), Type::INT, span));
        }
        Ok(Expr::new(ExprKind::Lib(Lib::Cuda(sig.api), vals), sig.ret, span))
    }

    /// A `__device__` or `__constant__` variable named as a symbol: its index in the program's globals.
    fn symbol(&mut self, a: &ast::Expr) -> Result<Expr, Reported> {
        let e = match &a.kind {
            A::Unary(UnaryOp::AddrOf, x) => x,
            _ => a,
        };
        let found = match &e.kind {
            A::Name(n) => self.kernels.globals.iter().position(|g| {
                g.name == *n
                    && matches!(
                        g.space,
                        crate::front::tast::GlobalSpace::Device | crate::front::tast::GlobalSpace::Constant
                    )
            }),
            _ => None,
        };
        match found {
            Some(i) => Ok(Expr::new(ExprKind::Const(i as u64), Type::Scalar(Scalar::U64), a.span)),
            None => Err(self.error(a.span, "this is not a `__device__` or `__constant__` variable of this file")),
        }
    }

    /// For `cudaMalloc((void **)&d_a, n)`: the scalar `d_a` points to.
    fn pointee_scalar(&mut self, a: &ast::Expr) -> Option<Scalar> {
        let name = name_of(a)?;
        let ty = match self.lookup(&name)? {
            Var::Mem(_, t) | Var::Reg(_, t) | Var::Global(_, t) => t,
            _ => return None,
        };
        storage(ty.pointee()?)
    }
}

//! `cudaLaunchKernel` and `cudaLaunchCooperativeKernel`: a launch by the kernel's address, its arguments an
//! array of their addresses (`void *args[] = {&d_in, &n};`). Resolved as a launch through a pointer
//! ([`crate::host::tree::IndirectLaunch`]): a direct launch of each kernel of the file, each argument read
//! from the address the array holds as the kernel's parameter type, the one the address names chosen when it
//! runs; so checks, records and findings are a `<<<>>>` launch's. The call's value is the launch's error
//! (`cudaPeekAtLastError` after it), as the runtime returns it.

use crate::front::ast;
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};
use crate::host::fnptr::kernel_address;
use crate::host::resolve::{Resolver, name_of, ptr_add};
use crate::host::tree::{Api, Expr, ExprKind, IndirectLaunch, Lib, storage};

impl Resolver<'_> {
    /// `cudaLaunchKernel(func, grid, block, args[, shared[, stream]])` or `cudaLaunchCooperativeKernel(...)`;
    /// None for any other call.
    pub(in crate::host) fn launch_api_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let cooperative = match name.name.as_str() {
            "cudaLaunchKernel" => false,
            "cudaLaunchCooperativeKernel" => true,
            _ => return None,
        };
        Some(self.launch_api(name, args, cooperative, span))
    }

    fn launch_api(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        cooperative: bool,
        span: Span,
    ) -> Result<Expr, Reported> {
        if !(4..=6).contains(&args.len()) {
            let m = format!("`{}` takes (kernel, grid, block, args[, shared bytes[, stream]])", name.name);
            return Err(self.error(span, m));
        }
        let func = self.rvalue(&args[0])?;
        let array = self.rvalue(&args[3])?;
        let mut config = vec![args[1].clone(), args[2].clone()];
        config.extend(args.get(4..).unwrap_or_default().iter().cloned());
        let void_ptr = Type::ptr(Type::Void, false);
        let mut launches = vec![];
        for id in 0..self.kernels.functions.len() {
            let f = &self.kernels.functions[id];
            // A struct passed by value is several parameters (`data.r`, ...): not read from an array here.
            let by_value = f.params.iter().any(|p| f.locals[p.0 as usize].name.contains('.'));
            if f.kind != ast::FnKind::Global || by_value {
                continue;
            }
            // Each parameter with the storage its argument is read as; a kernel with a parameter of no such
            // storage is not launched this way (skipping the one parameter would shift the others).
            let params: Option<Vec<(String, Type, Scalar)>> = (f.params.iter())
                .map(|p| {
                    let local = &f.locals[p.0 as usize];
                    storage(&local.ty).map(|s| (local.name.clone(), local.ty.clone(), s))
                })
                .collect();
            let Some(params) = params else { continue };
            let kernel = f.name.clone();
            let mut vals = vec![];
            let mut names = vec![];
            let load = |addr: Expr, storage, ty: Type| {
                Expr::new(ExprKind::Load { addr: Box::new(addr), storage, what: None }, ty, span)
            };
            for (j, (param, ty, s)) in params.into_iter().enumerate() {
                // `args[j]`: the address of the argument, then the argument itself.
                let slot = ptr_add(array.clone(), 8 * j as i64, &void_ptr);
                let at = load(slot, Scalar::U64, Type::ptr(ty.clone(), false));
                vals.push((load(at, s, ty), s));
                names.push((param, None));
            }
            let l = self.launch_expr(&kernel, &config, vals, names, cooperative)?;
            launches.push((kernel_address(id as u32), l));
        }
        let what = name_of(&args[0]).unwrap_or_else(|| "the kernel".into());
        let launch =
            Expr::new(ExprKind::LaunchPtr(Box::new(IndirectLaunch { ptr: func, launches, what })), Type::Void, span);
        let error = Expr::new(ExprKind::Lib(Lib::Cuda(Api::PeekAtLastError), vec![]), Type::INT, span);
        Ok(Expr::new(ExprKind::Comma(Box::new(launch), Box::new(error)), Type::INT, span))
    }
}

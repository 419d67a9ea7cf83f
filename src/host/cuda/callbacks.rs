//! Host functions the runtime calls back: `cudaStreamAddCallback(stream, fn, data, flags)` calls
//! `fn(stream, status, data)` and `cudaLaunchHostFunc(stream, fn, data)` calls `fn(data)` once the work issued
//! to the stream before them is done. warpdbg runs a stream's work in program order as the host issues it, so
//! that moment is the call itself: the callback runs there, on the host thread, after what
//! `cudaStreamSynchronize(stream)` does (device `printf` output appears, a sticky error is returned), with
//! that status; the call returns it too (docs/programs.md).

use super::super::resolve::{Resolver, name_of};
use super::super::tree::*;
use super::names::runtime_sig;
use crate::front::ast;
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::Type;

impl Resolver<'_> {
    /// `cudaStreamAddCallback` and `cudaLaunchHostFunc`; None for any other name.
    pub(in crate::host) fn host_callback(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let with_status = match name.name.as_str() {
            "cudaStreamAddCallback" => true,
            "cudaLaunchHostFunc" => false,
            _ => return None,
        };
        Some(self.callback(&name.name, with_status, args, span))
    }

    fn callback(&mut self, api: &str, with_status: bool, args: &[ast::Expr], span: Span) -> Result<Expr, Reported> {
        let n = if with_status { 4 } else { 3 };
        if args.len() != n {
            return Err(self.error(span, format!("`{api}` takes {n} arguments")));
        }
        let Some(f) = name_of(&args[1]).and_then(|f| self.fns.get(&f).copied()) else {
            return Err(self.error(args[1].span, format!("`{api}` takes the name of a host function")));
        };
        let (_, params) = self.sigs[f as usize].clone();
        let takes = if with_status { "(cudaStream_t, cudaError_t, void *)" } else { "(void *)" };
        let data_at = if with_status { 2 } else { 0 };
        if params.len() != data_at + 1 {
            return Err(self.error(args[1].span, format!("a callback of `{api}` takes {takes}")));
        }
        let sync = runtime_sig("cudaStreamSynchronize").expect("a runtime function");
        let status = self.new_slot();
        let wait = self.runtime_args("cudaStreamSynchronize", sync, &args[..1], span)?;
        let set = Expr::new(ExprKind::assign(Place::Slot(status), Place::REGISTER, wait), Type::INT, span);
        let status_value = || Expr::new(ExprKind::Slot(status), Type::INT, span);
        let data = self.rvalue(&args[2])?;
        let mut vals = vec![];
        if with_status {
            let stream = self.rvalue(&args[0])?;
            vals.push(self.convert(stream, &params[0])?);
            vals.push(self.convert(status_value(), &params[1])?);
        }
        vals.push(self.convert(data, &params[data_at])?);
        let call = Expr::new(ExprKind::Call(f, vals), Type::Void, span);
        let mut e = Expr::new(ExprKind::Comma(Box::new(set), Box::new(call)), Type::Void, span);
        if with_status {
            // The flags (0: CUDA reserves them) are evaluated, as an argument is.
            let flags = self.rvalue(&args[3])?;
            e = Expr::new(ExprKind::Comma(Box::new(flags), Box::new(e)), Type::Void, span);
        }
        Ok(Expr::new(ExprKind::Comma(Box::new(e), Box::new(status_value())), Type::INT, span))
    }
}

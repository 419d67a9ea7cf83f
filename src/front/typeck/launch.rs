//! Launches from device code (dynamic parallelism): `child<<<grid, block, shared, stream>>>(args)` inside a
//! kernel. The launch is checked like a call of the kernel; the simulator queues it and the program layer runs
//! it after the launching grid (docs/programs.md, "Dynamic parallelism").

use super::checker::Checker;
use crate::front::ast::{self, ExprKind as A, FnKind};
use crate::front::diagnostic::Diagnostic;
use crate::front::source::Span;
use crate::front::tast::*;
use crate::front::types::{Scalar, Type};

impl Checker {
    /// `kernel<<<config>>>(args)` in device code: a [`ExprKind::Launch`] whose seven configuration values
    /// (grid x, y, z, block x, y, z, dynamic shared bytes) are `unsigned int`s.
    pub(super) fn child_launch(
        &mut self,
        kernel: &ast::Ident,
        config: &[ast::Expr],
        args: &[ast::Expr],
        span: Span,
    ) -> Expr {
        let Some(&id) = self.fns.get(&kernel.name) else {
            for a in config.iter().chain(args) {
                self.expr(a);
            }
            let what = if self.templates.contains_key(&kernel.name) {
                "launching a kernel template from device code"
            } else {
                return self.type_error(kernel.span, format!("no kernel `{}` to launch", kernel.name));
            };
            self.err(Diagnostic::unsupported(kernel.span, what).hint("launch an ordinary `__global__` function"));
            return Expr::error(span);
        };
        let sig = self.sigs[id.0 as usize].clone();
        if sig.kind != FnKind::Global {
            return self.type_error(kernel.span, format!("`{}` is not a `__global__` function", kernel.name));
        }
        if !(2..=4).contains(&config.len()) {
            return self.type_error(
                span,
                format!("a launch takes 2 to 4 values between `<<<` and `>>>`, not {}", config.len()),
            );
        }
        let mut dims = vec![];
        for c in &config[..2] {
            dims.extend(self.launch_dim3(c));
        }
        dims.push(match config.get(2) {
            Some(s) => {
                let v = self.expr(s);
                self.convert(v, &Type::Scalar(Scalar::U32), "the launch's shared memory size")
            }
            None => Expr::new(ExprKind::Const(0), Type::Scalar(Scalar::U32), span),
        });
        // The stream: children of one grid run one after another in any case (the model of
        // docs/programs.md), so its value only needs evaluating.
        let stream = config.get(3).map(|s| self.expr(s));
        if args.len() != sig.params.len() {
            return self.type_error(
                span,
                format!("`{}` takes {} argument(s) but {} were given", kernel.name, sig.params.len(), args.len()),
            );
        }
        let mut out = vec![];
        for (a, t) in args.iter().zip(&sig.params) {
            if matches!(t, Type::Struct(_)) {
                self.err(
                    Diagnostic::unsupported(a.span, "passing a struct to a kernel launched from device code")
                        .hint("pass its fields, or a pointer to it in global memory"),
                );
                return Expr::error(span);
            }
            let v = self.expr(a);
            out.push(self.convert(v, t, "argument"));
        }
        let launch = Expr::new(ExprKind::Launch { kernel: id, config: dims, args: out }, Type::Void, span);
        match stream {
            Some(s) => Expr::new(
                ExprKind::Seq(vec![Stmt { kind: StmtKind::Expr(s), span }], Box::new(launch)),
                Type::Void,
                span,
            ),
            None => launch,
        }
    }

    /// A launch dimension: an integer `n` is `(n, 1, 1)`; a `dim3` gives its three fields (evaluated once
    /// each: a `dim3` expression with side effects would repeat them).
    fn launch_dim3(&mut self, c: &ast::Expr) -> Vec<Expr> {
        let u32_ty = Type::Scalar(Scalar::U32);
        if let Type::Struct(s) = self.probe_type(c)
            && s.name == "dim3"
        {
            return ["x", "y", "z"]
                .into_iter()
                .map(|f| {
                    let field = ast::Ident { name: f.to_string(), span: c.span };
                    let member = ast::Expr { kind: A::Member(Box::new(c.clone()), field), span: c.span };
                    let v = self.expr(&member);
                    self.convert(v, &u32_ty, "a launch dimension")
                })
                .collect();
        }
        let v = self.expr(c);
        let one = Expr::new(ExprKind::Const(1), u32_ty.clone(), c.span);
        vec![self.convert(v, &u32_ty, "a launch dimension"), one.clone(), one]
    }
}

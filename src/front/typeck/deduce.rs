//! Calls of function templates without explicit arguments: each type parameter is deduced from the type of
//! the argument passed where the function takes it (`T x`, `const T *p`), as C++ does for these simple forms.

use super::super::ast;
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::template::instance_name;
use super::super::types::Type;
use super::checker::Checker;

impl Checker {
    /// A call of template `name`: the instance its arguments' types give, called if it exists, else asked
    /// for (the front end parses it and checks the file again).
    pub(super) fn template_call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Expr {
        let def = self.templates[&name.name].clone();
        // A struct variable (a group, a float4) is read by its type, not as a value.
        let vals: Vec<Expr> = args
            .iter()
            .map(|a| match self.struct_local_type(a) {
                Some(ty) => Expr::new(ExprKind::Const(0), ty, a.span),
                None => self.expr(a),
            })
            .collect();
        if vals.iter().any(|v| v.ty.is_error()) {
            return Expr::error(span);
        }
        let types: Vec<Type> = vals.iter().map(|v| v.ty.clone()).collect();
        let targs = match def.deduce_args(&[], &types) {
            Ok(t) => t,
            Err(p) => {
                self.err(
                    Diagnostic::new(
                        ErrorCode::Type,
                        name.span,
                        format!("cannot tell `{p}` of template `{}` from the arguments", name.name),
                    )
                    .with_secondary(def.span, def.header())
                    .hint(format!("name the arguments: `{}<...>(...)`", name.name)),
                );
                return Expr::error(span);
            }
        };
        let instance = instance_name(&name.name, &targs);
        if self.fns.contains_key(&instance) {
            let ident = ast::Ident { name: instance, span: name.span };
            return self.call(&ident, args, span);
        }
        self.template_requests.push((instance, name.name.clone(), targs));
        Expr::error(span)
    }
}

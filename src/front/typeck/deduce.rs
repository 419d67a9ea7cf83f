//! Calls of function templates without explicit arguments: each type parameter is deduced from the type of
//! the argument passed where the function takes it (`T x`, `const T *p`), as C++ does for these simple forms.

use super::super::ast;
use super::super::diagnostic::{Diagnostic, ErrorCode};
use super::super::source::Span;
use super::super::tast::*;
use super::super::template::{instance_name, type_tokens};
use super::super::types::Type;
use super::Checker;

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
        let mut deduced: Vec<Option<Type>> = vec![None; def.params.len()];
        for (v, how) in vals.iter().zip(def.deducible()) {
            let Some((param, stars)) = how else { continue };
            let mut t = v.ty.clone();
            for _ in 0..stars {
                t = match t.pointee() {
                    Some(e) => e.clone(),
                    None => break,
                };
            }
            deduced[param].get_or_insert(t);
        }
        let mut targs = vec![];
        for (p, d) in def.params.iter().zip(&deduced) {
            match (d, &p.default) {
                (Some(t), _) => targs.push(type_tokens(&t.to_string())),
                (None, Some(default)) => targs.push(default.clone()),
                (None, None) => {
                    self.err(
                        Diagnostic::new(
                            ErrorCode::Type,
                            name.span,
                            format!("cannot tell `{}` of template `{}` from the arguments", p.name, name.name),
                        )
                        .with_secondary(def.span, def.header())
                        .hint(format!("name the arguments: `{}<...>(...)`", name.name)),
                    );
                    return Expr::error(span);
                }
            }
        }
        let instance = instance_name(&name.name, &targs);
        if self.fns.contains_key(&instance) {
            let ident = ast::Ident { name: instance, span: name.span };
            return self.call(&ident, args, span);
        }
        self.template_requests.push((instance, name.name.clone(), targs));
        Expr::error(span)
    }
}

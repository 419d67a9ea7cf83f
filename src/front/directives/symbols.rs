//! `@symbol` directives: the contents of the file's `__constant__` and `__device__` variables for the launch.

use std::collections::HashMap;

use super::init::{const_eval, init_expr};
use super::syntax::{Directive, DirectiveKind};
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::launch::{InitExpr, Value};
use crate::front::source::Span;
use crate::front::tast::{GlobalSpace, Program};

/// The `@symbol` contents of `__constant__` and `__device__` variables, by variable name.
pub(super) fn symbols(program: &Program, all: &[Directive], diags: &mut Vec<Diagnostic>) -> Vec<(String, InitExpr)> {
    let mut out: Vec<(String, InitExpr)> = vec![];
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for d in all {
        let DirectiveKind::Symbol { name, init } = &d.kind else { continue };
        if let Some(prev) = seen.insert(&name.name, name.span) {
            diags.push(
                Diagnostic::new(ErrorCode::Directive, name.span, format!("`@symbol {}` is given twice", name.name))
                    .label("second one")
                    .with_secondary(prev, "first one"),
            );
            continue;
        }
        let Some(g) = program
            .globals
            .iter()
            .find(|g| g.name == name.name && matches!(g.space, GlobalSpace::Constant | GlobalSpace::Device))
        else {
            let names: Vec<_> = program
                .globals
                .iter()
                .filter(|g| matches!(g.space, GlobalSpace::Constant | GlobalSpace::Device))
                .map(|g| format!("`{}`", g.name))
                .collect();
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is not a __constant__ or __device__ variable of this file", name.name),
                )
                .label("unknown symbol")
                .hint(if names.is_empty() {
                    "this file declares no __constant__ or __device__ variables".to_string()
                } else {
                    format!("its variables: {}", names.join(", "))
                }),
            );
            continue;
        };
        let ie = if let A::InitList(items) = &init.kind {
            let mut values = vec![];
            let mut ok = true;
            flatten_consts(items, &mut values, &mut ok, diags);
            if !ok {
                continue;
            }
            if values.len() as u64 > g.len() {
                diags.push(
                    Diagnostic::new(
                        ErrorCode::Directive,
                        init.span,
                        format!("{} values for `{}`, which holds {}", values.len(), g.name, g.len()),
                    )
                    .label("too many values"),
                );
                continue;
            }
            if g.elem.is_integer() && values.iter().any(|v| matches!(v, Value::Float(_))) {
                diags.push(Diagnostic::new(
                    ErrorCode::Directive,
                    init.span,
                    format!("`{}` holds integers; these values are not all integers", g.name),
                ));
                continue;
            }
            InitExpr::List(values)
        } else {
            match init_expr(init, diags) {
                Some(ie) => ie,
                None => continue,
            }
        };
        out.push((g.name.clone(), ie));
    }
    out
}

/// The constants of a (nested) brace list, in order.
fn flatten_consts(items: &[ast::Expr], out: &mut Vec<Value>, ok: &mut bool, diags: &mut Vec<Diagnostic>) {
    for e in items {
        if let A::InitList(inner) = &e.kind {
            flatten_consts(inner, out, ok, diags);
        } else {
            match const_eval(e, &HashMap::new(), diags) {
                Some(v) => out.push(v),
                None => *ok = false,
            }
        }
    }
}

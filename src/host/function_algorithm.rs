//! Resolving `<algorithm>` and `<numeric>` calls whose last argument is a function object (a lambda, a
//! closure variable, a functor) to an instance of the host templates of [`super::prelude`], which keeps only
//! their text and its parse (so that the resolver, which loads them, does not import this file, which
//! extends the resolver).

use super::prelude::PRELUDE;
use super::resolve::Resolver;
use super::tree::Expr;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;

/// Whether `e` is a function object the templates here take: a lambda, or a value of a class with an
/// `operator()` (a closure variable, a functor).
fn callable(r: &mut Resolver<'_>, e: &ast::Expr) -> bool {
    if let A::Lambda { .. } = e.kind {
        return true;
    }
    let before = r.diags.len();
    let ty = match &e.kind {
        A::Name(_) => r.lvalue(e).ok().map(|(_, t)| t),
        _ => None,
    };
    r.diags.truncate(before);
    ty.is_some_and(|t| r.method_of(&t, "operator()").is_some())
}

impl Resolver<'_> {
    /// `std::for_each`, `std::transform`, `std::generate`, `std::count_if`, `std::find_if`, `std::all_of`,
    /// `std::any_of`, `std::none_of`, `std::accumulate`, `std::min_element`, `std::max_element`, `std::sort`
    /// and `std::stable_sort` with a function object as their last argument: the template above. None: not
    /// such a call (or one the forms of [`super::vector`] and [`super::algorithm`] take).
    pub(super) fn function_algorithm(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        // `qsort(base, n, size, compare)`: C's, with a comparison function.
        if name.name == "qsort" && args.len() == 4 && !self.fns.contains_key("qsort") {
            let ident = ast::Ident { name: format!("{PRELUDE}qsort"), span: name.span };
            return Some(self.call(&ident, args, span));
        }
        // C's `bsearch` and `div` family, and the `<algorithm>`/`<numeric>` calls without a function object
        // that [`super::algorithm`] does not run itself: templates of the prelude too.
        let c_fn = match (name.name.as_str(), args.len()) {
            ("bsearch", 5) => Some("bsearch"),
            ("div", 2) => Some("div"),
            ("ldiv" | "lldiv", 2) => Some("ldiv"),
            ("is_sorted" | "unique" | "adjacent_find", 2) => Some(name.name.as_str()),
            ("partial_sum" | "adjacent_difference" | "lower_bound" | "upper_bound" | "binary_search" | "rotate", 3) => {
                Some(name.name.as_str())
            }
            ("inner_product", 4) => Some("inner_product"),
            _ => None,
        };
        if let Some(target) = c_fn
            && !self.fns.contains_key(&name.name)
        {
            let ident = ast::Ident { name: format!("{PRELUDE}{target}"), span: name.span };
            return Some(self.call(&ident, args, span));
        }
        let target = match (name.name.as_str(), args.len()) {
            ("for_each" | "generate" | "count_if" | "find_if" | "all_of" | "any_of" | "none_of", 3) => {
                name.name.clone()
            }
            ("min_element" | "max_element" | "sort" | "stable_sort", 3) => name.name.clone(),
            ("transform" | "accumulate", 4) => name.name.clone(),
            ("transform", 5) => "transform2".to_string(),
            _ => return None,
        };
        let f = args.last()?;
        if self.fns.contains_key(&name.name) || !callable(self, f) || self.simple_form(&name.name, f) {
            return None;
        }
        let ident = ast::Ident { name: format!("{PRELUDE}{target}"), span: name.span };
        Some(self.call(&ident, args, span))
    }
}

impl Resolver<'_> {
    /// Whether `f` is a form the library calls of [`super::vector`] and [`super::algorithm`] take without a
    /// call per element: `std::for_each` whose lambda's body is `x = value;`, `std::generate` whose lambda
    /// returns a value, a `std::sort` comparison `return a < b;` or `return a > b;`.
    fn simple_form(&mut self, name: &str, f: &ast::Expr) -> bool {
        use crate::front::ast::StmtKind as S;
        let A::Lambda { params, body, .. } = &f.kind else { return false };
        match (name, params.as_slice(), body.as_slice()) {
            (
                "for_each",
                [p],
                [ast::Stmt { kind: S::Expr(ast::Expr { kind: A::Assign { op: None, target, .. }, .. }), .. }],
            ) => p.reference && matches!(&target.kind, A::Name(n) if *n == p.name.name),
            ("generate", [], [ast::Stmt { kind: S::Return(Some(_)), .. }]) => true,
            ("sort" | "stable_sort", [_, _], _) => {
                let before = self.diags.len();
                let simple = self.order(f).is_ok();
                self.diags.truncate(before);
                simple
            }
            _ => false,
        }
    }
}

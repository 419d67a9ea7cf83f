//! Host functions overloaded by parameter types (`int add(int, int)` and `float add(float, float)`, a
//! class's several constructors, `Vec::scale(float)` and `Vec::scale(const Vec &)`): each definition after
//! the first of one name is renamed `name#2`, `name#3`, ...; the first is also known as `name#1`. A call of
//! the name picks the overload whose parameters fit its arguments best, as C++'s ranking does for the
//! simple cases courses write: an exact match beats a promotion within integers or within floating types,
//! which beats any other arithmetic conversion.

use super::resolve::Resolver;
use crate::front::ast;
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::Type;
use std::collections::HashMap;

/// Functions with overloads renamed apart, and per overloaded name its definitions' names.
pub(super) type Renamed = (Vec<ast::Function>, HashMap<String, Vec<String>>);

/// `defs` with the second and later definitions of each name renamed, and for each overloaded name its
/// definitions' names (`add#1`, `add#2`, ...); None when no name is defined twice.
pub(super) fn renamed(defs: &[ast::Function]) -> Option<Renamed> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    defs.iter().for_each(|f| *count.entry(f.name.name.as_str()).or_default() += 1);
    if count.values().all(|&n| n < 2) {
        return None;
    }
    let mut seen: HashMap<String, Vec<String>> = HashMap::new();
    let mut out = defs.to_vec();
    for f in &mut out {
        if count[f.name.name.as_str()] < 2 {
            continue;
        }
        let names = seen.entry(f.name.name.clone()).or_default();
        let k = names.len() + 1;
        names.push(format!("{}#{k}", f.name.name));
        if k > 1 {
            f.name.name = format!("{}#{k}", f.name.name);
        }
    }
    Some((out, seen))
}

/// Whether `a` and `b` are the same type, `const` aside.
fn same(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Ptr { elem: x, .. }, Type::Ptr { elem: y, .. }) => same(x, y),
        (Type::Struct(x), Type::Struct(y)) => x.name == y.name,
        _ => a == b,
    }
}

/// How well an argument of type `arg` fits a parameter of type `param`: 3 exact, 2 a promotion, 1 another
/// conversion; None when it cannot be passed there.
fn fit(arg: &Type, param: &Type) -> Option<u32> {
    if same(arg, param) {
        return Some(3);
    }
    match (arg, param) {
        (Type::Error, _) | (_, Type::Error) => Some(1),
        (Type::Scalar(a), Type::Scalar(p)) => Some(if a.is_float() == p.is_float() { 2 } else { 1 }),
        (Type::Array(a, _), Type::Ptr { elem, .. }) if same(a, elem) => Some(3),
        (Type::Ptr { .. } | Type::Array(..), Type::Ptr { elem, .. }) if **elem == Type::Void => Some(1),
        // `0`/`NULL` for a pointer.
        (Type::Scalar(a), Type::Ptr { .. }) if a.is_integer() => Some(0),
        _ => None,
    }
}

impl Resolver<'_> {
    /// [`renamed`], as a method so the resolver names no path into this file (no import circle).
    pub(super) fn overloads_renamed(&self, defs: &[ast::Function]) -> Option<Renamed> {
        renamed(defs)
    }

    /// Makes each overloaded name's first definition known as `name#1` too, and the name's reference
    /// parameters those of any overload (the locals passed there then live in memory, which each overload
    /// may need).
    pub(super) fn declare_overloads(&mut self, overloads: HashMap<String, Vec<String>>) {
        for (name, names) in &overloads {
            let Some(&f) = self.fns.get(name) else { continue };
            self.fns.insert(names[0].clone(), f);
            if let Some(r) = self.refs.get(name).cloned() {
                self.refs.insert(names[0].clone(), r);
            }
            if let Some(d) = self.defaults.get(name).cloned() {
                self.defaults.insert(names[0].clone(), d);
            }
            if self.with_this.contains(name) {
                self.with_this.insert(names[0].clone());
            }
            if self.ref_returns.contains(name) {
                self.ref_returns.insert(names[0].clone());
            }
            let mut any: Vec<bool> = vec![];
            for n in names {
                for (k, &r) in self.refs.get(n).into_iter().flatten().enumerate() {
                    if k >= any.len() {
                        any.push(false);
                    }
                    any[k] |= r;
                }
            }
            self.refs.insert(name.clone(), any);
        }
        self.overloads = overloads;
    }

    /// The overload of `name` a call with `args` calls (`add#2`), None when `name` is not overloaded.
    pub(super) fn pick_overload(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<String, Reported>> {
        let names = self.overloads.get(&name.name)?.clone();
        let types: Vec<Type> = args.iter().map(|a| self.probe_type(a).unwrap_or(Type::Error)).collect();
        let mut best: Option<(u32, &String)> = None;
        for n in &names {
            let Some(&f) = self.fns.get(n) else { continue };
            let params = &self.sigs[f as usize].1;
            let defaults = self.defaults.get(n);
            let fills = |k: usize| defaults.is_some_and(|d| d.get(k).is_some_and(Option::is_some));
            if args.len() > params.len() || !(args.len()..params.len()).all(fills) {
                continue;
            }
            let score: Option<u32> = types.iter().zip(params).map(|(a, p)| fit(a, p)).sum();
            if let Some(s) = score
                && best.is_none_or(|(b, _)| s > b)
            {
                best = Some((s, n));
            }
        }
        Some(match best {
            Some((_, n)) => Ok(n.clone()),
            None => Err(self.error(span, format!("no overload of `{}` takes these arguments", name.name))),
        })
    }
}

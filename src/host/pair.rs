//! `std::pair<A, B>` in host code: a struct of `first` and `second` laid out as C lays out two fields (as
//! libstdc++'s is), named for its field types (`pair<int, float>`), so every spelling of one pair type is
//! one type. `std::make_pair(a, b)` is a temporary of the arguments' (decayed) types; a pair converts to a
//! pair of other field types field by field (`std::pair<int, double> p = std::make_pair(1, 2.5f)`); brace
//! lists build one (`{1, 2.5f}`, `v.push_back({k, x})`), and `std::sort` of a range of pairs compares them
//! lexicographically, as `operator<` of `<utility>` does.

use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::Type;

pub use crate::front::std_types::{pair_fields, pair_type};

/// The two arguments of `pair<A, B>`.
fn split_pair_name(name: &str) -> Option<(String, String)> {
    match crate::front::std_types::template_args(name, "pair")?.as_slice() {
        [a, b] => Some((a.to_string(), b.to_string())),
        _ => None,
    }
}

fn member(obj: &ast::Expr, name: &str) -> ast::Expr {
    let span = obj.span;
    ast::Expr { kind: A::Member(Box::new(obj.clone()), ast::Ident { name: name.into(), span }), span }
}

impl Resolver<'_> {
    /// `pair<A, B>` named in a type: the host type, or None when `name` is not a pair's.
    pub(super) fn pair_named(&mut self, name: &str, span: Span) -> Result<Option<Type>, Reported> {
        if !name.starts_with("pair<") {
            return Ok(None);
        }
        let Some((a, b)) = split_pair_name(name) else {
            return Err(self.error(span, "`std::pair` takes two types: `std::pair<int, float>`"));
        };
        let compact = crate::front::std_array::compact;
        let (a, b) = (self.type_named(&compact(&a), span)?, self.type_named(&compact(&b), span)?);
        Ok(Some(pair_type(a, b)))
    }

    /// `std::make_pair(a, b)`: a pair of the arguments' types (an array or a string literal decays to a
    /// pointer). None for any other call.
    pub(super) fn make_pair(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        if !matches!(name.name.as_str(), "make_pair" | "std::make_pair") || self.fns.contains_key(&name.name) {
            return None;
        }
        let [a, b] = args else {
            return Some(Err(self.error(span, "`std::make_pair` takes two arguments")));
        };
        let decayed = |r: &mut Self, e: &ast::Expr| -> Result<Type, Reported> {
            Ok(match r.rvalue(e)?.ty {
                Type::Array(elem, _) => Type::ptr(*elem, false),
                t => t,
            })
        };
        let types = decayed(self, a).and_then(|ta| Ok((ta, decayed(self, b)?)));
        let (ta, tb) = match types {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        let list = ast::Expr { kind: A::InitList(args.to_vec()), span };
        Some(self.braced_temporary(&pair_type(ta, tb), &list))
    }

    /// `e`, a pair of other field types, converted to the pair `ty` field by field; None when `e` is not
    /// such a pair.
    pub(super) fn converted_pair(&mut self, e: &ast::Expr, ty: &Type) -> Option<Result<Expr, Reported>> {
        pair_fields(ty)?;
        let v = match self.rvalue(e) {
            Ok(v) => v,
            Err(r) => return Some(Err(r)),
        };
        if v.ty == *ty || pair_fields(&v.ty).is_none() {
            return Some(Ok(v));
        }
        let list = ast::Expr { kind: A::InitList(vec![member(e, "first"), member(e, "second")]), span: e.span };
        Some(self.braced_temporary(ty, &list))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::types::Scalar;

    #[test]
    fn pairs_are_laid_out_as_two_fields_of_a_struct() {
        let p = pair_type(Type::INT, Type::Scalar(Scalar::F64));
        let Type::Struct(d) = &p else { panic!("a struct") };
        assert_eq!((d.fields[1].offset, d.size, d.align), (8, 16, 8));
        assert_eq!(d.name, "pair<int, double>");
        let q = pair_type(Type::Scalar(Scalar::U8), Type::INT);
        let Type::Struct(d) = &q else { panic!("a struct") };
        assert_eq!((d.fields[1].offset, d.size), (4, 8));
        assert_eq!(split_pair_name("pair<int, pair<float, char>>"), Some(("int".into(), "pair<float, char>".into())));
    }
}

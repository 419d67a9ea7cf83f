//! Brace lists as values in host code (`return {a, b};`, `arr[i] = {7, 8};`, `f({1, 2})`,
//! `v.push_back({1, 2})`, `P{9, 10}` of a struct without constructors): C++'s copy-list-initialisation of
//! the type the place expects. The value is a temporary of the frame, zeroed and then filled as a
//! declaration's brace initialiser fills its object ([`Resolver::init_in_memory`]); a class with a
//! constructor is constructed instead, as `Complex(1, 2)` is.

use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, Type};

impl Resolver<'_> {
    /// `e` as a value of `ty`: a brace list builds a temporary of that type (for a struct), or is its one
    /// element (for a scalar: `int x = {5}` assigned); anything else is [`Resolver::rvalue`].
    pub(super) fn rvalue_as(&mut self, e: &ast::Expr, ty: &Type) -> Result<Expr, Reported> {
        match (&e.kind, ty) {
            (A::InitList(_), Type::Struct(def)) if def.name != "dim3" => self.braced_temporary(ty, e),
            (A::InitList(items), _) if items.len() <= 1 && storage(ty).is_some() => match items.first() {
                Some(x) => self.rvalue(x),
                None => Ok(Expr::new(ExprKind::Const(0), ty.clone(), e.span)),
            },
            (A::InitList(_), _) => {
                Err(self.unsupported(e.span, format_args!("a brace list as a value of type `{ty}` in host code yet")))
            }
            _ => self.converted_pair(e, ty).unwrap_or_else(|| self.rvalue(e)),
        }
    }

    /// The struct `ty` list-initialised from `init` (a brace list): constructed when its class has a
    /// constructor, else a zeroed temporary whose fields take the list's items in order (the rest stay zero).
    pub(super) fn braced_temporary(&mut self, ty: &Type, init: &ast::Expr) -> Result<Expr, Reported> {
        let span = init.span;
        let (Type::Struct(def), A::InitList(items)) = (ty, &init.kind) else {
            return self.rvalue(init);
        };
        let class = ast::Ident { name: def.name.clone(), span };
        if let Some(built) = self.temporary(&class, items, span) {
            return built;
        }
        // `P{}` and `P(a)` of another `P`: a copy.
        if let [only] = items.as_slice()
            && !matches!(only.kind, A::InitList(_))
        {
            let v = self.rvalue(only)?;
            if v.ty == *ty {
                return Ok(v);
            }
        }
        let slot = self.new_slot();
        self.frame.push((slot, ty.size().max(1), format!("{} temporary", def.name)));
        let addr = Expr::new(ExprKind::Slot(slot), Type::ptr(ty.clone(), false), span);
        // Zeroed each time it is made (a temporary in a loop is made again).
        let u64t = Type::Scalar(Scalar::U64);
        let zero = vec![
            addr.clone(),
            Expr::new(ExprKind::Const(0), Type::Scalar(Scalar::I32), span),
            Expr::new(ExprKind::Const(ty.size() as u64), u64t, span),
        ];
        let mut sets = vec![Stmt::Expr(Expr::new(ExprKind::Lib(Lib::Memset, zero), Type::Void, span))];
        self.init_in_memory(addr, ty, init, &mut sets)?;
        let mut value = Expr::new(ExprKind::Slot(slot), ty.clone(), span);
        for set in sets.into_iter().rev() {
            let Stmt::Expr(e) = set else {
                return Err(self.unsupported(span, "this brace list as a value in host code yet"));
            };
            value = Expr::new(ExprKind::Comma(Box::new(e), Box::new(value)), ty.clone(), span);
        }
        Ok(value)
    }

    /// `P{9, 10}` or `P(9, 10)` of a struct `name` without constructors: the aggregate as a value.
    pub(super) fn aggregate_value(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let def = self.kernels.structs.get(&name.name)?.clone();
        if def.name == "dim3" || self.fns.contains_key(&name.name) {
            return None;
        }
        let list = ast::Expr { kind: A::InitList(args.to_vec()), span };
        Some(self.braced_temporary(&Type::Struct(def), &list))
    }
}

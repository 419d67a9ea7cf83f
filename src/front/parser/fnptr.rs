//! Function pointers in host code (and `va_arg(ap, T)`, the other call that takes a type): the declarator `R (*name)(params)` of locals, parameters, file-scope
//! variables and typedefs, and calls through a pointer (`p(args)`, `(*p)(args)`). Device code keeps its
//! "function pointers" error: the parser only reads them where `self.host` is set, and a typedef'd one that
//! device code names is refused by the type checker.

use super::*;

impl Parser<'_> {
    /// At the `(` of `(*name)(params)`?
    pub(super) fn at_fn_pointer(&self) -> bool {
        self.is(Punct::LParen) && *self.peek_kind(1) == TokKind::Punct(Punct::Star)
    }

    /// `(*name)(params)` after the result type `ret`: the name (None when left out, as in a prototype's
    /// parameter) and the pointer's type.
    pub(super) fn fn_pointer(&mut self, ret: TypeSpec) -> Result<(Option<Ident>, TypeSpec), Reported> {
        let start = ret.span;
        self.expect(Punct::LParen)?;
        let mut pointers = 0u8;
        while self.eat(Punct::Star) {
            pointers = pointers.saturating_add(1);
            while self.eat_kw(Kw::Const) || self.eat_kw(Kw::Restrict) {}
        }
        let name = match self.kind() {
            TokKind::Ident(_) => Some(self.ident("a name")?),
            _ => None,
        };
        if self.is(Punct::LBracket) {
            return Err(self.error(Diagnostic::unsupported(self.span(), "arrays of function pointers")));
        }
        self.expect(Punct::RParen)?;
        let params = self.param_list()?.into_iter().map(|p| p.ty).collect();
        let func = Some(Box::new(FnTypeSpec { ret, params }));
        let span = start.to(self.prev_span());
        let ty =
            TypeSpec { base: BaseType::Void, named: None, is_const: false, is_volatile: false, pointers, span, func };
        Ok((name, ty))
    }

    /// `va_arg(ap, T)` (at `va_arg`): the call `va_arg(ap, sizeof(T))`, the type being what the resolver reads.
    pub(super) fn va_arg(&mut self) -> Result<Expr, Reported> {
        let callee = self.ident("va_arg")?;
        self.expect(Punct::LParen)?;
        let ap = self.assignment()?;
        self.expect(Punct::Comma)?;
        let at = self.span();
        let ty = self.type_spec()?;
        let ty = Expr { kind: ExprKind::SizeofType(ty), span: at.to(self.prev_span()) };
        self.expect(Punct::RParen)?;
        let span = callee.span.to(self.prev_span());
        Ok(Expr { kind: ExprKind::Call(callee, vec![ap, ty]), span })
    }

    /// The "function pointers" error of device code, at the current token.
    pub(super) fn fn_pointer_unsupported(&mut self) -> Reported {
        self.error(
            Diagnostic::unsupported(self.span(), "function pointers")
                .hint("call the function by its name, choosing with `if` or `switch`"),
        )
    }

    /// A declaration whose first declarator is `(*name)(params)` (its type `ret` read), up to its `;`.
    pub(super) fn fn_pointer_decl(&mut self, ret: TypeSpec, start: Span) -> Result<Decl, Reported> {
        let (name, ty) = self.fn_pointer(ret)?;
        let Some(name) = name else { return Err(self.expected("a variable name")) };
        let init = if self.eat(Punct::Assign) { Some(self.assignment()?) } else { None };
        self.expect_semi()?;
        let declarators = vec![Declarator::plain(name, init)];
        Ok(Decl { shared: false, is_extern: false, ty, declarators, span: start.to(self.prev_span()) })
    }
}

/// `(*p)(args)` calls what `p` points to, as `p(args)` does: the name under the `*`s (and parentheses).
pub(super) fn called_pointer(e: &Expr) -> Option<Ident> {
    match &e.kind {
        ExprKind::Name(n) => Some(Ident { name: n.clone(), span: e.span }),
        ExprKind::Unary(UnaryOp::Deref, x) => called_pointer(x),
        _ => None,
    }
}

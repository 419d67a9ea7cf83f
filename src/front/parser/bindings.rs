//! Structured bindings in host code (`auto [a, b] = p;`, `auto &[k, v] = pr;`, `for (auto &[x, y] : pts)`),
//! read as a declaration the host interpreter binds (`host::bindings`): its type is written `[]` (a copy of
//! the object) or `&[]` (the object itself), its first declarator the hidden object with the initialiser,
//! the others the names, which stand for the object's fields in order. A range-for binds its hidden
//! element the same way at the start of its body.

use super::*;

/// The type a structured binding's declaration is written with: by copy or by reference.
pub const BY_COPY: &str = "[]";
pub const BY_REFERENCE: &str = "&[]";

impl Parser<'_> {
    /// `[a, b]` or `&[a, b]` where a declarator's name goes: a structured binding.
    pub(super) fn at_structured_binding(&self) -> bool {
        match self.kind() {
            TokKind::Punct(Punct::LBracket) => matches!(self.peek_kind(1), TokKind::Ident(_)),
            TokKind::Punct(Punct::Amp | Punct::AndAnd) => {
                *self.peek_kind(1) == TokKind::Punct(Punct::LBracket) && matches!(self.peek_kind(2), TokKind::Ident(_))
            }
            _ => false,
        }
    }

    pub(super) fn structured_binding_unsupported(&mut self) -> Reported {
        let what = if self.host {
            "structured bindings other than `auto [a, b]` / `auto &[a, b]` yet"
        } else {
            "structured bindings (`auto [a, b] = ...`) in device code yet"
        };
        let d = Diagnostic::unsupported(self.span(), what).hint("name the fields instead: `P p = ...; int a = p.x;`");
        self.error(d)
    }

    /// `&[a, b]` after `auto`: whether it binds by reference, and the names.
    fn binding_names(&mut self) -> Result<(bool, Vec<Ident>), Reported> {
        let reference = self.eat(Punct::Amp) || self.eat(Punct::AndAnd);
        self.expect(Punct::LBracket)?;
        let mut names = vec![self.ident("a name to bind")?];
        while self.eat(Punct::Comma) {
            names.push(self.ident("a name to bind")?);
        }
        self.expect(Punct::RBracket)?;
        Ok((reference, names))
    }

    /// The binding declaration of `names` to the fields of `init`'s object (held in the hidden `object`).
    fn binding_decl(ty: &TypeSpec, reference: bool, object: Ident, init: Expr, names: Vec<Ident>, span: Span) -> Decl {
        let ty = TypeSpec { named: Some(if reference { BY_REFERENCE } else { BY_COPY }.into()), ..ty.clone() };
        let plain = |name: Ident, init: Option<Expr>| Declarator::plain(name, init);
        let mut declarators = vec![plain(object, Some(init))];
        declarators.extend(names.into_iter().map(|n| plain(n, None)));
        Decl { shared: false, is_extern: false, ty, declarators, span }
    }

    fn hidden_object(&self, at: Span) -> Ident {
        Ident { name: format!("__binding#{}", self.pos), span: at }
    }

    /// `auto [a, b] = e;` (or `auto &[a, b] = e;`, `auto [a, b]{e};`) after the type: the declaration.
    pub(super) fn structured_binding(&mut self, ty: TypeSpec, start: Span) -> Result<Decl, Reported> {
        if !self.host || ty.named.as_deref() != Some("auto") || ty.pointers != 0 {
            return Err(self.structured_binding_unsupported());
        }
        let at = self.span();
        let (reference, names) = self.binding_names()?;
        let init = if self.eat(Punct::Assign) {
            self.assignment()?
        } else if self.eat(Punct::LBrace) || self.eat(Punct::LParen) {
            let close = if self.toks[self.pos - 1].kind == TokKind::Punct(Punct::LBrace) {
                Punct::RBrace
            } else {
                Punct::RParen
            };
            let e = self.assignment()?;
            self.expect(close)?;
            e
        } else {
            return Err(self.expected("`=` and the object to bind"));
        };
        self.expect_semi()?;
        let object = self.hidden_object(at);
        Ok(Self::binding_decl(&ty, reference, object, init, names, start.to(self.prev_span())))
    }

    /// `&[a, b] : range) body` of a range-for after its type: the loop over a hidden element, whose body
    /// starts by binding the names to the element's fields.
    pub(super) fn range_for_binding(&mut self, ty: TypeSpec) -> Result<StmtKind, Reported> {
        if !self.host || ty.named.as_deref() != Some("auto") || ty.pointers != 0 {
            return Err(self.structured_binding_unsupported());
        }
        let at = self.span();
        let (reference, names) = self.binding_names()?;
        self.expect(Punct::Colon)?;
        let range = if self.is(Punct::LBrace) { self.init_list()? } else { self.expr()? };
        self.expect(Punct::RParen)?;
        let body = self.statement()?;
        let element = self.hidden_object(at);
        let object = Ident { name: format!("{}#fields", element.name), span: at };
        let from = Expr { kind: ExprKind::Name(element.name.clone()), span: at };
        let bind = Self::binding_decl(&ty, true, object, from, names, at);
        let span = at.to(body.span);
        let body = Stmt { kind: StmtKind::Block(vec![Stmt { kind: StmtKind::Decl(bind), span: at }, body]), span };
        Ok(StmtKind::ForRange { ty, pointers: 0, reference, name: element, range, body: Box::new(body) })
    }
}

//! Template instances: a template's tokens with its arguments substituted, parsed as an ordinary function
//! (the definitions and the substitution's inputs are [`crate::front::template`]'s).

use std::collections::HashMap;

use super::*;
use crate::front::template::{Side, TemplateParam, Templates};

impl Parser<'_> {
    /// The templates and typedefs an instantiation's body is parsed with.
    pub fn set_context(&mut self, t: &Templates) {
        self.templates.defs = t.defs.clone();
        self.typedefs = t.typedefs.clone();
        self.structs = t.structs.clone();
    }

    /// Parses one host function of a whole program (a host template's instance) and names it `name`.
    pub fn single_host_function(&mut self, name: &str) -> Option<Function> {
        self.program = true;
        match self.top_item() {
            Ok(None) => self.host_defs.pop().map(|mut f| {
                f.name.name = name.to_string();
                f
            }),
            _ => None,
        }
    }

    /// Parses one function (a template's instance) and names it `name`.
    pub fn single_function(&mut self, name: &str) -> Option<Function> {
        match self.top_item() {
            Ok(Some(TopItem::Function(mut f))) => {
                f.name.name = name.to_string();
                Some(f)
            }
            _ => None,
        }
    }

    /// After [`Parser::single_function`]: its diagnostics and the instances its body named.
    pub fn finish_instance(self) -> (Vec<Diagnostic>, Vec<crate::front::tast::TemplateRequest>) {
        (self.diags, self.templates.requested)
    }
}

impl Templates {
    /// Parses instance `name` of template `base` with `args` (defaults fill the rest): the function, and
    /// what parsing it asked for (its own explicit instantiations are added to `self.requested`). `side`
    /// says which side's function it is: a kernel or device function, or a whole program's host function
    /// (`template <typename T> void alloc_bytes(T &ptr, size_t n)`, for the host interpreter).
    pub fn instantiate(
        &mut self,
        (base, args): (&str, &[Vec<Token>]),
        name: &str,
        text: &str,
        at: Span,
        side: Side,
    ) -> Result<Function, Vec<Diagnostic>> {
        let Some(def) = self.defs.get(base).cloned() else {
            return Err(vec![Diagnostic::new(ErrorCode::Name, at, format!("no template named `{base}`"))]);
        };
        if args.len() > def.params.len() || def.params[args.len()..].iter().any(|p| p.default.is_none()) {
            return Err(vec![
                Diagnostic::new(
                    ErrorCode::Type,
                    at,
                    format!(
                        "`{base}` takes {} template argument{}, {} given",
                        def.params.len(),
                        if def.params.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                )
                .with_secondary(def.span, def.header()),
            ]);
        }
        let mut values: HashMap<&str, (Vec<Token>, &TemplateParam)> = HashMap::new();
        for (i, p) in def.params.iter().enumerate() {
            let a = args.get(i).cloned().or_else(|| p.default.clone()).unwrap_or_default();
            if !p.is_type && a.first().is_some_and(|t| matches!(t.kind, TokKind::Kw(k) if k.starts_type())) {
                return Err(vec![
                    Diagnostic::new(ErrorCode::Type, at, format!("`{}` takes a constant, not a type", p.name))
                        .with_secondary(def.span, def.header()),
                ]);
            }
            values.insert(p.name.as_str(), (a, p));
        }
        let mut toks = Vec::with_capacity(def.tokens.len() + 8);
        for (i, t) in def.tokens.iter().enumerate() {
            // `threadIdx.x` keeps its field whatever the parameters are called.
            let after_member = i > 0 && matches!(def.tokens[i - 1].kind, TokKind::Punct(Punct::Dot | Punct::Arrow));
            match &t.kind {
                TokKind::Ident(n) if values.contains_key(n.as_str()) && !after_member => {
                    let (a, p) = &values[n.as_str()];
                    let re = |k: &TokKind| Token { kind: k.clone(), span: t.span };
                    let paren = |c| re(&TokKind::Punct(c));
                    if p.is_type {
                        toks.extend(a.iter().map(|x| re(&x.kind)));
                    } else {
                        // `((unsigned int)(512))`: the argument converted to the parameter's type.
                        toks.extend([paren(Punct::LParen), paren(Punct::LParen)]);
                        toks.extend(p.ty.iter().map(|x| re(&x.kind)));
                        toks.extend([paren(Punct::RParen), paren(Punct::LParen)]);
                        toks.extend(a.iter().map(|x| re(&x.kind)));
                        toks.extend([paren(Punct::RParen), paren(Punct::RParen)]);
                    }
                }
                _ => toks.push(t.clone()),
            }
        }
        let end = toks.last().map_or(at, |t| t.span);
        toks.push(Token { kind: TokKind::Eof, span: end });
        let mut p = Parser::new(&toks, text, 0);
        p.set_context(self);
        let f = match side {
            Side::Device => p.single_function(name),
            Side::Host => p.single_host_function(name),
        };
        let (diags, requested) = p.finish_instance();
        self.requested.extend(requested);
        match f {
            Some(f) if diags.is_empty() => Ok(f),
            _ => Err(diags),
        }
    }
}

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

    /// A constant template parameter (`unsigned int blockSize`), or a function one (`T (*func)(T)`, or
    /// `func_templ<T> func` of an alias template `using func_templ = T (*)(T);`): its name and type. A
    /// function parameter's type is left empty: its argument (a function's name) is substituted as written,
    /// so `func(x)` calls that function (a device template's call deduces its instance).
    pub(super) fn template_value_param(&mut self) -> Result<(Ident, Vec<Token>), Reported> {
        let from = self.pos;
        let (mut parens, mut angles) = (0i32, 0i32);
        let mut fn_name = None;
        while !self.at_eof() {
            match self.kind() {
                TokKind::Punct(Punct::Comma | Punct::Assign | Punct::Gt) if parens == 0 && angles == 0 => break,
                TokKind::Punct(Punct::Ellipsis) => {
                    return Err(self.error(Diagnostic::unsupported(self.span(), "variadic templates")));
                }
                TokKind::Punct(Punct::LParen) => {
                    // `(*func)`: the declarator of a function pointer.
                    if parens == 0
                        && *self.peek_kind(1) == TokKind::Punct(Punct::Star)
                        && let TokKind::Ident(n) = self.peek_kind(2)
                        && *self.peek_kind(3) == TokKind::Punct(Punct::RParen)
                    {
                        fn_name = Some(Ident { name: n.clone(), span: self.toks[self.pos + 2].span });
                    }
                    parens += 1;
                }
                TokKind::Punct(Punct::RParen) => parens -= 1,
                TokKind::Punct(Punct::Lt) if parens == 0 => angles += 1,
                TokKind::Punct(Punct::Gt) if parens == 0 => angles -= 1,
                TokKind::Punct(Punct::Shr) if parens == 0 && angles >= 2 => angles -= 2,
                _ => {}
            }
            self.bump();
        }
        if let Some(name) = fn_name {
            return Ok((name, vec![]));
        }
        let toks = &self.toks[from..self.pos];
        match toks.split_last() {
            Some((Token { kind: TokKind::Ident(n), span }, ty)) if !ty.is_empty() => {
                let name = Ident { name: n.clone(), span: *span };
                // `fn_t<T> func`: an alias template's type, a function pointer's as the riemann sums write it.
                let ty = if ty.iter().any(|t| t.kind == TokKind::Punct(Punct::Lt)) { vec![] } else { ty.to_vec() };
                Ok((name, ty))
            }
            _ => Err(self.expected("a template parameter name")),
        }
    }

    /// `static_assert(cond, "message");` (C++11, at file scope or in a block): checked here when `cond` is a
    /// constant of the file's (`N % 4 == 0` of a `constexpr int N`); other conditions (`sizeof`, type traits)
    /// are taken as nvcc checked them.
    pub(super) fn static_assert(&mut self) -> Result<(), Reported> {
        let start = self.span();
        self.bump();
        let open = self.pos + 1;
        self.skip_parens()?;
        let inner = &self.toks[open..self.pos.saturating_sub(1).max(open)];
        let mut depth = 0i32;
        let mut end = inner.len();
        for (i, t) in inner.iter().enumerate() {
            match t.kind {
                TokKind::Punct(Punct::LParen) => depth += 1,
                TokKind::Punct(Punct::RParen) => depth -= 1,
                TokKind::Punct(Punct::Comma) if depth == 0 => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let message = match inner.get(end + 1).map(|t| &t.kind) {
            Some(TokKind::Str(m)) => format!(": {m}"),
            _ => String::new(),
        };
        let value = crate::front::template::fold_constant(&inner[..end], &self.constants);
        self.expect_semi()?;
        if value == Some(0) {
            let at = start.to(self.prev_span());
            return Err(self.error(Diagnostic::new(ErrorCode::Type, at, format!("static assertion failed{message}"))));
        }
        Ok(())
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
                    } else if p.ty.is_empty() {
                        // A function parameter: the function's name (`&f` names it too).
                        let name = match a.split_first() {
                            Some((amp, rest)) if amp.kind == TokKind::Punct(Punct::Amp) => rest,
                            _ => a,
                        };
                        toks.extend(name.iter().map(|x| re(&x.kind)));
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

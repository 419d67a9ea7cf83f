//! Template definitions: a function template's tokens are kept, to be parsed for each instantiation
//! (`crate::front::template`); so are a whole program's class templates.
//!
//! Class templates of a whole program (`template <typename T> class Buffer { T *data; ... };`): the
//! definition's tokens are kept, with those of the member functions defined out of the class
//! (`template <class T> T &Buffer<T>::operator[](int i) { ... }`); each use with new arguments
//! (`Buffer<float> b(10);`) substitutes them for the parameters and parses the result as the class
//! `Buffer<float>` (the class's own name, with or without `<T>`, becomes the instance's name), so it is an
//! ordinary class from there on: its fields typed, its member functions host functions (or device ones),
//! named `Buffer<float>::operator[]`.

use super::*;
use crate::front::template::ClassTemplate;

/// How deep class template instances may name other new instances (`A<float>` naming `B<float>` naming ...).
const MAX_INSTANCE_DEPTH: u32 = 16;

impl Parser<'_> {
    /// `template <params>` before a function: its tokens are kept, to be parsed for each instantiation.
    pub(super) fn template(&mut self) -> Result<(), Reported> {
        let start = self.span();
        self.bump(); // template
        self.expect(Punct::Lt)?;
        if self.eat(Punct::Gt) {
            return Err(
                self.error(Diagnostic::unsupported(start.to(self.prev_span()), "explicit template specialisation"))
            );
        }
        let mut params = vec![];
        loop {
            let from = self.pos;
            let is_type = self.is_kw(Kw::Template) || self.is_kw(Kw::Struct);
            let (name, ty) = if is_type {
                self.bump();
                if self.is(Punct::Ellipsis) {
                    return Err(self.error(Diagnostic::unsupported(self.span(), "variadic templates")));
                }
                (self.ident("a template parameter name")?, vec![])
            } else {
                self.template_value_param()?
            };
            let default = if self.eat(Punct::Assign) {
                let from = self.pos;
                while !self.at_eof() && !self.is(Punct::Comma) && !self.is(Punct::Gt) {
                    self.bump();
                }
                Some(self.toks[from..self.pos].to_vec())
            } else {
                None
            };
            let text: Vec<String> = self.toks[from..self.pos].iter().map(|t| template::spell(&t.kind)).collect();
            params.push(TemplateParam { name: name.name, is_type, default, ty, text: text.join(" ") });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::Gt)?;
        let header = start.to(self.prev_span());
        // A whole program's class templates and their members defined out of the class (`template_defs`).
        if self.program {
            if self.is_kw(Kw::Struct) {
                return self.class_template(params);
            }
            if let Some(r) = self.class_template_member(&params) {
                return r;
            }
        }
        // The function: up to its body's closing brace (or a prototype's `;`).
        let from = self.pos;
        let mut name = None;
        let mut is_kernel = false;
        let mut depth = 0i32;
        while !self.at_eof() {
            match self.kind() {
                TokKind::Kw(Kw::Global) => is_kernel = true,
                TokKind::Kw(Kw::Struct) if depth == 0 && name.is_none() => {
                    // A class template of the host's (no device code in it) is skipped like other host code.
                    if let Some(end) = self.host_class_end() {
                        if let TokKind::Ident(n) = self.peek_kind(1).clone() {
                            self.templates.classes.push(n.clone());
                            self.host_functions.push(Ident { name: n, span: self.toks[self.pos + 1].span });
                        }
                        self.pos = end;
                        return Ok(());
                    }
                    return Err(self.error(Diagnostic::unsupported(self.span(), "class and struct templates")));
                }
                TokKind::Ident(n)
                    if depth == 0 && *self.peek_kind(1) == TokKind::Punct(Punct::LParen) && name.is_none() =>
                {
                    name = Some(n.clone());
                }
                TokKind::Punct(Punct::Semi) if depth == 0 => {
                    self.bump();
                    return Ok(()); // a declaration: the definition is what counts
                }
                TokKind::Punct(Punct::LBrace) => depth += 1,
                TokKind::Punct(Punct::RBrace) => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        break;
                    }
                }
                _ => {}
            }
            self.bump();
        }
        let Some(name) = name else { return Err(self.expected("a function after the template parameters")) };
        let tokens = self.toks[from..self.pos].to_vec();
        let def = TemplateDef { name: name.clone(), params, tokens, is_kernel, span: header };
        self.templates.defs.insert(name, def);
        Ok(())
    }

    /// At `struct`/`class` after a template's parameters: keeps the class template, up to its `;`.
    pub(super) fn class_template(&mut self, params: Vec<TemplateParam>) -> Result<(), Reported> {
        let TokKind::Ident(name) = self.peek_kind(1).clone() else {
            return Err(self.expected("the class template's name"));
        };
        let from = self.pos;
        let mut depth = 0i32;
        while !self.at_eof() {
            match self.kind() {
                TokKind::Punct(Punct::LBrace) => depth += 1,
                TokKind::Punct(Punct::RBrace) => depth -= 1,
                TokKind::Punct(Punct::Semi) if depth == 0 => {
                    self.bump();
                    break;
                }
                _ => {}
            }
            self.bump();
        }
        let tokens = self.toks[from..self.pos].to_vec();
        self.templates.class_defs.insert(name, ClassTemplate { params, tokens, members: vec![] });
        Ok(())
    }

    /// After a template's parameters: whether what follows defines a member function of a class template
    /// (`T Buffer<T>::at(int i) { ... }`, `Buffer<T>::Buffer(int n) : ...`): then it is kept with the class.
    pub(super) fn class_template_member(&mut self, params: &[TemplateParam]) -> Option<Result<(), Reported>> {
        let mut i = self.pos;
        let class = loop {
            match &self.toks.get(i)?.kind {
                TokKind::Punct(Punct::LParen | Punct::LBrace | Punct::Semi) | TokKind::Eof => return None,
                TokKind::Ident(n)
                    if self.templates.class_defs.contains_key(n)
                        && self.toks.get(i + 1)?.kind == TokKind::Punct(Punct::Lt) =>
                {
                    let (_, after) = template::split_args(&self.toks[i + 1..])?;
                    if self.toks.get(i + 1 + after)?.kind == TokKind::Punct(Punct::ColonColon) {
                        break n.clone();
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        };
        let from = self.pos;
        let mut depth = 0i32;
        while !self.at_eof() {
            match self.kind() {
                TokKind::Punct(Punct::Semi) if depth == 0 => {
                    // A declaration only: the definition is what counts.
                    self.bump();
                    return Some(Ok(()));
                }
                TokKind::Punct(Punct::LBrace) => depth += 1,
                TokKind::Punct(Punct::RBrace) => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        break;
                    }
                }
                _ => {}
            }
            self.bump();
        }
        let tokens = self.toks[from..self.pos].to_vec();
        if let Some(def) = self.templates.class_defs.get_mut(&class) {
            def.members.push((params.to_vec(), tokens));
        }
        Some(Ok(()))
    }

    /// At a class template's name followed by `<`: the instance's name (`Buffer<float>`), the class made
    /// now if it is new; the position is left on the closing `>`.
    pub(super) fn class_instance(&mut self, name: &str) -> Result<String, Reported> {
        let Some((args, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
            return Err(self.expected("the class template's arguments: `Buffer<float>`"));
        };
        let at = self.span();
        self.pos += after;
        let Some(def) = self.templates.class_defs.get(name).cloned() else { return Err(Reported) };
        if args.len() > def.params.len() || def.params[args.len()..].iter().any(|p| p.default.is_none()) {
            let n = def.params.len();
            let what =
                format!("`{name}` takes {n} template argument{}, {} given", if n == 1 { "" } else { "s" }, args.len());
            return Err(self.error(Diagnostic::new(ErrorCode::Type, at, what)));
        }
        let args: Vec<Vec<Token>> = def
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| args.get(i).cloned().or_else(|| p.default.clone()).unwrap_or_default())
            .collect();
        let instance = template::instance_name(name, &args);
        if self.structs.iter().any(|s| s.name.name == instance) || self.instantiating.contains(&instance) {
            return Ok(instance);
        }
        if self.instantiating.len() >= MAX_INSTANCE_DEPTH as usize {
            let what = format!("`{instance}`: class template instances nested more than {MAX_INSTANCE_DEPTH} deep");
            return Err(self.error(Diagnostic::new(ErrorCode::Type, at, what)));
        }
        let mut toks = substitute(&def.tokens, &def.params, &args, name, &instance);
        for (params, member) in &def.members {
            toks.extend(substitute(member, params, &args, name, &instance));
        }
        let end = toks.last().map_or(at, |t| t.span);
        toks.push(Token { kind: TokKind::Eof, span: end });
        let mut sub = Parser::new(&toks, self.text, self.base);
        sub.program = self.program;
        sub.typedefs = self.typedefs.clone();
        sub.templates = self.templates.clone();
        sub.structs = std::mem::take(&mut self.structs);
        sub.enums = self.enums.clone();
        sub.constants = self.constants.clone();
        sub.instantiating = self.instantiating.iter().cloned().chain([instance.clone()]).collect();
        let before = sub.structs.len();
        let tu = sub.translation_unit();
        self.structs = tu.structs;
        let made = self.structs.len() > before;
        self.host_defs.extend(tu.host_defs);
        self.instance_functions.extend(tu.functions);
        self.class_globals.extend(tu.globals);
        self.static_members.extend(sub.static_members);
        self.unavailable.extend(tu.unavailable);
        let failed = !sub.diags.is_empty();
        self.diags.extend(sub.diags);
        if failed || !made {
            let what = format!("`{instance}` (class template `{name}`) does not parse as a class");
            return Err(self.error(Diagnostic::new(ErrorCode::Type, at, what)));
        }
        Ok(instance)
    }
}

/// A class template's tokens with `args` for `params`, and the class's name (`Buffer`, `Buffer<T>`) made the
/// instance's (`Buffer<float>`, one token).
fn substitute(
    tokens: &[Token],
    params: &[TemplateParam],
    args: &[Vec<Token>],
    class: &str,
    instance: &str,
) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        let after_member = i > 0 && matches!(tokens[i - 1].kind, TokKind::Punct(Punct::Dot | Punct::Arrow));
        match &t.kind {
            TokKind::Ident(n) if n == class && !after_member => {
                let written = tokens.get(i + 1).filter(|t| t.kind == TokKind::Punct(Punct::Lt));
                match written.and_then(|_| template::split_args(&tokens[i + 1..])) {
                    // `Buffer<T>` with the parameters themselves: this instance.
                    Some((a, after)) if own_params(&a, params) => {
                        out.push(Token { kind: TokKind::Ident(instance.to_string()), span: t.span });
                        i += 1 + after;
                        continue;
                    }
                    // `Deep<N + 1>`: another instance, named with the arguments substituted below.
                    Some(_) => out.push(t.clone()),
                    None => out.push(Token { kind: TokKind::Ident(instance.to_string()), span: t.span }),
                }
            }
            TokKind::Ident(n) if !after_member && let Some(k) = params.iter().position(|p| p.name == *n) => {
                let a = args.get(k).cloned().unwrap_or_default();
                let re = |k: &TokKind| Token { kind: k.clone(), span: t.span };
                if params[k].is_type || params[k].ty.is_empty() {
                    out.extend(a.iter().map(|x| re(&x.kind)));
                } else {
                    // `((int)(16))`: the argument converted to the parameter's type, as for function templates.
                    let paren = |c| re(&TokKind::Punct(c));
                    out.extend([paren(Punct::LParen), paren(Punct::LParen)]);
                    out.extend(params[k].ty.iter().map(|x| re(&x.kind)));
                    out.extend([paren(Punct::RParen), paren(Punct::LParen)]);
                    out.extend(a.iter().map(|x| re(&x.kind)));
                    out.extend([paren(Punct::RParen), paren(Punct::RParen)]);
                }
            }
            _ => out.push(t.clone()),
        }
        i += 1;
    }
    out
}

/// Whether template arguments are the parameters themselves, in order (`Buffer<T>` inside `Buffer`).
fn own_params(args: &[Vec<Token>], params: &[TemplateParam]) -> bool {
    args.len() == params.len()
        && args
            .iter()
            .zip(params)
            .all(|(a, p)| matches!(a.as_slice(), [Token { kind: TokKind::Ident(n), .. }] if *n == p.name))
}

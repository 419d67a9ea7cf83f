//! Struct, class and enum definitions: fields, member functions (see [`super::members`]), and which classes
//! are the host's (member functions, none of them device code): skipped in a kernel file, read in a whole
//! program.

use super::*;

impl Parser<'_> {
    /// At `struct`/`enum`: is this a definition (`struct S {`, `struct {`, `enum class E {`)?
    pub(super) fn starts_definition(&self) -> bool {
        let mut i = 1;
        loop {
            match self.peek_kind(i) {
                TokKind::Punct(Punct::LBrace | Punct::Colon) => return true,
                TokKind::Ident(_) | TokKind::Kw(Kw::Struct) => i += 1,
                TokKind::Punct(Punct::LParen) => {
                    // `__align__(16)`: skip the parenthesised argument.
                    i += 1;
                    while !matches!(self.peek_kind(i), TokKind::Punct(Punct::RParen) | TokKind::Eof) {
                        i += 1;
                    }
                    i += 1;
                }
                _ => return false,
            }
            if i > 8 {
                return false;
            }
        }
    }

    /// `struct [__align__(N)] [Name] { fields }` or `enum [class] [Name] { A, B = 2 }`: records the definition;
    /// returns its name (empty for an unnamed struct, which a typedef names).
    pub(super) fn struct_or_enum(&mut self) -> Result<Option<String>, Reported> {
        let start = self.span();
        let is_enum = self.is_kw(Kw::Enum);
        self.bump();
        if is_enum && self.is_kw(Kw::Struct) {
            self.bump(); // enum class
        }
        let mut align = None;
        let mut name = None;
        loop {
            match self.kind().clone() {
                TokKind::Ident(n) if n == "__align__" || n == "alignas" || n == "__builtin_align__" => {
                    self.bump();
                    self.expect(Punct::LParen)?;
                    align = Some(self.expr()?);
                    self.expect(Punct::RParen)?;
                }
                TokKind::Ident(_) if name.is_none() => name = Some(self.ident("a name")?),
                _ => break,
            }
        }
        if self.is(Punct::Colon) {
            if !is_enum
                && self.program
                && let Some(r) = self.derived_host_class(start, name.clone())
            {
                return r;
            }
            if !is_enum && let Some(end) = self.host_class_end() {
                // `class Timer : public Base { ... }` with no device code: the host's, skipped.
                self.pos = end;
                if let Some(n) = &name {
                    self.host_functions.push(n.clone());
                }
                return Ok(name.map(|n| n.name));
            }
            let what = if is_enum { "enums with an underlying type" } else { "inheritance" };
            return Err(self.error(Diagnostic::unsupported(self.span(), what)));
        }
        self.expect(Punct::LBrace)?;
        if is_enum {
            let mut values = vec![];
            while !self.is(Punct::RBrace) && !self.at_eof() {
                let v = self.ident("an enumerator")?;
                let e = if self.eat(Punct::Assign) { Some(self.assignment()?) } else { None };
                values.push((v, e));
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RBrace)?;
            self.enums.push(EnumDecl { name: name.clone(), values });
            return Ok(name.map(|n| n.name));
        }
        // A class with member functions none of which is `__device__` is the host's (a random-number helper,
        // a timer): skipped like a host function.
        let body_end = {
            let mut depth = 1;
            let mut i = self.pos;
            while i < self.toks.len() && depth > 0 {
                match self.toks[i].kind {
                    TokKind::Punct(Punct::LBrace) => depth += 1,
                    TokKind::Punct(Punct::RBrace) => depth -= 1,
                    TokKind::Eof => break,
                    _ => {}
                }
                i += 1;
            }
            i
        };
        let body = &self.toks[self.pos..body_end.min(self.toks.len())];
        if has_member_functions(body) && !has_device_code(body) {
            if self.program {
                // A class with virtual functions keeps its dynamic type in a hidden first field (`vptr#`):
                // calls through a base pointer choose the function by it.
                let virtual_ = body.iter().any(|t| matches!(&t.kind, TokKind::Ident(n) if n == "virtual"));
                // A whole program runs its host classes: read as a struct whose member functions are host
                // functions; one that uses what the host interpreter does not read is skipped as before
                // (its uses are then the errors).
                let (pos, diags, structs, defs) =
                    (self.pos, self.diags.len(), self.structs.len(), self.host_defs.len());
                match self.struct_body(start, name.clone(), align.clone()) {
                    Ok(r) if self.diags.len() == diags => {
                        if virtual_ && let Some(s) = self.structs.last_mut() {
                            let at = s.name.span;
                            let field = Declarator::plain(Ident { name: "vptr#".into(), span: at }, None);
                            s.fields.insert(0, (hidden_u64(at), field));
                        }
                        return Ok(r);
                    }
                    _ => {
                        self.pos = pos;
                        self.diags.truncate(diags);
                        self.structs.truncate(structs);
                        self.host_defs.truncate(defs);
                    }
                }
            }
            self.pos = body_end;
            if let Some(n) = &name {
                self.host_functions.push(n.clone());
            }
            return Ok(name.map(|n| n.name));
        }
        self.struct_body(start, name, align)
    }

    /// A struct's fields and member functions after its `{`, up to and with its `}`.
    fn struct_body(
        &mut self,
        start: Span,
        name: Option<Ident>,
        align: Option<Expr>,
    ) -> Result<Option<String>, Reported> {
        let mut fields = vec![];
        let mut methods = vec![];
        // The class's name is a type inside its own member functions.
        let provisional =
            name.clone().map(|n| StructDecl { name: n, fields: vec![], align: None, span: start, methods: vec![] });
        let has_provisional = provisional.is_some();
        let at = self.structs.len();
        self.structs.extend(provisional);
        let defs_before = self.host_defs.len();
        if self.program {
            self.remember_chrono_fields();
        }
        let body = self.class_members(name.as_ref(), &mut fields, &mut methods);
        // (By its place: a class template's instance its fields named was added after it.)
        if has_provisional && at < self.structs.len() {
            self.structs.remove(at);
        }
        body?;
        self.expect(Punct::RBrace)?;
        if let Some(n) = &name {
            self.default_member_inits(&n.name, &fields, defs_before);
        }
        let ident = name.clone().unwrap_or(Ident { name: String::new(), span: start });
        self.structs.push(StructDecl { name: ident, fields, align, span: start.to(self.prev_span()), methods });
        Ok(Some(name.map_or(String::new(), |n| n.name)))
    }

    /// `int count = 0;` in a host class: C++ runs these initialisers in every constructor (before its body; a
    /// member initialiser of the same field comes after and wins). The host constructors the class defined
    /// (host functions from `defs_before` on) start with them.
    fn default_member_inits(&mut self, class: &str, fields: &[(TypeSpec, Declarator)], defs_before: usize) {
        let mut inits = vec![];
        for (_, d) in fields {
            let Some(value) = d.init.clone().filter(|_| d.dims.is_empty()) else { continue };
            let span = d.name.span;
            let this = Expr { kind: ExprKind::Name("this".into()), span };
            let deref = Expr { kind: ExprKind::Unary(UnaryOp::Deref, Box::new(this)), span };
            let place = Expr { kind: ExprKind::Member(Box::new(deref), d.name.clone()), span };
            let assign =
                Expr { kind: ExprKind::Assign { op: None, target: Box::new(place), value: Box::new(value) }, span };
            inits.push(Stmt { kind: StmtKind::Expr(assign), span });
        }
        let ctor = format!("{class}::{class}");
        let from = defs_before.min(self.host_defs.len());
        for f in self.host_defs[from..].iter_mut().filter(|f| f.name.name == ctor) {
            f.body.splice(0..0, inits.iter().cloned());
        }
    }

    /// A class body's fields and member functions, up to its `}`.
    fn class_members(
        &mut self,
        name: Option<&Ident>,
        fields: &mut Vec<(TypeSpec, Declarator)>,
        methods: &mut Vec<Method>,
    ) -> Result<(), Reported> {
        while !self.is(Punct::RBrace) && !self.at_eof() {
            if matches!(self.kind(), TokKind::Ident(n) if n == "public" || n == "private" || n == "protected") {
                self.bump();
                self.expect(Punct::Colon)?;
                continue;
            }
            if self.is_kw(Kw::Union) {
                return Err(self.error(
                    Diagnostic::unsupported(self.span(), "unions")
                        .hint("use separate fields, or reinterpret with `__float_as_int` and friends"),
                ));
            }
            // `struct Node *next;` is a field whose type names a struct (C's elaborated type specifier); only
            // `struct Inner { ... }` declares a nested type.
            let nested_struct = self.is_kw(Kw::Struct) && self.starts_definition();
            if self.is_kw(Kw::Template) || nested_struct || self.is_kw(Kw::Typedef) {
                return Err(self.error(Diagnostic::unsupported(self.span(), "nested type declarations in structs")));
            }
            if self.eat(Punct::Semi) {
                continue;
            }
            let class = name.map_or("", |n| n.name.as_str()).to_string();
            // A whole program's function-pointer field: `void (*kernel)(float *, int);`.
            if self.program {
                let (save, diags) = (self.pos, self.diags.len());
                if let Ok(ret) = self.type_spec()
                    && self.at_fn_pointer()
                {
                    let (field, ty) = self.fn_pointer(ret)?;
                    let Some(field) = field else { return Err(self.expected("a field name")) };
                    fields.push((ty, Declarator::plain(field, None)));
                    self.expect_semi()?;
                    continue;
                }
                self.pos = save;
                self.diags.truncate(diags);
            }
            if self.starts_member_function(&class) {
                if let Some(m) = self.member_function(&class)? {
                    methods.push(m);
                }
                continue;
            }
            if self.program && self.is_kw(Kw::Static) {
                self.static_member(&class)?;
                continue;
            }
            // A whole program's `std::chrono` field (a timer class's start) is the number it is read as.
            // (`remember_chrono_fields` knows its duration already.)
            let chrono = if self.program { self.chrono_type() } else { None };
            let mut ty = match chrono {
                Some((ty, _)) => ty,
                None => self.type_spec()?,
            };
            let name_at = self.pos;
            let first = self.ident("a field name")?;
            let mut declarators = self.declarators(Some(first))?;
            self.own_stars(&mut ty, &mut declarators, name_at);

            for d in declarators {
                fields.push((ty.clone(), d));
            }
            self.expect_semi()?;
        }
        Ok(())
    }

    /// At `: public Base {` of a whole program's class with one base the file defined: the class read with
    /// the base's object as a hidden first field (`base#Base`, where C++ puts it); None (nothing read) for
    /// other base lists or a body the host does not read.
    fn derived_host_class(&mut self, start: Span, name: Option<Ident>) -> Option<Result<Option<String>, Reported>> {
        let mut i = 1;
        while matches!(self.peek_kind(i), TokKind::Ident(n) if matches!(n.as_str(), "public" | "protected" | "private" | "virtual"))
        {
            i += 1;
        }
        let TokKind::Ident(base) = self.peek_kind(i).clone() else { return None };
        if *self.peek_kind(i + 1) != TokKind::Punct(Punct::LBrace) || !self.structs.iter().any(|s| s.name.name == base)
        {
            return None;
        }
        let at = self.toks[self.pos + i].span;
        let (pos, diags, structs, defs) = (self.pos, self.diags.len(), self.structs.len(), self.host_defs.len());
        self.pos += i + 2; // past the `{`
        match self.struct_body(start, name, None) {
            Ok(r) if self.diags.len() == diags => {
                let ty = TypeSpec { named: Some(base.clone()), ..hidden_u64(at) };
                let field = Declarator {
                    name: Ident { name: format!("base#{base}"), span: at },
                    pointers: 0,
                    dims: vec![],
                    open_size: false,
                    init: None,
                    paren_init: false,
                    reference: false,
                };
                if let Some(s) = self.structs.last_mut() {
                    s.fields.insert(0, (ty, field));
                }
                Some(Ok(r))
            }
            _ => {
                self.pos = pos;
                self.diags.truncate(diags);
                self.structs.truncate(structs);
                self.host_defs.truncate(defs);
                None
            }
        }
    }

    /// At a class's `: public Base` (or at its `struct`/`class`): if the class is the host's (member functions,
    /// none of them device code), the token just after its closing brace.
    pub(super) fn host_class_end(&self) -> Option<usize> {
        let mut i = self.pos;
        while i < self.toks.len() && !matches!(self.toks[i].kind, TokKind::Punct(Punct::LBrace | Punct::Semi)) {
            i += 1;
        }
        if self.toks.get(i)?.kind != TokKind::Punct(Punct::LBrace) {
            return None;
        }
        let start = i + 1;
        let mut depth = 1;
        i += 1;
        while i < self.toks.len() && depth > 0 {
            match self.toks[i].kind {
                TokKind::Punct(Punct::LBrace) => depth += 1,
                TokKind::Punct(Punct::RBrace) => depth -= 1,
                TokKind::Eof => return None,
                _ => {}
            }
            i += 1;
        }
        let body = &self.toks[start..i.min(self.toks.len())];
        (has_member_functions(body) && !has_device_code(body)).then_some(i)
    }
}

/// Does a class body declare member functions? A member function is a name followed by `(` outside brackets
/// and parentheses (`float a[f(2)]` is a field; `void reset();`, `Timer()`, `~Timer()` and `operator()` are
/// functions).
fn has_member_functions(body: &[Token]) -> bool {
    let mut depth = 0i32;
    let mut braces = 0i32;
    for (i, t) in body.iter().enumerate() {
        match &t.kind {
            TokKind::Punct(Punct::LParen | Punct::LBracket) => depth += 1,
            TokKind::Punct(Punct::RParen | Punct::RBracket) => depth -= 1,
            TokKind::Punct(Punct::LBrace) => braces += 1,
            TokKind::Punct(Punct::RBrace) => braces -= 1,
            TokKind::Ident(n) if depth == 0 && braces == 0 => {
                let next = body.get(i + 1).map(|t| &t.kind);
                if n == "operator" || next == Some(&TokKind::Punct(Punct::LParen)) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Does a class body hold device code (`__device__` or `__global__` members)?
fn has_device_code(body: &[Token]) -> bool {
    body.iter().any(|t| matches!(t.kind, TokKind::Kw(Kw::Device | Kw::Global)))
}

/// The type of a hidden field: `unsigned long` (a class's dynamic type), or a base class once `named`.
fn hidden_u64(span: Span) -> TypeSpec {
    TypeSpec { base: BaseType::ULong, named: None, is_const: false, is_volatile: false, pointers: 0, span, func: None }
}

impl Parser<'_> {
    /// `static int count;` (or `static const int N = 4;`) in a whole program's class body: not a field of its
    /// objects but one variable of the program, named `Class::count`. One with its initialiser here is
    /// declared after the class; one without is declared where the file defines it (`int Class::count = 0;`,
    /// [`Parser::static_member_definition`]).
    fn static_member(&mut self, class: &str) -> Result<(), Reported> {
        let start = self.span();
        self.bump();
        let mut ty = self.type_spec()?;
        let name_at = self.pos;
        let first = self.ident("a static member's name")?;
        let mut declarators = self.declarators(Some(first))?;
        self.own_stars(&mut ty, &mut declarators, name_at);
        self.expect_semi()?;
        for mut d in declarators {
            self.static_members.insert((class.to_string(), d.name.name.clone()));
            if d.init.is_some() {
                d.name.name = format!("{class}::{}", d.name.name);
                let decl = Decl {
                    shared: false,
                    is_extern: false,
                    ty: ty.clone(),
                    declarators: vec![d],
                    span: start.to(self.prev_span()),
                };
                self.class_globals.push(GlobalDecl { space: VarSpace::Plain, decl });
            }
        }
        Ok(())
    }

    /// After a file-scope declaration's type: `Class::member = init;` (or `Class::member;`, `[N]`) defining a
    /// static data member the class declared, as a variable named `Class::member`; None when something else
    /// follows (nothing read).
    pub(super) fn static_member_definition(&mut self, start: Span, ty: &TypeSpec) -> Result<Option<Decl>, Reported> {
        let (TokKind::Ident(class), TokKind::Ident(member)) = (self.kind().clone(), self.peek_kind(2).clone()) else {
            return Ok(None);
        };
        if *self.peek_kind(1) != TokKind::Punct(Punct::ColonColon)
            || !self.static_members.contains(&(class.clone(), member.clone()))
        {
            return Ok(None);
        }
        let span = self.span();
        self.bump();
        self.bump();
        let name_at = self.pos;
        let name_span = span.to(self.span());
        self.bump();
        let name = Ident { name: format!("{class}::{member}"), span: name_span };
        let mut declarators = self.declarators(Some(name))?;
        let mut ty = ty.clone();
        self.own_stars(&mut ty, &mut declarators, name_at);
        self.expect_semi()?;
        Ok(Some(Decl { shared: false, is_extern: false, ty, declarators, span: start.to(self.prev_span()) }))
    }
}

//! Recursive-descent parser: tokens -> [`ast::TranslationUnit`].
//!
//! On an error it records a diagnostic, skips to the end of the statement (or declaration) and goes on, so one
//! run reports several independent mistakes.

use super::ast::*;
use super::diagnostic::{Diagnostic, ErrorCode};
use super::source::Span;
use super::template::{self, TemplateDef, TemplateParam, Templates};
use super::token::{Kw, Punct, TokKind, Token};

/// Deep enough for any real kernel, shallow enough that a pathological input cannot overflow the stack.
const MAX_DEPTH: u32 = 200;
const MAX_ERRORS: usize = 20;

pub struct Parser<'t> {
    toks: &'t [Token],
    text: &'t str,
    base: usize,
    pos: usize,
    depth: u32,
    /// Set when a type specifier sequence contained `__shared__` (`volatile __shared__ int s[32];`).
    saw_shared: bool,
    /// Names `typedef` and `using` declared so far, and the types they stand for.
    typedefs: std::collections::HashMap<String, TypeSpec>,
    /// Function templates seen so far, and the instances the text names (`f<float>(...)`).
    templates: Templates,
    /// Host functions, skipped.
    host_functions: Vec<Ident>,
    /// Open `extern "C" {` blocks.
    extern_blocks: u32,
    /// Struct and enum definitions seen so far (their names are type names from here on).
    structs: Vec<StructDecl>,
    enums: Vec<EnumDecl>,
    pub diags: Vec<Diagnostic>,
}

/// The marker type for "a diagnostic was recorded; unwind to a recovery point".
struct Bail;

/// What a file-scope item turned out to be.
enum TopItem {
    Function(Function),
    Global(GlobalDecl),
}
type PResult<T> = Result<T, Bail>;

impl<'t> Parser<'t> {
    /// `text` is the source the token spans point into, starting at byte `base`.
    pub fn new(toks: &'t [Token], text: &'t str, base: usize) -> Self {
        Parser {
            toks,
            text,
            base,
            pos: 0,
            depth: 0,
            saw_shared: false,
            typedefs: Default::default(),
            templates: Templates::default(),
            host_functions: vec![],
            extern_blocks: 0,
            structs: vec![],
            enums: vec![],
            diags: vec![],
        }
    }

    // ---- token helpers ----

    fn tok(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn kind(&self) -> &TokKind {
        &self.tok().kind
    }

    fn peek_kind(&self, ahead: usize) -> &TokKind {
        &self.toks[(self.pos + ahead).min(self.toks.len() - 1)].kind
    }

    fn span(&self) -> Span {
        self.tok().span
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn is(&self, p: Punct) -> bool {
        *self.kind() == TokKind::Punct(p)
    }

    fn is_kw(&self, k: Kw) -> bool {
        *self.kind() == TokKind::Kw(k)
    }

    fn eat(&mut self, p: Punct) -> bool {
        let yes = self.is(p);
        if yes {
            self.bump();
        }
        yes
    }

    fn eat_kw(&mut self, k: Kw) -> bool {
        let yes = self.is_kw(k);
        if yes {
            self.bump();
        }
        yes
    }

    fn at_eof(&self) -> bool {
        *self.kind() == TokKind::Eof
    }

    /// How the current token reads in a message: its own text where it has one.
    fn describe(&self) -> String {
        let t = self.tok();
        match &t.kind {
            TokKind::Eof => "end of file".into(),
            TokKind::Str(_) => "a string literal".into(),
            // Spelled from the token: it may come from a macro or another file.
            TokKind::Ident(n) => format!("`{n}`"),
            TokKind::Punct(p) => format!("`{}`", p.as_str()),
            _ => {
                let r = t.span.range();
                let s = self.text.get(r.start.saturating_sub(self.base)..r.end.saturating_sub(self.base)).unwrap_or("");
                format!("`{s}`")
            }
        }
    }

    fn error(&mut self, d: Diagnostic) -> Bail {
        if self.diags.len() < MAX_ERRORS {
            self.diags.push(d);
        }
        Bail
    }

    fn expected(&mut self, what: &str) -> Bail {
        let found = self.describe();
        // A missing `;` or `)` is best shown right after the previous token, where it belongs.
        let span = if matches!(what, "`;`" | "`)`" | "`]`") && self.pos > 0 {
            let p = self.prev_span();
            Span { file: p.file, start: p.end, end: p.end }
        } else {
            self.span()
        };
        let d = Diagnostic::new(ErrorCode::Syntax, span, format!("expected {what}, found {found}"))
            .label(format!("expected {what}"));
        self.error(d)
    }

    fn expect(&mut self, p: Punct) -> PResult<Span> {
        if self.is(p) { Ok(self.bump().span) } else { Err(self.expected(&format!("`{}`", p.as_str()))) }
    }

    /// The `;` that ends a statement or declaration. Missing at the end of a line, the next line most likely
    /// starts the next statement: report it and go on as if it were there, rather than skip that statement too
    /// (and report its names as undeclared).
    fn expect_semi(&mut self) -> PResult<()> {
        if self.eat(Punct::Semi) {
            return Ok(());
        }
        let bail = self.expected("`;`");
        let (prev, cur) = (self.prev_span(), self.span());
        let between = self
            .text
            .get((prev.end as usize).saturating_sub(self.base)..(cur.start as usize).saturating_sub(self.base));
        if self.pos > 0 && cur.start >= prev.end && between.is_some_and(|t| t.contains('\n')) {
            Ok(())
        } else {
            Err(bail)
        }
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        match self.kind().clone() {
            TokKind::Ident(name) => {
                let span = self.bump().span;
                Ok(Ident { name, span })
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Goes one level deeper; every successful `enter` is matched by `self.depth -= 1` (or a saved depth
    /// restored), and a failed one leaves the depth as it was.
    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            let d = Diagnostic::new(ErrorCode::Syntax, self.span(), "nesting too deep")
                .label(format!("more than {MAX_DEPTH} levels of nested expressions or statements"));
            return Err(self.error(d));
        }
        self.depth += 1;
        Ok(())
    }

    /// Skips to just after the next `;` at this nesting level, or to a `}` closing it.
    fn recover_statement(&mut self) {
        let mut depth = 0i32;
        while !self.at_eof() {
            match self.kind() {
                TokKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokKind::Punct(Punct::RParen | Punct::RBracket) => depth = (depth - 1).max(0),
                TokKind::Punct(Punct::RBrace) => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                TokKind::Punct(Punct::Semi) if depth == 0 => {
                    self.bump();
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---- top level ----

    pub fn translation_unit(&mut self) -> TranslationUnit {
        let mut tu = TranslationUnit::default();
        while !self.at_eof() && self.diags.len() < MAX_ERRORS {
            // An empty declaration (`};` after a function, or after a construct skipped on an error).
            if self.eat(Punct::Semi) {
                continue;
            }
            if self.extern_blocks > 0 && self.eat(Punct::RBrace) {
                self.extern_blocks -= 1;
                continue;
            }
            let start = self.pos;
            match self.top_item() {
                Ok(Some(TopItem::Function(f))) => tu.functions.push(f),
                Ok(Some(TopItem::Global(g))) => tu.globals.push(g),
                Ok(None) => {}
                Err(Bail) => {
                    self.recover_top();
                    if self.pos == start {
                        self.bump();
                    }
                }
            }
        }
        tu.host_functions = self.host_functions.clone();
        tu.structs = std::mem::take(&mut self.structs);
        tu.enums = std::mem::take(&mut self.enums);
        tu
    }

    /// After a bad top-level item: skip to the end of the function body or declaration.
    fn recover_top(&mut self) {
        let mut depth = 0i32;
        while !self.at_eof() {
            match self.kind() {
                TokKind::Punct(Punct::LBrace) => depth += 1,
                TokKind::Punct(Punct::RBrace) => {
                    depth -= 1;
                    if depth <= 0 {
                        self.bump();
                        return;
                    }
                }
                TokKind::Punct(Punct::Semi) if depth == 0 => {
                    self.bump();
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    fn top_item(&mut self) -> PResult<Option<TopItem>> {
        let start = self.span();
        let mut kind = None;
        let (mut space, mut is_extern) = (VarSpace::Plain, false);
        loop {
            match self.kind() {
                TokKind::Kw(Kw::Global) => kind = Some(FnKind::Global),
                TokKind::Kw(Kw::Device) => {
                    if kind.is_none() {
                        kind = Some(FnKind::Device)
                    }
                    if space == VarSpace::Plain {
                        space = VarSpace::Device;
                    }
                }
                TokKind::Kw(Kw::Host | Kw::ForceInline | Kw::NoInline | Kw::Inline | Kw::Static) => {}
                TokKind::Kw(Kw::Extern) if matches!(self.peek_kind(1), TokKind::Str(_)) => {
                    self.bump(); // extern "C"
                    if *self.peek_kind(1) == TokKind::Punct(Punct::LBrace) {
                        // `extern "C" { ... }`: its declarations are the file's; the `}` is skipped at top level.
                        self.bump();
                        self.bump();
                        self.extern_blocks += 1;
                        return Ok(None);
                    }
                }
                TokKind::Kw(Kw::Extern) => is_extern = true,
                // `namespace cg = cooperative_groups;`: names are looked up without namespaces.
                TokKind::Ident(n) if n == "namespace" => {
                    while !self.at_eof() && !self.eat(Punct::Semi) {
                        if self.is(Punct::LBrace) {
                            return Err(self.error(Diagnostic::unsupported(self.span(), "namespace blocks")));
                        }
                        self.bump();
                    }
                    return Ok(None);
                }
                TokKind::Ident(n) if n == "__launch_bounds__" => {
                    self.bump();
                    self.skip_parens()?;
                    continue;
                }
                TokKind::Kw(Kw::Shared) => space = VarSpace::Shared,
                TokKind::Kw(Kw::Constant) => space = VarSpace::Constant,
                TokKind::Kw(Kw::Template) => {
                    self.template()?;
                    return Ok(None);
                }
                // `struct S { ... };` (a definition; `struct S *p` declares with it below).
                TokKind::Kw(Kw::Struct | Kw::Enum) if self.starts_definition() => {
                    let named = self.struct_or_enum()?;
                    if self.eat(Punct::Semi) {
                        return Ok(None);
                    }
                    // `struct S { ... } s;`: declare with it.
                    let Some(name) = named else {
                        return Err(self.error(Diagnostic::unsupported(self.span(), "variables of an unnamed struct")));
                    };
                    let _ = name;
                    return Err(self
                        .error(Diagnostic::unsupported(self.span(), "variables declared with a struct's definition")));
                }
                TokKind::Kw(Kw::Union) => {
                    return Err(self.error(Diagnostic::unsupported(self.span(), "unions")));
                }
                TokKind::Kw(Kw::Typedef) => {
                    self.typedef()?;
                    return Ok(None);
                }
                _ => break,
            }
            self.bump();
        }
        // `cudaStream_t s[4];`, `StopWatchInterface *timer;`: a type warpdbg does not know, at file scope with
        // no device qualifier, is the host's: skipped like a host function.
        if kind.is_none()
            && space == VarSpace::Plain
            && let TokKind::Ident(n) = self.kind().clone()
            && !self.starts_type()
            && matches!(self.peek_kind(1), TokKind::Ident(_) | TokKind::Punct(Punct::Star | Punct::Amp))
        {
            let name = Ident { name: n, span: self.span() };
            self.skip_host_function(&name)?;
            return Ok(None);
        }
        self.saw_shared = false;
        let ret = self.type_spec()?;
        if std::mem::take(&mut self.saw_shared) {
            space = VarSpace::Shared;
        }
        // `void __global__ k(...)`, `float __device__ __forceinline__ f(...)`: qualifiers after the type.
        loop {
            match self.kind() {
                TokKind::Kw(Kw::Global) => kind = Some(FnKind::Global),
                TokKind::Kw(Kw::Device) if kind.is_none() => kind = Some(FnKind::Device),
                TokKind::Kw(Kw::Device | Kw::Host | Kw::ForceInline | Kw::NoInline | Kw::Inline | Kw::Static) => {}
                TokKind::Ident(n) if n == "__launch_bounds__" => {
                    self.bump();
                    self.skip_parens()?;
                    continue;
                }
                _ => break,
            }
            self.bump();
        }
        let name = self.ident("a function name")?;
        if !self.is(Punct::LParen) {
            // A variable: `__constant__ float coef[9] = {...};`, `extern __shared__ int s[];`, `const int N = 8;`.
            let declarators = self.declarators(Some(name))?;
            self.expect_semi()?;
            let decl = Decl {
                shared: space == VarSpace::Shared,
                is_extern,
                ty: ret,
                declarators,
                span: start.to(self.prev_span()),
            };
            return Ok(Some(TopItem::Global(GlobalDecl { space, decl })));
        }
        let Some(kind) = kind else {
            if name.name == "main" {
                let d = Diagnostic::unsupported(start.to(name.span), "whole programs (a file with `main`) yet")
                    .label("warpdbg runs kernel files: the launch is given by directives")
                    .hint("the launch lives in `// @grid`, `// @block` and `// @arg` directives, not in host code");
                return Err(self.error(d));
            }
            // A host helper (timing, checking, printing): nvcc compiles it for the CPU, and a kernel file's
            // launch does not run it, so its body is skipped unread; device code that calls it is an error.
            self.skip_host_function(&name)?;
            return Ok(None);
        };
        self.bump(); // (
        let mut params = vec![];
        if !self.is(Punct::RParen) {
            if self.is_kw(Kw::Void) && *self.peek_kind(1) == TokKind::Punct(Punct::RParen) {
                self.bump();
            } else {
                loop {
                    let ty = self.type_spec()?;
                    let reference = self.eat(Punct::Amp);
                    let name = self.ident("a parameter name")?;
                    if self.is(Punct::LBracket) {
                        return Err(self.error(
                            Diagnostic::unsupported(self.span(), "array parameters").hint("write a pointer: `int *a`"),
                        ));
                    }
                    // `float eps = 1e-12`: a default argument.
                    let default = if self.eat(Punct::Assign) { Some(self.assignment()?) } else { None };
                    params.push(Param { ty, name, reference, default });
                    if !self.eat(Punct::Comma) {
                        break;
                    }
                }
            }
        }
        self.expect(Punct::RParen)?;
        let sig = start.to(self.prev_span());
        if self.eat(Punct::Semi) {
            return Ok(None); // a prototype: the definition is what counts
        }
        if !self.is(Punct::LBrace) {
            return Err(self.expected("`{`"));
        }
        let body = self.block()?;
        Ok(Some(TopItem::Function(Function { kind, ret, name, params, body, span: sig, body_end: self.prev_span() })))
    }

    // ---- types ----

    /// Can the current token begin a type (so a statement is a declaration, or `(` a cast)?
    fn starts_type(&self) -> bool {
        match self.kind() {
            TokKind::Kw(k) => matches!(
                k,
                Kw::Const
                    | Kw::Volatile
                    | Kw::Unsigned
                    | Kw::Signed
                    | Kw::Int
                    | Kw::Short
                    | Kw::Long
                    | Kw::Char
                    | Kw::Float
                    | Kw::Double
                    | Kw::Bool
                    | Kw::Void
                    | Kw::Auto
                    | Kw::Static
                    | Kw::Shared
                    | Kw::Restrict
                    | Kw::Struct
                    | Kw::Enum
            ),
            TokKind::Ident(name) => {
                typedef_name(name).is_some()
                    || self.typedefs.contains_key(name)
                    || unsupported_type_name(name).is_some()
                    || is_vector_type(name)
                    || name == "thread_block_tile"
                    || (*self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
                        && matches!(self.peek_kind(2), TokKind::Ident(n) if super::typeck::vector_type(n).is_some() || n == "thread_block_tile"))
                    || self.structs.iter().any(|s| s.name.name == *name)
                    || self.enums.iter().any(|e| e.name.as_ref().is_some_and(|n| n.name == *name))
            }
            _ => false,
        }
    }

    /// At `struct`/`enum`: is this a definition (`struct S {`, `struct {`, `enum class E {`)?
    fn starts_definition(&self) -> bool {
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
    fn struct_or_enum(&mut self) -> PResult<Option<String>> {
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
        let has_functions = body.iter().any(|t| t.kind == TokKind::Punct(Punct::LParen));
        let device = body.iter().any(|t| matches!(t.kind, TokKind::Kw(Kw::Device | Kw::Global)));
        if has_functions && !device {
            self.pos = body_end;
            if let Some(n) = &name {
                self.host_functions.push(n.clone());
            }
            return Ok(name.map(|n| n.name));
        }
        let mut fields = vec![];
        while !self.is(Punct::RBrace) && !self.at_eof() {
            if matches!(self.kind(), TokKind::Ident(n) if n == "public" || n == "private" || n == "protected") {
                self.bump();
                self.expect(Punct::Colon)?;
                continue;
            }
            if self.is_kw(Kw::Template) || self.is_kw(Kw::Struct) || self.is_kw(Kw::Typedef) {
                return Err(self.error(Diagnostic::unsupported(self.span(), "nested type declarations in structs")));
            }
            let qualifier = matches!(
                self.kind(),
                TokKind::Kw(Kw::Device | Kw::Host | Kw::Global | Kw::ForceInline | Kw::Inline | Kw::NoInline)
            );
            let constructor = matches!(self.kind(), TokKind::Ident(n) if Some(n) == name.as_ref().map(|i| &i.name))
                || matches!(self.kind(), TokKind::Punct(Punct::Tilde));
            if qualifier || constructor {
                return Err(self.error(Diagnostic::unsupported(self.span(), "member functions")));
            }
            let ty = self.type_spec()?;
            let first = self.ident("a field name")?;
            if self.is(Punct::LParen) || first.name == "operator" {
                return Err(self.error(Diagnostic::unsupported(first.span, "member functions")));
            }
            for d in self.declarators(Some(first))? {
                fields.push((ty.clone(), d));
            }
            self.expect_semi()?;
        }
        self.expect(Punct::RBrace)?;
        let ident = name.clone().unwrap_or(Ident { name: String::new(), span: start });
        self.structs.push(StructDecl { name: ident, fields, align, span: start.to(self.prev_span()) });
        Ok(Some(name.map_or(String::new(), |n| n.name)))
    }

    /// Skips `( ... )`, nested parentheses included.
    fn skip_parens(&mut self) -> PResult<()> {
        self.expect(Punct::LParen)?;
        let mut depth = 1;
        while depth > 0 && !self.at_eof() {
            match self.kind() {
                TokKind::Punct(Punct::LParen) => depth += 1,
                TokKind::Punct(Punct::RParen) => depth -= 1,
                _ => {}
            }
            self.bump();
        }
        Ok(())
    }

    /// Skips a host function's parameters and body (or a prototype's `;`), remembering its name.
    fn skip_host_function(&mut self, name: &Ident) -> PResult<()> {
        let mut depth = 0i32;
        while !self.at_eof() {
            match self.kind() {
                TokKind::Punct(Punct::LParen | Punct::LBracket) => depth += 1,
                TokKind::Punct(Punct::RParen | Punct::RBracket) => depth -= 1,
                TokKind::Punct(Punct::Semi) if depth == 0 => {
                    self.bump();
                    break;
                }
                TokKind::Punct(Punct::LBrace) if depth == 0 => {
                    self.skip_braces()?;
                    break;
                }
                _ => {}
            }
            self.bump();
        }
        self.host_functions.push(name.clone());
        Ok(())
    }

    /// Host functions skipped so far (so that a call from device code can say what it calls).
    pub fn host_functions(&self) -> &[Ident] {
        &self.host_functions
    }

    /// `template <params>` before a function: its tokens are kept, to be parsed for each instantiation.
    fn template(&mut self) -> PResult<()> {
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
            if is_type {
                self.bump();
            } else {
                self.type_spec()?;
            }
            let ty = if is_type { vec![] } else { self.toks[from..self.pos].to_vec() };
            let name = self.ident("a template parameter name")?;
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
        // The function: up to its body's closing brace (or a prototype's `;`).
        let from = self.pos;
        let mut name = None;
        let mut is_kernel = false;
        let mut depth = 0i32;
        while !self.at_eof() {
            match self.kind() {
                TokKind::Kw(Kw::Global) => is_kernel = true,
                TokKind::Kw(Kw::Struct) if depth == 0 && name.is_none() => {
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

    /// The templates and typedefs an instantiation's body is parsed with.
    pub fn set_context(&mut self, t: &Templates) {
        self.templates.defs = t.defs.clone();
        self.typedefs = t.typedefs.clone();
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
    pub fn finish_instance(self) -> (Vec<Diagnostic>, Vec<super::tast::TemplateRequest>) {
        (self.diags, self.templates.requested)
    }

    /// After [`Parser::translation_unit`]: the file's templates, typedefs and named instances.
    pub fn take_templates(&mut self) -> Templates {
        let mut t = std::mem::take(&mut self.templates);
        t.typedefs = self.typedefs.clone();
        t
    }

    /// `typedef T name;`, `using name = T;` and `using namespace N;` (at file scope or in a block).
    fn typedef(&mut self) -> PResult<()> {
        self.bump();
        // `typedef` and `using` are one keyword to the lexer; what follows tells them apart.
        let namespace = matches!(self.kind(), TokKind::Ident(n) if n == "namespace");
        let alias = matches!(self.kind(), TokKind::Ident(_)) && *self.peek_kind(1) == TokKind::Punct(Punct::Assign);
        // `using std::min;`: a using-declaration names nothing new here.
        let declaration =
            matches!(self.kind(), TokKind::Ident(_)) && *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon);
        if declaration {
            while !self.at_eof() && !self.eat(Punct::Semi) {
                self.bump();
            }
            return Ok(());
        }
        if namespace || alias {
            if namespace {
                // `using namespace std;` and the like: names are looked up without namespaces anyway.
                while !self.at_eof() && !self.eat(Punct::Semi) {
                    self.bump();
                }
                return Ok(());
            }
            let name = self.ident("a type name")?;
            self.expect(Punct::Assign)?;
            let ty = self.type_spec()?;
            self.expect_semi()?;
            self.typedefs.insert(name.name, ty);
            return Ok(());
        }
        let ty = if (self.is_kw(Kw::Struct) || self.is_kw(Kw::Enum)) && self.starts_definition() {
            // `typedef struct [Tag] { ... } Name;`
            let start = self.span();
            let tag = self.struct_or_enum()?;
            let named = tag.clone();
            TypeSpec { base: BaseType::Int, named, is_const: false, is_volatile: false, pointers: 0, span: start }
        } else {
            self.type_spec()?
        };
        loop {
            let mut t = ty.clone();
            while self.eat(Punct::Star) {
                t.pointers = t.pointers.saturating_add(1);
            }
            let name = self.ident("the new type's name")?;
            if self.is(Punct::LBracket) || self.is(Punct::LParen) {
                return Err(self.error(Diagnostic::unsupported(self.span(), "typedefs of arrays and functions")));
            }
            // An unnamed struct takes the typedef's name.
            if t.named.as_deref() == Some("") {
                if let Some(s) = self.structs.last_mut().filter(|s| s.name.name.is_empty()) {
                    s.name = name.clone();
                }
                t.named = Some(name.name.clone());
            }
            self.typedefs.insert(name.name, t);
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect_semi()
    }

    fn type_spec(&mut self) -> PResult<TypeSpec> {
        let start = self.span();
        let (mut is_const, mut is_volatile) = (false, false);
        let (mut signed, mut unsigned, mut int, mut char_, mut named) = (false, false, false, false, None::<BaseType>);
        let (mut short, mut longs) = (false, 0u8);
        let mut struct_name: Option<String> = None;
        // Pointer levels a typedef name brings (`typedef float *fptr;`).
        let mut typedef_pointers = 0u8;
        let mut any = false;
        loop {
            match self.kind().clone() {
                TokKind::Kw(Kw::Const) => is_const = true,
                TokKind::Kw(Kw::Volatile) => is_volatile = true,
                TokKind::Kw(Kw::Static | Kw::Restrict) => {}
                TokKind::Kw(Kw::Shared) => self.saw_shared = true,
                TokKind::Kw(Kw::Unsigned) => unsigned = true,
                TokKind::Kw(Kw::Signed) => signed = true,
                TokKind::Kw(Kw::Int) => int = true,
                TokKind::Kw(Kw::Char) => char_ = true,
                TokKind::Kw(Kw::Float) => named = Some(BaseType::Float),
                TokKind::Kw(Kw::Double) => named = Some(BaseType::Double),
                TokKind::Kw(Kw::Bool) => named = Some(BaseType::Bool),
                TokKind::Kw(Kw::Void) => named = Some(BaseType::Void),
                TokKind::Kw(Kw::Short) => short = true,
                // `struct S *p`, `enum E e`.
                TokKind::Kw(Kw::Struct | Kw::Enum) if !any || struct_name.is_none() => {
                    let is_enum = self.is_kw(Kw::Enum);
                    self.bump();
                    let name = self.ident("a struct name")?;
                    if is_enum {
                        named = Some(BaseType::Int);
                    } else {
                        struct_name = Some(name.name);
                    }
                    any = true;
                    continue;
                }
                TokKind::Kw(Kw::Long) => longs = longs.saturating_add(1),
                // `auto x = ...`: the type the initialiser has.
                TokKind::Kw(Kw::Auto) if !any => struct_name = Some("auto".into()),
                // `cg::thread_block`: the namespace is dropped.
                TokKind::Ident(_) if *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon) && !any => {
                    self.bump();
                    self.bump();
                    continue;
                }
                TokKind::Ident(name) if name == "thread_block_tile" && struct_name.is_none() => {
                    let Some((args, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                        return Err(self.expected("the tile size: `thread_block_tile<32>`"));
                    };
                    self.pos += 1 + after;
                    struct_name = Some(template::instance_name(&name, &args));
                    any = true;
                    continue;
                }
                TokKind::Ident(name)
                    if !any || (!int && !char_ && named.is_none() && !signed && !unsigned && !short && longs == 0) =>
                {
                    if let Some(b) = typedef_name(&name) {
                        named = Some(b);
                    } else if let Some(t) = self.typedefs.get(&name) {
                        named = Some(t.base);
                        struct_name = t.named.clone();
                        is_const |= t.is_const;
                        is_volatile |= t.is_volatile;
                        typedef_pointers = t.pointers;
                    } else if self.structs.iter().any(|s| s.name.name == name) || is_vector_type(&name) {
                        struct_name = Some(name.clone());
                    } else if self.enums.iter().any(|e| e.name.as_ref().is_some_and(|n| n.name == name)) {
                        named = Some(BaseType::Int);
                    } else if let Some(why) = unsupported_type_name(&name) {
                        return Err(self.error(Diagnostic::unsupported(self.span(), why)));
                    } else {
                        break;
                    }
                }
                _ => break,
            }
            any = true;
            self.bump();
        }
        let base = match (named, char_, signed, unsigned, int) {
            _ if struct_name.is_some() && !char_ && !signed && !unsigned && !int && !short && longs == 0 => {
                BaseType::Int
            }
            (None, false, _, _, _) if short && longs == 0 => {
                if unsigned {
                    BaseType::UShort
                } else {
                    BaseType::Short
                }
            }
            (None, false, _, _, _) if longs > 0 && !short => {
                if unsigned {
                    BaseType::ULong
                } else {
                    BaseType::Long
                }
            }
            // `long double` is a double on the GPU.
            (Some(BaseType::Double), false, false, false, false) if longs == 1 && !short => BaseType::Double,
            (Some(b), false, false, false, false) if !short && longs == 0 => b,
            (None, true, false, false, false) => BaseType::Char,
            (None, true, true, false, false) => BaseType::SChar,
            (None, true, false, true, false) => BaseType::UChar,
            (None, false, _, false, _) if signed || int => BaseType::Int,
            (None, false, false, true, _) => BaseType::UInt,
            _ if !any => return Err(self.expected("a type")),
            _ => {
                let span = start.to(self.prev_span());
                return Err(self.error(Diagnostic::new(
                    ErrorCode::Syntax,
                    span,
                    "invalid combination of type specifiers",
                )));
            }
        };
        let mut pointers = typedef_pointers;
        while self.eat(Punct::Star) {
            pointers = pointers.saturating_add(1);
            while self.eat_kw(Kw::Restrict) || self.eat_kw(Kw::Const) || self.eat_kw(Kw::Volatile) {}
        }
        let span = start.to(self.prev_span());
        Ok(TypeSpec { base, named: struct_name, is_const, is_volatile, pointers, span })
    }

    // ---- statements ----

    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.expect(Punct::LBrace)?;
        let mut stmts = vec![];
        while !self.is(Punct::RBrace) && !self.at_eof() {
            let start = self.pos;
            match self.statement() {
                Ok(s) => stmts.push(s),
                Err(Bail) => {
                    if self.diags.len() >= MAX_ERRORS {
                        return Err(Bail);
                    }
                    self.recover_statement();
                    if self.pos == start {
                        self.bump();
                    }
                }
            }
        }
        self.expect(Punct::RBrace)?;
        Ok(stmts)
    }

    fn statement(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let r = self.statement_inner();
        self.depth -= 1;
        r
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let kind = match self.kind().clone() {
            TokKind::Punct(Punct::LBrace) => StmtKind::Block(self.block()?),
            TokKind::Punct(Punct::Semi) => {
                self.bump();
                StmtKind::Empty
            }
            TokKind::Kw(Kw::If) => {
                self.bump();
                let cond = self.paren_cond()?;
                let then = Box::new(self.statement()?);
                let els = if self.eat_kw(Kw::Else) { Some(Box::new(self.statement()?)) } else { None };
                StmtKind::If { cond, then, els }
            }
            TokKind::Kw(Kw::While) => {
                self.bump();
                let cond = self.paren_cond()?;
                StmtKind::While { cond, body: Box::new(self.statement()?) }
            }
            TokKind::Kw(Kw::Do) => {
                self.bump();
                let body = Box::new(self.statement()?);
                if !self.eat_kw(Kw::While) {
                    return Err(self.expected("`while`"));
                }
                let cond = self.paren_cond()?;
                self.expect_semi()?;
                StmtKind::DoWhile { body, cond }
            }
            TokKind::Kw(Kw::For) => self.for_stmt()?,
            TokKind::Kw(Kw::Break) => {
                self.bump();
                self.expect_semi()?;
                StmtKind::Break
            }
            TokKind::Kw(Kw::Continue) => {
                self.bump();
                self.expect_semi()?;
                StmtKind::Continue
            }
            TokKind::Kw(Kw::Return) => {
                self.bump();
                let value = if self.is(Punct::Semi) { None } else { Some(self.expr()?) };
                self.expect_semi()?;
                StmtKind::Return(value)
            }
            TokKind::Kw(k @ (Kw::Switch | Kw::Goto | Kw::Case | Kw::Default)) => {
                let what = match k {
                    Kw::Goto => "`goto`",
                    _ => "`switch` statements",
                };
                let d = Diagnostic::unsupported(self.span(), what).hint("write it with if/else");
                let bail = self.error(d);
                if k == Kw::Switch {
                    // Skip the whole switch so its cases do not produce more errors.
                    self.bump();
                    while !self.at_eof() && !self.is(Punct::LBrace) {
                        self.bump();
                    }
                    let _ = self.skip_braces();
                }
                return Err(bail);
            }
            TokKind::Kw(Kw::Struct | Kw::Enum) if !self.starts_definition() => StmtKind::Decl(self.declaration()?),
            TokKind::Kw(Kw::Struct | Kw::Template | Kw::Union | Kw::Enum) => {
                return Err(self.error(Diagnostic::unsupported(self.span(), "type declarations inside functions")));
            }
            TokKind::Kw(Kw::Extern) => StmtKind::Decl(self.declaration()?),
            TokKind::Kw(Kw::Typedef) => {
                self.typedef()?;
                StmtKind::Empty
            }
            _ if self.starts_type() => StmtKind::Decl(self.declaration()?),
            _ => {
                let e = self.expr()?;
                self.expect_semi()?;
                StmtKind::Expr(e)
            }
        };
        Ok(Stmt { kind, span: start.to(self.prev_span()) })
    }

    fn skip_braces(&mut self) -> PResult<()> {
        let mut depth = 0;
        loop {
            match self.kind() {
                TokKind::Punct(Punct::LBrace) => depth += 1,
                TokKind::Punct(Punct::RBrace) => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return Ok(());
                    }
                }
                TokKind::Eof => return Err(Bail),
                _ => {}
            }
            self.bump();
        }
    }

    fn paren_cond(&mut self) -> PResult<Expr> {
        self.expect(Punct::LParen)?;
        let e = self.expr()?;
        self.expect(Punct::RParen)?;
        Ok(e)
    }

    fn for_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        self.expect(Punct::LParen)?;
        let init = if self.eat(Punct::Semi) {
            None
        } else if self.starts_type() {
            let start = self.span();
            let d = self.declaration()?;
            Some(Box::new(Stmt { kind: StmtKind::Decl(d), span: start.to(self.prev_span()) }))
        } else {
            let start = self.span();
            let e = self.expr()?;
            self.expect(Punct::Semi)?;
            Some(Box::new(Stmt { kind: StmtKind::Expr(e), span: start.to(self.prev_span()) }))
        };
        let cond = if self.is(Punct::Semi) { None } else { Some(self.expr()?) };
        self.expect(Punct::Semi)?;
        let step = if self.is(Punct::RParen) { None } else { Some(self.expr()?) };
        self.expect(Punct::RParen)?;
        let body = Box::new(self.statement()?);
        Ok(StmtKind::For { init, cond, step, body })
    }

    /// A declaration up to and including its `;`.
    fn declaration(&mut self) -> PResult<Decl> {
        let start = self.span();
        let (mut shared, mut is_extern) = (false, false);
        while self.is_kw(Kw::Shared) || self.is_kw(Kw::Static) || self.is_kw(Kw::Extern) {
            shared |= self.is_kw(Kw::Shared);
            is_extern |= self.is_kw(Kw::Extern);
            self.bump();
        }
        self.saw_shared = false;
        let ty = self.type_spec()?;
        shared |= self.saw_shared;
        let declarators = self.declarators(None)?;
        self.expect_semi()?;
        Ok(Decl { shared, is_extern, ty, declarators, span: start.to(self.prev_span()) })
    }

    /// `*p = q, smem[512], x` after a declaration's type; `first` is a name already read.
    fn declarators(&mut self, mut first: Option<Ident>) -> PResult<Vec<Declarator>> {
        let mut declarators = vec![];
        loop {
            let mut pointers = 0u8;
            if first.is_none() {
                while self.eat(Punct::Star) {
                    pointers = pointers.saturating_add(1);
                    while self.eat_kw(Kw::Restrict) || self.eat_kw(Kw::Const) || self.eat_kw(Kw::Volatile) {}
                }
            }
            let name = match first.take() {
                Some(n) => n,
                None => self.ident("a variable name")?,
            };
            let mut dims = vec![];
            let mut open_size = false;
            while self.eat(Punct::LBracket) {
                if self.eat(Punct::RBracket) {
                    open_size = true;
                    continue;
                }
                if open_size {
                    return Err(self.error(Diagnostic::new(
                        ErrorCode::Syntax,
                        self.span(),
                        "only the first dimension of an array may be left out",
                    )));
                }
                dims.push(self.expr()?);
                self.expect(Punct::RBracket)?;
            }
            let init = if self.eat(Punct::Assign) {
                Some(if self.is(Punct::LBrace) { self.init_list()? } else { self.assignment()? })
            } else {
                None
            };
            declarators.push(Declarator { name, pointers, dims, open_size, init });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        Ok(declarators)
    }

    /// `{ a, b, {c, d}, }`: a brace initialiser.
    fn init_list(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.init_list_inner();
        self.depth -= 1;
        r
    }

    fn init_list_inner(&mut self) -> PResult<Expr> {
        let start = self.span();
        self.expect(Punct::LBrace)?;
        let mut items = vec![];
        while !self.is(Punct::RBrace) {
            items.push(if self.is(Punct::LBrace) { self.init_list()? } else { self.assignment()? });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBrace)?;
        Ok(Expr { kind: ExprKind::InitList(items), span: start.to(self.prev_span()) })
    }

    // ---- expressions ----

    fn expr(&mut self) -> PResult<Expr> {
        let e = self.assignment()?;
        if self.is(Punct::Comma) {
            return Err(self
                .error(Diagnostic::unsupported(self.span(), "the comma operator").hint("write separate statements")));
        }
        Ok(e)
    }

    /// Parses one expression for a caller that reads a list (directives).
    pub fn parse_expr_for_list(&mut self) -> Option<Expr> {
        self.assignment().ok()
    }

    pub fn at_end(&self) -> bool {
        self.at_eof()
    }

    pub fn eat_comma(&mut self) -> bool {
        self.eat(Punct::Comma)
    }

    pub fn eat_punct(&mut self, p: Punct) -> bool {
        self.eat(p)
    }

    /// Like `expect`, for callers outside the parser: records the diagnostic and says whether it matched.
    pub fn expect_punct(&mut self, p: Punct) -> bool {
        self.expect(p).is_ok()
    }

    pub fn current_span(&self) -> Span {
        self.span()
    }

    /// Moves to token index `i` (for callers that looked ahead themselves).
    pub fn skip_to(&mut self, i: usize) {
        self.pos = i.min(self.toks.len() - 1);
    }

    fn assignment(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.assignment_inner();
        self.depth -= 1;
        r
    }

    fn assignment_inner(&mut self) -> PResult<Expr> {
        let lhs = self.ternary()?;
        let op = match self.kind() {
            TokKind::Punct(p) => match p {
                Punct::Assign => Some(None),
                Punct::PlusAssign => Some(Some(BinaryOp::Add)),
                Punct::MinusAssign => Some(Some(BinaryOp::Sub)),
                Punct::StarAssign => Some(Some(BinaryOp::Mul)),
                Punct::SlashAssign => Some(Some(BinaryOp::Div)),
                Punct::PercentAssign => Some(Some(BinaryOp::Rem)),
                Punct::AmpAssign => Some(Some(BinaryOp::BitAnd)),
                Punct::PipeAssign => Some(Some(BinaryOp::BitOr)),
                Punct::CaretAssign => Some(Some(BinaryOp::BitXor)),
                Punct::ShlAssign => Some(Some(BinaryOp::Shl)),
                Punct::ShrAssign => Some(Some(BinaryOp::Shr)),
                _ => None,
            },
            _ => None,
        };
        let Some(op) = op else { return Ok(lhs) };
        self.bump();
        let rhs = self.assignment()?;
        let span = lhs.span.to(rhs.span);
        Ok(Expr { kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span })
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let cond = self.binary(0)?;
        if !self.eat(Punct::Question) {
            return Ok(cond);
        }
        let a = self.assignment()?;
        self.expect(Punct::Colon)?;
        let b = self.assignment()?;
        let span = cond.span.to(b.span);
        Ok(Expr { kind: ExprKind::Ternary(Box::new(cond), Box::new(a), Box::new(b)), span })
    }

    fn binop_here(&self) -> Option<(BinaryOp, u8)> {
        let TokKind::Punct(p) = self.kind() else { return None };
        Some(match p {
            Punct::OrOr => (BinaryOp::LogOr, 1),
            Punct::AndAnd => (BinaryOp::LogAnd, 2),
            Punct::Pipe => (BinaryOp::BitOr, 3),
            Punct::Caret => (BinaryOp::BitXor, 4),
            Punct::Amp => (BinaryOp::BitAnd, 5),
            Punct::EqEq => (BinaryOp::Eq, 6),
            Punct::Ne => (BinaryOp::Ne, 6),
            Punct::Lt => (BinaryOp::Lt, 7),
            Punct::Gt => (BinaryOp::Gt, 7),
            Punct::Le => (BinaryOp::Le, 7),
            Punct::Ge => (BinaryOp::Ge, 7),
            Punct::Shl => (BinaryOp::Shl, 8),
            Punct::Shr => (BinaryOp::Shr, 8),
            Punct::Plus => (BinaryOp::Add, 9),
            Punct::Minus => (BinaryOp::Sub, 9),
            Punct::Star => (BinaryOp::Mul, 10),
            Punct::Slash => (BinaryOp::Div, 10),
            Punct::Percent => (BinaryOp::Rem, 10),
            _ => return None,
        })
    }

    /// Precedence climbing over the left-associative binary operators.
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let outer = self.depth;
        let r = self.binary_chain(min_prec);
        self.depth = outer;
        r
    }

    fn binary_chain(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = self.binop_here() {
            if prec <= min_prec {
                break;
            }
            self.bump();
            // `a + b + c` is `(a + b) + c`: each operator of a chain nests the tree one level deeper, and the
            // later phases recurse over it, so a long chain counts against the bound like parentheses do.
            self.enter()?;
            let rhs = self.binary(prec)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        let start = self.span();
        let op = match self.kind() {
            TokKind::Punct(Punct::Minus) => Some(UnaryOp::Neg),
            TokKind::Punct(Punct::Plus) => Some(UnaryOp::Plus),
            TokKind::Punct(Punct::Bang) => Some(UnaryOp::Not),
            TokKind::Punct(Punct::Tilde) => Some(UnaryOp::BitNot),
            TokKind::Punct(Punct::Star) => Some(UnaryOp::Deref),
            TokKind::Punct(Punct::Amp) => Some(UnaryOp::AddrOf),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let e = self.unary()?;
            let span = start.to(e.span);
            return Ok(Expr { kind: ExprKind::Unary(op, Box::new(e)), span });
        }
        if self.is(Punct::PlusPlus) || self.is(Punct::MinusMinus) {
            let increment = self.is(Punct::PlusPlus);
            self.bump();
            let e = self.unary()?;
            let span = start.to(e.span);
            return Ok(Expr { kind: ExprKind::IncDec { increment, prefix: true, operand: Box::new(e) }, span });
        }
        if self.eat_kw(Kw::Sizeof) {
            if self.is(Punct::LParen) {
                let save = self.pos;
                self.bump();
                if self.starts_type() {
                    let ty = self.type_spec()?;
                    self.expect(Punct::RParen)?;
                    return Ok(Expr { kind: ExprKind::SizeofType(ty), span: start.to(self.prev_span()) });
                }
                self.pos = save;
            }
            let e = self.unary()?;
            let span = start.to(e.span);
            return Ok(Expr { kind: ExprKind::SizeofExpr(Box::new(e)), span });
        }
        // A cast: `(` followed by a type.
        if self.is(Punct::LParen) {
            let save = self.pos;
            self.bump();
            if self.starts_type() {
                let ty = self.type_spec()?;
                self.expect(Punct::RParen)?;
                let e = self.unary()?;
                let span = start.to(e.span);
                return Ok(Expr { kind: ExprKind::Cast(ty, Box::new(e)), span });
            }
            self.pos = save;
        }
        self.postfix()
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let outer = self.depth;
        let r = self.postfix_chain();
        self.depth = outer;
        r
    }

    fn postfix_chain(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            // `a[i][j]`, `x++`: like a binary chain, each postfix operator nests the tree one level deeper.
            if matches!(
                self.kind(),
                TokKind::Punct(
                    Punct::LBracket | Punct::LParen | Punct::Dot | Punct::Arrow | Punct::PlusPlus | Punct::MinusMinus
                )
            ) {
                self.enter()?;
            }
            if self.eat(Punct::LBracket) {
                let idx = self.expr()?;
                self.expect(Punct::RBracket)?;
                let span = e.span.to(self.prev_span());
                e = Expr { kind: ExprKind::Index(Box::new(e), Box::new(idx)), span };
            } else if self.is(Punct::Shl) && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) {
                return Err(self.error(
                    Diagnostic::unsupported(
                        e.span.to(self.span()),
                        "launching a kernel from a kernel (dynamic parallelism)",
                    )
                    .label("a launch inside device code"),
                ));
            } else if self.is(Punct::LParen) && matches!(e.kind, ExprKind::Member(..)) {
                let ExprKind::Member(obj, method) = e.kind else { unreachable!("matched above") };
                self.bump();
                let mut args = vec![];
                if !self.is(Punct::RParen) {
                    loop {
                        args.push(self.assignment()?);
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                }
                self.expect(Punct::RParen)?;
                let span = e.span.to(self.prev_span());
                e = Expr { kind: ExprKind::MethodCall(obj, method, args), span };
            } else if self.is(Punct::LParen) {
                let ExprKind::Name(name) = &e.kind else {
                    return Err(self.error(
                        Diagnostic::unsupported(self.span(), "calls through expressions")
                            .label("only named functions can be called"),
                    ));
                };
                let callee = Ident { name: name.clone(), span: e.span };
                self.bump();
                let mut args = vec![];
                if !self.is(Punct::RParen) {
                    loop {
                        args.push(self.assignment()?);
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                }
                self.expect(Punct::RParen)?;
                let span = e.span.to(self.prev_span());
                e = Expr { kind: ExprKind::Call(callee, args), span };
            } else if self.eat(Punct::Dot) {
                let field = self.ident("a field name")?;
                let span = e.span.to(field.span);
                e = Expr { kind: ExprKind::Member(Box::new(e), field), span };
            } else if self.eat(Punct::Arrow) {
                // `p->x` is `(*p).x`.
                let field = self.ident("a field name")?;
                let span = e.span.to(field.span);
                let deref = Expr { kind: ExprKind::Unary(UnaryOp::Deref, Box::new(e)), span };
                e = Expr { kind: ExprKind::Member(Box::new(deref), field), span };
            } else if self.is(Punct::PlusPlus) || self.is(Punct::MinusMinus) {
                let increment = self.is(Punct::PlusPlus);
                self.bump();
                let span = e.span.to(self.prev_span());
                e = Expr { kind: ExprKind::IncDec { increment, prefix: false, operand: Box::new(e) }, span };
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let span = self.span();
        let kind = match self.kind().clone() {
            TokKind::Int { value, suffix, decimal } => {
                ExprKind::Int { value, unsigned: suffix.unsigned, long: suffix.long, decimal }
            }
            TokKind::Float { value, single } => ExprKind::Float { value, single },
            TokKind::Char(c) => ExprKind::Char(c),
            TokKind::Str(s) => ExprKind::Str(s),
            TokKind::Kw(Kw::True) => ExprKind::Bool(true),
            TokKind::Kw(Kw::False) => ExprKind::Bool(false),
            TokKind::Ident(name) if matches!(name.as_str(), "static_cast" | "reinterpret_cast" | "const_cast") => {
                return self.cxx_cast(name == "reinterpret_cast");
            }
            // `cg::this_thread_block()`, `std::min(a, b)`: names are looked up without their namespace.
            TokKind::Ident(_) if *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon) => {
                self.bump();
                self.bump();
                return self.primary();
            }
            TokKind::Ident(name) if matches!(name.as_str(), "asm" | "__asm__" | "__asm") => {
                return Err(self.error(Diagnostic::unsupported(span, "inline PTX assembly (`asm`)")));
            }
            // `tiled_partition<32>(block)`: cooperative groups' own template.
            TokKind::Ident(name) if name == "tiled_partition" && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) => {
                let Some((args, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                    return Err(self.expected("template arguments and `>`"));
                };
                self.pos += 1 + after;
                let instance = template::instance_name(&name, &args);
                return Ok(Expr { kind: ExprKind::Name(instance), span: span.to(self.prev_span()) });
            }
            // `f<float, 32>(x)`: an instance of a function template, named with its arguments.
            // (When no `<...>(` follows, as in `twice < K` with a variable named like a template, it is a
            // comparison.)
            TokKind::Ident(name)
                if self.templates.defs.contains_key(&name)
                    && *self.peek_kind(1) == TokKind::Punct(Punct::Lt)
                    && template::split_args(&self.toks[self.pos + 1..]).is_some_and(|(_, after)| {
                        matches!(
                            self.toks.get(self.pos + 1 + after).map(|t| &t.kind),
                            Some(TokKind::Punct(Punct::LParen))
                        )
                    }) =>
            {
                let Some((args, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                    return Err(self.expected("template arguments and `>`"));
                };
                let instance = template::instance_name(&name, &args);
                self.templates.requested.push((instance.clone(), name, args));
                self.pos += 1 + after;
                return Ok(Expr { kind: ExprKind::Name(instance), span: span.to(self.prev_span()) });
            }
            TokKind::Ident(name) => ExprKind::Name(name),
            // `float(x)`: a functional cast.
            TokKind::Kw(Kw::Int | Kw::Float | Kw::Unsigned | Kw::Bool | Kw::Double | Kw::Char)
                if *self.peek_kind(1) == TokKind::Punct(Punct::LParen) =>
            {
                let ty = self.type_spec()?;
                self.expect(Punct::LParen)?;
                let e = self.expr()?;
                self.expect(Punct::RParen)?;
                let span = span.to(self.prev_span());
                return Ok(Expr { kind: ExprKind::Cast(ty, Box::new(e)), span });
            }
            TokKind::Punct(Punct::LParen) => {
                self.bump();
                let e = self.expr()?;
                self.expect(Punct::RParen)?;
                return Ok(Expr { kind: e.kind, span: span.to(self.prev_span()) });
            }
            _ => return Err(self.expected("an expression")),
        };
        self.bump();
        Ok(Expr { kind, span })
    }

    fn cxx_cast(&mut self, reinterpret: bool) -> PResult<Expr> {
        let start = self.span();
        // All three keep the value's bits where warpdbg's casts allow it; the C cast rules apply.
        let _ = reinterpret;
        self.bump();
        self.expect(Punct::Lt)?;
        let ty = self.type_spec()?;
        if !self.eat(Punct::Gt) {
            return Err(self.expected("`>`"));
        }
        self.expect(Punct::LParen)?;
        let e = self.expr()?;
        self.expect(Punct::RParen)?;
        Ok(Expr { kind: ExprKind::Cast(ty, Box::new(e)), span: start.to(self.prev_span()) })
    }
}

/// Fixed-width names from `<cstdint>` that map onto the supported types.
fn typedef_name(name: &str) -> Option<BaseType> {
    Some(match name {
        "uint32_t" | "uint" => BaseType::UInt,
        "int32_t" => BaseType::Int,
        "uint8_t" => BaseType::UChar,
        "int8_t" => BaseType::SChar,
        "int16_t" => BaseType::Short,
        "uint16_t" | "ushort" => BaseType::UShort,
        "int64_t" | "ptrdiff_t" | "intptr_t" | "ssize_t" | "intmax_t" | "__int64" => BaseType::Long,
        "uint64_t" | "size_t" | "uintptr_t" | "uintmax_t" | "ulong" => BaseType::ULong,
        _ => return None,
    })
}

/// CUDA's vector types (`float4`, `int2`, `uchar4`, ...) and `dim3`, which are built-in structs.
pub fn is_vector_type(name: &str) -> bool {
    super::typeck::vector_type(name).is_some()
}

/// Common type names warpdbg knows but does not model, with the reason given to the student.
fn unsupported_type_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "half" | "__half" | "half2" | "__half2" | "__nv_bfloat16" | "nv_bfloat16" => "half-precision types",
        "curandState" | "curandState_t" | "curandStateXORWOW_t" | "curandStatePhilox4_32_10_t" => {
            "the cuRAND device API (curandState)"
        }
        "cudaTextureObject_t" | "cudaSurfaceObject_t" | "texture" | "surface" => "textures and surfaces",
        _ => return None,
    })
}

//! Recursive-descent parser: tokens -> [`ast::TranslationUnit`].
//!
//! On an error it records a diagnostic, skips to the end of the statement (or declaration) and goes on, so one
//! run reports several independent mistakes.

pub mod bindings;
mod chrono;
mod expr;
mod fnptr;
mod instance;
mod lambda;
mod lazy;
mod limits;
mod members;
pub use members::MEMBER_INIT;
mod stmt;
mod structs;
mod template_defs;
mod types;

use super::ast::*;
use super::diagnostic::{Diagnostic, ErrorCode, Reported};
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
    /// Default arguments of host prototypes, by function name, for the definition that follows.
    proto_defaults: std::collections::HashMap<String, Vec<Option<Expr>>>,
    /// Open `extern "C" {` and `namespace x {` blocks.
    extern_blocks: u32,
    /// Struct and enum definitions seen so far (their names are type names from here on).
    structs: Vec<StructDecl>,
    enums: Vec<EnumDecl>,
    /// Items set aside for an unsupported construct (see [`Unavailable`]).
    unavailable: Vec<Unavailable>,
    /// `diags.len()` when the current file-scope item began: an unsupported construct after it makes the
    /// item unavailable, and its body is skipped rather than read on.
    item_diags: usize,
    /// Device functions declared by a prototype: name and signature.
    prototypes: Vec<(Ident, Span)>,
    /// The file defines `main`: host functions are parsed (for the host interpreter), not skipped.
    program: bool,
    /// Parsing a host function's body: launches and the CUDA runtime's types are allowed.
    host: bool,
    /// Inside `<<<...>>>`, where `>>` followed by `>` ends the configuration.
    in_launch: bool,
    /// The host functions of a program, in file order.
    host_defs: Vec<Function>,
    /// Host variables declared with a `<chrono>` duration type (`duration<double> dt`): how `dt.count()` scales.
    chrono_vars: std::collections::HashMap<String, chrono::Duration>,
    /// The last `<chrono>` duration expression read without `.count()` (`duration_cast<microseconds>(t1 - t0)`):
    /// its first and past-the-end tokens and its duration, so that `auto d = ...;` declares a duration variable.
    last_duration: Option<(usize, usize, chrono::Duration)>,
    /// Integer constants declared so far (`const int THREADS = 256;`), for template arguments that name them
    /// (`reduce<THREADS><<<g, THREADS>>>`).
    constants: std::collections::HashMap<String, i128>,
    /// A whole program's static data members declared in class bodies: (class, member).
    static_members: std::collections::HashSet<(String, String)>,
    /// File-scope variables a class body declared (a static data member with its initialiser in the class),
    /// added to the file's after the class.
    class_globals: Vec<GlobalDecl>,
    /// Device functions of class template instances (`template_defs`), added to the file's at its end.
    instance_functions: Vec<Function>,
    /// The class template instances being parsed around this parser, outermost first: a use of one inside
    /// another (`A<int>` holding a `B<int> *` that points back) names it without parsing it again.
    instantiating: Vec<String>,
    pub diags: Vec<Diagnostic>,
}

/// What a file-scope item turned out to be.
enum TopItem {
    Function(Function),
    Global(GlobalDecl),
}

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
            proto_defaults: Default::default(),
            extern_blocks: 0,
            structs: vec![],
            enums: vec![],
            unavailable: vec![],
            item_diags: usize::MAX,
            prototypes: vec![],
            program: defines_main(toks),
            host: false,
            in_launch: false,
            host_defs: vec![],
            chrono_vars: Default::default(),
            last_duration: None,
            constants: Default::default(),
            static_members: Default::default(),
            class_globals: vec![],
            instance_functions: vec![],
            instantiating: vec![],
            diags: vec![],
        }
    }

    /// Whether the tokens define `main` (a whole program rather than a kernel file).
    pub fn is_program(&self) -> bool {
        self.program
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

    /// The source text `span` covers, with runs of white space as one space (as `#` stringifies).
    fn source_text(&self, span: Span) -> String {
        let r = span.start as usize..span.end as usize;
        let s = self.text.get(r.start.saturating_sub(self.base)..r.end.saturating_sub(self.base)).unwrap_or("");
        s.split_whitespace().collect::<Vec<_>>().join(" ")
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

    fn error(&mut self, d: Diagnostic) -> Reported {
        if self.diags.len() < MAX_ERRORS {
            self.diags.push(d);
        }
        Reported
    }

    fn expected(&mut self, what: &str) -> Reported {
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

    fn expect(&mut self, p: Punct) -> Result<Span, Reported> {
        if self.is(p) { Ok(self.bump().span) } else { Err(self.expected(&format!("`{}`", p.as_str()))) }
    }

    /// The `;` that ends a statement or declaration. Missing at the end of a line, the next line most likely
    /// starts the next statement: report it and go on as if it were there, rather than skip that statement too
    /// (and report its names as undeclared).
    fn expect_semi(&mut self) -> Result<(), Reported> {
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

    fn ident(&mut self, what: &str) -> Result<Ident, Reported> {
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
    fn enter(&mut self) -> Result<(), Reported> {
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
            self.item_diags = self.diags.len();
            let item = self.top_item();
            let item = self.set_aside(start, item);
            self.item_diags = usize::MAX;
            match item {
                Ok(Some(TopItem::Function(f))) => tu.functions.push(f),
                Ok(Some(TopItem::Global(g))) => tu.globals.push(g),
                Ok(None) => tu.globals.append(&mut self.class_globals),
                Err(Reported) => {
                    self.recover_top();
                    if self.pos == start {
                        self.bump();
                    }
                }
            }
        }
        tu.functions.append(&mut self.instance_functions);
        self.undefined_prototypes(&tu.functions);
        tu.unavailable = std::mem::take(&mut self.unavailable);
        tu.host_functions = self.host_functions.clone();
        tu.host_defs = std::mem::take(&mut self.host_defs);
        // (A copy: template instances, parsed later, name the structs too.)
        tu.structs = self.structs.clone();
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

    fn top_item(&mut self) -> Result<Option<TopItem>, Reported> {
        let start = self.span();
        let mut kind = None;
        let (mut space, mut is_extern) = (VarSpace::Plain, false);
        // `__host__` seen: with `__device__`, a function compiled for both sides.
        let mut both = false;
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
                TokKind::Kw(Kw::Host) => both = true,
                TokKind::Kw(Kw::ForceInline | Kw::NoInline | Kw::Inline | Kw::Static) => {}
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
                        if self.eat(Punct::LBrace) {
                            // `namespace x { ... }`: its declarations are the file's (names are looked up
                            // without their namespace); the `}` is skipped at top level.
                            self.extern_blocks += 1;
                            return Ok(None);
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
                TokKind::Ident(n) if n == "__managed__" => space = VarSpace::Managed,
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
                TokKind::Ident(n) if n == "static_assert" => {
                    self.static_assert()?;
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
            && !(self.program && host_type_name(&n).is_some())
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
                TokKind::Kw(Kw::Host) => both = true,
                TokKind::Kw(Kw::Device | Kw::ForceInline | Kw::NoInline | Kw::Inline | Kw::Static) => {}
                TokKind::Ident(n) if n == "__launch_bounds__" => {
                    self.bump();
                    self.skip_parens()?;
                    continue;
                }
                _ => break,
            }
            self.bump();
        }
        if let Some(decl) = self.static_member_definition(start, &ret)? {
            return Ok(Some(TopItem::Global(GlobalDecl { space, decl })));
        }
        if self.out_of_line_member(start, kind, &ret)? {
            return Ok(None);
        }
        if self.program && kind.is_none() && self.at_fn_pointer() {
            // `void (*handler)(int) = report;`: a file-scope function pointer of the host.
            let decl = self.fn_pointer_decl(ret, start)?;
            return Ok(Some(TopItem::Global(GlobalDecl { space, decl })));
        }
        // `float &at(int i)`: a host function returning a reference.
        let ret_ref = self.program && kind.is_none() && self.eat(Punct::Amp);
        let name = self.ident("a function name")?;
        let name = self.operator_name(name)?;
        if ret_ref && self.is(Punct::LParen) {
            let defs = self.host_defs.len();
            let r = self.host_function(ret, name, start);
            if let Some(f) = self.host_defs.get_mut(defs) {
                f.kind = FnKind::HostRef;
            }
            return r;
        }
        if !self.is(Punct::LParen) {
            // A variable: `__constant__ float coef[9] = {...};`, `extern __shared__ int s[];`, `const int N = 8;`.
            let name_at = self.pos - 1;
            let mut declarators = self.declarators(Some(name))?;
            let mut ret = ret;
            self.own_stars(&mut ret, &mut declarators, name_at);
            self.note_constants(&ret, name_at);
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
            if self.program {
                return self.host_function(ret, name, start);
            }
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
        // Names may be left out (`void k(const Matrix, Matrix);`, or an unused parameter).
        let params = self.param_list()?;
        let sig = start.to(self.prev_span());
        if self.eat(Punct::Semi) {
            // A prototype: the definition is what counts (and may be in another file).
            if kind == FnKind::Device {
                self.prototypes.push((name, sig));
            }
            return Ok(None);
        }
        if !self.is(Punct::LBrace) {
            return Err(self.expected("`{`"));
        }
        let body = self.block()?;
        let f = Function { kind, ret, name, params, body, span: sig, body_end: self.prev_span() };
        if both && kind == FnKind::Device && self.program {
            // `__host__ __device__`: the host interpreter runs the same body when host code calls it.
            self.host_defs.push(f.clone());
        }
        Ok(Some(TopItem::Function(f)))
    }
}

/// Whether the token stream defines `main`: `main` followed by `(` and, after its parameters, `{`.
fn defines_main(toks: &[Token]) -> bool {
    let mut depth = 0i32;
    for (i, t) in toks.iter().enumerate() {
        match &t.kind {
            TokKind::Punct(Punct::LBrace) => depth += 1,
            TokKind::Punct(Punct::RBrace) => depth -= 1,
            TokKind::Ident(n) if depth == 0 && n == "main" => {
                if toks.get(i + 1).is_some_and(|t| t.kind == TokKind::Punct(Punct::LParen))
                    && let Some(close) = toks[i + 1..].iter().position(|t| t.kind == TokKind::Punct(Punct::RParen))
                    && toks.get(i + 2 + close).is_some_and(|t| t.kind == TokKind::Punct(Punct::LBrace))
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
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
        "int64_t" | "ptrdiff_t" | "intptr_t" | "ssize_t" | "intmax_t" | "__int64" | "clock_t" => BaseType::Long,
        "uint64_t" | "size_t" | "uintptr_t" | "uintmax_t" | "ulong" => BaseType::ULong,
        // A texture object is a 64-bit handle (here: its descriptor's device address, `sim::texture`).
        "cudaTextureObject_t" => BaseType::ULong,
        // cuda_fp16.h's scalar (a struct there, a built-in float type here); its `half` is a typedef of it.
        "__half" => BaseType::Half,
        _ => return None,
    })
}

/// CUDA's vector types (`float4`, `int2`, `uchar4`, ...) and `dim3`, which are built-in structs.
pub fn is_vector_type(name: &str) -> bool {
    super::builtin_types::vector_type(name).is_some()
}

/// Common type names warpdbg knows but does not model, with the reason given to the student.
fn unsupported_type_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "__nv_bfloat16" | "nv_bfloat16" | "__nv_bfloat162" | "nv_bfloat162" => "bfloat16 types",
        "curandStateMRG32k3a_t" | "curandStateMRG32k3a" | "curandStateSobol32_t" | "curandStateMtgp32_t" => {
            "cuRAND generators other than XORWOW and Philox"
        }
        "cudaSurfaceObject_t" => "surfaces",
        "texture" | "surface" => {
            "texture and surface references (`texture<float, 1>`), which CUDA 12 removed (nvcc refuses them); \
             texture objects replace them"
        }
        "multi_grid_group" => "multi-GPU cooperative groups (this_multi_grid)",
        _ => return None,
    })
}

/// Class templates of the C++ library that warpdbg does not model, named when a declaration uses one
/// (`std::pair<int, float> p;`, `std::map<std::string, int> m;`) rather than left a syntax error.
fn unsupported_std_template(name: &str) -> Option<&'static str> {
    Some(match name {
        "tuple" => "`std::tuple` yet",
        "map" | "unordered_map" | "multimap" | "set" | "unordered_set" | "multiset" => {
            "`std::map`, `std::unordered_map` and `std::set` yet"
        }
        "list" | "deque" | "queue" | "stack" | "priority_queue" => {
            "`std::list`, `std::deque`, `std::queue` and `std::stack` yet"
        }
        _ => return None,
    })
}

/// Opaque handle types of the CUDA runtime and its libraries, which host code keeps in its structs and
/// classes: the library each belongs to, or None. Known, so that such host code is set aside with a clear
/// reason rather than a parse error; device code that uses one gets that reason as an error.
fn host_type_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "cudaStream_t"
        | "cudaEvent_t"
        | "cudaError_t"
        | "cudaError"
        | "cudaDeviceProp"
        | "cudaGraph_t"
        | "cudaGraphExec_t"
        | "cudaArray_t"
        | "cudaMemcpyKind"
        | "cudaChannelFormatDesc"
        | "cudaPointerAttributes"
        | "cudaFuncAttributes"
        | "cudaIpcMemHandle_t"
        | "cudaExtent"
        | "cudaPitchedPtr"
        | "cudaPos"
        | "cudaMemcpy3DParms"
        | "cudaMemLocation"
        | "cudaMemoryType"
        | "cudaMemoryAdvise"
        | "cudaGraphNode_t"
        | "cudaStreamCaptureMode"
        | "cudaStreamCaptureStatus"
        | "cudaSharedMemConfig"
        | "cudaFuncCache"
        | "cudaArray"
        | "cudaResourceDesc"
        | "cudaTextureDesc"
        | "cudaChannelFormatKind"
        | "cudaResourceType"
        | "cudaTextureAddressMode"
        | "cudaTextureFilterMode"
        | "cudaTextureReadMode" => "the CUDA runtime",
        "pthread_t" | "pthread_mutex_t" | "pthread_attr_t" => "POSIX threads",
        "time_t" | "clock_t" | "FILE" | "timeval" | "timespec" | "timezone" | "va_list" | "__builtin_va_list"
        | "div_t" | "ldiv_t" | "lldiv_t" => "the C library",
        "ofstream" | "ifstream" | "fstream" | "stringstream" | "ostringstream" | "istringstream" | "string" => {
            "the C++ library"
        }
        "mt19937" | "mt19937_64" | "minstd_rand0" | "minstd_rand" | "default_random_engine" | "random_device" => {
            "<random>"
        }
        "CUresult" | "CUdevice" | "CUcontext" | "CUmodule" | "CUfunction" | "CUstream" | "CUdeviceptr" => {
            "the CUDA driver API"
        }
        "curandGenerator_t" | "curandStatus_t" | "curandRngType_t" => "the cuRAND host API",
        "cublasHandle_t" | "cublasStatus_t" | "cublasOperation_t" | "cublasLtHandle_t" => "cuBLAS",
        "cufftHandle" | "cufftResult" | "cufftType" => "cuFFT",
        "cusparseHandle_t" | "cusparseStatus_t" | "cusparseMatDescr_t" => "cuSPARSE",
        "cusolverDnHandle_t" | "cusolverStatus_t" => "cuSOLVER",
        "cudnnHandle_t" | "cudnnStatus_t" | "cudnnTensorDescriptor_t" => "cuDNN",
        "ncclComm_t" | "ncclResult_t" | "ncclUniqueId" => "NCCL",
        "nvtxRangeId_t" | "nvtxEventAttributes_t" => "NVTX",
        _ => return None,
    })
}

/// `<random>`'s distributions, templates of their result type (`uniform_int_distribution<int>`).
/// An expression written as text (a template argument's, `N * 2`), parsed alone; None when it is not one.
pub fn expr_from_text(text: &str) -> Option<Expr> {
    let lexed = super::lexer::lex(super::source::FileId(0), text, 0);
    let mut p = Parser::new(&lexed.tokens, text, 0);
    let e = p.expr().ok()?;
    (*p.kind() == TokKind::Eof).then_some(e)
}

fn random_template(name: &str) -> bool {
    matches!(name, "uniform_int_distribution" | "uniform_real_distribution" | "normal_distribution")
}

/// The libraries' complex types, which are CUDA vector types in device code too (`cufftComplex` is `float2`).
pub fn library_vector_type(name: &str) -> Option<&'static str> {
    Some(match name {
        "cufftComplex" | "cuComplex" | "cuFloatComplex" => "float2",
        "cufftDoubleComplex" | "cuDoubleComplex" => "double2",
        _ => return None,
    })
}

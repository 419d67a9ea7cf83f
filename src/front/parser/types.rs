//! Types: type specifiers, typedefs, and host functions (skipped in a kernel file, read in a whole program).
//! Struct and enum definitions are in [`super::structs`], template definitions in [`super::template_defs`].

use super::*;

impl Parser<'_> {
    // ---- types ----

    /// Can the current token begin a type (so a statement is a declaration, or `(` a cast)?
    pub(super) fn starts_type(&self) -> bool {
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
            // `Gen::count = 0;`: a class's static data member, not a declaration of the class's type.
            TokKind::Ident(name)
                if *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
                    && matches!(self.peek_kind(2), TokKind::Ident(m)
                        if self.static_members.contains(&(name.clone(), m.clone()))) =>
            {
                false
            }
            TokKind::Ident(name) => {
                typedef_name(name).is_some()
                    || self.typedefs.contains_key(name)
                    || unsupported_type_name(name).is_some()
                    || (unsupported_std_template(name).is_some() && *self.peek_kind(1) == TokKind::Punct(Punct::Lt))
                    || is_vector_type(name)
                    || ((self.host || self.program)
                        && (name == "vector" || name == "pair" || random_template(name))
                        && *self.peek_kind(1) == TokKind::Punct(Punct::Lt))
                    // `std::mt19937`, `std::normal_distribution<float>`: `<random>` in host code.
                    || ((self.host || self.program)
                        && *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
                        && matches!(self.peek_kind(2), TokKind::Ident(n)
                            if random_template(n) || host_type_name(n) == Some("<random>")))
                    || ((self.host || self.program)
                        && *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
                        && matches!(self.peek_kind(2), TokKind::Ident(n)
                            if n == "vector" || n == "array" || n == "pair" || unsupported_std_template(n).is_some()))
                    // `array<float, 8> a;` after `using namespace std;` (a variable named `array` compared
                    // with something is not followed by a type).
                    || ((self.host || self.program)
                        && name == "array"
                        && *self.peek_kind(1) == TokKind::Punct(Punct::Lt)
                        && (matches!(self.peek_kind(2), TokKind::Kw(_))
                            || matches!(self.peek_kind(2), TokKind::Ident(n) if n == "std")))
                    // `std::thread t(f, i);`, `std::mutex m;`, `std::atomic<int> n{0};` (`<thread>`, `<mutex>`,
                    // `<condition_variable>`, `<atomic>` in host code); `std::thread::hardware_concurrency()` is a
                    // call.
                    || ((self.host || self.program)
                        && name == "std"
                        && *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
                        && *self.peek_kind(3) != TokKind::Punct(Punct::ColonColon)
                        && matches!(self.peek_kind(2), TokKind::Ident(n) if thread_type(n) || n == "atomic" || n == "function"))
                    || name == "thread_block_tile"
                    || (*self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
                        && matches!(self.peek_kind(2), TokKind::Ident(n) if is_vector_type(n)
                            || n == "thread_block_tile" || unsupported_type_name(n).is_some()))
                    || self.structs.iter().any(|s| s.name.name == *name)
                    // `Buffer<float> b(10);`: a class template's instance.
                    || (self.templates.class_defs.contains_key(name) && *self.peek_kind(1) == TokKind::Punct(Punct::Lt))
                    // `uti::IntGenerator gen(0, 10);`: a class of a namespace (namespaces are dropped).
                    || ((self.host || self.program)
                        && *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
                        && *self.peek_kind(3) != TokKind::Punct(Punct::ColonColon)
                        && matches!(self.peek_kind(2), TokKind::Ident(n)
                            if self.structs.iter().any(|s| s.name.name == *n) || self.typedefs.contains_key(n)))
                    || self.enums.iter().any(|e| e.name.as_ref().is_some_and(|n| n.name == *name))
                    || self.unavailable_type(name)
                    || library_vector_type(name).is_some()
                    || ((self.host || self.program) && host_type_name(name).is_some())
            }
            _ => false,
        }
    }

    /// Skips `( ... )`, nested parentheses included.
    pub(super) fn skip_parens(&mut self) -> Result<(), Reported> {
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
    pub(super) fn skip_host_function(&mut self, name: &Ident) -> Result<(), Reported> {
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

    /// A whole program's host function (its return type and name read): parameters and body, parsed for
    /// the host interpreter. A prototype declares nothing the interpreter needs.
    pub(super) fn host_function(
        &mut self,
        ret: TypeSpec,
        name: Ident,
        start: Span,
    ) -> Result<Option<TopItem>, Reported> {
        self.host_functions.push(name.clone());
        let outer = std::mem::replace(&mut self.host, true);
        let r = self.host_function_rest(ret, name, start);
        self.host = outer;
        r
    }

    fn host_function_rest(&mut self, ret: TypeSpec, name: Ident, start: Span) -> Result<Option<TopItem>, Reported> {
        let mut params = self.param_list()?;
        let sig = start.to(self.prev_span());
        if self.eat(Punct::Semi) {
            // `void fill(float *a, int n, int seed = 967);`: the definition below takes these defaults.
            if params.iter().any(|p| p.default.is_some()) {
                self.proto_defaults.insert(name.name.clone(), params.into_iter().map(|p| p.default).collect());
            }
            return Ok(None);
        }
        if !self.is(Punct::LBrace) {
            return Err(self.expected("`{`"));
        }
        if let Some(defaults) = self.proto_defaults.get(&name.name)
            && defaults.len() == params.len()
        {
            for (p, d) in params.iter_mut().zip(defaults) {
                if p.default.is_none() {
                    p.default = d.clone();
                }
            }
        }
        let body = self.block()?;
        let f = Function { kind: FnKind::Device, ret, name, params, body, span: sig, body_end: self.prev_span() };
        self.host_defs.push(f);
        Ok(None)
    }

    /// Host functions skipped so far (so that a call from device code can say what it calls).
    pub fn host_functions(&self) -> &[Ident] {
        &self.host_functions
    }

    /// After [`Parser::translation_unit`]: the file's templates, typedefs and named instances.
    pub fn take_templates(&mut self) -> Templates {
        let mut t = std::mem::take(&mut self.templates);
        t.typedefs = self.typedefs.clone();
        t.structs = self.structs.clone();
        t
    }

    /// `typedef T name;`, `using name = T;` and `using namespace N;` (at file scope or in a block).
    pub(super) fn typedef(&mut self) -> Result<(), Reported> {
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
            TypeSpec {
                base: BaseType::Int,
                named,
                is_const: false,
                is_volatile: false,
                pointers: 0,
                span: start,
                func: None,
            }
        } else {
            self.type_spec()?
        };
        if self.at_fn_pointer() {
            // `typedef void (*kernel_t)(float *, int);`: device code that uses it is refused by the checker.
            let (name, t) = self.fn_pointer(ty)?;
            let Some(name) = name else { return Err(self.expected("the new type's name")) };
            self.typedefs.insert(name.name, t);
            return self.expect_semi();
        }
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

    pub(super) fn type_spec(&mut self) -> Result<TypeSpec, Reported> {
        let start = self.span();
        let (mut is_const, mut is_volatile) = (false, false);
        let (mut signed, mut unsigned, mut int, mut char_, mut named) = (false, false, false, false, None::<BaseType>);
        let (mut short, mut longs) = (false, 0u8);
        let mut struct_name: Option<String> = None;
        // Pointer levels a typedef name brings (`typedef float *fptr;`).
        let mut typedef_pointers = 0u8;
        // A typedef'd function pointer type (`typedef void (*kernel_t)(float *);`).
        let mut func = None;
        let mut any = false;
        // Inside `std::atomic<`: its `>` follows the element type.
        let mut atomic = false;
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
                TokKind::Kw(Kw::Auto)
                    if struct_name.is_none()
                        && named.is_none()
                        && !(int || char_ || signed || unsigned || short || longs > 0) =>
                {
                    struct_name = Some("auto".into())
                }
                // `cg::thread_block`, `const cg::grid_group &`: the namespace is dropped.
                TokKind::Ident(_)
                    if *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
                        && struct_name.is_none()
                        && named.is_none()
                        && !(int || char_ || signed || unsigned || short || longs > 0) =>
                {
                    self.bump();
                    self.bump();
                    continue;
                }
                // `std::atomic<int>` in host code is the `int` itself (one host thread runs at a time:
                // `src/host/threads.rs`); the `>` is eaten after the element type.
                TokKind::Ident(name)
                    if name == "atomic"
                        && (self.host || self.program)
                        && named.is_none()
                        && struct_name.is_none()
                        && !atomic
                        && after_std(self.toks, self.pos)
                        && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) =>
                {
                    self.bump();
                    self.bump();
                    atomic = true;
                    continue;
                }
                // `std::thread`, `std::mutex`, `std::lock_guard<std::mutex>`: structs of `src/host/threads.rs`.
                TokKind::Ident(name)
                    if thread_type(&name)
                        && (self.host || self.program)
                        && struct_name.is_none()
                        && named.is_none()
                        && after_std(self.toks, self.pos) =>
                {
                    if *self.peek_kind(1) == TokKind::Punct(Punct::Lt) {
                        let Some((_, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                            return Err(self.expected("the mutex type: `lock_guard<std::mutex>`"));
                        };
                        self.pos += after;
                    }
                    struct_name = Some(name.clone());
                }
                // `Buffer<float>`: the class template's instance, made now if it is new (`template_defs`).
                TokKind::Ident(name)
                    if self.templates.class_defs.contains_key(&name)
                        && struct_name.is_none()
                        && named.is_none()
                        && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) =>
                {
                    struct_name = Some(self.class_instance(&name)?);
                }
                // `std::function<float(float)> f = [&](float v) { ... };` in host code: the variable holds the
                // closure itself, as `auto` would (`src/host/lambda.rs`).
                TokKind::Ident(name)
                    if name == "function"
                        && (self.host || self.program)
                        && struct_name.is_none()
                        && named.is_none()
                        && after_std(self.toks, self.pos)
                        && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) =>
                {
                    let Some((_, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                        return Err(self.expected("the function type: `std::function<float(float)>`"));
                    };
                    self.pos += after;
                    struct_name = Some("auto".into());
                }
                // `std::vector<int>` in host code: a struct the host interpreter knows (`vector<int>`); so is
                // `std::array<float, 8>` (`array<float, 8>`: `src/host/array.rs`).
                TokKind::Ident(name)
                    if (name == "vector" || name == "array" || name == "pair" || random_template(&name))
                        && (self.host || self.program)
                        && struct_name.is_none()
                        && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) =>
                {
                    let Some((mut args, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                        return Err(self.expected("the element type: `vector<int>`"));
                    };
                    self.pos += 1 + after;
                    // `std::vector<real>` with `typedef float real;` (`vector<Int8 *>` too): the element is the
                    // scalar the name stands for.
                    for arg in &mut args {
                        *arg = arg
                            .iter()
                            .flat_map(|tok| {
                                if let TokKind::Ident(n) = &tok.kind
                                    && let Some(t) = self.typedefs.get(n)
                                    && t.named.is_none()
                                    && t.pointers == 0
                                    && t.func.is_none()
                                    && let Some(sc) = crate::front::types::Type::from_base(t.base).scalar()
                                {
                                    let span = tok.span;
                                    sc.name()
                                        .split(" ")
                                        .map(|w| Token { kind: TokKind::Ident(w.into()), span })
                                        .collect()
                                } else {
                                    vec![tok.clone()]
                                }
                            })
                            .collect();
                    }
                    struct_name = Some(template::instance_name(&name, &args));
                    // `std::vector<int>::iterator it = v.begin();`: an iterator is the element pointer `begin()`
                    // gives, so the declaration takes its initialiser's type, as `auto` does.
                    if name == "vector"
                        && *self.kind() == TokKind::Punct(Punct::ColonColon)
                        && matches!(self.peek_kind(1), TokKind::Ident(n) if n == "iterator" || n == "const_iterator")
                    {
                        self.pos += 2;
                        struct_name = Some("auto".into());
                    }
                    any = true;
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
                    if struct_name.is_none()
                        && (!any
                            || (!int && !char_ && named.is_none() && !signed && !unsigned && !short && longs == 0)) =>
                {
                    if let Some(b) = typedef_name(&name) {
                        named = Some(b);
                    } else if let Some(t) = self.typedefs.get(&name) {
                        named = Some(t.base);
                        struct_name = t.named.clone();
                        is_const |= t.is_const;
                        is_volatile |= t.is_volatile;
                        typedef_pointers = t.pointers;
                        func = t.func.clone();
                    } else if self.structs.iter().any(|s| s.name.name == name) || is_vector_type(&name) {
                        struct_name = Some(name.clone());
                    } else if self.enums.iter().any(|e| e.name.as_ref().is_some_and(|n| n.name == name)) {
                        named = Some(BaseType::Int);
                    } else if let Some(why) = unsupported_type_name(&name) {
                        return Err(self.error(Diagnostic::unsupported(self.span(), why)));
                    } else if let Some(why) = unsupported_std_template(&name)
                        && *self.peek_kind(1) == TokKind::Punct(Punct::Lt)
                    {
                        return Err(self.error(Diagnostic::unsupported(self.span(), why)));
                    } else if let Some(vector) = library_vector_type(&name) {
                        // `cufftComplex` is `float2` in device code too.
                        struct_name = Some(vector.to_string());
                    } else if (self.host || self.program) && host_type_name(&name).is_some() {
                        // The host interpreter knows the runtime's handle and enum types by name.
                        struct_name = Some(name.clone());
                    } else if let Some(lib) = host_type_name(&name) {
                        let d = Diagnostic::new(
                            ErrorCode::Unsupported,
                            self.span(),
                            format!("`{name}` is a host-only type of {lib}: device code cannot use it"),
                        )
                        .label("host-only type");
                        return Err(self.error(d));
                    } else if self.unavailable_type(&name) {
                        struct_name = Some(name.clone());
                    } else {
                        break;
                    }
                }
                _ => break,
            }
            any = true;
            self.bump();
        }
        if atomic {
            self.expect(Punct::Gt)?;
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
        Ok(TypeSpec { base, named: struct_name, is_const, is_volatile, pointers, span, func })
    }
}

/// The types of `<thread>`, `<mutex>` and `<condition_variable>` host code names after `std::` (`atomic`
/// has its own rule).
fn thread_type(name: &str) -> bool {
    matches!(name, "thread" | "mutex" | "condition_variable" | "lock_guard" | "unique_lock")
}

/// Whether the token at `pos` follows `std::` (`std::thread`: a bare `thread` stays a name).
fn after_std(toks: &[Token], pos: usize) -> bool {
    pos >= 2
        && toks[pos - 1].kind == TokKind::Punct(Punct::ColonColon)
        && matches!(&toks[pos - 2].kind, TokKind::Ident(n) if n == "std")
}

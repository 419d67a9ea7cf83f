//! Member functions of structs and classes: in the class body, out of line (`float Vec3::dot(...) const`),
//! constructors with member initialisers, operators, and the `operator+` names of free functions.

use super::*;

/// The qualifiers before a member function.
#[derive(Default)]
struct Quals {
    device: bool,
    /// `__host__` written (with `__device__`: a member both sides call).
    host: bool,
    is_static: bool,
    friend: bool,
}

impl Parser<'_> {
    /// In a class body: does a member function (or constructor, destructor, operator) start here, rather
    /// than a field?
    pub(super) fn starts_member_function(&self, class: &str) -> bool {
        for i in 0..64 {
            match self.peek_kind(i) {
                TokKind::Ident(n) if matches!(n.as_str(), "operator" | "virtual" | "friend" | "explicit") => {
                    return true;
                }
                // A constructor `Vec3(...)`, not a field `Node *next;` of the class's own type (a method
                // returning the class, `Vec3 add(...)`, reads on).
                TokKind::Ident(n) if i == 0 && n == class && *self.peek_kind(1) == TokKind::Punct(Punct::LParen) => {
                    return true;
                }
                TokKind::Kw(Kw::Device | Kw::Host | Kw::Global | Kw::ForceInline | Kw::Inline | Kw::NoInline) => {
                    return true;
                }
                TokKind::Punct(Punct::Tilde | Punct::LParen) => return true,
                TokKind::Punct(Punct::Semi | Punct::LBrace | Punct::Assign | Punct::LBracket | Punct::Colon)
                | TokKind::Eof => return false,
                _ => {}
            }
        }
        false
    }

    /// One member function of class `class`; None for what declares nothing device code uses (an empty
    /// destructor).
    pub(super) fn member_function(&mut self, class: &str) -> Result<Option<Method>, Reported> {
        let start = self.span();
        let mut q = Quals::default();
        let mut virtual_at = None;
        loop {
            match self.kind().clone() {
                TokKind::Kw(Kw::Device) => q.device = true,
                TokKind::Kw(Kw::Host) => q.host = true,
                TokKind::Kw(Kw::Global) => {
                    return Err(self.error(Diagnostic::unsupported(self.span(), "__global__ member functions")));
                }
                TokKind::Kw(Kw::Static) => q.is_static = true,
                TokKind::Kw(Kw::ForceInline | Kw::Inline | Kw::NoInline) => {}
                TokKind::Ident(n) if n == "explicit" => {}
                TokKind::Ident(n) if n == "friend" => q.friend = true,
                // A whole program's host method: calls through a base pointer dispatch on its dynamic type.
                TokKind::Ident(n) if n == "virtual" && self.program => virtual_at = Some(self.span()),
                TokKind::Ident(n) if n == "virtual" => {
                    return Err(self.error(
                        Diagnostic::unsupported(self.span(), "virtual functions")
                            .hint("device code of plain data: call the function of the type you have"),
                    ));
                }
                _ => break,
            }
            self.bump();
        }
        if let Some(at) = virtual_at.filter(|_| q.device) {
            return Err(self.error(Diagnostic::unsupported(at, "virtual functions in device code")));
        }
        if self.is(Punct::Tilde) {
            // `~Vec3() {}`: plain data has nothing to destroy; a destructor that does something is not run.
            let at = self.span();
            self.bump();
            self.ident("the class name")?;
            self.param_list()?;
            if self.eat(Punct::Semi) {
                return Ok(None);
            }
            let in_host = self.program || self.host;
            let host = std::mem::replace(&mut self.host, in_host);
            let body = self.block();
            self.host = host;
            let body = body?;
            if self.program && !q.device {
                // A whole program's host destructor: `Class::~Class`, run where the object's scope ends.
                let name = Ident { name: format!("~{class}"), span: at };
                let (ret, body_end) = (void_spec(at), self.prev_span());
                let f = Function { kind: FnKind::Device, ret, name, params: vec![], body, span: at, body_end };
                self.host_method(class, f, false, &[]);
                return Ok(None);
            }
            if !body.is_empty() {
                return Err(self.error(Diagnostic::unsupported(at, "destructors that do something")));
            }
            return Ok(None);
        }
        let is_ctor = matches!(self.kind(), TokKind::Ident(n) if n == class)
            && *self.peek_kind(1) == TokKind::Punct(Punct::LParen);
        let (ret, ret_ref, name) = if is_ctor {
            let name = self.ident("a constructor")?;
            (void_spec(name.span), false, name)
        } else {
            let ret = self.type_spec()?;
            let ret_ref = self.eat(Punct::Amp);
            let name = self.ident("a member function name")?;
            (ret, ret_ref, self.operator_name(name)?)
        };
        let m = self.member_rest(class, start, q, is_ctor, (ret, ret_ref), name)?;
        Ok(Some(m))
    }

    /// A constructor's member initialisers (`: n(0), data{1, 2}`), if it has them.
    fn member_inits(&mut self, is_ctor: bool, inits: &mut Vec<(Ident, Vec<Expr>)>) -> Result<(), Reported> {
        if !(is_ctor && self.eat(Punct::Colon)) {
            return Ok(());
        }
        loop {
            let field = self.ident("a field to initialise")?;
            let args = if self.is(Punct::LBrace) {
                match self.init_list()?.kind {
                    ExprKind::InitList(items) => items,
                    _ => vec![],
                }
            } else {
                self.call_args()?
            };
            inits.push((field, args));
            if !self.eat(Punct::Comma) {
                return Ok(());
            }
        }
    }

    /// After the name: parameters, `const`, member initialisers and the body (or `;`).
    fn member_rest(
        &mut self,
        class: &str,
        start: Span,
        q: Quals,
        is_ctor: bool,
        (ret, ret_ref): (TypeSpec, bool),
        name: Ident,
    ) -> Result<Method, Reported> {
        // A whole program's host member's parameters (`void run(void (*kernel)(float *, int))`) and
        // constructor's initialisers (`start(clock::now())`) are host code.
        let in_host = self.host || (self.program && !q.device);
        let outer = std::mem::replace(&mut self.host, in_host);
        let params = self.param_list();
        self.host = outer;
        let params = params?;
        let is_const = self.eat_kw(Kw::Const);
        while matches!(self.kind(), TokKind::Ident(n) if n == "override" || n == "final") {
            self.bump();
        }
        let span = start.to(self.prev_span());
        let mut inits = vec![];
        let outer = std::mem::replace(&mut self.host, in_host);
        let read = self.member_inits(is_ctor, &mut inits);
        self.host = outer;
        read?;
        let mut prototype = false;
        let mut body = vec![];
        let mut host_body = None;
        if self.eat(Punct::Assign) {
            // `= default;`, `= delete;`: nothing to run.
            self.bump();
            self.expect_semi()?;
        } else if self.eat(Punct::Semi) {
            prototype = true;
        } else if !q.device && self.program {
            // A host member of a whole program: the host interpreter runs it; device code may not call it.
            if !self.is(Punct::LBrace) {
                return Err(self.expected("`{`"));
            }
            let outer = std::mem::replace(&mut self.host, true);
            let parsed = self.block();
            self.host = outer;
            host_body = Some(parsed?);
        } else if !q.device {
            // A host member: device code may not call it, so its body is not read.
            if !self.is(Punct::LBrace) {
                return Err(self.expected("`{`"));
            }
            self.skip_braces()?;
        } else {
            if !self.is(Punct::LBrace) {
                return Err(self.expected("`{`"));
            }
            body = self.block()?;
            // `__host__ __device__`: host code calls it too.
            if q.host && self.program {
                host_body = Some(body.clone());
            }
        }
        let body_end = self.prev_span();
        let func = Function { kind: FnKind::Device, ret, name, params, body, span, body_end };
        if let Some(body) = host_body {
            let kind = if ret_ref { FnKind::HostRef } else { FnKind::Device };
            self.host_method(class, Function { body, kind, ..func.clone() }, q.is_static, &inits);
        }
        let ctor = is_ctor.then_some(inits);
        Ok(Method {
            func,
            is_static: q.is_static,
            is_const,
            ctor,
            friend: q.friend,
            device: q.device,
            prototype,
            ret_ref,
        })
    }

    /// `operator+`, `operator[]`, `operator()`: the whole name, when `name` is `operator`.
    pub(super) fn operator_name(&mut self, name: Ident) -> Result<Ident, Reported> {
        if name.name != "operator" {
            return Ok(name);
        }
        let symbol = match self.kind().clone() {
            TokKind::Punct(Punct::LParen) if *self.peek_kind(1) == TokKind::Punct(Punct::RParen) => {
                self.bump();
                "()".to_string()
            }
            TokKind::Punct(Punct::LBracket) if *self.peek_kind(1) == TokKind::Punct(Punct::RBracket) => {
                self.bump();
                "[]".to_string()
            }
            TokKind::Punct(p) => template::spell(&TokKind::Punct(p)),
            _ => {
                return Err(self.error(
                    Diagnostic::unsupported(name.span.to(self.span()), "conversion operators")
                        .hint("write a member function that returns the value"),
                ));
            }
        };
        self.bump();
        Ok(Ident { name: format!("operator{symbol}"), span: name.span.to(self.prev_span()) })
    }

    /// `( const Vec3 &o, float s = 1 )`: a function's parameters (names may be left out).
    pub(super) fn param_list(&mut self) -> Result<Vec<Param>, Reported> {
        self.expect(Punct::LParen)?;
        let mut params = vec![];
        if self.is_kw(Kw::Void) && *self.peek_kind(1) == TokKind::Punct(Punct::RParen) {
            self.bump();
        }
        while !self.is(Punct::RParen) && !self.at_eof() {
            if self.is(Punct::Ellipsis) && self.host {
                // A variadic host function (`<cstdarg>`): a last parameter named `...` marks it.
                let name = Ident { name: "...".into(), span: self.span() };
                self.bump();
                params.push(Param { ty: void_spec(name.span), name, reference: false, default: None });
                break;
            }
            if self.is(Punct::Ellipsis) {
                return Err(self.error(
                    Diagnostic::unsupported(self.span(), "variadic functions (`...`)")
                        .hint("pass the values themselves, or an array and its length"),
                ));
            }
            let mut ty = self.type_spec()?;
            if self.at_fn_pointer() {
                if !self.host {
                    return Err(self.fn_pointer_unsupported());
                }
                // `void (*kernel)(float *, int)`: a host function's parameter.
                let (name, ty) = self.fn_pointer(ty)?;
                let name = name.unwrap_or(Ident { name: String::new(), span: self.span() });
                let default = if self.eat(Punct::Assign) { Some(self.assignment()?) } else { None };
                params.push(Param { ty, name, reference: false, default });
                if !self.eat(Punct::Comma) {
                    break;
                }
                continue;
            }
            let reference = self.eat(Punct::Amp);
            let name = match self.kind() {
                TokKind::Ident(_) => self.ident("a parameter name")?,
                _ => Ident { name: String::new(), span: self.span() },
            };
            // `T a[]` and `T a[N]` are `T *a` (C adjusts the parameter's type); `a[N][M]` is not.
            if self.is(Punct::LBracket) {
                let at = self.span();
                self.bump();
                while !self.is(Punct::RBracket) && !self.at_eof() {
                    self.bump();
                }
                self.expect(Punct::RBracket)?;
                if self.is(Punct::LBracket) {
                    return Err(self.error(
                        Diagnostic::unsupported(at, "parameters that are arrays of arrays")
                            .hint("write a pointer: `float *m` and index it `m[row * width + col]`"),
                    ));
                }
                ty.pointers += 1;
            }
            let default = if self.eat(Punct::Assign) { Some(self.assignment()?) } else { None };
            params.push(Param { ty, name, reference, default });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen)?;
        Ok(params)
    }

    /// At file scope after the return type: `Vec3::dot(...)` or the constructor `Vec3::Vec3(...)`, defined
    /// out of its class. Records it with the class's members; false when no such definition starts here.
    pub(super) fn out_of_line_member(
        &mut self,
        start: Span,
        kind: Option<FnKind>,
        ret: &TypeSpec,
    ) -> Result<bool, Reported> {
        let is_class = |p: &Self, n: &str| p.structs.iter().any(|s| s.name.name == n);
        // `Vec3::Vec3(`: the type specifier already read `Vec3::Vec3` as the type `Vec3`.
        let ctor = self.is(Punct::LParen)
            && self.pos >= 3
            && self.toks[self.pos - 2].kind == TokKind::Punct(Punct::ColonColon)
            && ret.named.as_deref().is_some_and(|n| is_class(self, n))
            && matches!(&self.toks[self.pos - 3].kind, TokKind::Ident(n) if Some(n) == ret.named.as_ref());
        let amp = usize::from(self.is(Punct::Amp));
        let method = matches!(self.peek_kind(amp), TokKind::Ident(n) if is_class(self, n))
            && *self.peek_kind(amp + 1) == TokKind::Punct(Punct::ColonColon)
            && matches!(self.peek_kind(amp + 2), TokKind::Ident(_));
        if !ctor && !method {
            return Ok(false);
        }
        // Declared `__device__` in the class or here.
        let device = |p: &Self, class: &str, name: &str| {
            p.structs
                .iter()
                .any(|s| s.name.name == class && s.methods.iter().any(|m| m.func.name.name == name && m.device))
        };
        let (class, m) = if ctor {
            let class = ret.named.clone().unwrap_or_default();
            let name = Ident { name: class.clone(), span: self.toks[self.pos - 1].span };
            let q = Quals { device: kind.is_some() || device(self, &class, &class), ..Quals::default() };
            (class.clone(), self.member_rest(&class, start, q, true, (void_spec(name.span), false), name)?)
        } else {
            let ret_ref = self.eat(Punct::Amp);
            let class = self.ident("a class")?.name;
            self.bump(); // ::
            let name = self.ident("a member function name")?;
            let name = self.operator_name(name)?;
            let q = Quals { device: kind.is_some() || device(self, &class, &name.name), ..Quals::default() };
            (class.clone(), self.member_rest(&class, start, q, false, (ret.clone(), ret_ref), name)?)
        };
        let Some(s) = self.structs.iter_mut().rev().find(|s| s.name.name == class) else { return Ok(true) };
        let declared = s.methods.iter().position(|p| {
            p.prototype && p.func.name.name == m.func.name.name && p.func.params.len() == m.func.params.len()
        });
        let mut m = m;
        if let Some(i) = declared {
            let p = s.methods.remove(i);
            m.is_static = p.is_static;
            m.device |= p.device;
            m.ret_ref |= p.ret_ref;
        }
        s.methods.push(m);
        Ok(true)
    }
}

impl Parser<'_> {
    /// A member function host code calls, as a host function of the program named `Class::name` (a
    /// constructor `Class::Class`): `this` (a `Class *`) comes first unless it is `static`, and a
    /// constructor's member initialisers become its first statements (`this->x = a;`).
    fn host_method(&mut self, class: &str, f: Function, is_static: bool, inits: &[(Ident, Vec<Expr>)]) {
        let mut params = vec![];
        if !is_static {
            let ty = TypeSpec { named: Some(class.to_string()), pointers: 1, ..void_spec(f.name.span) };
            let this = Ident { name: "this".into(), span: f.name.span };
            params.push(Param { ty, name: this, reference: false, default: None });
        }
        params.extend(f.params);
        let mut body = vec![];
        for (field, args) in inits {
            let this = Expr { kind: ExprKind::Name("this".into()), span: field.span };
            if self.structs.iter().any(|s| s.name.name == field.name) {
                // `Derived(int r) : Base(r)`: the base's constructor on the same object.
                let ctor = Ident { name: format!("{0}::{0}", field.name), span: field.span };
                let call = ExprKind::Call(ctor, std::iter::once(this).chain(args.iter().cloned()).collect());
                body.push(Stmt { kind: StmtKind::Expr(Expr { kind: call, span: field.span }), span: field.span });
                continue;
            }
            let deref = Expr { kind: ExprKind::Unary(UnaryOp::Deref, Box::new(this)), span: field.span };
            let place = Expr { kind: ExprKind::Member(Box::new(deref), field.clone()), span: field.span };
            // `data(n, 0.0f)`, `name(label)`, `x(a)`: the host initialises the member from its arguments as its
            // type's constructor would (`host::methods::member_init`).
            let init = Ident { name: MEMBER_INIT.into(), span: field.span };
            let call = ExprKind::Call(init, std::iter::once(place).chain(args.iter().cloned()).collect());
            body.push(Stmt { kind: StmtKind::Expr(Expr { kind: call, span: field.span }), span: field.span });
        }
        body.extend(f.body);
        let name = Ident { name: format!("{class}::{}", f.name.name), span: f.name.span };
        self.host_defs.push(Function { params, body, name, ..f });
    }
}

/// The call a constructor's member initialiser becomes in its host function: `__warpdbg_member_init(field,
/// args...)`, a statement the host interpreter reads as the member's construction.
pub const MEMBER_INIT: &str = "__warpdbg_member_init";

fn void_spec(span: Span) -> TypeSpec {
    TypeSpec { base: BaseType::Void, named: None, is_const: false, is_volatile: false, pointers: 0, span, func: None }
}

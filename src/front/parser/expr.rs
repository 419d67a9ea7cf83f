//! Expressions, by precedence climbing.

use super::*;

impl Parser<'_> {
    // ---- expressions ----

    pub(super) fn expr(&mut self) -> Result<Expr, Reported> {
        let mut e = self.assignment()?;
        // The comma operator, host and device (`n++, m *= -1.f` in a `for` step).
        while self.eat(Punct::Comma) {
            let b = self.assignment()?;
            let span = e.span.to(b.span);
            e = Expr { kind: ExprKind::Comma(Box::new(e), Box::new(b)), span };
        }
        Ok(e)
    }

    /// Parses one expression for a caller that reads a list (directives).
    pub fn parse_expr_for_list(&mut self) -> Option<Expr> {
        self.assignment().ok()
    }

    /// Parses a brace initialiser `{1, 2, {3}}` for a directive.
    pub fn parse_initializer(&mut self) -> Option<Expr> {
        self.init_list().ok()
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

    pub fn at_punct(&self, p: Punct) -> bool {
        self.is(p)
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

    pub(super) fn assignment(&mut self) -> Result<Expr, Reported> {
        self.enter()?;
        let r = self.assignment_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn assignment_inner(&mut self) -> Result<Expr, Reported> {
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
        Ok(Expr { kind: ExprKind::Assign { op, target: Box::new(lhs), value: Box::new(rhs) }, span })
    }

    pub(super) fn ternary(&mut self) -> Result<Expr, Reported> {
        let cond = self.binary(0)?;
        if !self.eat(Punct::Question) {
            return Ok(cond);
        }
        let a = self.assignment()?;
        self.expect(Punct::Colon)?;
        let b = self.assignment()?;
        let span = cond.span.to(b.span);
        Ok(Expr { kind: ExprKind::Ternary { cond: Box::new(cond), then: Box::new(a), els: Box::new(b) }, span })
    }

    pub(super) fn binop_here(&self) -> Option<(BinaryOp, u8)> {
        let TokKind::Punct(p) = self.kind() else { return None };
        // `>>>` closes a launch configuration.
        if self.in_launch && *p == Punct::Shr && *self.peek_kind(1) == TokKind::Punct(Punct::Gt) {
            return None;
        }
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
    pub(super) fn binary(&mut self, min_prec: u8) -> Result<Expr, Reported> {
        let outer = self.depth;
        let r = self.binary_chain(min_prec);
        self.depth = outer;
        r
    }

    pub(super) fn binary_chain(&mut self, min_prec: u8) -> Result<Expr, Reported> {
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
            lhs = Expr { kind: ExprKind::Binary { op, left: Box::new(lhs), right: Box::new(rhs) }, span };
        }
        Ok(lhs)
    }

    pub(super) fn unary(&mut self) -> Result<Expr, Reported> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn unary_inner(&mut self) -> Result<Expr, Reported> {
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
                if self.starts_type() && !self.at_functional_cast() {
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
        if self.host
            && let TokKind::Ident(n) = self.kind()
            && (n == "new" || n == "delete")
        {
            return if n == "new" { self.new_expr() } else { self.delete_expr() };
        }
        // A cast: `(` followed by a type.
        if self.is(Punct::LParen) {
            let save = self.pos;
            self.bump();
            // `(double(n) + 1.0)` is an expression that starts with a functional cast.
            if self.starts_type() && !self.at_functional_cast() {
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

    /// At a name of `<chrono>` (`std::chrono::high_resolution_clock::now()`, `duration<double>`,
    /// `duration_cast<milliseconds>(d)`), which host code cannot use yet.
    pub(super) fn at_chrono(&self, name: &str) -> bool {
        let next = self.peek_kind(1);
        match name {
            "chrono" | "high_resolution_clock" | "steady_clock" | "system_clock" => {
                *next == TokKind::Punct(Punct::ColonColon)
            }
            "duration" | "duration_cast" | "time_point" | "time_point_cast" => *next == TokKind::Punct(Punct::Lt),
            _ => false,
        }
    }

    pub(super) fn chrono_unsupported(&mut self) -> Reported {
        let d = Diagnostic::unsupported(self.span(), "`std::chrono` in host code yet").hint(
            "time with gettimeofday or clock(), or with cudaEventRecord and cudaEventElapsedTime around the launch",
        );
        self.error(d)
    }

    /// At `float(x)`, `long(n)`: a functional cast, which starts an expression, not a type.
    fn at_functional_cast(&self) -> bool {
        (matches!(self.kind(), TokKind::Kw(k) if k.starts_type()) || self.at_named_scalar_type())
            && *self.peek_kind(1) == TokKind::Punct(Punct::LParen)
    }

    /// At a name that stands for a number type: `size_t`, `uint32_t`, or a `typedef` of one (`real_t`), which
    /// `real_t(x)` casts to.
    fn at_named_scalar_type(&self) -> bool {
        match self.kind() {
            TokKind::Ident(n) => {
                typedef_name(n).is_some()
                    || self.typedefs.get(n).is_some_and(|t| t.named.is_none() && t.func.is_none() && t.pointers == 0)
            }
            _ => false,
        }
    }

    pub(super) fn postfix(&mut self) -> Result<Expr, Reported> {
        let outer = self.depth;
        let r = self.postfix_chain();
        self.depth = outer;
        r
    }

    pub(super) fn postfix_chain(&mut self) -> Result<Expr, Reported> {
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
            } else if self.is(Punct::Shl)
                && *self.peek_kind(1) == TokKind::Punct(Punct::Lt)
                && (self.host || self.program)
            {
                // In a program's device code too: dynamic parallelism (checked in `typeck::launch`).
                return self.launch(e);
            } else if self.is(Punct::Shl) && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) {
                // A kernel file has no program layer to run the child grid.
                return Err(self.error(
                    Diagnostic::unsupported(
                        e.span.to(self.span()),
                        "launching a kernel from a kernel (dynamic parallelism)",
                    )
                    .label("a launch inside device code")
                    .hint(
                        "warpdbg runs grids launched from device code in whole programs: add the host code, `main()`",
                    ),
                ));
            } else if self.is(Punct::LParen) && matches!(e.kind, ExprKind::Member(..)) {
                let ExprKind::Member(obj, method) = e.kind else { unreachable!("matched above") };
                let args = self.call_args()?;
                let span = e.span.to(self.prev_span());
                e = Expr { kind: ExprKind::MethodCall { object: obj, method, args }, span };
            } else if self.is(Punct::LParen) {
                // `(*kernel)(args)` in host code calls what the pointer points to, as `kernel(args)` does.
                if self.host
                    && matches!(e.kind, ExprKind::Unary(UnaryOp::Deref, _))
                    && let Some(p) = fnptr::called_pointer(&e)
                {
                    e = Expr { kind: ExprKind::Name(p.name), span: e.span };
                }
                let ExprKind::Name(name) = &e.kind else {
                    return Err(self.error(
                        Diagnostic::unsupported(self.span(), "calls through expressions")
                            .label("only named functions can be called"),
                    ));
                };
                let callee = Ident { name: name.clone(), span: e.span };
                let mut args = self.call_args()?;
                let span = e.span.to(self.prev_span());
                if name == "assert" && args.len() == 1 {
                    // The condition as written, for the failure message (`Assertion `i < n` failed.`).
                    let text = self.source_text(args[0].span);
                    args.push(Expr { kind: ExprKind::Str(text), span: args[0].span });
                }
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

    pub(super) fn primary(&mut self) -> Result<Expr, Reported> {
        let span = self.span();
        let kind = match self.kind().clone() {
            TokKind::Int { value, suffix, decimal } => {
                ExprKind::Int { value, unsigned: suffix.unsigned, long: suffix.long, decimal }
            }
            TokKind::Float { value, single } => ExprKind::Float { value, single },
            TokKind::Char(c) => ExprKind::Char(c),
            TokKind::Str(s) => ExprKind::Str(s),
            // `return {a, b};`, `arr[i] = {7, 8};`, `f({1, 2})` (host code): a brace list as a value, whose
            // type is the one its place expects (`host::braced`).
            TokKind::Punct(Punct::LBrace) if self.host => return self.init_list(),
            TokKind::Kw(Kw::True) => ExprKind::Bool(true),
            TokKind::Kw(Kw::False) => ExprKind::Bool(false),
            // C++'s null pointer: the null pointer constant `0`, which converts to every pointer type.
            TokKind::Ident(name) if name == "nullptr" || name == "NULL" => {
                ExprKind::Int { value: 0, unsigned: false, long: false, decimal: true }
            }
            // `throw std::runtime_error(msg)`: an expression of type `void` (device code refuses it).
            TokKind::Ident(name) if name == "throw" => {
                self.bump();
                let value = if matches!(self.kind(), TokKind::Punct(Punct::Semi | Punct::RParen | Punct::Comma)) {
                    None
                } else {
                    Some(Box::new(self.assignment()?))
                };
                return Ok(Expr { kind: ExprKind::Throw(value), span: span.to(self.prev_span()) });
            }
            // `std::greater<int>()`, `std::less<>{}` (host code): the comparison objects `<algorithm>` takes,
            // named `greater<>` whatever their element type (they compare the elements as `>` does).
            TokKind::Ident(name)
                if self.host
                    && matches!(name.as_str(), "greater" | "less" | "greater_equal" | "less_equal")
                    && self.template_args_then(&[Punct::LParen, Punct::LBrace]) =>
            {
                let after = template::split_args(&self.toks[self.pos + 1..]).map_or(0, |(_, a)| a);
                self.pos += 1 + after;
                let close = if self.eat(Punct::LParen) {
                    Punct::RParen
                } else {
                    self.expect(Punct::LBrace)?;
                    Punct::RBrace
                };
                self.expect(close)?;
                return Ok(Expr { kind: ExprKind::Name(format!("{name}<>")), span: span.to(self.prev_span()) });
            }
            // `va_arg(ap, T)` in host code takes a type: read as `va_arg(ap, sizeof(T))`.
            TokKind::Ident(name) if name == "va_arg" && self.host => return self.va_arg(),
            TokKind::Ident(name) if matches!(name.as_str(), "static_cast" | "reinterpret_cast" | "const_cast") => {
                return self.cxx_cast(name == "reinterpret_cast");
            }
            // `Point::make(1, 2)`: a static member function keeps its class.
            TokKind::Ident(class)
                if *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
                    && self.structs.iter().any(|s| s.name.name == class)
                    && matches!(self.peek_kind(2), TokKind::Ident(_)) =>
            {
                self.bump();
                self.bump();
                let member = self.ident("a member")?;
                return Ok(Expr {
                    kind: ExprKind::Name(format!("{class}::{}", member.name)),
                    span: span.to(member.span),
                });
            }
            // `std::vector<float>(n, 0.0f)`, `std::vector<int>{1, 2}` in host code: a temporary vector, called by
            // its type's name (`vector<float>`); a brace list is its one argument, as the elements.
            TokKind::Ident(name)
                if (self.host || self.program)
                    && name == "vector"
                    && self.template_args_then(&[Punct::LParen, Punct::LBrace]) =>
            {
                let ty = self.type_spec()?;
                let class = ty.named.unwrap_or_default();
                if self.is(Punct::LBrace) {
                    let list = self.init_list()?;
                    let span = span.to(self.prev_span());
                    return Ok(Expr { kind: ExprKind::Call(Ident { name: class, span }, vec![list]), span });
                }
                return Ok(Expr { kind: ExprKind::Name(class), span: span.to(self.prev_span()) });
            }
            // `Vec3{1, 2, 3}`: a temporary, built as `Vec3(1, 2, 3)` is.
            TokKind::Ident(class)
                if *self.peek_kind(1) == TokKind::Punct(Punct::LBrace)
                    && (self.structs.iter().any(|s| s.name.name == class) || is_vector_type(&class)) =>
            {
                self.bump();
                return self.braced_temporary(class, span);
            }
            TokKind::Ident(name) if self.host && (self.at_chrono(&name) || self.chrono_vars.contains_key(&name)) => {
                if let Some(e) = self.chrono_expr()? {
                    return Ok(e);
                }
                if self.at_chrono(&name) {
                    return Err(self.chrono_unsupported());
                }
                ExprKind::Name(name)
            }
            TokKind::Ident(name) if name == "numeric_limits" && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) => {
                return self.numeric_limits();
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
            // `tex2D<float4>(tex, x, y)`: a texture fetch, named with its result type (`front::typeck::texture`).
            TokKind::Ident(name)
                if crate::front::typeck::is_texture_fetch(&name) && self.template_args_then(&[Punct::LParen]) =>
            {
                let Some((args, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                    return Err(self.expected("template arguments and `>`"));
                };
                self.pos += 1 + after;
                let instance = template::instance_name(&name, &args);
                return Ok(Expr { kind: ExprKind::Name(instance), span: span.to(self.prev_span()) });
            }
            // `cudaCreateChannelDesc<float4>()`: the channel description of a type, as the five-argument form.
            TokKind::Ident(name)
                if name == "cudaCreateChannelDesc" && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) =>
            {
                let Some((args, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                    return Err(self.expected("template arguments and `>`"));
                };
                let spelled = template::instance_name("", &args);
                let ty = spelled.trim_start_matches('<').trim_end_matches('>').to_string();
                let Some(fields) = crate::front::typeck::channel_desc_of(&ty) else {
                    return Err(self.error(Diagnostic::unsupported(span, format!("`cudaCreateChannelDesc<{ty}>`"))));
                };
                self.pos += 1 + after;
                self.expect(Punct::LParen)?;
                self.expect(Punct::RParen)?;
                let span = span.to(self.prev_span());
                let int = |v: i64| Expr {
                    kind: ExprKind::Int { value: v as u64, unsigned: false, long: false, decimal: true },
                    span,
                };
                let args = fields.iter().map(|&v| int(v)).collect();
                return Ok(Expr { kind: ExprKind::Call(Ident { name: name.clone(), span }, args), span });
            }
            // `tiled_partition<32>(block)`, `cg::plus<int>()`: cooperative groups' own templates (the
            // functors only where `<...>(` follows: `less < x` stays a comparison).
            TokKind::Ident(name)
                if *self.peek_kind(1) == TokKind::Punct(Punct::Lt)
                    && (name == "tiled_partition"
                        || matches!(
                            name.as_str(),
                            "plus" | "less" | "greater" | "bit_and" | "bit_or" | "bit_xor" | "max" | "min"
                        ) && self.template_args_then(&[Punct::LParen])) =>
            {
                let Some((args, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                    return Err(self.expected("template arguments and `>`"));
                };
                self.pos += 1 + after;
                let instance = template::instance_name(&name, &args);
                return Ok(Expr { kind: ExprKind::Name(instance), span: span.to(self.prev_span()) });
            }
            // `Add<float>()`, `Pair<int>{1, 2}`: a temporary of a class template's instance, built as
            // `Vec3(1, 2, 3)` / `Vec3{1, 2, 3}` are (only where `<...>(` or `<...>{` follows).
            TokKind::Ident(name)
                if self.templates.class_defs.contains_key(&name)
                    && self.template_args_then(&[Punct::LParen, Punct::LBrace]) =>
            {
                let instance = self.class_instance(&name)?;
                self.bump();
                if self.is(Punct::LBrace) {
                    return self.braced_temporary(instance, span);
                }
                return Ok(Expr { kind: ExprKind::Name(instance), span: span.to(self.prev_span()) });
            }
            // `f<float, 32>(x)`: an instance of a function template, named with its arguments.
            // (When no `<...>(` follows, as in `twice < K` with a variable named like a template, it is a
            // comparison.)
            TokKind::Ident(name)
                if self.templates.defs.contains_key(&name) && self.template_args_then(&[Punct::LParen, Punct::Shl]) =>
            {
                let Some((args, after)) = template::split_args(&self.toks[self.pos + 1..]) else {
                    return Err(self.expected("template arguments and `>`"));
                };
                let args = template::fold_args(args, &self.constants);
                let instance = template::instance_name(&name, &args);
                self.templates.requested.push((instance.clone(), name, args));
                self.pos += 1 + after;
                return Ok(Expr { kind: ExprKind::Name(instance), span: span.to(self.prev_span()) });
            }
            // `float(x)`, `size_t(n)`, `real_t(x)`: a functional cast.
            _ if self.at_functional_cast() => {
                let ty = self.type_spec()?;
                self.expect(Punct::LParen)?;
                // `float()`: a value-initialised number, zero.
                let e = if self.is(Punct::RParen) {
                    Expr { kind: ExprKind::Int { value: 0, unsigned: false, long: false, decimal: true }, span }
                } else {
                    self.expr()?
                };
                self.expect(Punct::RParen)?;
                let span = span.to(self.prev_span());
                return Ok(Expr { kind: ExprKind::Cast(ty, Box::new(e)), span });
            }
            TokKind::Ident(name) => ExprKind::Name(name),
            // (In device code a lambda is the operation of a cooperative-groups collective, `cg::reduce(t, v, [](int a, int b) { ... })`.)
            TokKind::Punct(Punct::LBracket) => return self.lambda(),
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

    /// Whether template arguments `<...>` follow the current name and then one of `follow`: `f<int>(`,
    /// `Pair<int>{`, where `a < b` stays a comparison.
    fn template_args_then(&self, follow: &[Punct]) -> bool {
        *self.peek_kind(1) == TokKind::Punct(Punct::Lt)
            && template::split_args(&self.toks[self.pos + 1..]).is_some_and(|(_, after)| {
                matches!(self.toks.get(self.pos + 1 + after).map(|t| &t.kind), Some(TokKind::Punct(p)) if follow.contains(p))
            })
    }

    /// `Vec3{1, 2, 3}` from its `{`: a temporary of `class`, built as `Vec3(1, 2, 3)` is.
    fn braced_temporary(&mut self, class: String, span: Span) -> Result<Expr, Reported> {
        let items = match self.init_list()?.kind {
            ExprKind::InitList(items) => items,
            _ => vec![],
        };
        let callee = Ident { name: class, span };
        Ok(Expr { kind: ExprKind::Call(callee, items), span: span.to(self.prev_span()) })
    }

    /// `new T`, `new T(args)`, `new T[n]` (host code).
    fn new_expr(&mut self) -> Result<Expr, Reported> {
        let start = self.span();
        self.bump();
        if !self.starts_type() {
            return Err(self.expected("a type after `new`"));
        }
        let ty = self.type_spec()?;
        let mut count = None;
        let mut args = vec![];
        if self.eat(Punct::LBracket) {
            count = Some(Box::new(self.expr()?));
            self.expect(Punct::RBracket)?;
            // `new float[n]()`: value-initialised, which the zeroed allocation already is.
            if self.is(Punct::LParen) && *self.peek_kind(1) == TokKind::Punct(Punct::RParen) {
                self.bump();
                self.bump();
            }
        } else if self.is(Punct::LParen) {
            args = self.call_args()?;
        }
        Ok(Expr { kind: ExprKind::New { ty, count, args }, span: start.to(self.prev_span()) })
    }

    /// `delete p`, `delete[] p` (host code).
    fn delete_expr(&mut self) -> Result<Expr, Reported> {
        let start = self.span();
        self.bump();
        let array = self.is(Punct::LBracket) && *self.peek_kind(1) == TokKind::Punct(Punct::RBracket);
        if array {
            self.bump();
            self.bump();
        }
        let e = self.unary()?;
        let span = start.to(e.span);
        Ok(Expr { kind: ExprKind::Delete(array, Box::new(e)), span })
    }

    /// `<<<grid, block[, shmem[, stream]]>>>(args)` after a kernel's name, in host code.
    fn launch(&mut self, kernel: Expr) -> Result<Expr, Reported> {
        let ExprKind::Name(name) = &kernel.kind else {
            return Err(self.error(
                Diagnostic::unsupported(kernel.span, "launching a kernel named by an expression")
                    .label("only a kernel's name can be launched"),
            ));
        };
        let callee = Ident { name: name.clone(), span: kernel.span };
        self.bump();
        self.bump();
        let outer = std::mem::replace(&mut self.in_launch, true);
        let mut config = vec![];
        let r = loop {
            match self.assignment() {
                Ok(e) => config.push(e),
                Err(b) => break Err(b),
            }
            if !self.eat(Punct::Comma) {
                break Ok(());
            }
        };
        self.in_launch = outer;
        r?;
        if !(self.is(Punct::Shr) && *self.peek_kind(1) == TokKind::Punct(Punct::Gt)) {
            return Err(self.expected("`>>>`"));
        }
        self.bump();
        self.bump();
        let args = self.call_args()?;
        let span = kernel.span.to(self.prev_span());
        Ok(Expr { kind: ExprKind::Launch { kernel: callee, config, args }, span })
    }

    /// `( a, b, ... )` after a callee, the parentheses included.
    pub(super) fn call_args(&mut self) -> Result<Vec<Expr>, Reported> {
        self.expect(Punct::LParen)?;
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
        Ok(args)
    }

    pub(super) fn cxx_cast(&mut self, reinterpret: bool) -> Result<Expr, Reported> {
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

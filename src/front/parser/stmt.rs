//! Statements, blocks and declarations.

use super::*;

impl Parser<'_> {
    // ---- statements ----

    /// A braced block as a statement.
    fn block_stmt(&mut self) -> Result<Stmt, Reported> {
        let start = self.span();
        let b = self.block()?;
        Ok(Stmt { kind: StmtKind::Block(b), span: start.to(self.prev_span()) })
    }

    /// `(T &e) { ... }` or `(...) { ... }` after `catch`: the type is a name (`std::` and `const`, `&` dropped).
    fn catch_clause(&mut self) -> Result<Catch, Reported> {
        self.expect(Punct::LParen)?;
        let mut words: Vec<Ident> = vec![];
        let all = self.eat(Punct::Ellipsis);
        while !all && !self.is(Punct::RParen) && !self.at_eof() {
            let t = self.bump();
            match &t.kind {
                TokKind::Kw(Kw::Const) | TokKind::Punct(Punct::Amp | Punct::AndAnd) => {}
                TokKind::Ident(n) if n == "std" && self.is(Punct::ColonColon) => {
                    self.bump();
                }
                TokKind::Ident(n) => words.push(Ident { name: n.clone(), span: t.span }),
                TokKind::Kw(k) => words.push(Ident { name: k.as_str().to_string(), span: t.span }),
                _ => {
                    return Err(self.error(Diagnostic::unsupported(t.span, "this kind of `catch` parameter")));
                }
            }
        }
        self.expect(Punct::RParen)?;
        let var = if words.len() >= 2 { words.pop() } else { None };
        let class = match words.len() {
            0 | 1 => words.pop(),
            _ => return Err(self.error(Diagnostic::unsupported(words[1].span, "this kind of `catch` parameter"))),
        };
        if class.is_none() && !all {
            return Err(self.error(Diagnostic::new(
                ErrorCode::Syntax,
                self.prev_span(),
                "a `catch` needs a type or `...`",
            )));
        }
        Ok(Catch { class, var, body: Box::new(self.block_stmt()?) })
    }

    pub(super) fn block(&mut self) -> Result<Vec<Stmt>, Reported> {
        self.expect(Punct::LBrace)?;
        let mut stmts = vec![];
        while !self.is(Punct::RBrace) && !self.at_eof() {
            let start = self.pos;
            match self.statement() {
                Ok(s) => stmts.push(s),
                Err(Reported) => {
                    // An unsupported construct makes the whole function unavailable: unwind to the file-scope
                    // item, which skips the rest of the body.
                    if self.diags.len() >= MAX_ERRORS || self.unsupported_in_item() {
                        return Err(Reported);
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

    pub(super) fn statement(&mut self) -> Result<Stmt, Reported> {
        self.enter()?;
        let r = self.statement_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn statement_inner(&mut self) -> Result<Stmt, Reported> {
        let start = self.span();
        // `std::chrono::duration<double> dt = t1 - t0;` (host code).
        if self.host
            && matches!(self.kind(), TokKind::Ident(n) if self.may_be_chrono_declaration(n))
            && let Some(d) = self.chrono_declaration()?
        {
            return Ok(Stmt { kind: StmtKind::Decl(d), span: start.to(self.prev_span()) });
        }
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
            // (`throw` is an expression: `src/host/exceptions.rs`.)
            TokKind::Ident(n) if n == "try" && *self.peek_kind(1) == TokKind::Punct(Punct::LBrace) => {
                self.bump();
                let body = self.block_stmt()?;
                let mut handlers = vec![];
                while matches!(self.kind(), TokKind::Ident(n) if n == "catch") {
                    self.bump();
                    handlers.push(self.catch_clause()?);
                }
                if handlers.is_empty() {
                    return Err(self.error(Diagnostic::new(
                        ErrorCode::Syntax,
                        self.span(),
                        "a `try` block needs a `catch` after it",
                    )));
                }
                StmtKind::Try { body: Box::new(body), handlers }
            }
            TokKind::Kw(Kw::Switch) => {
                self.bump();
                let cond = self.paren_cond()?;
                StmtKind::Switch { cond, body: Box::new(self.statement()?) }
            }
            TokKind::Kw(Kw::Case) => {
                self.bump();
                let value = self.ternary()?;
                self.expect(Punct::Colon)?;
                StmtKind::Case(value)
            }
            TokKind::Kw(Kw::Default) if *self.peek_kind(1) == TokKind::Punct(Punct::Colon) => {
                self.bump();
                self.bump();
                StmtKind::Default
            }
            TokKind::Kw(Kw::Goto) if self.host => {
                self.bump();
                let label = self.ident("a label")?;
                self.expect_semi()?;
                StmtKind::Goto(label)
            }
            TokKind::Ident(_) if self.host && *self.peek_kind(1) == TokKind::Punct(Punct::Colon) => {
                let label = self.ident("a label")?;
                self.bump();
                StmtKind::Label(label)
            }
            TokKind::Kw(Kw::Goto) => {
                let d = Diagnostic::unsupported(self.span(), "`goto` in device code")
                    .hint("write it with if/else or a loop");
                return Err(self.error(d));
            }
            TokKind::Kw(Kw::Default) => {
                self.bump();
                return Err(self.expected("`:`"));
            }
            TokKind::Kw(Kw::Struct | Kw::Enum) if !self.starts_definition() => StmtKind::Decl(self.declaration()?),
            // `enum class Kind { A, B };` or `struct Pair { ... };` in a function body: recorded as if at file
            // scope (only a program that reuses the name in another scope could tell).
            TokKind::Kw(Kw::Struct | Kw::Enum) => {
                let at = self.span();
                self.struct_or_enum()?;
                if !self.eat(Punct::Semi) {
                    return Err(
                        self.error(Diagnostic::unsupported(at, "variables declared with a struct's definition"))
                    );
                }
                StmtKind::Empty
            }
            TokKind::Kw(Kw::Template | Kw::Union) => {
                return Err(self.error(Diagnostic::unsupported(self.span(), "type declarations inside functions")));
            }
            TokKind::Kw(Kw::Extern) => StmtKind::Decl(self.declaration()?),
            TokKind::Kw(Kw::Typedef) => {
                self.typedef()?;
                StmtKind::Empty
            }
            TokKind::Ident(n) if n == "decltype" => {
                return Err(self.error(Diagnostic::unsupported(self.span(), "`decltype`")));
            }
            TokKind::Ident(n)
                if self.templates.classes.contains(&n) && *self.peek_kind(1) == TokKind::Punct(Punct::Lt) =>
            {
                let what = format!("class templates (`{n}<...>`)");
                return Err(self.error(Diagnostic::unsupported(self.span(), what)));
            }
            TokKind::Ident(n) if n == "static_assert" => {
                self.static_assert()?;
                StmtKind::Empty
            }
            // `cudaStream_t s;` in device code: a declaration, whose type says why it cannot be.
            _ if self.starts_type() || self.starts_host_type_decl() => StmtKind::Decl(self.declaration()?),
            _ => {
                let e = self.expr()?;
                self.expect_semi()?;
                StmtKind::Expr(e)
            }
        };
        Ok(Stmt { kind, span: start.to(self.prev_span()) })
    }

    pub(super) fn skip_braces(&mut self) -> Result<(), Reported> {
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
                TokKind::Eof => return Err(Reported),
                _ => {}
            }
            self.bump();
        }
    }

    pub(super) fn paren_cond(&mut self) -> Result<Expr, Reported> {
        self.expect(Punct::LParen)?;
        let e = self.expr()?;
        self.expect(Punct::RParen)?;
        Ok(e)
    }

    pub(super) fn for_stmt(&mut self) -> Result<StmtKind, Reported> {
        self.bump();
        self.expect(Punct::LParen)?;
        if let Some(range) = self.range_for_head()? {
            return Ok(range);
        }
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

    /// `T x : range) body` after `for (`: the range-based loop, or None (nothing read) when the head is not
    /// one.
    fn range_for_head(&mut self) -> Result<Option<StmtKind>, Reported> {
        if !self.starts_type() {
            return Ok(None);
        }
        let at = self.pos;
        let Ok(ty) = self.type_spec() else {
            self.pos = at;
            return Ok(None);
        };
        let mut pointers = 0u8;
        while self.eat(Punct::Star) {
            pointers = pointers.saturating_add(1);
        }
        if self.at_structured_binding() {
            return self.range_for_binding(ty).map(Some);
        }
        let reference = self.eat(Punct::Amp) || self.eat(Punct::AndAnd);
        let name = match self.kind() {
            TokKind::Ident(_) => self.ident("a variable name")?,
            _ => {
                self.pos = at;
                return Ok(None);
            }
        };
        if !self.eat(Punct::Colon) {
            self.pos = at;
            return Ok(None);
        }
        // (`for (auto k : {2, 3})`: a braced list.)
        let range = if self.is(Punct::LBrace) { self.init_list()? } else { self.expr()? };
        self.expect(Punct::RParen)?;
        let body = Box::new(self.statement()?);
        Ok(Some(StmtKind::ForRange { ty, pointers, reference, name, range, body }))
    }

    /// A declaration up to and including its `;`.
    pub(super) fn declaration(&mut self) -> Result<Decl, Reported> {
        let start = self.span();
        let (mut shared, mut is_extern) = (false, false);
        while self.is_kw(Kw::Shared) || self.is_kw(Kw::Static) || self.is_kw(Kw::Extern) {
            shared |= self.is_kw(Kw::Shared);
            is_extern |= self.is_kw(Kw::Extern);
            self.bump();
        }
        self.saw_shared = false;
        let mut ty = self.type_spec()?;
        shared |= self.saw_shared;
        if self.host && self.at_fn_pointer() {
            return self.fn_pointer_decl(ty, start);
        }
        if self.at_structured_binding() {
            return self.structured_binding(ty, start);
        }
        let name_at = self.pos;
        let mut declarators = self.declarators(None)?;
        self.own_stars(&mut ty, &mut declarators, name_at);
        self.note_constants(&ty, name_at);
        self.expect_semi()?;
        Ok(Decl { shared, is_extern, ty, declarators, span: start.to(self.prev_span()) })
    }

    /// `float *a, *b`: the type reader took the first declarator's `*`s into the type (they sit right before
    /// the name at token `name_at`); they belong to that declarator alone, as in C.
    pub(super) fn own_stars(&self, ty: &mut TypeSpec, declarators: &mut [Declarator], name_at: usize) {
        let mut stars = 0u8;
        let mut i = name_at;
        while i > 0 {
            match &self.toks[i - 1].kind {
                TokKind::Punct(Punct::Star) => stars += 1,
                TokKind::Kw(Kw::Restrict | Kw::Const | Kw::Volatile) => {}
                _ => break,
            }
            i -= 1;
        }
        let stars = stars.min(ty.pointers);
        if declarators.len() > 1
            && stars > 0
            && let Some(first) = declarators.first_mut()
        {
            ty.pointers -= stars;
            first.pointers += stars;
        }
    }

    /// After a declaration's declarators (from token `name_at`): a `const` integer initialised by a constant
    /// (`const int THREADS = 256;`) is remembered for template arguments that name it; any other declaration
    /// of the name forgets it.
    pub(super) fn note_constants(&mut self, ty: &TypeSpec, name_at: usize) {
        let constant = ty.is_const && ty.pointers == 0 && ty.named.is_none() && ty.func.is_none();
        let mut depth = 0i32;
        let mut piece_at = name_at;
        for i in name_at..=self.pos {
            let end = i == self.pos;
            if !end {
                match self.toks[i].kind {
                    TokKind::Punct(Punct::LParen | Punct::LBracket | Punct::LBrace) => depth += 1,
                    TokKind::Punct(Punct::RParen | Punct::RBracket | Punct::RBrace) => depth -= 1,
                    _ => {}
                }
            }
            if !(end || depth == 0 && self.toks[i].kind == TokKind::Punct(Punct::Comma)) {
                continue;
            }
            let piece = &self.toks[piece_at..i];
            piece_at = i + 1;
            let Some(Token { kind: TokKind::Ident(name), .. }) = piece.first() else { continue };
            let value = match piece.get(1) {
                Some(Token { kind: TokKind::Punct(Punct::Assign), .. }) if constant => {
                    template::fold_constant(&piece[2..], &self.constants)
                }
                _ => None,
            };
            match value {
                Some(v) => self.constants.insert(name.clone(), v),
                None => self.constants.remove(name),
            };
        }
    }

    /// `*p = q, smem[512], x` after a declaration's type; `first` is a name already read.
    pub(super) fn declarators(&mut self, mut first: Option<Ident>) -> Result<Vec<Declarator>, Reported> {
        let mut declarators = vec![];
        loop {
            let mut pointers = 0u8;
            if first.is_none() {
                while self.eat(Punct::Star) {
                    pointers = pointers.saturating_add(1);
                    while self.eat_kw(Kw::Restrict) || self.eat_kw(Kw::Const) || self.eat_kw(Kw::Volatile) {}
                }
            }
            // `float &r = a[i];`, `const std::string &name = names[k];`, `auto &&x = ...`.
            let reference = first.is_none() && (self.eat(Punct::Amp) || self.eat(Punct::AndAnd));
            if first.is_none() && self.at_fn_pointer() {
                return Err(self.fn_pointer_unsupported());
            }
            let name = match first.take() {
                Some(n) => n,
                None if self.at_structured_binding() => return Err(self.structured_binding_unsupported()),
                None => self.ident("a variable name")?,
            };
            let mut dims = vec![];
            let mut open_size = false;
            while self.eat(Punct::LBracket) {
                // `int a[][3] = {...}`: the first size may come from the initialiser, no other.
                if self.is(Punct::RBracket) && (open_size || !dims.is_empty()) {
                    return Err(self.error(Diagnostic::new(
                        ErrorCode::Syntax,
                        self.span(),
                        "only the first dimension of an array may be left out",
                    )));
                }
                if self.eat(Punct::RBracket) {
                    open_size = true;
                    continue;
                }
                dims.push(self.expr()?);
                self.expect(Punct::RBracket)?;
            }
            let paren_init = self.is(Punct::LParen) && dims.is_empty();
            let init = if self.eat(Punct::Assign) {
                let first = self.pos;
                let e = if self.is(Punct::LBrace) { self.init_list()? } else { self.assignment()? };
                // `auto d = duration_cast<microseconds>(t1 - t0);`: `d.count()` counts microseconds.
                // (`std::` before it is read by the caller.)
                if let Some((from, to, d)) = self.last_duration
                    && to == self.pos
                    && from >= first
                    && self.toks[first..from].iter().all(|t| match &t.kind {
                        TokKind::Ident(n) => n == "std",
                        k => *k == TokKind::Punct(Punct::ColonColon),
                    })
                {
                    self.chrono_vars.insert(name.name.clone(), d);
                }
                Some(e)
            } else if self.is(Punct::LBrace) && dims.is_empty() {
                // `Vec3 v{1, 2, 3};`
                Some(self.init_list()?)
            } else if self.is(Punct::LParen) && dims.is_empty() {
                // `Vec3 v(1, 2, 3);`: a constructor's arguments, taken as a brace initialiser is.
                let at = self.span();
                let args = self.call_args()?;
                Some(Expr { kind: ExprKind::InitList(args), span: at.to(self.prev_span()) })
            } else {
                None
            };
            declarators.push(Declarator { name, pointers, dims, open_size, init, paren_init, reference });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        Ok(declarators)
    }

    /// `{ a, b, {c, d}, }`: a brace initialiser.
    pub(super) fn init_list(&mut self) -> Result<Expr, Reported> {
        self.enter()?;
        let r = self.init_list_inner();
        self.depth -= 1;
        r
    }

    pub(super) fn init_list_inner(&mut self) -> Result<Expr, Reported> {
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
}

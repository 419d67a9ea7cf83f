//! `<chrono>` in host code, read as the plain arithmetic it is: a clock's `now()` is the virtual clock in
//! nanoseconds (a call of the runtime's `__warpdbg_chrono_now`), a time point and a difference of two are that
//! count, and a duration type only says how `count()` scales it. So `duration<double, std::milli>(t1 - t0)
//! .count()` is `(double)(t1 - t0) / 1e6`, `duration_cast<microseconds>(d).count()` is `(long long)d / 1000`,
//! and `duration<double> dt = t1 - t0;` declares `double dt` holding nanoseconds, whose `dt.count()` divides
//! by 1e9; `auto d = duration_cast<microseconds>(t1 - t0);` declares a duration variable as that type would.
//! What this does not cover (arithmetic on durations of different periods, `chrono_literals`) is still named
//! as unsupported.

use super::*;

/// A duration type as written: the count's type (floating or 64-bit integer) and its period in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Duration {
    floating: Option<BaseType>,
    period_ns: u64,
}

impl Duration {
    fn rep(self) -> BaseType {
        self.floating.unwrap_or(BaseType::Long)
    }
}

/// The period a duration alias or `std::ratio` names, in nanoseconds.
fn period_of(name: &str) -> Option<u64> {
    Some(match name {
        "nano" | "nanoseconds" => 1,
        "micro" | "microseconds" => 1_000,
        "milli" | "milliseconds" => 1_000_000,
        "seconds" => 1_000_000_000,
        "minutes" => 60_000_000_000,
        "hours" => 3_600_000_000_000,
        _ => return None,
    })
}

impl Parser<'_> {
    /// Whether a statement starting with `name` may declare a `<chrono>` duration variable.
    pub(super) fn may_be_chrono_declaration(&self, name: &str) -> bool {
        matches!(name, "std" | "chrono" | "duration")
            || is_clock(name)
            || period_of(name).is_some_and(|_| name.ends_with('s'))
    }

    /// Steps over `std::` and `chrono::` qualifiers at the cursor.
    fn skip_chrono_qualifiers(&mut self) {
        while matches!(self.kind(), TokKind::Ident(n) if n == "std" || n == "chrono")
            && *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
        {
            self.pos += 2;
        }
    }

    /// The duration type at the cursor (`duration<double, std::milli>`, `milliseconds`,
    /// `duration_cast<microseconds>`'s argument), consumed; None (nothing consumed) when it is not one.
    /// `outer`: the type is the last argument of `duration_cast<...>`, whose `>` may be the second half of
    /// a `>>`; the type then consumes the `>>` (the cast must not expect its `>`).
    fn duration_type(&mut self, outer: bool) -> Option<Duration> {
        let save = self.pos;
        self.skip_chrono_qualifiers();
        let TokKind::Ident(name) = self.kind().clone() else {
            self.pos = save;
            return None;
        };
        if let Some(period_ns) = period_of(&name).filter(|_| name.ends_with('s')) {
            if outer {
                self.pos = save;
                return None;
            }
            self.bump();
            return Some(Duration { floating: None, period_ns });
        }
        if name != "duration" || *self.peek_kind(1) != TokKind::Punct(Punct::Lt) {
            self.pos = save;
            return None;
        }
        // `duration_cast<duration<double>>(d)`: the lexer's `>>` closes this list and the cast's.
        let Some((args, after, closes_outer)) = split_nested(&self.toks[self.pos + 1..]) else {
            self.pos = save;
            return None;
        };
        if closes_outer != outer {
            self.pos = save;
            return None;
        }
        let words = |a: &Vec<Token>| a.iter().map(|t| template::spell(&t.kind)).collect::<Vec<_>>();
        let rep = args.first().map(words).unwrap_or_default();
        let floating = match rep.last().map(String::as_str) {
            Some("double") => Some(BaseType::Double),
            Some("float") => Some(BaseType::Float),
            _ => None,
        };
        // `std::milli`, `std::ratio<1, 1000>`; none is seconds.
        let period_ns = match args.get(1).map(words) {
            None => 1_000_000_000,
            Some(p) => match p.iter().rev().find_map(|w| period_of(w)) {
                Some(ns) => ns,
                None => {
                    let nums: Vec<u64> = p.iter().filter_map(|w| w.parse().ok()).collect();
                    match nums[..] {
                        [num, den] if den > 0 => 1_000_000_000 * num / den,
                        [num] => 1_000_000_000 * num,
                        _ => {
                            self.pos = save;
                            return None;
                        }
                    }
                }
            },
        };
        self.pos += 1 + after;
        Some(Duration { floating, period_ns })
    }

    /// `high_resolution_clock::time_point` (any clock, perhaps qualified) at the cursor, consumed: a time
    /// point is a count of nanoseconds. None (nothing consumed) when it is not one.
    fn time_point_type(&mut self) -> Option<Duration> {
        let save = self.pos;
        self.skip_chrono_qualifiers();
        let at = matches!(self.kind(), TokKind::Ident(n) if is_clock(n))
            && *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon)
            && matches!(self.peek_kind(2), TokKind::Ident(n) if n == "time_point");
        if at {
            self.pos += 3;
            return Some(Duration { floating: None, period_ns: 1 });
        }
        // `time_point<high_resolution_clock>` (the clock perhaps qualified).
        if matches!(self.kind(), TokKind::Ident(n) if n == "time_point")
            && *self.peek_kind(1) == TokKind::Punct(Punct::Lt)
        {
            self.pos += 2;
            self.skip_chrono_qualifiers();
            if matches!(self.kind(), TokKind::Ident(n) if is_clock(n))
                && *self.peek_kind(1) == TokKind::Punct(Punct::Gt)
            {
                self.pos += 2;
                return Some(Duration { floating: None, period_ns: 1 });
            }
        }
        self.pos = save;
        None
    }

    /// A `<chrono>` time point or duration type at the cursor (a class's field, `std::chrono::
    /// high_resolution_clock::time_point start;`), consumed: the number type it is read as, and the duration.
    /// None (nothing consumed) otherwise.
    pub(super) fn chrono_type(&mut self) -> Option<(TypeSpec, Duration)> {
        let start = self.span();
        let d = self.time_point_type().or_else(|| self.duration_type(false))?;
        Some((scalar_spec(d.rep(), start), d))
    }

    /// Remembers the `<chrono>` fields of the class body at the cursor (just inside its `{`) before its
    /// members are read, since a member function may name a field declared below it (`last.count()`).
    /// Nothing is consumed.
    pub(super) fn remember_chrono_fields(&mut self) {
        let save = self.pos;
        let mut depth = 0usize;
        let mut at_start = true;
        loop {
            match self.kind() {
                TokKind::Eof => break,
                TokKind::Punct(Punct::RBrace) if depth == 0 => break,
                TokKind::Punct(Punct::LBrace) => depth += 1,
                TokKind::Punct(Punct::RBrace) => {
                    depth -= 1;
                    at_start = depth == 0;
                    self.bump();
                    continue;
                }
                TokKind::Punct(Punct::Semi | Punct::Colon) if depth == 0 => {
                    at_start = true;
                    self.bump();
                    continue;
                }
                _ if depth == 0 && at_start => {
                    at_start = false;
                    if let Some((_, d)) = self.chrono_type() {
                        while let TokKind::Ident(n) = self.kind().clone() {
                            self.chrono_vars.insert(n, d);
                            self.bump();
                            if !self.eat(Punct::Comma) {
                                break;
                            }
                        }
                        continue;
                    }
                }
                _ => {}
            }
            self.bump();
        }
        self.pos = save;
    }

    /// At a `<chrono>` declaration `duration<R, P> name = init;` (a statement's start): the declaration of a
    /// number of nanoseconds of type R (64-bit when R is an integer), remembered for `name.count()`.
    pub(super) fn chrono_declaration(&mut self) -> Result<Option<Decl>, Reported> {
        let start = self.span();
        let save = self.pos;
        let Some(d) = self.time_point_type().or_else(|| self.duration_type(false)) else {
            return Ok(None);
        };
        if !matches!(self.kind(), TokKind::Ident(_)) {
            self.pos = save;
            return Ok(None);
        }
        let name = self.ident("a variable name")?;
        let init = if self.eat(Punct::Assign) {
            let e = self.assignment()?;
            Some(self.truncated(e, d))
        } else {
            None
        };
        self.expect(Punct::Semi)?;
        self.chrono_vars.insert(name.name.clone(), d);
        let ty = scalar_spec(d.rep(), start);
        let dc = Declarator::plain(name, init);
        Ok(Some(Decl { shared: false, is_extern: false, ty, declarators: vec![dc], span: start.to(self.prev_span()) }))
    }

    /// A `<chrono>` expression at the cursor, or None (nothing consumed): `X_clock::now()`, `duration<R, P>(e)`
    /// and `duration_cast<D>(e)` (each perhaps followed by `.count()`), and `name.count()` on a duration
    /// variable.
    pub(super) fn chrono_expr(&mut self) -> Result<Option<Expr>, Reported> {
        let start = self.span();
        let save = self.pos;
        if let TokKind::Ident(n) = self.kind().clone()
            && let Some(&d) = self.chrono_vars.get(&n)
            && self.at_count(1)
        {
            self.bump();
            self.pos += 4;
            let v = Expr { kind: ExprKind::Name(n), span: start };
            return Ok(Some(self.count(v, d, start)));
        }
        self.skip_chrono_qualifiers();
        let TokKind::Ident(name) = self.kind().clone() else {
            self.pos = save;
            return Ok(None);
        };
        let (value, d) = match name.as_str() {
            n if is_clock(n) && *self.peek_kind(1) == TokKind::Punct(Punct::ColonColon) => {
                self.pos += 2;
                let now = self.ident("`now`")?;
                if now.name != "now" {
                    return Err(self.chrono_unsupported_at(now.span));
                }
                self.expect(Punct::LParen)?;
                self.expect(Punct::RParen)?;
                let call = Ident { name: "__warpdbg_chrono_now".into(), span: now.span };
                let e = Expr { kind: ExprKind::Call(call, vec![]), span: start.to(self.prev_span()) };
                (e, Duration { floating: None, period_ns: 1 })
            }
            "duration_cast" if *self.peek_kind(1) == TokKind::Punct(Punct::Lt) => {
                self.bump();
                self.expect(Punct::Lt)?;
                let (d, closed) = match self.duration_type(true) {
                    Some(d) => (d, true),
                    None => (self.duration_type(false).ok_or_else(|| self.chrono_unsupported())?, false),
                };
                if !closed {
                    self.expect(Punct::Gt)?;
                }
                let e = self.paren_expr()?;
                (self.truncated(e, d), d)
            }
            _ => match self.duration_type(false) {
                Some(d) if *self.kind() == TokKind::Punct(Punct::LParen) => {
                    let e = self.paren_expr()?;
                    (self.truncated(e, d), d)
                }
                _ => {
                    self.pos = save;
                    return Ok(None);
                }
            },
        };
        if self.at_count(0) {
            self.pos += 4;
            return Ok(Some(self.count(value, d, start)));
        }
        self.last_duration = Some((save, self.pos, d));
        Ok(Some(value))
    }

    /// At `.count()` (`ahead` tokens on).
    fn at_count(&self, ahead: usize) -> bool {
        *self.peek_kind(ahead) == TokKind::Punct(Punct::Dot)
            && matches!(self.peek_kind(ahead + 1), TokKind::Ident(n) if n == "count")
            && *self.peek_kind(ahead + 2) == TokKind::Punct(Punct::LParen)
            && *self.peek_kind(ahead + 3) == TokKind::Punct(Punct::RParen)
    }

    /// `(e)`.
    fn paren_expr(&mut self) -> Result<Expr, Reported> {
        self.expect(Punct::LParen)?;
        let e = self.expr()?;
        self.expect(Punct::RParen)?;
        Ok(e)
    }

    /// Nanoseconds `e` as duration `d` holds them: converted to its count's type, and for an integer count
    /// truncated to whole periods, as `duration_cast` does.
    fn truncated(&self, e: Expr, d: Duration) -> Expr {
        let span = e.span;
        let cast = Expr { kind: ExprKind::Cast(scalar_spec(d.rep(), span), Box::new(e)), span };
        if d.floating.is_some() || d.period_ns == 1 {
            return cast;
        }
        let period = int_lit(d.period_ns, span);
        let whole = binary(BinaryOp::Div, cast, period.clone());
        binary(BinaryOp::Mul, whole, period)
    }

    /// `count()` of nanoseconds `v` held as duration `d`: the number of periods.
    fn count(&self, v: Expr, d: Duration, start: Span) -> Expr {
        let span = start.to(self.prev_span());
        if d.period_ns == 1 {
            return Expr { kind: v.kind, span };
        }
        let period = match d.floating {
            Some(_) => Expr { kind: ExprKind::Float { value: d.period_ns as f64, single: false }, span },
            None => int_lit(d.period_ns, span),
        };
        let q = binary(BinaryOp::Div, v, period);
        Expr { kind: ExprKind::Cast(scalar_spec(d.rep(), span), Box::new(q)), span }
    }

    fn chrono_unsupported_at(&mut self, span: Span) -> Reported {
        let d = Diagnostic::unsupported(span, "this part of `std::chrono` in host code yet")
            .hint("time with `std::chrono::high_resolution_clock::now()` and `duration<double>(t1 - t0).count()`");
        self.error(d)
    }
}

/// A template argument list at `toks` (its `<`): the arguments' tokens, how many tokens it takes, and
/// whether it ended in a `>>` that also closes the list around it. Nested lists (`std::ratio<1, 1000>`) stay
/// inside their argument.
fn split_nested(toks: &[Token]) -> Option<(Vec<Vec<Token>>, usize, bool)> {
    if toks.first()?.kind != TokKind::Punct(Punct::Lt) {
        return None;
    }
    let mut args = vec![vec![]];
    let mut depth = 0i32;
    for (i, t) in toks.iter().enumerate().skip(1) {
        let closes = match t.kind {
            TokKind::Punct(Punct::Gt) => 1,
            TokKind::Punct(Punct::Shr) => 2,
            TokKind::Punct(Punct::Lt) => -1,
            TokKind::Punct(Punct::Comma) if depth == 0 => {
                args.push(vec![]);
                continue;
            }
            TokKind::Punct(Punct::Semi | Punct::LBrace | Punct::RBrace | Punct::LParen) | TokKind::Eof => {
                return None;
            }
            _ => 0,
        };
        if closes > depth {
            // This list ends here; a `>>` whose first half closed a nested list closes only this one.
            let outer = closes - depth == 2;
            return Some((args, i + 1, outer));
        }
        depth -= closes;
        args.last_mut()?.push(t.clone());
    }
    None
}

fn is_clock(name: &str) -> bool {
    matches!(name, "high_resolution_clock" | "steady_clock" | "system_clock")
}

fn scalar_spec(base: BaseType, span: Span) -> TypeSpec {
    TypeSpec { base, named: None, is_const: false, is_volatile: false, pointers: 0, span, func: None }
}

fn int_lit(value: u64, span: Span) -> Expr {
    Expr { kind: ExprKind::Int { value, unsigned: false, long: true, decimal: true }, span }
}

fn binary(op: BinaryOp, left: Expr, right: Expr) -> Expr {
    let span = left.span.to(right.span);
    Expr { kind: ExprKind::Binary { op, left: Box::new(left), right: Box::new(right) }, span }
}

//! Macro definitions and their expansion: object-like and function-like macros, `#` (stringizing), `##`
//! (pasting), `__VA_ARGS__`, and C's rescanning rule that a macro is not expanded again inside its own
//! expansion (each token carries the set of macros it came out of, Prosser's "hide set").

use std::collections::HashMap;
use std::rc::Rc;

use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::lexer;
use crate::front::source::{Expansion, SourceMap, Span};
use crate::front::token::{IntSuffix, Kw, Punct, TokKind, Token};

/// One `#define`.
#[derive(Clone, Debug)]
pub struct Macro {
    pub name: String,
    /// `None` for an object-like macro; parameter names otherwise (`__VA_ARGS__` last if variadic).
    pub params: Option<Vec<String>>,
    pub variadic: bool,
    pub body: Vec<Token>,
    /// The `#define` line, for "defined here" notes.
    pub def: Span,
    /// Identity for hide sets.
    pub id: u32,
}

/// A value computed at each use: `__LINE__`, `__FILE__`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dynamic {
    Line,
    File,
}

/// Bound on the tokens macro expansion may produce in one compilation, so that `#define`s that double at
/// every level cannot exhaust memory or time.
pub const MAX_EXPANSION: usize = 1 << 20;

/// A token on its way through expansion, with the macros it must not be expanded by again.
#[derive(Clone, Debug)]
pub struct PTok {
    pub tok: Token,
    hide: Option<Rc<Vec<u32>>>,
}

impl PTok {
    pub fn plain(tok: Token) -> PTok {
        PTok { tok, hide: None }
    }

    fn hidden(&self, id: u32) -> bool {
        self.hide.as_ref().is_some_and(|h| h.contains(&id))
    }
}

/// The tokens expansion reads: what earlier expansions pushed back (a stack, next token last), then the
/// rest of the source's tokens.
pub struct Input<'a> {
    pending: Vec<PTok>,
    rest: &'a [Token],
    pos: usize,
}

impl<'a> Input<'a> {
    pub fn new(rest: &'a [Token]) -> Self {
        Input { pending: vec![], rest, pos: 0 }
    }

    fn of(toks: Vec<PTok>) -> Input<'static> {
        let mut pending = toks;
        pending.reverse();
        Input { pending, rest: &[], pos: 0 }
    }

    /// Source tokens consumed so far.
    pub fn consumed(&self) -> usize {
        self.pos
    }

    /// Whether tokens from an expansion are still to be rescanned.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    pub fn next_token(&mut self) -> Option<(PTok, bool)> {
        self.next()
    }

    fn next(&mut self) -> Option<(PTok, bool)> {
        if let Some(t) = self.pending.pop() {
            return Some((t, false));
        }
        let t = self.rest.get(self.pos)?;
        self.pos += 1;
        Some((PTok::plain(t.clone()), true))
    }

    fn peek(&self) -> Option<&TokKind> {
        match self.pending.last() {
            Some(t) => Some(&t.tok.kind),
            None => self.rest.get(self.pos).map(|t| &t.kind),
        }
    }

    fn push_front(&mut self, toks: Vec<PTok>) {
        self.pending.extend(toks.into_iter().rev());
    }
}

/// Where expansion writes: the parser's tokens, or tokens still to be rescanned (which keep their hide sets).
pub trait Sink {
    fn put(&mut self, t: PTok);
}

impl Sink for Vec<Token> {
    fn put(&mut self, t: PTok) {
        self.push(t.tok);
    }
}

impl Sink for Vec<PTok> {
    fn put(&mut self, t: PTok) {
        self.push(t);
    }
}

/// The macro table and what expanding needs around it.
#[derive(Default)]
pub struct Macros {
    pub table: HashMap<String, Macro>,
    pub dynamic: HashMap<String, Dynamic>,
    /// Whether some macro is named like a keyword (`#define inline __forceinline__`): only then do keyword
    /// tokens need a look-up.
    pub keyword_names: bool,
    next_id: u32,
    /// Tokens produced so far (see [`MAX_EXPANSION`]).
    produced: usize,
    /// The bound was hit: the use being expanded produces nothing.
    pub exhausted: bool,
    pub diags: Vec<Diagnostic>,
}

impl Macros {
    pub fn define(&mut self, mut m: Macro) {
        m.id = self.next_id;
        self.next_id += 1;
        if Kw::lookup(&m.name).is_some() {
            self.keyword_names = true;
        }
        self.table.insert(m.name.clone(), m);
    }

    /// The macro name a token spells, if any macro (or dynamic value) has that name.
    pub fn name_of<'t>(&self, tok: &'t Token, sources: &'t SourceMap) -> Option<&'t str> {
        let name = match &tok.kind {
            TokKind::Ident(n) => n.as_str(),
            TokKind::Kw(_) if self.keyword_names => sources.get(tok.span.file).slice(tok.span),
            _ => return None,
        };
        (self.table.contains_key(name) || self.dynamic.contains_key(name)).then_some(name)
    }

    fn err(&mut self, d: Diagnostic) {
        if self.diags.len() < 20 {
            self.diags.push(d);
        }
    }

    /// Expands every macro in `input`, to the end of it.
    pub fn expand_all(&mut self, mut input: Input, sources: &mut SourceMap, out: &mut impl Sink) {
        while let Some((t, from_source)) = input.next() {
            self.expand_token(t, from_source, &mut input, sources, out);
        }
    }

    /// Expands the macro `t` names, if it names one that may expand here; otherwise writes `t` to `out`.
    /// `from_source` says `t` is the user's own text (not an earlier expansion's): its uses are recorded.
    pub fn expand_token(
        &mut self,
        t: PTok,
        from_source: bool,
        input: &mut Input,
        sources: &mut SourceMap,
        out: &mut impl Sink,
    ) {
        let Some(name) = self.name_of(&t.tok, sources).map(str::to_string) else {
            out.put(t);
            return;
        };
        if let Some(&d) = self.dynamic.get(&name) {
            let file = sources.get(t.tok.span.file);
            let kind = match d {
                Dynamic::Line => TokKind::Int {
                    value: file.line_of(t.tok.span.start) as u64,
                    suffix: IntSuffix::default(),
                    decimal: true,
                },
                Dynamic::File => TokKind::Str(file.name.clone()),
            };
            out.put(PTok::plain(Token { kind, span: t.tok.span }));
            return;
        };
        let Some(m) = self.table.get(&name) else {
            out.put(t);
            return;
        };
        if t.hidden(m.id) {
            out.put(t);
            return;
        }
        let m = m.clone();
        let mut call = t.tok.span;
        let args = match &m.params {
            None => None,
            Some(_) if input.peek() != Some(&TokKind::Punct(Punct::LParen)) => {
                // A function-like macro's name without `(` is an ordinary identifier.
                out.put(t);
                return;
            }
            Some(params) => match self.collect_args(&m, params.len(), input, t.tok.span) {
                Some((args, rparen)) => {
                    if rparen.file == call.file && rparen.end >= call.start {
                        call = call.to(rparen);
                    }
                    Some(args)
                }
                None => return,
            },
        };
        if from_source {
            sources.add_expansion(Expansion { call, name: m.name.clone(), def: m.def });
        }
        let mut hide: Vec<u32> = t.hide.as_deref().cloned().unwrap_or_default();
        hide.push(m.id);
        let hide = Rc::new(hide);
        let body = self.substitute(&m, args.as_deref(), call, sources);
        if self.produced.saturating_add(body.len()) > MAX_EXPANSION {
            if !self.diags.iter().any(|d| d.message.contains("macros that expand to more than")) {
                self.err(Diagnostic::unsupported(
                    call,
                    format!("macros that expand to more than {MAX_EXPANSION} tokens"),
                ));
            }
            // Drop the rest of this expansion too: it would only hit the bound again.
            input.pending.clear();
            self.exhausted = true;
            return;
        }
        self.produced += body.len();
        let body = body
            .into_iter()
            .map(|mut p| {
                p.hide = Some(match p.hide {
                    Some(h) if !h.is_empty() => {
                        let mut u = (*hide).clone();
                        u.extend(h.iter().copied().filter(|id| !hide.contains(id)));
                        Rc::new(u)
                    }
                    _ => hide.clone(),
                });
                p
            })
            .collect();
        input.push_front(body);
    }

    /// Reads `( arg, arg, ... )` after a function-like macro's name; returns the arguments (unexpanded) and
    /// the closing parenthesis.
    fn collect_args(
        &mut self,
        m: &Macro,
        n_params: usize,
        input: &mut Input,
        name_span: Span,
    ) -> Option<(Vec<Vec<PTok>>, Span)> {
        input.next(); // (
        let mut args: Vec<Vec<PTok>> = vec![vec![]];
        // The commas between arguments, to put back between variadic ones.
        let mut commas: Vec<PTok> = vec![];
        let mut depth = 0u32;
        loop {
            let Some((t, _)) = input.next() else {
                self.err(
                    Diagnostic::new(
                        ErrorCode::Syntax,
                        name_span,
                        format!("unterminated use of macro `{}`: no closing `)`", m.name),
                    )
                    .label("this use never ends"),
                );
                return None;
            };
            match t.tok.kind {
                TokKind::Punct(Punct::LParen) => depth += 1,
                TokKind::Punct(Punct::RParen) if depth == 0 => {
                    let rparen = t.tok.span;
                    // `F()` of a one-parameter macro has one empty argument; of a zero-parameter one, none.
                    if n_params == 0 && args.len() == 1 && args[0].is_empty() {
                        args.clear();
                    }
                    let want = n_params;
                    let ok = if m.variadic { args.len() + 1 >= want } else { args.len() == want };
                    if !ok {
                        self.err(
                            Diagnostic::new(
                                ErrorCode::Syntax,
                                name_span.to(rparen),
                                format!(
                                    "macro `{}` takes {}{} argument{}, but {} {} given",
                                    m.name,
                                    if m.variadic { "at least " } else { "" },
                                    if m.variadic { want - 1 } else { want },
                                    if want == 1 { "" } else { "s" },
                                    args.len(),
                                    if args.len() == 1 { "was" } else { "were" }
                                ),
                            )
                            .with_secondary(m.def, "defined here"),
                        );
                        return None;
                    }
                    if m.variadic {
                        // Everything from the variadic position on, commas included, is __VA_ARGS__.
                        if args.len() > want {
                            let tail = args.split_off(want);
                            let mut joined = vec![];
                            for (k, a) in tail.into_iter().enumerate() {
                                // The comma before original argument `want + k` is `commas[want - 1 + k]`.
                                if let Some(c) = commas.get(want - 1 + k) {
                                    joined.push(c.clone());
                                }
                                joined.extend(a);
                            }
                            if let Some(last) = args.last_mut() {
                                last.extend(joined);
                            }
                        }
                        while args.len() < want {
                            args.push(vec![]);
                        }
                    }
                    return Some((args, rparen));
                }
                TokKind::Punct(Punct::RParen) => depth -= 1,
                TokKind::Punct(Punct::Comma) if depth == 0 => {
                    args.push(vec![]);
                    commas.push(t);
                    continue;
                }
                _ => {}
            }
            if let Some(a) = args.last_mut() {
                a.push(t);
            }
        }
    }

    /// The macro's body with its parameters replaced, `#` and `##` applied. Body tokens take the span of the
    /// whole use; argument tokens keep their own.
    fn substitute(&mut self, m: &Macro, args: Option<&[Vec<PTok>]>, call: Span, sources: &mut SourceMap) -> Vec<PTok> {
        let params = m.params.as_deref().unwrap_or(&[]);
        let param = |t: &Token| match &t.kind {
            TokKind::Ident(n) => params.iter().position(|p| p == n),
            _ => None,
        };
        let raw = |i: usize| args.and_then(|a| a.get(i)).cloned().unwrap_or_default();
        let body = &m.body;
        let mut out: Vec<PTok> = Vec::with_capacity(body.len());
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            let next_is_paste = matches!(body.get(i + 1), Some(n) if n.kind == TokKind::Punct(Punct::HashHash));
            // `#param`: the argument's spelling as a string literal.
            if t.kind == TokKind::Punct(Punct::Hash)
                && m.params.is_some()
                && let Some(p) = body.get(i + 1).and_then(param)
            {
                let text = spell_list(&raw(p), sources);
                out.push(PTok::plain(Token { kind: TokKind::Str(text), span: call }));
                i += 2;
                continue;
            }
            if t.kind == TokKind::Punct(Punct::HashHash) {
                i += 1;
                let Some(rhs_tok) = body.get(i) else { break };
                let mut rhs: Vec<PTok> = match param(rhs_tok) {
                    Some(p) => raw(p),
                    None => vec![PTok::plain(Token { kind: rhs_tok.kind.clone(), span: call })],
                };
                i += 1;
                // GNU's `, ## __VA_ARGS__`: with no variadic arguments the comma goes too.
                if rhs.is_empty() {
                    if m.variadic
                        && matches!(rhs_tok.kind, TokKind::Ident(ref n) if n == "__VA_ARGS__")
                        && out.last().is_some_and(|l| l.tok.kind == TokKind::Punct(Punct::Comma))
                    {
                        out.pop();
                    }
                    continue;
                }
                let comma_va = m.variadic
                    && matches!(rhs_tok.kind, TokKind::Ident(ref n) if n == "__VA_ARGS__")
                    && out.last().is_some_and(|l| l.tok.kind == TokKind::Punct(Punct::Comma));
                match out.pop() {
                    // GNU's `, ## __VA_ARGS__` with arguments: the comma stays, nothing is pasted.
                    Some(lhs) if comma_va => {
                        out.push(lhs);
                        out.extend(rhs);
                    }
                    Some(lhs) => {
                        let first = rhs.remove(0);
                        if let Some(p) = self.paste(&lhs.tok, &first.tok, call, sources) {
                            out.push(p);
                        }
                        out.extend(rhs);
                    }
                    None => out.extend(rhs),
                }
                continue;
            }
            match param(t) {
                Some(p) if next_is_paste => out.extend(raw(p)),
                Some(p) => {
                    let mut expanded: Vec<PTok> = vec![];
                    self.expand_all(Input::of(raw(p)), sources, &mut expanded);
                    out.extend(expanded);
                }
                None => out.push(PTok::plain(Token { kind: t.kind.clone(), span: call })),
            }
            i += 1;
        }
        out
    }

    /// `a ## b`: the two spellings joined must form one token.
    fn paste(&mut self, a: &Token, b: &Token, call: Span, sources: &SourceMap) -> Option<PTok> {
        let text = format!("{}{}", spell(a, sources), spell(b, sources));
        let lexed = lexer::lex_line(call.file, &text, 0);
        let mut toks = lexed.tokens;
        toks.pop(); // Eof
        if toks.len() != 1 || !lexed.diags.is_empty() {
            self.err(
                Diagnostic::new(ErrorCode::Syntax, call, format!("pasting gives `{text}`, which is not one token"))
                    .label("in this macro use"),
            );
            return None;
        }
        let kind = toks.pop().map(|t| t.kind)?;
        Some(PTok::plain(Token { kind, span: call }))
    }
}

/// How a token is written: its own text where it is a single token of the user's, else rebuilt from its kind.
pub fn spell(t: &Token, sources: &SourceMap) -> String {
    match &t.kind {
        TokKind::Ident(n) => n.clone(),
        TokKind::Punct(p) => p.as_str().to_string(),
        TokKind::Str(s) => format!("\"{}\"", s.escape_default()),
        TokKind::Char(c) => match char::from_u32(*c) {
            Some(ch) => format!("'{}'", ch.escape_default()),
            None => c.to_string(),
        },
        TokKind::Eof => String::new(),
        kind => {
            // The user's own text where the span is this one token (not a macro use that produced it).
            let own = sources.files().get(t.span.file.0 as usize).map_or("", |f| f.slice(t.span));
            let first = own.chars().next().unwrap_or(' ');
            let is_own = match kind {
                TokKind::Int { .. } => first.is_ascii_digit(),
                TokKind::Float { .. } => first.is_ascii_digit() || first == '.',
                TokKind::Kw(k) => Kw::lookup(own) == Some(*k),
                _ => false,
            };
            if is_own && !own.contains(|c: char| c.is_whitespace() || "()[],;".contains(c)) {
                return own.to_string();
            }
            match kind {
                TokKind::Int { value, suffix, .. } => {
                    format!("{value}{}{}", if suffix.unsigned { "u" } else { "" }, if suffix.long { "l" } else { "" })
                }
                TokKind::Float { value, single } => format!("{value:?}{}", if *single { "f" } else { "" }),
                TokKind::Kw(k) => k.as_str().to_string(),
                _ => own.to_string(),
            }
        }
    }
}

/// The spelling of an argument for `#`: tokens joined by one space where the source had space between them.
fn spell_list(toks: &[PTok], sources: &SourceMap) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 {
            let prev = toks[i - 1].tok.span;
            let cur = t.tok.span;
            if prev.file != cur.file || prev.end != cur.start {
                s.push(' ');
            }
        }
        s.push_str(&spell(&t.tok, sources));
    }
    s
}

//! The C preprocessor, between the lexer and the parser: `#define`/`#undef` (object-like and function-like
//! macros, `#`, `##`, `__VA_ARGS__`), conditional groups (`#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`
//! with `defined` and integer expressions), `#include` (quoted files from disk relative to the includer,
//! include guards, `#pragma once`; the system headers courses include are built in), `#error`, and the
//! predefined macros (`__FILE__`, `__LINE__`, `__CUDACC__`, `__CUDA_ARCH__` in device code).
//!
//! Hand-written rather than a crate: the crates found preprocess to text, and warpdbg needs every token's
//! span in the file the user wrote (diagnostics, the source pane, breakpoints), which text output loses.
//! Tokens a macro produces take the span of the macro's use, and each use is recorded in the
//! [`SourceMap`] so a diagnostic there says "in expansion of macro `X`".

mod cond;
pub mod headers;
mod macros;

use std::collections::HashSet;

use super::diagnostic::{Diagnostic, ErrorCode};
use super::lexer::{self, Lexed, PpLine};
use super::source::{FileId, SourceFile, SourceMap, Span};
use super::token::{IntSuffix, Kw, Punct, TokKind, Token};
use crate::front::launch::Mode;
pub use headers::{FsLoader, IncludeLoader, NoFiles};
use macros::{Dynamic, Input, Macro, Macros, PTok};

/// What the code is compiled for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The execution model: `__CUDA_ARCH__` is 900 (an H100) under ITS and 600 (Pascal) pre-Volta.
    pub mode: Mode,
    /// Device code sees `__CUDA_ARCH__`; host code (whole programs) does not.
    pub device: bool,
    /// Extra `-D NAME=VALUE` definitions.
    pub defines: Vec<(String, String)>,
    /// Folders searched for `#include "..."` after the includer's own, and for `<...>` headers that are not
    /// built in (`-I`).
    pub include_dirs: Vec<std::path::PathBuf>,
}

/// Bound on nested `#include`s (a file that includes itself without a guard stops here).
const MAX_INCLUDE_DEPTH: usize = 64;
/// Bound on nested conditional groups.
const MAX_IF_DEPTH: usize = 256;

/// The parser's tokens and the preprocessor's diagnostics.
pub struct Preprocessed {
    pub tokens: Vec<Token>,
    pub diags: Vec<Diagnostic>,
}

/// Preprocesses the lexed main file `file`; included files are added to `sources`.
pub fn run(
    file: FileId,
    lexed: Lexed,
    sources: &mut SourceMap,
    options: &Options,
    loader: &dyn IncludeLoader,
) -> Preprocessed {
    let mut pp = Preprocessor {
        macros: Macros::default(),
        loader,
        once: HashSet::new(),
        out: vec![],
        diags: vec![],
        depth: 0,
        include_dirs: options.include_dirs.clone(),
    };
    pp.predefine(options, sources);
    let eof = lexed.tokens.last().map(|t| t.span).unwrap_or_default();
    pp.file(file, lexed, sources);
    pp.out.push(Token { kind: TokKind::Eof, span: eof });
    concat_strings(&mut pp.out);
    let mut diags = pp.diags;
    diags.append(&mut pp.macros.diags);
    Preprocessed { tokens: pp.out, diags }
}

/// Adjacent string literals are one (C's translation phase 6), also where a macro produced one of them.
fn concat_strings(toks: &mut Vec<Token>) {
    if !toks.windows(2).any(|w| matches!((&w[0].kind, &w[1].kind), (TokKind::Str(_), TokKind::Str(_)))) {
        return;
    }
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for t in toks.drain(..) {
        if let (Some(Token { kind: TokKind::Str(prev), span }), TokKind::Str(next)) = (out.last_mut(), &t.kind) {
            prev.push_str(next);
            if span.file == t.span.file {
                *span = span.to(t.span);
            }
            continue;
        }
        out.push(t);
    }
    *toks = out;
}

/// Preprocesses `text` named `name` and spells the result, tokens separated by single spaces (for tests and
/// for looking at what the parser gets).
pub fn to_text(name: &str, text: &str, options: &Options, loader: &dyn IncludeLoader) -> (String, Vec<Diagnostic>) {
    let mut sources = SourceMap::default();
    let file = sources.add(SourceFile::new(name, text));
    let lexed = lexer::lex(file, text, 0);
    let pre = run(file, lexed, &mut sources, options, loader);
    let words: Vec<String> = pre.tokens.iter().map(|t| macros::spell(t, &sources)).filter(|w| !w.is_empty()).collect();
    (words.join(" "), pre.diags)
}

/// The preprocessor's state while it reads a file and the files it includes.
struct Preprocessor<'l> {
    macros: Macros,
    loader: &'l dyn IncludeLoader,
    /// Files that said `#pragma once` (by name).
    once: HashSet<String>,
    out: Vec<Token>,
    diags: Vec<Diagnostic>,
    depth: usize,
    include_dirs: Vec<std::path::PathBuf>,
}

/// One open conditional group.
struct Group {
    /// This branch's tokens are kept.
    active: bool,
    /// Some branch of the group was taken (later `#elif`/`#else` are skipped).
    taken: bool,
    /// The enclosing group was active.
    parent_active: bool,
    seen_else: bool,
    start: Span,
}

/// The C library's limits in device code (GCC's `float.h`, glibc's `limits.h`), literals each side reads
/// as its exact value (the preprocessed text is the host side's too). `INFINITY` and `NAN`, which have no
/// literal, are names the device checker knows (`typeck::expr`), as the host side does.
const DEVICE_CONSTANTS: [(&str, &str); 18] = [
    ("FLT_MAX", "3.40282346638528859811704183484516925e+38F"),
    ("FLT_MIN", "1.17549435082228750796873653722224568e-38F"),
    ("FLT_EPSILON", "1.19209289550781250000000000000000000e-7F"),
    ("DBL_MAX", "1.79769313486231570814527423731704357e+308"),
    ("DBL_MIN", "2.22507385850720138309023271733240406e-308"),
    ("DBL_EPSILON", "2.22044604925031308384660251701289052e-16"),
    ("CHAR_BIT", "8"),
    ("SCHAR_MAX", "127"),
    ("UCHAR_MAX", "255"),
    ("SHRT_MAX", "32767"),
    ("USHRT_MAX", "65535"),
    ("INT_MAX", "2147483647"),
    ("INT_MIN", "(-2147483647 - 1)"),
    ("UINT_MAX", "4294967295U"),
    ("LONG_MAX", "9223372036854775807L"),
    ("LONG_MIN", "(-9223372036854775807L - 1L)"),
    ("LLONG_MAX", "9223372036854775807LL"),
    ("ULLONG_MAX", "18446744073709551615ULL"),
];

impl Preprocessor<'_> {
    fn err(&mut self, d: Diagnostic) {
        if self.diags.len() < 50 {
            self.diags.push(d);
        }
    }

    fn predefine(&mut self, o: &Options, sources: &mut SourceMap) {
        let mut defs: Vec<(String, String)> = vec![
            ("__CUDACC__".into(), "1".into()),
            ("__NVCC__".into(), "1".into()),
            ("__CUDACC_VER_MAJOR__".into(), "12".into()),
            ("__CUDACC_VER_MINOR__".into(), "0".into()),
            // `cuda_runtime_api.h`'s version: what `cudaRuntimeGetVersion` answers.
            ("CUDART_VERSION".into(), "12000".into()),
            ("__cplusplus".into(), "201703L".into()),
            ("__WARPDBG__".into(), "1".into()),
            ("NULL".into(), "0".into()),
            // glibc's `errno`: the host side's `__errno_location` (`host::cstdio`).
            ("errno".into(), "(*__errno_location())".into()),
            // `getopt`'s variables (`host::getopt`).
            ("optarg".into(), "(*__warpdbg_optarg())".into()),
            ("optind".into(), "(*__warpdbg_optind())".into()),
            ("opterr".into(), "(*__warpdbg_opterr())".into()),
            ("optopt".into(), "(*__warpdbg_optopt())".into()),
            // The calling convention the runtime's callbacks are declared with (`__stdcall` on Windows).
            ("CUDART_CB".into(), String::new()),
        ];
        if o.device {
            let arch = match o.mode {
                Mode::Its => "900",
                Mode::PreVolta => "600",
            };
            defs.push(("__CUDA_ARCH__".into(), arch.into()));
            // `<cfloat>` and `<climits>`'s constants, which the host side also knows by name
            // (`host::cuda::names::known_constant`).
            defs.extend(DEVICE_CONSTANTS.iter().map(|(n, v)| (n.to_string(), v.to_string())));
        }
        defs.extend(o.defines.iter().cloned());
        let text: String = defs.iter().map(|(n, v)| format!("#define {n} {v}\n")).collect();
        let id = sources.add(SourceFile::new("<built-in>", text));
        let lexed = lexer::lex(id, &sources.get(id).text.clone(), 0);
        self.file(id, lexed, sources);
        self.macros.dynamic.insert("__LINE__".into(), Dynamic::Line);
        self.macros.dynamic.insert("__FILE__".into(), Dynamic::File);
    }

    /// Runs one file's directives and expands its tokens into `self.out`.
    fn file(&mut self, file: FileId, lexed: Lexed, sources: &mut SourceMap) {
        let Lexed { mut tokens, pp_lines, diags, .. } = lexed;
        tokens.pop(); // Eof
        let mut groups: Vec<Group> = vec![];
        let mut skipped: Vec<(u32, u32)> = vec![];
        let mut from = 0;
        let mut skip_from: Option<u32> = None;
        for line in &pp_lines {
            let active = groups.last().is_none_or(|g| g.active);
            if active {
                self.expand_segment(&mut tokens[from..line.at], sources);
            }
            from = line.at;
            let was_active = active;
            self.directive(file, line, &mut groups, sources);
            let now_active = groups.last().is_none_or(|g| g.active);
            match (was_active, now_active) {
                (true, false) => skip_from = Some(line.end as u32),
                (false, true) => {
                    if let Some(s) = skip_from.take() {
                        skipped.push((s, line.hash.start));
                    }
                }
                _ => {}
            }
        }
        if groups.last().is_none_or(|g| g.active) {
            let n = tokens.len();
            self.expand_segment(&mut tokens[from..n], sources);
        }
        if let Some(s) = skip_from {
            skipped.push((s, u32::MAX));
        }
        // Lexical errors inside skipped groups do not count: C only asks that they be pp-tokens.
        self.diags
            .extend(diags.into_iter().filter(|d| !skipped.iter().any(|&(a, b)| d.span.start >= a && d.span.start < b)));
        if let Some(g) = groups.first() {
            self.err(
                Diagnostic::new(ErrorCode::Syntax, g.start, "unterminated conditional: no `#endif`")
                    .label("this group is never closed"),
            );
        }
    }

    /// Expands a stretch of active ordinary tokens (moving, not copying, those that name no macro).
    fn expand_segment(&mut self, toks: &mut [Token], sources: &mut SourceMap) {
        let mut i = 0;
        while i < toks.len() {
            if self.macros.name_of(&toks[i], sources).is_none() {
                let t = std::mem::replace(&mut toks[i], Token { kind: TokKind::Eof, span: Span::default() });
                self.out.push(t);
                i += 1;
                continue;
            }
            let t = toks[i].clone();
            let mark = self.out.len();
            let mut input = Input::new(&toks[i + 1..]);
            self.macros.expand_token(PTok::plain(t), true, &mut input, sources, &mut self.out);
            // Rescan what the use produced (which may pull more source tokens in as a macro's arguments).
            self.macros.expand_all_pending(&mut input, sources, &mut self.out);
            if std::mem::take(&mut self.macros.exhausted) {
                self.out.truncate(mark);
            }
            i += 1 + input.consumed();
        }
    }

    fn directive(&mut self, file: FileId, line: &PpLine, groups: &mut Vec<Group>, sources: &mut SourceMap) {
        let Some(first) = line.tokens.first() else { return }; // `#` alone: the null directive
        let name = match &first.kind {
            TokKind::Ident(n) => n.clone(),
            TokKind::Kw(Kw::If) => "if".into(),
            TokKind::Kw(Kw::Else) => "else".into(),
            _ => sources.get(first.span.file).slice(first.span).to_string(),
        };
        let rest = &line.tokens[1..];
        let whole = line.hash.to(line.tokens.last().map_or(line.hash, |t| t.span));
        let active = groups.last().is_none_or(|g| g.active);
        match name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                if groups.len() >= MAX_IF_DEPTH {
                    self.err(Diagnostic::unsupported(whole, format!("more than {MAX_IF_DEPTH} nested `#if`s")));
                    return;
                }
                let cond = active && self.condition(&name, rest, whole, sources);
                groups.push(Group { active: cond, taken: cond, parent_active: active, seen_else: false, start: whole });
            }
            "elif" | "else" | "endif" => self.branch(&name, rest, whole, groups, sources),
            _ if !active => {}
            "define" => self.define(rest, whole, sources),
            "undef" => match rest.first().map(|t| macros::spell(t, sources)) {
                Some(n) => {
                    self.macros.table.remove(&n);
                }
                None => self.err(Diagnostic::new(ErrorCode::Syntax, whole, "`#undef` needs a macro name")),
            },
            "include" => self.include(file, rest, whole, sources),
            "error" => {
                let text = rest.first().map_or(String::new(), |f| {
                    let last = rest.last().map_or(f.span, |l| l.span);
                    sources.get(f.span.file).slice(f.span.to(last)).to_string()
                });
                self.err(Diagnostic::new(ErrorCode::Syntax, whole, format!("#error {text}")).label("stopped here"));
            }
            "pragma" => {
                if rest.first().is_some_and(|t| matches!(&t.kind, TokKind::Ident(n) if n == "once")) {
                    self.once.insert(sources.get(file).name.clone());
                }
            }
            // Accepted with no effect: warnings, line renumbering, identification.
            "warning" | "line" | "ident" => {}
            _ => self.err(
                Diagnostic::new(ErrorCode::Syntax, whole, format!("unknown preprocessor directive `#{name}`"))
                    .label("not a C preprocessor directive"),
            ),
        }
    }

    /// `#elif`, `#else` and `#endif`.
    fn branch(&mut self, name: &str, rest: &[Token], whole: Span, groups: &mut Vec<Group>, sources: &mut SourceMap) {
        let Some(g) = groups.last_mut() else {
            self.err(
                Diagnostic::new(ErrorCode::Syntax, whole, format!("`#{name}` without `#if`"))
                    .label("no open conditional group"),
            );
            return;
        };
        match name {
            "endif" => {
                groups.pop();
            }
            _ if g.seen_else => {
                self.err(Diagnostic::new(ErrorCode::Syntax, whole, format!("`#{name}` after `#else`")));
            }
            "else" => {
                g.seen_else = true;
                g.active = g.parent_active && !g.taken;
                g.taken |= g.active;
            }
            _ => {
                let (parent, taken) = (g.parent_active, g.taken);
                let cond = parent && !taken && self.condition("elif", rest, whole, sources);
                if let Some(g) = groups.last_mut() {
                    g.active = cond;
                    g.taken |= cond;
                }
            }
        }
    }

    /// The truth of `#if EXPR`, `#ifdef NAME` or `#ifndef NAME`.
    fn condition(&mut self, name: &str, rest: &[Token], whole: Span, sources: &mut SourceMap) -> bool {
        if name != "if" && name != "elif" {
            let Some(t) = rest.first() else {
                self.err(Diagnostic::new(ErrorCode::Syntax, whole, format!("`#{name}` needs a macro name")));
                return false;
            };
            let defined = self.is_defined(&macros::spell(t, sources));
            return defined == (name == "ifdef");
        }
        // `defined X` and `defined(X)` are decided before expansion.
        let mut replaced = Vec::with_capacity(rest.len());
        let mut i = 0;
        while i < rest.len() {
            if matches!(&rest[i].kind, TokKind::Ident(n) if n == "defined") {
                let (name_at, len) = if rest.get(i + 1).is_some_and(|t| t.kind == TokKind::Punct(Punct::LParen)) {
                    (i + 2, 4)
                } else {
                    (i + 1, 2)
                };
                let value = rest.get(name_at).is_some_and(|t| self.is_defined(&macros::spell(t, sources)));
                let kind = TokKind::Int { value: value as u64, suffix: IntSuffix::default(), decimal: true };
                replaced.push(Token { kind, span: rest[i].span });
                i += len;
                continue;
            }
            replaced.push(rest[i].clone());
            i += 1;
        }
        let mut expanded = vec![];
        self.macros.expand_all(Input::new(&replaced), sources, &mut expanded);
        match cond::evaluate(&expanded, whole) {
            Ok(v) => v,
            Err(d) => {
                self.err(d);
                false
            }
        }
    }

    fn is_defined(&self, name: &str) -> bool {
        self.macros.table.contains_key(name) || self.macros.dynamic.contains_key(name)
    }

    fn define(&mut self, rest: &[Token], whole: Span, sources: &SourceMap) {
        let Some(name_tok) = rest.first() else {
            self.err(Diagnostic::new(ErrorCode::Syntax, whole, "`#define` needs a macro name").label("here"));
            return;
        };
        let name = match &name_tok.kind {
            TokKind::Ident(n) => n.clone(),
            TokKind::Kw(_) => sources.get(name_tok.span.file).slice(name_tok.span).to_string(),
            _ => {
                self.err(
                    Diagnostic::new(ErrorCode::Syntax, name_tok.span, "expected a macro name after `#define`")
                        .label("not an identifier"),
                );
                return;
            }
        };
        let mut body_from = 1;
        let mut params = None;
        let mut variadic = false;
        // `#define F(x)` with no space before `(` is function-like.
        if rest.get(1).is_some_and(|t| t.kind == TokKind::Punct(Punct::LParen) && t.span.start == name_tok.span.end) {
            let mut names = vec![];
            let mut i = 2;
            loop {
                match rest.get(i).map(|t| &t.kind) {
                    Some(TokKind::Punct(Punct::RParen)) if names.is_empty() || variadic => break,
                    Some(TokKind::Ident(n)) if !variadic => names.push(n.clone()),
                    Some(TokKind::Punct(Punct::Ellipsis)) if !variadic => {
                        variadic = true;
                        names.push("__VA_ARGS__".to_string());
                    }
                    _ => {
                        let at = rest.get(i).map_or(whole, |t| t.span);
                        self.err(
                            Diagnostic::new(ErrorCode::Syntax, at, "malformed macro parameter list")
                                .label("expected a parameter name, `...` or `)`"),
                        );
                        return;
                    }
                }
                i += 1;
                match rest.get(i).map(|t| &t.kind) {
                    Some(TokKind::Punct(Punct::Comma)) if !variadic => i += 1,
                    Some(TokKind::Punct(Punct::RParen)) => break,
                    _ => {
                        let at = rest.get(i).map_or(whole, |t| t.span);
                        self.err(
                            Diagnostic::new(ErrorCode::Syntax, at, "malformed macro parameter list")
                                .label("expected `,` or `)`"),
                        );
                        return;
                    }
                }
            }
            body_from = i + 1;
            params = Some(names);
        }
        let body = rest[body_from.min(rest.len())..].to_vec();
        // Redefinition replaces the old macro (as GCC and nvcc do, with a warning there).
        self.macros.define(Macro { name, params, variadic, body, def: whole, id: 0 });
    }

    fn include(&mut self, file: FileId, rest: &[Token], whole: Span, sources: &mut SourceMap) {
        let (name, quoted) = match rest.first().map(|t| &t.kind) {
            Some(TokKind::Str(s)) => (s.clone(), true),
            Some(TokKind::Punct(Punct::Lt)) => {
                let inner: String = rest[1..]
                    .iter()
                    .take_while(|t| t.kind != TokKind::Punct(Punct::Gt))
                    .map(|t| macros::spell(t, sources))
                    .collect();
                (inner, false)
            }
            _ => {
                self.err(
                    Diagnostic::unsupported(whole, "`#include` of a macro or an unquoted name")
                        .hint("write `#include \"file.h\"` or `#include <header>`"),
                );
                return;
            }
        };
        if let Some(text) = headers::built_in_text(&name) {
            // A header warpdbg writes itself (`cuda_fp16.h`), read once however it is named.
            let shown = format!("<{name}>");
            if self.once.insert(shown.clone()) {
                let id = sources.add(SourceFile::new(shown, text.to_string()));
                sources.set_included_at(id, whole);
                let lexed = lexer::lex(id, text, 0);
                self.file(id, lexed, sources);
            }
            return;
        }
        if !quoted && headers::is_built_in(&name) {
            return;
        }
        let own = headers::resolve(&sources.get(file).name, &name);
        let candidates =
            std::iter::once(own.clone()).filter(|_| quoted).chain(self.include_dirs.iter().map(|d| d.join(&name)));
        let found = candidates.into_iter().find_map(|p| self.loader.load(&p).map(|t| (p, t)));
        let Some((path, text)) = found else {
            // The system headers provide warpdbg's built-in declarations; an unknown `<...>` one is accepted
            // too: anything the kernel uses from it is diagnosed where it is used.
            if !quoted || headers::is_built_in(&name) {
                return;
            }
            let path = own;
            self.err(
                Diagnostic::new(ErrorCode::Syntax, whole, format!("cannot open included file \"{name}\""))
                    .label(format!("looked for {}", path.display())),
            );
            return;
        };
        let shown = path.to_string_lossy().into_owned();
        if self.once.contains(&shown) {
            return;
        }
        if self.depth >= MAX_INCLUDE_DEPTH {
            self.err(
                Diagnostic::new(
                    ErrorCode::Syntax,
                    whole,
                    format!("`#include` nested more than {MAX_INCLUDE_DEPTH} deep"),
                )
                .label("does a header include itself without an include guard?"),
            );
            return;
        }
        let id = sources.add(SourceFile::new(shown, text));
        sources.set_included_at(id, whole);
        let text = sources.get(id).text.clone();
        let lexed = lexer::lex(id, &text, 0);
        self.depth += 1;
        self.file(id, lexed, sources);
        self.depth -= 1;
    }
}

impl Macros {
    /// Expands what `input` holds pending (an expansion's output) and, through it, any source tokens it
    /// pulls in, stopping once only untouched source tokens remain.
    fn expand_all_pending(&mut self, input: &mut Input, sources: &mut SourceMap, out: &mut impl macros::Sink) {
        while input.has_pending() {
            let Some((t, from_source)) = input.next_token() else { break };
            self.expand_token(t, from_source, input, sources, out);
        }
    }
}

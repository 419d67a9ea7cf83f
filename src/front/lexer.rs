//! Lexer: kernel text -> tokens, plus the `// @...` directive lines and the `#` preprocessor lines.
//!
//! A `#` line is lexed into its own token list ([`PpLine`]) and left for [`super::preprocess`], which runs
//! the directives and expands macros; the lexer itself gives `#` no meaning. Backslash-newline splices lines
//! everywhere, inside string literals and comments too, as in C's translation phase 2.

use super::diagnostic::{Diagnostic, ErrorCode};
use super::source::{FileId, Span};
use super::token::{IntSuffix, Kw, Punct, TokKind, Token};

/// A `// @word ...` comment: the span covers the text after `//`.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectiveLine {
    pub span: Span,
    pub text: String,
}

/// One `#` line: where it sits among the ordinary tokens, and its own tokens (the directive name first).
#[derive(Clone, Debug, PartialEq)]
pub struct PpLine {
    /// The `#`.
    pub hash: Span,
    /// Index in [`Lexed::tokens`] of the first ordinary token after the line.
    pub at: usize,
    /// The tokens after `#`, up to the end of the logical line.
    pub tokens: Vec<Token>,
    /// Byte offset (relative to the lexed text's base) just past the line.
    pub end: usize,
}

#[derive(Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub directives: Vec<DirectiveLine>,
    pub pp_lines: Vec<PpLine>,
    pub diags: Vec<Diagnostic>,
}

/// Lexes `text`, whose byte offsets are relative to `base` in `file`.
pub fn lex(file: FileId, text: &str, base: usize) -> Lexed {
    lex_with(file, text, base, false)
}

/// Lexes the rest of a `#` line: a `#` there is an operator (stringizing, pasting), never a new directive.
pub(crate) fn lex_line(file: FileId, text: &str, base: usize) -> Lexed {
    lex_with(file, text, base, true)
}

fn lex_with(file: FileId, text: &str, base: usize, in_directive: bool) -> Lexed {
    let mut lx = Lexer { in_directive, file, src: text.as_bytes(), text, base, pos: 0, out: Lexed::default() };
    lx.run();
    let end = lx.span(text.len(), text.len());
    lx.out.tokens.push(Token { kind: TokKind::Eof, span: end });
    lx.out
}

struct Lexer<'a> {
    /// Lexing a directive's line: `#` is an operator there.
    in_directive: bool,
    file: FileId,
    src: &'a [u8],
    text: &'a str,
    base: usize,
    pos: usize,
    out: Lexed,
}

/// Bound on errors from one text: past this, more lexical noise helps no one.
const MAX_LEX_ERRORS: usize = 20;

impl<'a> Lexer<'a> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, self.base + start, self.base + end)
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.src.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn error(&mut self, d: Diagnostic) {
        if self.out.diags.len() < MAX_LEX_ERRORS {
            self.out.diags.push(d);
        }
    }

    fn at_line_start(&self) -> bool {
        self.src[..self.pos].iter().rev().take_while(|&&b| b != b'\n').all(|b| b.is_ascii_whitespace())
    }

    fn run(&mut self) {
        while self.pos < self.src.len() {
            let c = self.peek(0);
            let start = self.pos;
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => self.pos += 1,
                b'/' if self.peek(1) == b'/' => self.line_comment(),
                b'/' if self.peek(1) == b'*' => self.block_comment(),
                b'#' if !self.in_directive && self.at_line_start() => self.preprocessor(),
                b'\\' if matches!(self.peek(1), b'\n' | b'\r') => self.pos += 1,
                _ if c.is_ascii_alphabetic() || c == b'_' => {
                    while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                        self.pos += 1;
                    }
                    let word = &self.text[start..self.pos];
                    self.word(word, start);
                }
                _ if c.is_ascii_digit() || (c == b'.' && self.peek(1).is_ascii_digit()) => self.number(),
                b'"' => self.string(),
                b'\'' => self.char_lit(),
                _ => {
                    if let Some(p) =
                        Punct::ALL_BY_LENGTH.iter().find(|p| self.src[self.pos..].starts_with(p.as_str().as_bytes()))
                    {
                        self.pos += p.as_str().len();
                        let span = self.span(start, self.pos);
                        self.out.tokens.push(Token { kind: TokKind::Punct(*p), span });
                    } else {
                        let ch = self.text[start..].chars().next().unwrap_or('\u{fffd}');
                        self.pos += ch.len_utf8();
                        let span = self.span(start, self.pos);
                        self.error(
                            Diagnostic::new(ErrorCode::Lexical, span, format!("unexpected character {ch:?}"))
                                .label("not part of the kernel language"),
                        );
                    }
                }
            }
        }
    }

    fn word(&mut self, word: &str, start: usize) {
        let span = self.span(start, self.pos);
        let kind = match Kw::lookup(word) {
            Some(kw) => TokKind::Kw(kw),
            None => TokKind::Ident(word.to_string()),
        };
        self.out.tokens.push(Token { kind, span });
    }

    fn line_comment(&mut self) {
        let start = self.pos;
        while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
            // A backslash at the end of a `//` line continues the comment onto the next line.
            self.pos += 1 + self.splice_len(self.pos);
        }
        let start_body = (start + 2).min(self.pos);
        if self.text[start_body..self.pos].contains('\n') {
            return;
        }
        let body = &self.text[start + 2..self.pos];
        let trimmed = body.trim_start();
        if trimmed.starts_with('@') {
            let lead = body.len() - trimmed.len();
            let text = trimmed.trim_end();
            let s = start + 2 + lead;
            self.out.directives.push(DirectiveLine { span: self.span(s, s + text.len()), text: text.to_string() });
        }
    }

    fn block_comment(&mut self) {
        let start = self.pos;
        self.pos += 2;
        while self.pos < self.src.len() && !(self.peek(0) == b'*' && self.peek(1) == b'/') {
            self.pos += 1;
        }
        if self.pos >= self.src.len() {
            let span = self.span(start, start + 2);
            self.error(Diagnostic::new(ErrorCode::Lexical, span, "unterminated comment").label("comment starts here"));
        } else {
            self.pos += 2;
        }
    }

    /// Reads to the end of the logical line (backslash-newline continues it).
    fn logical_line(&mut self) -> (usize, usize) {
        let start = self.pos;
        while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
            let splice = self.splice_len(self.pos);
            if splice > 0 {
                self.pos += splice;
                continue;
            }
            if self.src[self.pos] == b'/' && self.peek(1) == b'*' {
                // A block comment may run over several lines: the directive goes on after it.
                self.pos += 2;
                while self.pos < self.src.len() && !(self.peek(0) == b'*' && self.peek(1) == b'/') {
                    self.pos += 1;
                }
                self.pos = (self.pos + 2).min(self.src.len());
                continue;
            }
            if self.src[self.pos] == b'/' && self.peek(1) == b'/' {
                let end = self.pos;
                while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                    self.pos += 1;
                }
                return (start, end);
            }
            self.pos += 1;
        }
        (start, self.pos)
    }

    /// Bytes of a backslash-newline (`\\\n` or `\\\r\n`) at `at`, or 0.
    fn splice_len(&self, at: usize) -> usize {
        match (self.src.get(at), self.src.get(at + 1), self.src.get(at + 2)) {
            (Some(b'\\'), Some(b'\n'), _) => 2,
            (Some(b'\\'), Some(b'\r'), Some(b'\n')) => 3,
            _ => 0,
        }
    }

    /// Lexes a `#` line into a [`PpLine`]; the preprocessor gives it meaning.
    fn preprocessor(&mut self) {
        let hash = self.span(self.pos, self.pos + 1);
        let (start, end) = self.logical_line();
        let body = &self.text[start + 1..end];
        let sub = lex_line(self.file, body, self.base + start + 1);
        self.out.diags.extend(sub.diags);
        let mut tokens = sub.tokens;
        tokens.pop(); // Eof
        let at = self.out.tokens.len();
        self.out.pp_lines.push(PpLine { hash, at, tokens, end: self.base + end });
    }

    fn number(&mut self) {
        let start = self.pos;
        let s = self.src;
        let (radix, digits_from) = if s[start] == b'0' && matches!(self.peek(1), b'x' | b'X') {
            (16, start + 2)
        } else if s[start] == b'0' && matches!(self.peek(1), b'b' | b'B') {
            (2, start + 2)
        } else {
            (10, start)
        };
        self.pos = digits_from;
        // Digits, with C++14's separators between them (`1'000'000`).
        let digit = |lx: &Self, at: usize| {
            let c = lx.peek(at);
            if radix == 16 { c.is_ascii_hexdigit() } else { c.is_ascii_digit() }
        };
        let digit_run = |lx: &mut Self| {
            let after_digit = |lx: &Self| lx.pos > start && lx.src[lx.pos - 1].is_ascii_hexdigit();
            while digit(lx, 0) || (lx.peek(0) == b'\'' && digit(lx, 1) && after_digit(lx)) {
                lx.pos += 1;
            }
        };
        digit_run(self);
        let mut is_float = false;
        if radix == 10 {
            if self.peek(0) == b'.' {
                is_float = true;
                self.pos += 1;
                digit_run(self);
            }
            if matches!(self.peek(0), b'e' | b'E')
                && (self.peek(1).is_ascii_digit()
                    || (matches!(self.peek(1), b'+' | b'-') && self.peek(2).is_ascii_digit()))
            {
                is_float = true;
                self.pos += 2;
                digit_run(self);
            }
        }
        let digits_end = self.pos;
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.pos += 1;
        }
        let suffix = &self.text[digits_end..self.pos];
        let span = self.span(start, self.pos);
        let digits = self.text[digits_from..digits_end].replace('\'', "");
        let digits = digits.as_str();
        let bad = |lx: &mut Self, what: &str| {
            lx.error(Diagnostic::new(ErrorCode::Lexical, span, format!("invalid number: {what}")).label("here"));
            lx.out
                .tokens
                .push(Token { kind: TokKind::Int { value: 0, suffix: IntSuffix::default(), decimal: true }, span });
        };
        if is_float {
            let single = match suffix {
                "" => false,
                "f" | "F" => true,
                _ => return bad(self, &format!("unknown suffix `{suffix}`")),
            };
            match digits.parse::<f64>() {
                Ok(value) => self.out.tokens.push(Token { kind: TokKind::Float { value, single }, span }),
                Err(_) => bad(self, "malformed floating-point literal"),
            }
            return;
        }
        let mut sfx = IntSuffix::default();
        for ch in suffix.chars() {
            match ch {
                'u' | 'U' if !sfx.unsigned => sfx.unsigned = true,
                'l' | 'L' => sfx.long = true,
                _ => return bad(self, &format!("unknown suffix `{suffix}`")),
            }
        }
        // A leading 0 means octal in C.
        let (radix, digits) = if radix == 10 && digits.len() > 1 && digits.starts_with('0') {
            (8, &digits[1..])
        } else {
            (radix, digits)
        };
        if digits.is_empty() {
            return bad(self, "no digits");
        }
        match u64::from_str_radix(digits, radix) {
            Ok(value) => {
                self.out.tokens.push(Token { kind: TokKind::Int { value, suffix: sfx, decimal: radix == 10 }, span })
            }
            Err(_) => bad(self, "too large or has digits that do not fit its base"),
        }
    }

    fn escape(&mut self) -> Option<char> {
        // At the character after the backslash; step over all of it, whatever it is.
        let ch = self.text.get(self.pos..).and_then(|t| t.chars().next())?;
        self.pos += ch.len_utf8();
        let c = if ch.is_ascii() { ch as u8 } else { 0xff };
        Some(match c {
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            // `\033`: up to three octal digits (`\0` alone is NUL).
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                for _ in 0..2 {
                    match self.text.as_bytes().get(self.pos) {
                        Some(d @ b'0'..=b'7') => v = v * 8 + u32::from(d - b'0'),
                        _ => break,
                    }
                    self.pos += 1;
                }
                char::from_u32(v & 0xff)?
            }
            b'\\' => '\\',
            b'\'' => '\'',
            b'"' => '"',
            b'a' => '\x07',
            b'b' => '\x08',
            b'f' => '\x0c',
            b'v' => '\x0b',
            b'%' => '%',
            _ => return None,
        })
    }

    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            let splice = self.splice_len(self.pos);
            if splice > 0 {
                self.pos += splice;
                continue;
            }
            if self.pos >= self.src.len() || self.peek(0) == b'\n' {
                let span = self.span(start, self.pos);
                self.error(
                    Diagnostic::new(ErrorCode::Lexical, span, "unterminated string literal")
                        .label("string starts here"),
                );
                break;
            }
            match self.peek(0) {
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\\' => {
                    self.pos += 1;
                    let at = self.pos;
                    match self.escape() {
                        Some(c) => value.push(c),
                        None => {
                            let span = self.span(at - 1, self.pos);
                            self.error(Diagnostic::new(ErrorCode::Lexical, span, "unknown escape sequence"));
                        }
                    }
                }
                _ => {
                    let ch = self.text[self.pos..].chars().next().unwrap_or('\u{fffd}');
                    value.push(ch);
                    self.pos += ch.len_utf8();
                }
            }
        }
        let span = self.span(start, self.pos);
        // Adjacent literals concatenate, as in C.
        if let Some(Token { kind: TokKind::Str(prev), span: prev_span }) = self.out.tokens.last_mut() {
            prev.push_str(&value);
            *prev_span = prev_span.to(span);
            return;
        }
        self.out.tokens.push(Token { kind: TokKind::Str(value), span });
    }

    fn char_lit(&mut self) {
        let start = self.pos;
        self.pos += 1;
        self.pos += self.splice_len(self.pos);
        let value = match self.peek(0) {
            b'\\' => {
                self.pos += 1;
                self.escape().map(|c| c as u32)
            }
            b'\'' | b'\n' | 0 => None,
            _ => {
                let ch = self.text[self.pos..].chars().next().unwrap_or('\u{fffd}');
                self.pos += ch.len_utf8();
                Some(ch as u32)
            }
        };
        let closed = self.peek(0) == b'\'';
        if closed {
            self.pos += 1;
        }
        let span = self.span(start, self.pos);
        match value {
            Some(v) if closed => self.out.tokens.push(Token { kind: TokKind::Char(v), span }),
            _ => {
                self.error(Diagnostic::new(ErrorCode::Lexical, span, "malformed character literal"));
                self.out.tokens.push(Token { kind: TokKind::Char(0), span });
            }
        }
    }
}
